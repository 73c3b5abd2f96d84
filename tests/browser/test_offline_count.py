"""With the server away the board counts the phone's waiting taps itself,
with the project's engine run on the phone (MicroPython in a Web Worker):
both scores, what each side needs, the deal line, each marked as not yet
stored; once the server is back its board, which says the same, replaces
it. A waiting tap the engine refuses is left to the server: nothing is
guessed for it or after it (docs/OFFLINE.md, "The board counts by itself").

The phone reaches the server as http://table.lan:PORT/ (no secure context:
a Worker and WebAssembly need none), as in test_outbox.py.
"""

import pytest
from playwright.sync_api import expect

from scorekeeper.testing.live_server import serving
from support.table import (
    TABLE_ENV,
    expect_scores,
    go_offline,
    go_online,
    open_game,
    table_phone,
    wait_for_engine,
    wait_past_double_tap,
)
from support.timings import QUICK_ENV

pytestmark = pytest.mark.xdist_group("offline_count")  # its module fixture, built once a run

SEND_MS = 8000
UNSTORED = "pas encore enregistré"


@pytest.fixture(scope="module")
def table_server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("table"), "table", **TABLE_ENV, **QUICK_ENV) as live:
        yield live


@pytest.fixture
def phone(browser, table_server):
    context = table_phone(browser, table_server)
    yield context.new_page()
    context.close()


# The scores of every frame the page draws from now on.
EVERY_FRAME = """() => {
  const shown = window.framesShown = [];
  const look = () => {
    shown.push(Array.from(document.querySelectorAll('.points'), p => p.textContent).join(' '));
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""


# Every control's and score line's box; the score lines whose words are cut.
BOXES = """() => Array.from(document.querySelectorAll('#board button, #board .needs'),
                          node => JSON.stringify(node.getBoundingClientRect()))"""
CUT = """() => Array.from(document.querySelectorAll('.needs')).filter(
  node => node.scrollHeight > node.clientHeight + 1 || node.scrollWidth > node.clientWidth)
  .map(node => node.innerText)"""


def tap_while_away(page, *names) -> None:
    for name in names:
        page.get_by_role("button", name=name, exact=True).tap()
        wait_past_double_tap(page)


def away_with(page, server, *names) -> None:
    """A new game's board, its engine ready, taken offline; `names` tapped there."""
    open_game(page, server=server)
    wait_for_engine(page)
    go_offline(page)
    tap_while_away(page, *names)
    expect(page.locator("html")).to_have_attribute("data-outbox", str(len(names)))


def expect_stored(page, version: int) -> None:
    expect(page.locator("#board")).to_have_attribute("data-version", str(version), timeout=SEND_MS)
    expect(page.locator("html:not([data-outbox])")).to_have_count(1, timeout=SEND_MS)


def test_offline_the_board_counts_the_waiting_taps_as_the_server_then_does(phone, table_server):
    away_with(phone, table_server, "Missa pour Nous", "1 Bount pour Nous", "5 Khamsa pour Eux")
    # The engine's count: the Missa scores, the chain's hits wait for its end.
    expect_scores(phone, 1, 0)
    expect(phone.locator(".needs")).to_have_text([f"encore 32 {UNSTORED}", f"encore 33 {UNSTORED}"])
    expect(phone.locator(".scores")).to_have_class("scores pending")
    expect(phone.locator(".status-text span").first).to_have_text("Manche 1 · Donne 1/6")
    # The next deal ends the chain: Eux's Khamsa scores, and the deal line moves on.
    tap_while_away(phone, "Donne suivante")
    expect_scores(phone, 1, 5)
    expect(phone.locator(".status-text span").first).to_have_text("Manche 1 · Donne 2/6")
    expect(phone.locator(".needs")).to_have_text([f"encore 32 {UNSTORED}", f"encore 28 {UNSTORED}"])
    phone.evaluate(EVERY_FRAME)
    go_online(phone)
    expect_stored(phone, 4)
    # The server's board: the same count, stored; and while the taps were
    # sent one by one, no frame showed a score between (the server's board
    # with some of them, before the count of the others came back).
    assert set(phone.evaluate("window.framesShown")) == {"1 5"}
    expect_scores(phone, 1, 5)
    expect(phone.locator(".needs")).to_have_text(["encore 32", "encore 28"])
    expect(phone.locator(".status-text span").first).to_have_text("Manche 1 · Donne 2/6")
    expect(phone.locator(".scores")).to_have_class("scores")
    expect(phone.locator("#board[data-counted]")).to_have_count(0)


def test_nothing_is_guessed_for_a_waiting_tap_the_engine_refuses_nor_after_it(phone, table_server):
    # A Khamsa with no Bount before it: the engine refuses it; the Missa
    # after it is not counted either (it may mean something else once the
    # server has judged the Khamsa).
    away_with(phone, table_server, "Missa pour Nous", "5 Khamsa pour Eux", "Missa pour Eux")
    expect(phone.locator(".needs")).to_have_text([f"encore 32 {UNSTORED}", f"encore 33 {UNSTORED}"])
    expect_scores(phone, 1, 0)
    go_online(phone)
    # The server refuses the Khamsa too: the scorer drops it, the Missa after it counts.
    sheet = phone.get_by_role("alertdialog")
    expect(sheet).to_be_visible(timeout=SEND_MS)
    sheet.get_by_role("button", name="Abandonner cette touche, envoyer les autres").click()
    expect_stored(phone, 2)
    expect_scores(phone, 1, 1)
    expect(phone.locator(".needs")).to_have_text(["encore 32", "encore 32"])


def test_a_board_whose_engine_could_not_start_shows_the_counted_score(phone, table_server):
    # The engine's files never reach the phone (its Wi-Fi dropped first):
    # the board is as without a worker, the counted score and nothing guessed.
    phone.route("**/phone/engine.*.json", lambda route: route.abort())
    open_game(phone, server=table_server)
    expect(phone.locator("html")).to_have_attribute("data-engine", "off", timeout=15000)
    go_offline(phone)
    tap_while_away(phone, "Missa pour Nous")
    expect(phone.locator("html")).to_have_attribute("data-outbox", "1")
    expect_scores(phone, 0, 0)
    expect(phone.locator(".needs")).to_have_text(["encore 33", "encore 33"])
    go_online(phone)
    expect_stored(phone, 1)
    expect_scores(phone, 1, 0)


def test_the_mark_is_read_whole_under_three_narrow_scores(browser, table_server):
    context = table_phone(browser, table_server, viewport={"width": 360, "height": 640})
    page = context.new_page()
    try:
        open_game(page, players=3, names=("Nous", "Eux", "Karim"), server=table_server)
        before = page.evaluate(BOXES)
        wait_for_engine(page)
        go_offline(page)
        tap_while_away(page, "Missa pour Nous")
        expect(page.locator(".needs")).to_have_text([f"encore 32 {UNSTORED}",
                                                     f"encore 33 {UNSTORED}",
                                                     f"encore 33 {UNSTORED}"])
        assert page.evaluate(CUT) == []
        assert page.evaluate(BOXES) == before  # nothing moved
    finally:
        context.close()
