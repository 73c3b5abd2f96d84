"""The board as an app on a secure origin: over https, behind a real Caddy
(`tls internal`, its authority trusted by this Chromium's own profile), the
service worker keeps the board last shown, so that a reload while the
server is away shows it, with its waiting taps, instead of the browser's
error page; and the taps are sent once when the server is back. On plain
http no worker can exist, and the page asks for none.

The server is taken away as it goes at a club: its process stopped behind
the proxy, which then answers 502 for it.
"""

import json
import re
import sqlite3
import time
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from scorekeeper.service import phones
from scorekeeper.service.clock import utc_now
from scorekeeper.storage import db as storage
from scorekeeper.testing.chromium import PHONE, TABLE_HOST
from scorekeeper.web.guard import access
from support.accessibility import check as check_accessible
from support.https import served_over_https
from support.passes import new_pass
from support.table import expect_scores, start_game, tap, wait_for_engine

pytestmark = pytest.mark.xdist_group("offline_app")  # its module fixture, built once a run

KEY, SECRET = "offlinekey2345", "a secret for the offline app test only"
SEND_MS = 15000  # the server started again, then the poll (1.5 s) and two taps
COPY = "Hors ligne : dernier tableau vu"
ANY = re.compile(".*")  # not_to_have_attribute(name, ANY): no such attribute


@pytest.fixture(scope="module")
def https_table(tmp_path_factory):
    with served_over_https(tmp_path_factory.mktemp("offline-app"), "offline", FLASK_ACCESS_KEY=KEY,
                            FLASK_SECRET_KEY=SECRET) as (browser, live, caddy):
        yield browser, live, caddy


def phone_at(browser, live, base: str):
    """A phone of the table at `base`, with a pass of its own, where service
    workers may run (the other browser tests' phones have none: PHONE)."""
    token = new_pass(live.env["FLASK_DATABASE"], KEY, SECRET, user_agent="Chromium, a test phone")
    context = browser.new_context(**dict(PHONE, service_workers="allow"), base_url=base)
    context.add_cookies([{"name": access.COOKIE, "value": token, "url": base, "httpOnly": True,
                          "secure": base.startswith("https:"), "sameSite": "Lax"}])
    return context, token


# The version of the board the worker keeps for a game (-1: none kept).
KEPT_VERSION = """game => caches.open('ronda-pages-1')
    .then(cache => cache.match('/games/' + game))
    .then(page => page ? page.text() : '')
    .then(html => Number((/id="board"[^>]*data-version="(\\d+)"/.exec(html) || [0, -1])[1]))"""


# wait_for_function takes a promise for a true value: these poll from here.

def wait_until_kept(page, game: str, version: int, seconds: float = 10) -> None:
    """Wait until the worker keeps `game`'s board at `version` (-1: none)."""
    deadline = time.monotonic() + seconds
    while (kept := page.evaluate(f"({KEPT_VERSION})('{game}')")) != version:
        assert time.monotonic() < deadline, f"the worker keeps version {kept}, not {version}"
        time.sleep(0.05)


def wait_for_the_worker(page, seconds: float = 10) -> None:
    """Until the page's service worker is active (registered once the page loaded)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(
            "navigator.serviceWorker.getRegistration().then(r => !!(r && r.active))"):
        assert time.monotonic() < deadline, "no service worker"
        time.sleep(0.05)


def api_game(caddy, token: str, game: str) -> dict:
    """The game as the JSON API gives it, through the proxy, with the phone's pass."""
    status, _, body = caddy.request("GET", f"/api/games/{game}",
                                    headers={"Cookie": f"{access.COOKIE}={token}"})
    assert status == 200, body
    return json.loads(body)


def stored(live, game: str) -> list[tuple[dict, str]]:
    with sqlite3.connect(live.env["FLASK_DATABASE"]) as conn:
        rows = conn.execute("SELECT payload, idempotency_key FROM events WHERE game_id = ?"
                            " ORDER BY seq", (game,)).fetchall()
    return [(json.loads(payload), key) for payload, key in rows]


def test_over_https_a_reload_while_the_server_is_away_shows_the_board_and_its_waiting_taps(
        https_table):
    browser, live, caddy = https_table
    context, token = phone_at(browser, live, caddy.url)
    page = context.new_page()
    failures = []
    page.on("pageerror", lambda error: failures.append(error))
    page.goto("/")
    assert page.evaluate("isSecureContext")
    wait_for_the_worker(page)
    assert page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.scope)") == \
        f"{caddy.url}/"
    # Installable: Chromium's own checks of the manifest, its icons and the
    # page; but a test's browser context is a private window, where nothing installs.
    cdp = context.new_cdp_session(page)
    assert [error["errorId"] for error in cdp.send("Page.getInstallabilityErrors")[
        "installabilityErrors"]] == ["in-incognito"]

    start_game(page)
    game = page.locator("#board").get_attribute("data-game")
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    expect(page.locator("html")).to_have_attribute("data-awake", "wakelock")
    tap(page, "Missa pour Nous")
    wait_until_kept(page, game, 1)  # the tap's answer, as the board shows it
    wait_for_engine(page)  # its files fetched: a reload finds them in the caches

    live.kill()  # Caddy answers 502 from now on
    try:
        away_then_back(page, live, game)
    finally:
        if not live.running():  # for the tests after this one
            live.restart()
    state = api_game(caddy, token, game)
    assert (state["version"], state["scores"], state["chain"]) == \
        (3, [1, 1], {"side": 0, "value": 1})
    log = stored(live, game)
    assert [{k: v for k, v in event.items() if k in ("type", "side", "value")}
            for event, _ in log] == [{"type": "missa", "side": 0}, {"type": "missa", "side": 1},
                                     {"type": "hit", "side": 0, "value": 1}]
    assert len({key for _, key in log}) == 3
    wait_until_kept(page, game, 3)  # the live board, kept in its turn
    assert failures == []
    context.close()


