"""What the page rows share: the real server, Debian's Chromium, a phone.

The server is the app as `make run` serves it (`python -m scorekeeper.serve`,
waitress; bench.club's Server) on a free loopback port and a fresh database
in a scratch folder. The browser is Debian's /usr/bin/chromium driven by
Playwright (never a downloaded browser), with the flags of
tests/browser/conftest.py for this closed network, and a phone's viewport.
"""

import json
import os
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from .club import Server
from .common import scratch_dir

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# Without the background-networking flags Chromium keeps trying to reach
# Google's hosts, which this closed network refuses (and which would count
# as requests of ours).
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2, "locale": "fr-FR"}


@contextmanager
def live_server(prefix: str) -> Iterator[Server]:
    """The served app on a fresh store; its backups stay in the scratch folder."""
    with scratch_dir(prefix) as folder:
        server = Server(folder / "app.sqlite3", folder / "server.log",
                        FLASK_BACKUP_DIR=str(folder / "backups"))
        server.url = f"http://127.0.0.1:{server.port}"
        try:
            yield server
        finally:
            server.stop()


@contextmanager
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} is missing: `make chromium` installs Debian's chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()


def api_post(base: str, path: str, body: dict) -> dict:
    """POST JSON to the server's API (from loopback: no access key needed)."""
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())
