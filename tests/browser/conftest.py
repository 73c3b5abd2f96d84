"""Browser tests: Playwright driving Debian's Chromium (no browser download;
its one configuration: scorekeeper/testing/chromium.py) against the real
server (waitress) on a free loopback port, with the board's timings made
short (support/timings.py) but for a test marked `real_time`. The phones are
Chromium's headless shell, but for a test marked `whole_browser`, whose
subject is what only the whole browser has (the Wake Lock API)."""

from pathlib import Path

import pytest

from scorekeeper.testing.chromium import chromium
from scorekeeper.testing.live_server import serving
from support.table import close_phone, context_for
from support.timings import QUICK_ENV

SCREENSHOTS = Path(__file__).resolve().parent.parent / "screenshots"



def pytest_collection_modifyitems(items):
    for item in items:
        if "/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def quick_server(tmp_path_factory):
    """The live server of the browser tests, the board's timings made short
    (and the big screen asking for news every 250 ms, 1 s when served)."""
    with serving(tmp_path_factory.mktemp("live"), "browser", FLASK_SCREEN_POLL_MS="250",
                 **QUICK_ENV) as live:
        yield live


@pytest.fixture(scope="session")
def phone_timed_server(tmp_path_factory):
    """A live server at a phone's own timings, started for the first test
    whose subject is one of them."""
    with serving(tmp_path_factory.mktemp("live-phone-timed"), "phone-timed") as live:
        yield live


@pytest.fixture
def server(request):
    """This test's live server: at a phone's timings for a test marked
    `real_time` (a double tap 0.3 s apart, the settle), short ones otherwise."""
    timed = request.node.get_closest_marker("real_time") is not None
    return request.getfixturevalue("phone_timed_server" if timed else "quick_server")


@pytest.fixture(scope="session")
def shell_browser():
    with chromium(shell=True) as browser:
        yield browser


@pytest.fixture(scope="session")
def whole_browser():
    with chromium() as browser:
        yield browser


@pytest.fixture
def browser(request):
    """This test's Chromium: the whole browser for a test marked
    `whole_browser`, the headless shell otherwise."""
    whole = request.node.get_closest_marker("whole_browser") is not None
    return request.getfixturevalue("whole_browser" if whole else "shell_browser")


@pytest.fixture
def phone(browser, server):
    context = context_for(browser, server)
    yield context.new_page()
    close_phone(context)


@pytest.fixture
def phone_without_js(browser, server):
    context = context_for(browser, server, java_script_enabled=False)
    yield context.new_page()
    close_phone(context)


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
        close_phone(context)


@pytest.fixture
def screenshot():
    SCREENSHOTS.mkdir(exist_ok=True)

    def save(page, name):
        # At CSS pixels: a third of the CPU of the phone's two device pixels
        # per CSS pixel, and as readable to the eye that checks them.
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), scale="css")

    return save
