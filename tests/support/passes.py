"""Being a phone of the table in a test: a pass of its own, as a pairing
code or the typed key gives one (scorekeeper/service/phones.py), put in the
store directly. The one place that knows how a test device gets in."""

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
