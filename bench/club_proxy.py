"""Load at a club through its proxy: bench.club's 50 tables from one
address, each over https through Caddy (`tls internal`, testing/caddy.py)
to the server told of it (TRUSTED_PROXY=127.0.0.1), each table with a pass
of its own. Through a proxy every phone comes from the proxy's address: the
server's connection caps must count the phones, never starve the club."""

from http.client import HTTPSConnection

from scorekeeper.service import phones
from scorekeeper.service.clock import utc_now
from scorekeeper.storage import db as storage
from scorekeeper.testing.caddy import NAME, Caddy, Connection
from scorekeeper.web.guard import access

from . import club
from .common import Row

WHAT = "load at a club, through https"
HOW = ("bench.club's 50 tables from one address, through Caddy (tls internal) to waitress "
       "told of its proxy, each table with its own pass")
TARGET = club.TARGET
SIZES = club.SIZES
KEY, SECRET = "clubkey23456", "the club benchmark's secret"


class Front:
    """Caddy before the server, and each table's way through it."""

    env = {"FLASK_TRUSTED_PROXY": "127.0.0.1", "FLASK_ALLOWED_HOSTS": NAME,
           "FLASK_ACCESS_KEY": KEY, "FLASK_SECRET_KEY": SECRET}

    def __init__(self, folder, server):
        self.caddy = Caddy(folder, server.port)
        self.database = server.env["FLASK_DATABASE"]

    def __enter__(self):
        self.caddy.start()
        return self.options

    def options(self, number: int) -> dict:
        connection = storage.connect(self.database)
        try:
            token, _ = phones.let_in(connection, "key", "a club table", phones.key_mark(KEY, SECRET),
                                     utc_now())
        finally:
            connection.close()

        def connect() -> HTTPSConnection:
            return Connection(self.caddy, "127.0.0.1", club.TIMEOUT_SECONDS)

        return {"connect": connect, "headers": {"Cookie": f"{access.COOKIE}={token}"}}

    def __exit__(self, *exc):
        self.caddy.stop()


def measure(tables: int, repeats: int, max_events: int, seconds: float) -> Row:
    return club.measure(tables, repeats, max_events, seconds, front=Front)
