"""Why the names the app answers to are checked by our own code
(guard/access.py), not by Flask's TRUSTED_HOSTS: werkzeug's check compares a
name as the browser typed it, and cannot name the loopback addresses and
spellings that the host's own browser sends. Once these fail, werkzeug can
do the job: hand it the check, and keep tests/web/test_access.py passing."""

import pytest
from werkzeug.sansio.utils import host_is_trusted

# Every name the app answers to without configuration, as TRUSTED_HOSTS would list them.
LOOPBACK = ["localhost", "127.0.0.1", "::1", "[::1]"]


@pytest.mark.parametrize("host", [
    "[::1]:5000",  # IPv6 loopback, whichever way the list spells it
    "LOCALHOST:80",  # a name in capitals
    "localhost.",  # the fully qualified spelling
    "127.1.2.3",  # any address of 127.0.0.0/8
])
def test_werkzeug_refuses_a_loopback_name_that_the_app_answers(client, host):
    assert not host_is_trusted(host, LOOPBACK)
    assert client.get("/", headers={"Host": host}).status_code == 200
