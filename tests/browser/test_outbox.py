"""The phone at the table over the local network: no tap is lost
when the Wi-Fi drops or the server stops, none is applied twice, and a tap
the server refuses stops the queue until the scorer decides.

The phone reaches the server as http://table.lan:PORT/ (no secure context),
mapped to loopback by the browser; the server is a real one (waitress, in a
subprocess), stopped and started again on the same port and database. What
the server holds is read from its database file. The figures printed at the
end (`-s`) are those of docs/OFFLINE.md.
"""

import json
import sqlite3
import urllib.request

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from scorekeeper.testing.live_server import serving
from support.accessibility import check as check_accessible
from support.table import (
    TABLE_ENV,
    expect_scores,
    go_offline,
    go_online,
    mark,
    open_game,
    table_phone,
    table_url,
    tap,
    wait_for_polls,
    wait_past_double_tap,
)
from support.timings import QUICK_ENV

pytestmark = pytest.mark.xdist_group("outbox")  # its module fixture, built once a run

TAPS = ("Missa pour Nous", "1 Bount pour Nous", "5 Khamsa pour Eux")
EVENTS = [{"type": "missa", "side": 0}, {"type": "hit", "side": 0, "value": 1},
          {"type": "hit", "side": 1, "value": 5}]
SEND_MS = 8000  # the poll notices the server within 1.5 s; a tap is then one request


@pytest.fixture(scope="module")
def table_server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("table"), "table", **TABLE_ENV, **QUICK_ENV) as live:
        yield live


@pytest.fixture(scope="module")
def figures():
    counts = {"taps made while away": 0, "reloads while away": 0,
              "pages reopened with taps waiting": 0, "server restarts": 0, "answers lost": 0,
              "refusals": 0, "events checked": 0, "lost": 0, "doubled": 0}
    yield counts
    print("\noutbox figures:", json.dumps(counts))


@pytest.fixture
def phone(browser, table_server):
    context = table_phone(browser, table_server)
    yield context.new_page()
    context.close()


def stored(server, game: str) -> list[tuple[dict, str]]:
    """The game's log as the server stored it: (event, Idempotency-Key)."""
    with sqlite3.connect(server.env["FLASK_DATABASE"]) as conn:
        rows = conn.execute(
            "SELECT payload, idempotency_key FROM events WHERE game_id = ? ORDER BY seq", (game,))
        return [(json.loads(payload), key) for payload, key in rows]


def kinds(events: list[tuple[dict, str]]) -> list[dict]:
    """The events without the fields the engine adds (last_card...)."""
    return [{k: v for k, v in event.items() if k in ("type", "side", "value")}
            for event, _ in events]


