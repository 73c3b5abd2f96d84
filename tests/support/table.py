"""A scorer's gestures on the scoreboard, and the phones that make them
(a context of the one Chromium configuration), for the browser tests."""

import json
import re
import time
from urllib.parse import urljoin

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from scorekeeper.testing.chromium import PHONE, TABLE_HOST
from scorekeeper.web.guard import access
from support.passes import new_pass
from support.timings import double_tap_seconds

# A server that phones reach as TABLE_HOST: it lets that name in, with known keys.
TABLE_KEY, TABLE_SECRET = "tablekey2345", "a secret for the table tests only"
TABLE_ENV = {"FLASK_ALLOWED_HOSTS": TABLE_HOST, "FLASK_ACCESS_KEY": TABLE_KEY,
             "FLASK_SECRET_KEY": TABLE_SECRET}


def context_for(browser, server, **options):
    """A phone's browser context on `server` (PHONE, then `options`)."""
    settings = dict(PHONE, base_url=server.url)
    settings.update(options)
    return browser.new_context(**settings)


def table_url(server) -> str:
    return f"http://{TABLE_HOST}:{server.port}"


def let_in(context, server) -> None:
    """Give a phone a pass of its own, as a pairing code or the typed key
    does (scorekeeper/web/guard/access.py, support/passes.py)."""
    token = new_pass(server.env["FLASK_DATABASE"], TABLE_KEY, TABLE_SECRET,
                     user_agent="Chromium, a test phone")
    context.add_cookies([{
        "name": access.COOKIE, "value": token,
        "url": table_url(server), "httpOnly": True, "sameSite": "Lax",
    }])


def table_phone(browser, server, **options):
    """A phone at the table: the server's address on the local network, let in."""
    context = context_for(browser, server, base_url=table_url(server), **options)
    let_in(context, server)
    return context


def wait_until_held(page: Page, held: list, count: int = 1, seconds: float = 5) -> None:
    """Wait until a route handler that holds requests (appends each to `held`)
    has been handed `count`: Playwright hands them over while a call of ours
    waits on the page, so a page whose own work came first may not have yet."""
    deadline = time.monotonic() + seconds
    while len(held) < count:
        assert time.monotonic() < deadline, f"{len(held)} requests held, not {count}"
        page.wait_for_timeout(20)


def close_phone(context) -> None:
    """Close a phone's context, first letting go of what its routes hold, so
    that a test that failed while holding a request leaves nothing pending (a
    worker once hung after such a failure; that the close was why is not shown)."""
    for page in context.pages:
        page.unroute_all(behavior="ignoreErrors")
    context.unroute_all(behavior="ignoreErrors")
    context.close()


# A request from the page that the browser itself refuses when offline.
# A GET and a POST, as a tap is one: both must fail before the phone counts
# as away (a loaded machine applied the offline state to the one before the other).
_REACHES = """() => Promise.all(['GET', 'POST'].map(method => fetch(
    '/static/icon.svg?offline-check=' + Date.now(), {method, cache: 'no-store'})
    .then(() => true, () => false))).then(reached => reached.some(Boolean))"""


# Whether the page's board will count its waiting taps (outbox.js, loadCount).
_COUNTS = """() => !!document.querySelector('#board[data-engine]') && !!window.Worker &&
    typeof WebAssembly === 'object' && !!document.querySelector('#outbox-texts[data-engine-count]')"""


def _away(route) -> None:
    route.abort("internetdisconnected")


def go_offline(page: Page, seconds: float = 5) -> None:
    """Take the phone off the network and wait until its requests fail.
    Chromium's offline state alone let a tap made just after it reach the
    server now and then on a loaded machine (its network service applies
    the state on its own time, even after a request of the page had failed):
    every request of the phone is also aborted before it leaves, as the
    browser fails it offline. A board first has its own count ready (or
    known to be off), so that what it shows while away does not depend on
    how fast the phone was (wait_for_engine)."""
    if page.evaluate(_COUNTS):
        expect(page.locator("html")).to_have_attribute("data-engine", re.compile("."),
                                                       timeout=15000)
    if page.evaluate(_POLLS):
        # A look at the game asked before, answered after the network went
        # (a loaded server), told the board the server was back: its links
        # on again under the finger of a test that had seen them off. Polls
        # come one after the other: once one has failed, none is on its way.
        with page.expect_event("requestfailed", lambda r: bool(_POLL.search(r.url)),
                               timeout=seconds * 1000):
            _leave(page)
    else:
        _leave(page)
    deadline = time.monotonic() + seconds
    while page.evaluate(_REACHES):
        assert time.monotonic() < deadline, "the phone still reaches the server"
        time.sleep(0.02)


