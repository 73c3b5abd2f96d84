"""Being a phone of the table in a test: a pass of its own, as a pairing
code or the typed key gives one (scorekeeper/service/phones.py), put in the
store directly. The one place that knows how a test device gets in."""

import subprocess
import sys
from pathlib import Path

from scorekeeper.service import phones
from scorekeeper.service.clock import utc_now
from scorekeeper.storage import db as storage
from scorekeeper.web.guard import access


def new_pass(database: str | Path, key: str, secret: str, how: str = "key",
             user_agent: str = "a test", host: bool = False) -> str:
    """A pass for the store `database` whose access key and secret are these;
    its phone one of the table's hosts if `host` (as this machine marks one)."""
    connection = storage.connect(str(database))
    try:
        mark = phones.key_mark(key, secret)
        token, phone = phones.let_in(connection, how, user_agent, mark, utc_now())
        if host:
            phones.make_host(connection, phone.id, mark)
    finally:
        connection.close()
    return token


def let_in(client, app, host="localhost", hosting: bool = False) -> str:
    """A Flask test client becomes a phone of the table on `host` (one of
    the table's hosts if `hosting`); its pass."""
    token = new_pass(app.config["DATABASE"], app.config["ACCESS_KEY"], app.config["SECRET_KEY"],
                     host=hosting)
    client.set_cookie(access.COOKIE, token, domain=host)
    return token


def host_by_command(live, phone_id: int | None = None) -> int:
    """This machine marks a phone of the live server `live` as one of the
    table's hosts with `flask phones --host ID`, as a host that reaches the
    table only through a proxy does: the phone last seen, unless `phone_id`."""
    command = [sys.executable, "-m", "flask", "--app", "scorekeeper", "phones"]
    if phone_id is None:
        listed = subprocess.run(command, env=live.env, cwd=live.root, capture_output=True,
                                text=True, check=True)
        phone_id = int(listed.stdout.split("\t", 1)[0])
    subprocess.run(command + ["--host", str(phone_id)], env=live.env, cwd=live.root,
                   capture_output=True, check=True)
    return phone_id
