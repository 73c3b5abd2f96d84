"""Being a phone of the table in a test: a pass of its own, as a pairing
code or the typed key gives one (scorekeeper/service/phones.py), put in the
store directly. The one place that knows how a test device gets in."""

from pathlib import Path

from scorekeeper.service import phones
from scorekeeper.service.clock import utc_now
from scorekeeper.storage import db as storage
from scorekeeper.web.guard import access


def new_pass(database: str | Path, key: str, secret: str, how: str = "key",
             user_agent: str = "a test") -> str:
    """A pass for the store `database` whose access key and secret are these."""
    connection = storage.connect(str(database))
    try:
        token, _ = phones.let_in(connection, how, user_agent, phones.key_mark(key, secret),
                                 utc_now())
    finally:
        connection.close()
    return token


def let_in(client, app, host="localhost") -> str:
    """A Flask test client becomes a phone of the table on `host`; its pass."""
    token = new_pass(app.config["DATABASE"], app.config["ACCESS_KEY"], app.config["SECRET_KEY"])
    client.set_cookie(access.COOKIE, token, domain=host)
    return token