def _leave(page: Page) -> None:
    page.context.set_offline(True)
    page.context.route("**/*", _away)


def _refused(route) -> None:
    route.abort("blockedbyclient")


def without_the_engine(page: Page) -> None:
    """The board's own count never started on this page: the engine's
    worker refused, as on a phone without workers (data-engine "off"). For a
    test of what pages show as they load, with no tap waiting: it loads many,
    and every board loaded with JavaScript starts the engine once idle
    (MicroPython compiled in a worker, some 150 ms of Chromium's CPU a page),
    which such a test never looks at."""
    page.route("**/phone/**", _refused)


# Whether the page's board looks at its game (board.js, poll).
_POLLS = "() => !!document.getElementById('board') && !!(window.Ronda && window.Ronda.board)"


def wait_for_engine(page: Page) -> None:
    """Wait until the board's engine worker counts (docs/OFFLINE.md, "The
    board counts by itself"): it starts after the page's load, once idle,
    and fetches the engine's files, its words and the server's end-of-hand
    sheet, which a phone taken offline before then never gets (its board
    then shows the counted score)."""
    expect(page.locator("html")).to_have_attribute("data-engine", "ready", timeout=15000)


def go_online(page: Page) -> None:
    """The network back (after go_offline, or for a phone never away)."""
    page.context.unroute("**/*", _away)
    page.context.set_offline(False)


def hold_polls(page: Page, game: str):
    """The phone has not yet seen what another phone taps next: until the
    returned `release` is called, its looks at the game (a poll every 1.5 s)
    see the game as it is now. Released right after this phone's own tap,
    its later looks see the game the server has (which that tap's answer
    drew); a look still showing the game before would make the board follow
    it again and wipe the tap's notice."""
    seen = page.request.get(urljoin(page.url, f"/api/games/{game}")).text()
    held = [True]

    def as_seen(route) -> None:
        if held[0]:
            route.fulfill(status=200, content_type="application/json", body=seen)
        else:
            route.continue_()
    page.route(f"**/api/games/{game}", as_seen)

    def release() -> None:
        held[0] = False
    return release


def version(page: Page) -> str:
    return page.locator("#board").get_attribute("data-version")


# The page counts a second tap on the same control within its double-tap
# window (a phone's 600 ms; shorter on the tests' server: support/timings.py)
# as the same tap: a scorer's next tap on it comes later, and so do ours,
# counted from the moment the page took the previous one, with a margin.
MARGIN_S = 0.1
_last_taps: dict[tuple[int, str], float] = {}


def wait_past_double_tap(page: Page, since: float | None = None,
                         window: float | None = None) -> None:
    """Wait until a tap is a new one, not the same again as the tap the page
    took at `since` (time.monotonic(); now by default). `window`: the page's
    double-tap seconds, for a caller that read them once (double_tap_seconds)."""
    since = time.monotonic() if since is None else since
    window = double_tap_seconds(page) if window is None else window
    time.sleep(max(0.0, since + window + MARGIN_S - time.monotonic()))


def _not_a_double_tap(page: Page, name: str) -> None:
    last = _last_taps.get((id(page), name))
    if last is not None:
        wait_past_double_tap(page, last)


# The board's poll: its GET of the game, every poll interval (data-poll-ms).
_POLL = re.compile(r"/api/games/[^/?#]+$")


def wait_for_polls(page: Page, count: int = 2) -> None:
    """Wait until the board has asked the server for its game `count` times
    from now (a poll, which also tells it whether the server is reached, and
    sends what waits). A poll starts only once the one before is answered and
    what it brought is on the page: two mean one whole poll has been."""
    for _ in range(count):
        with page.expect_request(lambda r: r.method == "GET" and _POLL.search(r.url)):
            pass


# How long until every control of the page takes taps again, in ms (the
# settle animations of style.css: the button just recorded, the board after a
# sheet, the result); null once none runs.
_SETTLE_LEFT = """() => {
  const left = document.getAnimations().filter(a => /^settle/.test(a.animationName || ''))
    .map(a => { const t = a.effect.getComputedTiming(); return t.endTime - (t.localTime || 0); });
  return left.length ? Math.max(0, ...left) : null; }"""
# An animation ends at the first frame past its end.
_FRAME_S = 1 / 60