def another_phone(server, game: str, event: dict) -> None:
    """A tap from another phone, through the API on loopback."""
    request = urllib.request.Request(
        f"{server.url}/api/games/{game}/events", data=json.dumps(event).encode(),
        headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200


def game_of(page) -> str:
    return page.locator("#board").get_attribute("data-game")


def tap_while_away(page, figures, names=TAPS) -> None:
    for name in names:
        page.get_by_role("button", name=name, exact=True).tap()
        figures["taps made while away"] += 1


def expect_sent(page, version: int) -> None:
    expect(page.locator("#board")).to_have_attribute("data-version", str(version), timeout=SEND_MS)
    # The board can show the new version (its poll of the game) before the
    # tap's own answer has come back and emptied the queue: wait for that.
    expect(page.locator("html:not([data-outbox])")).to_have_count(1, timeout=SEND_MS)
    page.wait_for_function("localStorage.getItem('ronda.outbox.v1') === null", timeout=SEND_MS)


def check_once_in_order(server, game: str, events: list[dict], figures) -> None:
    """The server holds exactly `events`, in order, each once, each with its own key."""
    log = kinds(stored(server, game))
    missing, extra = list(events), []
    for event in log:
        if event in missing:
            missing.remove(event)
        else:
            extra.append(event)
    figures["lost"] += len(missing)
    figures["doubled"] += len(extra)
    figures["events checked"] += len(log)
    assert log == events
    keys = [key for _, key in stored(server, game)]
    assert len(set(keys)) == len(keys)


def reload_while_away(page, figures) -> None:
    # Taps wait: the page asks first (yes, reload); then the browser's own
    # error page, the script gone.
    page.once("dialog", lambda dialog: dialog.accept())
    with pytest.raises(PlaywrightError):
        page.reload()
    figures["reloads while away"] += 1


def reopen(page, url: str, figures) -> None:
    page.goto(url)
    figures["pages reopened with taps waiting"] += 1


def control_boxes(page) -> list[dict]:
    """Every control's box but the open chain's Over, which comes and goes
    with the chain in its slot of fixed height."""
    return [b.bounding_box() for b in page.locator(
        "#board button:not(.chain-strip button), #board a.button").all()]


def test_taps_made_offline_survive_a_reload_and_count_once_in_order(phone, table_server, figures):
    open_game(phone, server=table_server)
    game, url = game_of(phone), phone.url
    before = control_boxes(phone)
    go_offline(phone)
    tap_while_away(phone, figures)
    notice = phone.locator("#link-state")
    expect(notice).to_contain_text("Sans serveur, pas de rechargement")
    expect(notice).to_contain_text("3 touches en attente, gardées ici")
    expect(phone.locator("html")).to_have_attribute("data-outbox", "3")
    # The phone's own count of the three, all of them (the engine's: the
    # Missa scores, the chain waits for its end), marked as not yet stored.
    expect_scores(phone, 1, 0)
    expect(phone.locator(".scores")).to_have_class("scores pending")
    expect(phone.locator(".needs").first).to_contain_text("pas encore enregistré")
    check_accessible(phone, "taps waiting")
    # The notice moved no control and covers none.
    assert control_boxes(phone) == before
    box = notice.bounding_box()
    for control in before:
        assert (box["x"] + box["width"] <= control["x"] or control["x"] + control["width"] <= box["x"]
                or box["y"] + box["height"] <= control["y"]
                or control["y"] + control["height"] <= box["y"]), control
    reload_while_away(phone, figures)
    assert stored(table_server, game) == []
    go_online(phone)
    reopen(phone, url, figures)
    expect_sent(phone, 3)
    check_once_in_order(table_server, game, EVENTS, figures)
    expect_scores(phone, 1, 0)
    expect(phone.get_by_text("Chaîne : Eux +5, pas encore compté")).to_be_visible()
    expect(phone.locator(".scores")).to_have_class("scores")
    expect(notice).to_be_hidden(timeout=5000)  # "back" shows a moment, then nothing


def test_taps_made_while_the_server_is_stopped_are_sent_once_it_is_back(
        phone, table_server, figures):
    open_game(phone, server=table_server)
    game, url = game_of(phone), phone.url
    table_server.kill()
    tap_while_away(phone, figures, TAPS[:1])
    expect(phone.locator("#link-state")).to_contain_text("1 touche en attente, gardée ici")
    reload_while_away(phone, figures)
    table_server.restart()
    figures["server restarts"] += 1
    reopen(phone, url, figures)
    expect_sent(phone, 1)
    # Stopped again while the board is open: the poll notices, then sends on its own.
    table_server.kill()
    expect(phone.locator("html")).to_have_attribute("data-link", "lost", timeout=5000)
    tap_while_away(phone, figures, TAPS[1:])
    expect(phone.locator("html")).to_have_attribute("data-outbox", "2")
    table_server.restart()
    figures["server restarts"] += 1
    expect_sent(phone, 3)
    expect(phone.locator("#link-state")).to_contain_text("De nouveau connecté au serveur")
    check_once_in_order(table_server, game, EVENTS, figures)
    expect_scores(phone, 1, 0)


def test_a_waiting_tap_keeps_its_whole_form_when_its_board_is_gone(phone, table_server, figures):
    """The draft of announcements lives in the board's address: the waiting
    Confirm carries it, and counts after a reload that took the draft away."""
    open_game(phone, server=table_server)
    game, url = game_of(phone), phone.url
    mark(phone, "Ronda pour Nous", then="Annonces : Nous Ronda")
    go_offline(phone)
    tap_while_away(phone, figures, ("Valider",))
    expect(phone.locator("#link-state")).to_contain_text("1 touche en attente")
    reload_while_away(phone, figures)
    go_online(phone)
    reopen(phone, url, figures)
    expect_sent(phone, 1)
    assert [event for event, _ in stored(table_server, game)] == [
        {"type": "announce", "announcements": [{"side": 0, "kind": "ronda", "rank": None}]}]
    figures["events checked"] += 1
    expect_scores(phone, 1, 0)


def test_undo_while_taps_wait_takes_back_the_last_of_them(phone, table_server, figures):
    open_game(phone, server=table_server)
    game = game_of(phone)
    go_offline(phone)
    tap_while_away(phone, figures, TAPS[:2])
    undo = phone.locator(".undo-button")
    # A waiting tap is named as the log will name it (not the button's words,
    # which did not say whose tap it was).
    expect(undo).to_have_text("↶ Annuler : Bount (1) · \u2068Nous\u2069")
    undo.tap()  # never sent: taken back here
    expect(phone.locator("html")).to_have_attribute("data-outbox", "1")
    expect(undo).to_have_text("↶ Annuler : Missa · \u2068Nous\u2069")
    go_online(phone)
    expect_sent(phone, 1)
    check_once_in_order(table_server, game, EVENTS[:1], figures)
    expect(undo).to_have_text("↶ Annuler : Missa · \u2068Nous\u2069")


def test_a_tap_whose_answer_was_lost_counts_once(phone, table_server, figures):
    open_game(phone, server=table_server)
    game = game_of(phone)
    reached = []

    def answer_lost(route):  # the server takes the tap; its answer never arrives
        # To the server's loopback address: the test runner cannot resolve table.lan.
        route.fetch(url=route.request.url.replace(table_url(table_server), table_server.url))
        reached.append(route.request.url)
        try:
            route.abort("connectionreset")
        except PlaywrightError:  # the page gave up waiting first (a busy machine): lost too
            pass

    phone.route("**/play", answer_lost)
    phone.get_by_role("button", name=TAPS[0], exact=True).tap()
    expect(phone.locator("html")).to_have_attribute("data-outbox", "1")
    assert len(stored(table_server, game)) == 1 and reached
    tap_while_away(phone, figures, TAPS[1:3])  # made behind it, on the same board
    # Undo three times: the Khamsa and the Bount, never sent, are taken back
    # here; the Missa, which may have counted, by an undo sent after it. A
    # scorer's pace: the same button twice within 600 ms is a double tap.
    undo = phone.locator(".undo-button")
    # Names isolated (FSI…PDI), as the log words them for the script.
    for label in ("Khamsa (5) · \u2068Eux\u2069", "Bount (1) · \u2068Nous\u2069", "Missa · \u2068Nous\u2069"):
        expect(undo).to_have_text(f"↶ Annuler : {label}")
        wait_past_double_tap(phone)
        undo.tap()
    expect(phone.locator("html")).to_have_attribute("data-outbox", "2")
    phone.unroute("**/play")
    figures["answers lost"] += len(reached)
    expect_sent(phone, 2)
    with sqlite3.connect(table_server.env["FLASK_DATABASE"]) as conn:
        log = conn.execute("SELECT seq, action, payload, undone_by FROM events "
                           "WHERE game_id = ? ORDER BY seq", (game,)).fetchall()
    assert [(seq, action, undone) for seq, action, _, undone in log] == \
        [(1, "event", 2), (2, "undo", None)]
    assert json.loads(log[0][2])["type"] == "missa"
    figures["events checked"] += 2
    expect_scores(phone, 0, 0)


@pytest.mark.parametrize("reloaded", [False, True], ids=["same-page", "reloaded-while-away"])
def test_taps_made_behind_a_tap_whose_answer_was_lost_all_count_once(
        phone, table_server, figures, reloaded):
    """The Wi-Fi drops as a Missa is sent: the server takes it, its answer
    never comes; two more taps wait behind it (and the page may be reloaded
    while the server is away). Once the server answers again, the three
    count, each once, in order."""
    open_game(phone, server=table_server)
    game, url = game_of(phone), phone.url
    reached = []

    def answer_lost(route):
        route.fetch(url=route.request.url.replace(table_url(table_server), table_server.url))
        reached.append(route.request.url)
        try:
            route.abort("connectionreset")
        except PlaywrightError:
            pass

    phone.route("**/play", answer_lost)
    phone.get_by_role("button", name=TAPS[0], exact=True).tap()
    expect(phone.locator("html")).to_have_attribute("data-outbox", "1")
    assert len(stored(table_server, game)) == 1 and reached
    tap_while_away(phone, figures, TAPS[1:3])
    expect(phone.locator("html")).to_have_attribute("data-outbox", "3")
    if reloaded:
        go_offline(phone)
        reload_while_away(phone, figures)
    phone.unroute("**/play")
    figures["answers lost"] += len(reached)
    if reloaded:
        go_online(phone)
        reopen(phone, url, figures)
    expect_sent(phone, 3)
    check_once_in_order(table_server, game, EVENTS, figures)
    expect_scores(phone, 1, 0)


def test_a_refused_waiting_tap_stops_the_queue_until_the_scorer_decides(
        phone, table_server, figures):
    """Their 5 on our open 1, then a Missa for them, made while away; the
    other phone tapped Over meanwhile: the 5 follows no open chain, and the
    Missa waits for the scorer's choice, through a reload."""
    open_game(phone, server=table_server)
    game, url = game_of(phone), phone.url
    another_phone(table_server, game, {"type": "hit", "side": 0, "value": 1})
    expect(phone.locator("#board")).to_have_attribute("data-version", "1", timeout=SEND_MS)
    go_offline(phone)
    page_taps = ("5 Khamsa pour Eux", "Missa pour Eux")
    phone.get_by_role("button", name=page_taps[0], exact=True).tap()
    figures["taps made while away"] += 1
    tap_while_away(phone, figures, page_taps[1:])
    another_phone(table_server, game, {"type": "chain_end"})
    go_online(phone)
    sheet = phone.get_by_role("alertdialog", name="Une touche en attente a été refusée")
    expect(sheet).to_be_visible(timeout=SEND_MS)
    figures["refusals"] += 1
    expect(sheet.locator(".refused-what")).to_contain_text("Khamsa")
    expect(sheet.locator(".refused-why")).to_contain_text("suit un 1")
    expect(sheet.locator(".refused-rest li")).to_have_text(["Missa · \u2068Eux\u2069"])
    expect(phone.locator("#link-state")).to_contain_text("Envoi arrêté")
    check_accessible(phone, "a waiting tap refused")
    # Nothing after it is sent, however long the scorer takes; a reload keeps it so.
    wait_for_polls(phone)
    reopen(phone, url, figures)
    expect(sheet).to_be_visible()
    wait_for_polls(phone)
    assert kinds(stored(table_server, game)) == [{"type": "hit", "side": 0, "value": 1},
                                                 {"type": "chain_end"}]
    phone.get_by_role("button", name="Abandonner cette touche, envoyer les autres").tap()
    expect(sheet).to_be_hidden(timeout=SEND_MS)
    expect_scores(phone, 1, 1)


def test_waiting_taps_the_other_phone_also_made_are_dropped_without_a_question(
        phone, table_server, figures):
    """The other phone recorded that very Missa, and both scorers tapped
    Next deal, this phone offline, then a Missa for us here: the Missa and
    the Next deal are the other phone's records (each a `same` record of its
    own), with nothing to choose, and the last Missa, made on the deal both
    phones moved to, counts there."""
    open_game(phone, server=table_server)
    game = game_of(phone)
    go_offline(phone)
    tap_while_away(phone, figures, ("Missa pour Nous", "Donne suivante", "Missa pour Nous"))
    another_phone(table_server, game, {"type": "missa", "side": 0})
    another_phone(table_server, game, {"type": "next_deal"})
    go_online(phone)
    expect_sent(phone, 5)
    expect(phone.get_by_role("alertdialog")).to_have_count(0)
    events = [kind for kind in kinds(stored(table_server, game)) if kind]  # not the same records
    assert events == [  # the other phone's two, then this one's Missa
        {"type": "missa", "side": 0}, {"type": "next_deal"}, {"type": "missa", "side": 0}]
    expect_scores(phone, 2, 0)


def test_waiting_taps_count_when_the_other_phones_tap_meanwhile_means_something_else(
        phone, table_server, figures):
    """Two Missas for us wait (the same button twice: the second with a token
    of its own, board.js) while the other phone records a Missa for them:
    neither meant that one, and both count, once each (docs/BOARD.md, "Two phones")."""
    open_game(phone, server=table_server)
    game = game_of(phone)
    go_offline(phone)
    tap_while_away(phone, figures, ("Missa pour Nous",))
    wait_past_double_tap(phone)  # a second Missa, not a bounce
    tap_while_away(phone, figures, ("Missa pour Nous",))
    another_phone(table_server, game, {"type": "missa", "side": 1})
    go_online(phone)
    expect_sent(phone, 3)
    check_once_in_order(table_server, game, [{"type": "missa", "side": 1},
                                             {"type": "missa", "side": 0},
                                             {"type": "missa", "side": 0}], figures)
    expect_scores(phone, 2, 1)
    expect(phone.get_by_role("alertdialog")).to_have_count(0)


def test_two_tabs_on_one_game_send_the_waiting_taps_once(browser, table_server, figures):
    context = table_phone(browser, table_server)
    first = context.new_page()
    open_game(first, server=table_server)
    game = game_of(first)
    second = context.new_page()
    second.goto(first.url)
    go_offline(first)  # both tabs lose the server (one context); they share the outbox
    tap_while_away(first, figures, TAPS[:2])
    expect(second.locator("#link-state")).to_contain_text("2 touches en attente", timeout=5000)
    tap_while_away(second, figures, TAPS[2:])
    expect(first.locator("#link-state")).to_contain_text("3 touches en attente", timeout=5000)
    go_online(first)
    expect_sent(first, 3)
    expect_sent(second, 3)
    check_once_in_order(table_server, game, EVENTS, figures)
    context.close()


def test_a_tap_that_reaches_the_server_shows_no_notice(phone, table_server):
    open_game(phone, server=table_server)
    tap(phone, "Missa pour Nous")
    expect(phone.locator("#link-state")).to_be_hidden()
    assert phone.locator("html").get_attribute("data-outbox") is None
    assert phone.evaluate("localStorage.getItem('ronda.outbox.v1')") is None
