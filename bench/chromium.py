"""What the page rows share: the real server, Debian's Chromium, a phone.

The server is the app as `make run` serves it (`python -m scorekeeper.serve`,
waitress; bench.club's Server, the tests' own live server) on a free
loopback port and a fresh database in a scratch folder. The browser is the
one Chromium configuration of the tests (scorekeeper/testing/chromium.py):
Debian's /usr/bin/chromium driven by Playwright, and a phone's viewport.
"""

import json
import urllib.request
from contextlib import contextmanager
from typing import Iterator

from scorekeeper.testing.chromium import PHONE, chromium

__all__ = ["PHONE", "api_post", "chromium", "live_server"]

from .club import Server
from .common import scratch_dir


@contextmanager
def live_server(prefix: str) -> Iterator[Server]:
    """The served app on a fresh store; its backups stay in the scratch folder."""
    with scratch_dir(prefix) as folder:
        server = Server(folder / "app.sqlite3", folder / "server.log",
                        FLASK_BACKUP_DIR=str(folder / "backups"))
        try:
            yield server
        finally:
            server.stop()


def api_post(base: str, path: str, body: dict) -> dict:
    """POST JSON to the server's API (from loopback: no access key needed)."""
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())