def wait_settled(page: Page, seconds: float = 10, then: str | None = None):
    """Wait until every control takes taps again, as a finger that sees the
    page does. Polled from here (a page without JavaScript runs no animation
    frame for wait_for_function), asking again when the longest settle is due
    to end rather than at a fixed beat, which overslept most settles.
    `then`: a function of the page's, asked in the same look once settled;
    its answer is returned."""
    look = f"() => {{ const left = ({_SETTLE_LEFT})(); return left === null ? " \
           f"{{settled: true, then: ({then or '() => null'})()}} : {{left}}; }}"
    deadline = time.monotonic() + seconds
    while not (seen := page.evaluate(look)).get("settled"):
        assert time.monotonic() < deadline, "the page never settled"
        time.sleep(min(seen["left"] / 1000 + _FRAME_S, 0.25))
    return seen["then"]


_VERSION = "() => { const b = document.getElementById('board'); return b && b.dataset.version; }"


def wait_for_new_version(page: Page, before: str | None, seconds: float = 10) -> None:
    """Wait until the board shows a version other than `before`: the game
    took the tap. Polled from here, as wait_settled is: wait_for_function
    polls at every animation frame, and on a page without JavaScript, whose
    tap loads a new document, it cost Chromium 40 ms more CPU a tap."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if page.evaluate(_VERSION) not in (before, None):
                return
        except PlaywrightError:  # between two documents: ask the next one
            pass
        assert time.monotonic() < deadline, f"the board stayed at version {before}"
        time.sleep(0.02)


def tap(page: Page, name: str, role: str = "button") -> None:
    """Tap the control named `name` and wait until the game has taken it."""
    before = version(page)
    _not_a_double_tap(page, name)
    page.get_by_role(role, name=name, exact=True).tap()
    wait_for_new_version(page, before)
    _last_taps[(id(page), name)] = time.monotonic()


def mark(page: Page, name: str, then: str) -> None:
    """Tap a link that changes the page but not the game (a draft, a sheet),
    and wait for what it shows (`then`, a text)."""
    _not_a_double_tap(page, name)
    page.get_by_role("link", name=name, exact=True).tap()
    expect(page.get_by_text(then).first).to_be_visible()
    _last_taps[(id(page), name)] = time.monotonic()


def start_game(page: Page, players: str | None = None, names: tuple[str, str] = ("Nous", "Eux")) -> None:
    """A new game from the home page. The names are typed in: the form offers
    the last ones used, which other tests on the same server may have changed."""
    page.goto("/")
    page.get_by_role("link", name="Nouvelle partie").tap()
    if players:
        page.get_by_label(players).check()
    page.get_by_label("Premier camp").fill(names[0])
    page.get_by_label("Deuxième camp").fill(names[1])
    page.get_by_role("button", name="Commencer la partie").tap()
    expect(page.locator("#board")).to_be_visible()


def open_game(page: Page, players: int = 2, names: tuple[str, str] = ("Nous", "Eux"),
              server=None) -> str:
    """A new game made through the API, its board opened on `page`: for a
    test whose subject is the board. Tapping through the new-game form
    (start_game) loads three pages and costs Chromium four times the CPU;
    the tests of that form use it. A phone at the table (table_phone) names
    its server TABLE_HOST, which only Chromium resolves: give its `server`,
    and the game is made on the server's loopback address. The game's id."""
    where = f"{server.url}/api/games" if server is not None else "/api/games"
    response = page.request.post(where, data=json.dumps(
        {"sides": list(names), "players": players}), headers={"Content-Type": "application/json"})
    assert response.status == 201, response.text()
    game_id = response.json()["id"]
    page.goto(f"/games/{game_id}")
    expect(page.locator("#board")).to_be_visible()
    return game_id


def scores(page: Page) -> list[int]:
    return [int(t) for t in page.locator(".points").all_inner_texts()]


def expect_scores(page: Page, *values: int) -> None:
    for side, value in enumerate(values):
        expect(page.locator(f"#score-{side}")).to_have_text(str(value))


def post(page: Page, server, path: str, body) -> dict:
    """POST a JSON body with the page's own cookies (its pass); the JSON answer."""
    return page.request.post(f"{server.url}{path}", data=json.dumps(body),
                             headers={"Content-Type": "application/json"}).json()


def centre(page: Page, selector: str) -> tuple[float, float]:
    """The middle of what the selector finds, in the page's CSS pixels."""
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