def away_then_back(page, live, game: str) -> None:
    """The server is away: a reload, two taps, a reload; then it is back."""
    html, notice = page.locator("html"), page.locator("#link-state")
    asked = []  # a reload opens the copy here: the page has nothing to ask first
    page.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.accept()))
    page.reload()  # the copy, not the browser's error page
    expect(html).to_have_attribute("data-copy", "")
    expect_scores(page, 1, 0)
    expect(notice).to_contain_text(COPY)
    page.get_by_role("button", name="Missa pour Eux", exact=True).tap()
    page.get_by_role("button", name="1 Bount pour Nous", exact=True).tap()
    expect(html).to_have_attribute("data-outbox", "2")
    expect(notice.locator(".link-what")).not_to_contain_text("pas de rechargement")

    page.reload()  # again: both still waiting, and listed
    expect(html).to_have_attribute("data-copy", "")
    expect(html).to_have_attribute("data-outbox", "2")
    expect(notice.locator(".link-what")).to_have_text(COPY)
    expect(notice.locator(".link-count")).to_have_text("2 touches en attente, non comptées")
    expect(notice.locator(".link-count")).to_be_visible()  # the sentence left it its line
    # The phone's own count of both, marked as not yet stored: the Missa
    # scores, the Bount opens a chain.
    wait_for_engine(page)
    expect(page.locator(".quiet-strip")).to_contain_text(
        "En attente, pas encore enregistrées : Missa · \u2068Eux\u2069, Bount (1) · \u2068Nous\u2069")
    expect_scores(page, 1, 1)
    expect(page.locator(".needs").first).to_contain_text("pas encore enregistré")
    check_accessible(page, "the board as last shown, taps waiting")
    assert len(stored(live, game)) == 1
    page.goto("/")  # where the installed app opens: the board shown last
    expect(page).to_have_url(re.compile(f"/games/{game}$"))
    expect(html).to_have_attribute("data-outbox", "2")
    assert asked == []

    # The app closed and opened again meanwhile: the browser's session (and
    # the copy's form key with it) is gone; the phone's pass stays.
    session = [c for c in page.context.cookies() if c["name"] == "session"]
    assert session
    page.context.clear_cookies(name="session")
    live.restart()
    expect(page.locator("#board")).to_have_attribute("data-version", "3", timeout=SEND_MS)
    expect(html).not_to_have_attribute("data-outbox", ANY, timeout=SEND_MS)
    expect(html).not_to_have_attribute("data-copy", ANY)
    expect(notice).to_contain_text("De nouveau connecté au serveur")
    expect_scores(page, 1, 1)
    assert page.evaluate("localStorage.getItem('ronda.outbox.v1')") is None
    # One more round of the page's poll: nothing was sent after.
    with page.expect_response(lambda r: f"/api/games/{game}" in r.url and r.status == 200):
        pass


def test_a_phone_turned_away_keeps_no_board(https_table):
    browser, live, caddy = https_table
    context, token = phone_at(browser, live, caddy.url)
    page = context.new_page()
    page.goto("/")
    wait_for_the_worker(page)
    start_game(page)
    game = page.locator("#board").get_attribute("data-game")
    wait_until_kept(page, game, 0)

    connection = storage.connect(live.env["FLASK_DATABASE"])
    try:
        mark = phones.key_mark(KEY, SECRET)
        phones.turn_away(connection, phones.holder(connection, token, mark).id, mark, utc_now())
    finally:
        connection.close()
    page.reload()  # the server answers: the key page, and the worker forgets every board
    expect(page.get_by_label("Clé d'accès")).to_be_visible()
    wait_until_kept(page, game, -1)
    context.set_offline(True)  # then the Wi-Fi goes
    with pytest.raises(PlaywrightError, match="ERR_FAILED"):  # no copy: the browser's error page
        page.goto(f"/games/{game}")
    expect(page.locator("#board")).to_have_count(0)
    context.close()


def test_on_plain_http_no_worker_is_asked_for(https_table):
    """The same server reached as http://table.lan:PORT/, no secure context:
    the page registers nothing, asks for no worker, and raises no error."""
    browser, live, _ = https_table
    base = f"http://{TABLE_HOST}:{live.port}"
    context, _ = phone_at(browser, live, base)
    page = context.new_page()
    errors, asked = [], []
    page.on("pageerror", lambda error: errors.append(error))
    page.on("request", lambda request: asked.append(urlsplit(request.url).path))
    start_game(page)
    tap(page, "Missa pour Nous")
    page.wait_for_load_state("load")  # where the registration would have been made
    assert page.evaluate("[isSecureContext, 'serviceWorker' in navigator]") == [False, False]
    assert "/sw.js" not in asked and errors == []
    context.close()
