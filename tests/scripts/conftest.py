"""The board's script on its own: its real files (static/board/) in one
headless Chromium page per test, with no live server. A page is answered
from here, at an address of its own (ORIGIN): a board written by the test
with the parts it needs, or the app's real board page with every request
handed to the app's test client through a network the test makes fail
(`Network`). Quick enough for `make check`, which runs them (marker
`scripts`: they need Chromium, no clock and no server)."""

from urllib.parse import parse_qsl, urlsplit

import pytest

from scorekeeper import create_app
from scorekeeper.testing.chromium import PHONE, chromium
from support.paths import ROOT
from support.timings import QUICK

ORIGIN = "http://ronda.test"
STATIC = ROOT / "static"
# The page polls only when a test asks it to (Ronda.board.poll()): what the
# poll brings is then the test's to choose, and to wait for.
NEVER_MS = 3_600_000
TIMINGS = {**QUICK, "BOARD_POLL_MS": NEVER_MS}
TAP_PATH = "/play", "/undo"


def pytest_collection_modifyitems(items):
    for item in items:
        if "/scripts/" in str(item.fspath):
            item.add_marker(pytest.mark.scripts)


@pytest.fixture(scope="session")
def script_browser():
    with chromium(shell=True) as browser:
        yield browser


@pytest.fixture(scope="module")
def board_contexts(script_browser):
    """Browser contexts opened for a module's pages, closed after it."""
    contexts = []

    def open_context():
        context = script_browser.new_context(**PHONE)
        contexts.append(context)
        return context

    yield open_context
    for context in contexts:
        context.close()


def _static_file(route, path: str) -> None:
    file = STATIC / path.removeprefix("/static/")
    if not file.is_file() or STATIC not in file.resolve().parents:
        route.fulfill(status=404, body="")
        return
    route.fulfill(status=200, body=file.read_bytes(),
                  content_type="text/javascript" if file.suffix == ".js" else "text/plain")


@pytest.fixture(scope="module")
def board_page(board_contexts):
    """A page holding `board` (the HTML of a #board and what goes with it),
    its script the `parts` of static/board/ named, in that order; `html`:
    attributes of <html> (a phone's timings but the poll's by default). A
    module opens one and tries its cases on it, one after the other."""

    def open_page(board: str, parts=("board/board.js",), html=f'data-poll-ms="{NEVER_MS}"'):
        scripts = "".join(f'<script src="/static/{part}"></script>' for part in parts)
        page_html = (f'<!doctype html><html lang="fr" {html}><head><meta charset="utf-8">'
                     f'{scripts}</head><body>{board}</body></html>')

        def answer(route):
            path = urlsplit(route.request.url).path
            if path.startswith("/static/"):
                _static_file(route, path)
            elif path == "/":
                route.fulfill(status=200, body=page_html, content_type="text/html")
            else:
                route.fulfill(status=404, body="")

        context = board_contexts()
        context.route(f"{ORIGIN}/**", answer)
        page = context.new_page()
        page.goto(f"{ORIGIN}/")
        return page

    return open_page


PHONE_ENGINE = "/phone/"  # the engine worker's script and files (web/plumbing/phone_engine.py)


class Network:
    """Between the pages of one phone and the app: every request handed to
    the app's test client, unless the network is `down` (no answer at all),
    or told to lose the answer of the next tap (the app has it, the page never
    hears back) or to hold the taps until `release()`. `taps`: the form of
    every tap that reached the app, in the order it came."""

    def __init__(self, client):
        self.client = client
        self.down = False
        self.lose_next_answer = False
        self.hold = False
        self.held = []
        self.taps: list[dict] = []

    def answer(self, route):
        request = route.request
        parts = urlsplit(request.url)
        if parts.path.startswith(PHONE_ENGINE):
            # The phone's engine is not started here: the board shows the
            # counted score while taps wait, as on a phone without a worker,
            # whatever the machine's speed (the engine starting or not before
            # the network goes down made two boards). Its count is tested
            # in the browser tests (test_offline_count.py).
            route.abort("blockedbyclient")
            return
        if self.down:
            route.abort("connectionrefused")
            return
        is_tap = request.method == "POST" and parts.path.endswith(TAP_PATH)
        if is_tap and self.hold:
            self.held.append(route)
            return
        self._forward(route)
        if is_tap and self.lose_next_answer:
            self.lose_next_answer = False

    def _forward(self, route):
        request = route.request
        parts = urlsplit(request.url)
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        headers = {name: value for name, value in request.headers.items()
                   if name in ("content-type", "x-board")}
        if request.method == "POST" and parts.path.endswith(TAP_PATH):
            self.taps.append(dict(parse_qsl(request.post_data or "")) | {"path": parts.path})
        response = self.client.open(path, method=request.method, headers=headers,
                                    data=request.post_data_buffer)
        if request.method == "POST" and self.lose_next_answer:
            route.abort("connectionreset")  # the app took it; its answer is lost
            return
        route.fulfill(status=response.status_code, headers=dict(response.headers),
                      body=response.get_data())

    def moves(self) -> list[str]:
        """The move of each tap sent, in order."""
        return [tap["move"] for tap in self.taps]

    def release(self):
        held, self.held = self.held, []
        for route in held:
            self._forward(route)


# Every POST the page makes, counted as it calls fetch: how many are on their
# way at once, at most.
COUNT_SENDS = """(() => {
  const send = window.fetch;
  const sends = window.sends = { made: 0, onTheirWay: 0, most: 0 };
  window.fetch = function (url, options) {
    if (!options || options.method !== "POST") { return send.apply(this, arguments); }
    sends.made += 1;
    sends.onTheirWay += 1;
    sends.most = Math.max(sends.most, sends.onTheirWay);
    return send.apply(this, arguments).finally(() => { sends.onTheirWay -= 1; });
  };
})();"""


class Table:
    """One phone (a browser context: its tabs share localStorage) on a game
    of the app, served through `network`; `api`, the app itself (another
    phone, or a look at the store)."""

    def __init__(self, context, client):
        self.context = context
        self.client = client
        self.network = Network(client)
        game = client.post("/api/games", json={"sides": ["Nous", "Eux"]}).get_json()
        self.game = game["id"]
        self.url = f"{ORIGIN}/games/{self.game}"
        context.add_init_script(COUNT_SENDS)
        context.route(f"{ORIGIN}/**", self.network.answer)

    def open(self):
        page = self.context.new_page()
        page.goto(self.url)
        return page

    def state(self) -> dict:
        return self.client.get(f"/api/games/{self.game}").get_json()

    def event(self, **event) -> dict:
        response = self.client.post(f"/api/games/{self.game}/events", json=event)
        assert response.status_code == 200, response.get_json()
        return response.get_json()


@pytest.fixture
def table(script_browser, fresh_store):
    app = create_app({"TESTING": True, "DATABASE": str(fresh_store), **TIMINGS})
    context = script_browser.new_context(**PHONE)
    yield Table(context, app.test_client())
    context.close()
