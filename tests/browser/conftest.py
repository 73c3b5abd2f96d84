"""Browser tests: Playwright driving Debian's Chromium (no browser download)
against the real server (waitress) on a free loopback port."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from live_server import serving
from scorekeeper.web import access

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parent.parent / "screenshots"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2, "locale": "fr-FR"}
# The phone at the table reaches the server by a name on the local network,
# which is no secure context (no Wake Lock API, no service worker); the
# browser maps it to loopback, so the traffic stays on this machine.
TABLE_HOST = "table.lan"
# Without the background-networking flags Chromium keeps trying to reach
# Google's hosts, which this closed network refuses.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--host-resolver-rules=MAP {TABLE_HOST} 127.0.0.1"]
# A server that phones reach as TABLE_HOST: it lets that name in, with known keys.
TABLE_KEY, TABLE_SECRET = "tablekey2345", "a secret for the table tests only"
TABLE_ENV = {"FLASK_ALLOWED_HOSTS": TABLE_HOST, "FLASK_ACCESS_KEY": TABLE_KEY,
             "FLASK_SECRET_KEY": TABLE_SECRET}


def pytest_collection_modifyitems(items):
    for item in items:
        if "/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("live"), "browser") as live:
        yield live


@pytest.fixture(scope="session")
def browser():
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: `make test` installs Debian's chromium"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


def _context(browser, server, **options):
    settings = dict(PHONE, base_url=server.url)
    settings.update(options)
    return browser.new_context(**settings)


@pytest.fixture
def phone(browser, server):
    context = _context(browser, server)
    yield context.new_page()
    context.close()


@pytest.fixture
def phone_without_js(browser, server):
    context = _context(browser, server, java_script_enabled=False)
    yield context.new_page()
    context.close()


@pytest.fixture
def new_phone(browser, server):
    """Open more phones (contexts) as a test needs them."""
    contexts = []

    def open_phone(**options):
        context = _context(browser, server, **options)
        contexts.append(context)
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()


def table_url(server) -> str:
    return f"http://{TABLE_HOST}:{server.port}"


def let_in(context, server) -> None:
    """Give a phone the table's access cookie, as a pairing code or the typed
    key does (scorekeeper/access.py). The one place that knows how a phone gets in."""
    context.add_cookies([{
        "name": access.COOKIE, "value": access.cookie_value(TABLE_KEY, TABLE_SECRET),
        "url": table_url(server), "httpOnly": True, "sameSite": "Lax",
    }])


def table_phone(browser, server, **options):
    """A phone at the table: the server's address on the local network, let in."""
    context = _context(browser, server, base_url=table_url(server), **options)
    let_in(context, server)
    return context


@pytest.fixture
def screenshot():
    SCREENSHOTS.mkdir(exist_ok=True)

    def save(page, name):
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))

    return save
