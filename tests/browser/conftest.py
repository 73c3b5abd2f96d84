"""Browser tests: Playwright driving Debian's Chromium (no browser download;
its one configuration: scorekeeper/testing/chromium.py) against the real
server (waitress) on a free loopback port."""

from pathlib import Path

import pytest

from scorekeeper.testing.chromium import chromium
from scorekeeper.testing.live_server import serving
from support.table import context_for

SCREENSHOTS = Path(__file__).resolve().parent.parent / "screenshots"


def pytest_collection_modifyitems(items):
    for item in items:
        if "/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    # The big screen asks for news every 250 ms (1 s when served): a test waits less.
    with serving(tmp_path_factory.mktemp("live"), "browser", FLASK_SCREEN_POLL_MS="250") as live:
        yield live


@pytest.fixture(scope="session")
def browser():
    with chromium() as browser:
        yield browser


@pytest.fixture
def phone(browser, server):
    context = context_for(browser, server)
    yield context.new_page()
    context.close()


@pytest.fixture
def phone_without_js(browser, server):
    context = context_for(browser, server, java_script_enabled=False)
    yield context.new_page()
    context.close()


@pytest.fixture
def new_phone(browser, server):
    """Open more phones (contexts) as a test needs them."""
    contexts = []

    def open_phone(**options):
        context = context_for(browser, server, **options)
        contexts.append(context)
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()


@pytest.fixture
def screenshot():
    SCREENSHOTS.mkdir(exist_ok=True)

    def save(page, name):
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))

    return save
