"""A mistyped access key, then the right one: in, on the page first asked for."""

import re

from scorekeeper.web.guard.access import KEY_PATH

PHONE = {"REMOTE_ADDR": "192.168.1.23"}


def _next_of(page: str) -> str:
    return re.search(r'name="next" value="([^"]*)"', page).group(1)


def test_the_right_key_after_a_wrong_one_leads_to_the_page_asked_for(client, app):
    asked = client.get("/games/new", environ_base=PHONE).get_data(as_text=True)
    wrong = client.post(KEY_PATH, data={"key": "not-the-key", "next": _next_of(asked)},
                        environ_base=PHONE)
    assert wrong.status_code == 403
    again = _next_of(wrong.get_data(as_text=True))
    assert again == "/games/new"
    right = client.post(KEY_PATH, data={"key": app.config["ACCESS_KEY"], "next": again},
                        environ_base=PHONE)
    assert right.status_code == 303 and right.headers["Location"] == "/games/new"
    assert client.get("/games/new", environ_base=PHONE).status_code == 200


def test_a_refused_key_without_a_page_leads_home(client):
    wrong = client.post(KEY_PATH, data={"key": "nope", "next": "//evil.example/"},
                        environ_base=PHONE)
    assert _next_of(wrong.get_data(as_text=True)) == "/"
