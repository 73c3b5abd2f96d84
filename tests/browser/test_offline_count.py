"""With the server away the board counts the phone's waiting taps itself,
with the project's engine run on the phone (MicroPython in a Web Worker):
both scores, what each side needs, the deal line, the result at the
target, each marked as not yet stored; once the server is back its board, which says the same, replaces
it. A waiting tap the engine refuses is left to the server: nothing is
guessed for it or after it (docs/OFFLINE.md, "The board counts by itself").

The phone reaches the server as http://table.lan:PORT/ (no secure context:
a Worker and WebAssembly need none), as in test_outbox.py.
"""

import pytest
from playwright.sync_api import expect

from scorekeeper.testing.live_server import serving
from support.accessibility import serious_violations
from support.table import (
    TABLE_ENV,
    expect_scores,
    go_offline,
    go_online,
    open_game,
    post,
    table_phone,
    table_url,
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
    away_with(phone, table_server, "Missa pour Nous")
    # The count shows the Khamsa off, as the server would; a finger can still
    # tap it, and offline it waits for the server (it may follow a Bount of
    # the other phone's that this one has not seen).
    khamsa = phone.get_by_role("button", name="5 Khamsa pour Eux", exact=True)
    expect(khamsa).to_have_attribute("aria-disabled", "true")
    khamsa.tap(force=True)
    wait_past_double_tap(phone)
    tap_while_away(phone, "Missa pour Eux")
    expect(phone.locator("html")).to_have_attribute("data-outbox", "3")
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


# The open chain's strip as a scorer and a screen reader meet it (its hidden
# keys by name; the server's Over also says the scores it would leave, which
# nothing reads while taps wait), and each hit button on or off.
CHAIN_SHOWN = """() => {
  const strip = document.querySelector('#board .chain-strip');
  const over = strip && strip.querySelector('button');
  return {
    hits: Array.from(document.querySelectorAll('.pads .hits button'),
                     b => b.value + (b.getAttribute('aria-disabled') === 'true' ? ' off' : ' on')),
    strip: strip && {
      form: [strip.className, strip.getAttribute('method'), strip.getAttribute('action')],
      keys: Array.from(strip.querySelectorAll('input[type=hidden]'), i => i.name),
      words: strip.querySelector('span').innerHTML,
      over: [over.name, over.value, over.getAttribute('aria-label'), over.dataset.what,
             JSON.parse(over.dataset.event), over.getAttribute('aria-disabled'), over.textContent],
    },
  };
}"""
UNDERLINED = ("() => getComputedStyle(document.querySelector('.chain-strip span'))"
              ".textDecorationLine")
HIT = 'button[value="hit.{side}.{value}"]'
# The strip after a Bount for the first side, then a Khamsa for the other:
# in Arabic «لـ» and a default name make one word, as the server says it.
CHAIN_SAID = {"fr": ("Chaîne : Nous +1, pas encore compté", "Chaîne : Eux +5, pas encore compté"),
              "ar": ("السلسلة: 1 لنا، لم تُحتسب بعد", "السلسلة: 5 لهم، لم تُحتسب بعد")}


def tap_hit(page, side: int, value: int) -> None:
    page.locator(HIT.format(side=side, value=value)).tap()
    wait_past_double_tap(page)


@pytest.mark.parametrize("language, names", [("fr", ("Nous", "Eux")), ("ar", ("نحن", "هم"))])
def test_offline_the_open_chain_and_the_hit_that_follows_show_as_the_server_draws_them(
        browser, table_server, screenshot, language, names):
    context = table_phone(browser, table_server, viewport={"width": 360, "height": 640})
    page = context.new_page()
    try:
        game = open_game(page, names=names, server=table_server)
        page.goto(f"/games/{game}?lang={language}")
        wait_for_engine(page)
        go_offline(page)
        # A Bount for the first side: its strip, and the other side's Khamsa on.
        tap_hit(page, 0, 1)
        strip = page.locator("#board .chain-strip")
        expect(strip.locator("span")).to_have_text(CHAIN_SAID[language][0])
        expect(page.locator(HIT.format(side=1, value=5))).not_to_have_attribute(
            "aria-disabled", "true")
        expect(page.locator(HIT.format(side=0, value=5))).to_have_attribute("aria-disabled", "true")
        # The other side's Khamsa: the chain is theirs, the Achra follows it.
        tap_hit(page, 1, 5)
        expect(strip.locator("span")).to_have_text(CHAIN_SAID[language][1])
        expect(page.locator(HIT.format(side=0, value=10))).not_to_have_attribute(
            "aria-disabled", "true")
        expect(page.locator(HIT.format(side=1, value=10))).to_have_attribute("aria-disabled", "true")
        assert "underline" in page.evaluate(UNDERLINED)  # not yet stored, as the scores
        # Each failed look at the server draws the board again: the strip, in
        # a live region, stays the same element (a screen reader would hear
        # a new one again).
        page.evaluate("""() => { document.querySelector('.chain-strip button').dataset.probe = 'kept';
                                 window.Ronda.outbox.render(); }""")
        expect(strip.locator("button[data-probe=kept]")).to_have_count(1)
        screenshot(page, f"offline-chain-{language}")
        counted = page.evaluate(CHAIN_SHOWN)
        go_online(page)
        expect_stored(page, 2)
        # The server's board draws the same strip and the same hits on and off.
        assert page.evaluate(CHAIN_SHOWN) == counted
        assert "underline" not in page.evaluate(UNDERLINED)

        # Away again, the chain's Over: the strip goes, the Khamsa scores.
        go_offline(page)
        strip.get_by_role("button").tap()
        expect(strip).to_have_count(0)
        expect_scores(page, 0, 5)
        counted = page.evaluate(CHAIN_SHOWN)
        go_online(page)
        expect_stored(page, 3)
        assert page.evaluate(CHAIN_SHOWN) == counted
    finally:
        context.close()


RESULT = ".counted-over"
# What the page's security policy refuses from now on.
WATCH_POLICY = """() => {
  window.refused = [];
  document.addEventListener('securitypolicyviolation', e => window.refused.push(e.violatedDirective));
}"""
# The boxes of every control and score line but the result's own.
BOXES_BUT_RESULT = BOXES.replace("#board button,", "#board button:not(.counted-over button),")


def board_at(page, server, scores: list[int], **game) -> None:
    """A new game's board, its scores set by adjustments through the API,
    its engine ready, taken offline."""
    game_id = open_game(page, server=server, **game)
    for side, points in enumerate(scores):
        post(page, server, f"/api/games/{game_id}/events",
             {"type": "adjust", "side": side, "points": points})
    page.reload()
    expect(page.locator("#board")).to_have_attribute("data-version", str(len(scores)))
    wait_for_engine(page)
    go_offline(page)


def test_offline_a_winning_tap_shows_the_result_not_yet_stored_until_undone(browser, table_server,
                                                                             screenshot):
    context = table_phone(browser, table_server, viewport={"width": 360, "height": 740})
    phone = context.new_page()
    try:
        board_at(phone, table_server, [32])
        phone.evaluate(WATCH_POLICY)
        before = phone.evaluate(BOXES_BUT_RESULT)
        tap_while_away(phone, "Missa pour Eux", "Missa pour Nous")
        result = phone.locator(RESULT)
        expect(result.locator(".winner")).to_have_text("Nous gagnons\u00a0!")
        expect(result.locator(".over-label")).to_have_text(f"Partie terminée · {UNSTORED}")
        expect_scores(phone, 33, 1)
        assert phone.evaluate(BOXES_BUT_RESULT) == before  # over the strips: nothing moved
        screenshot(phone, "offline-result-fr")
        assert phone.evaluate("window.refused") == []  # its styles too (style-src 'self')
        # The moves are off and say why; a tap on one waits for nothing.
        for name in ("Missa pour Eux", "1 Bount pour Eux", "Donne suivante"):
            button = phone.get_by_role("button", name=name, exact=True)
            expect(button).to_have_attribute("aria-disabled", "true")
            button.tap(force=True)  # it is off: a finger can still tap it
            expect(phone.locator("#notice")).to_have_text(f"Partie terminée · {UNSTORED}")
            wait_past_double_tap(phone)
        expect(phone.locator("html")).to_have_attribute("data-outbox", "2")
        # The rematch needs the server, and says so.
        rematch = result.get_by_role("button", name="Revanche")
        # As on the server's result, it takes no tap for a moment (style.css, settle).
        expect(rematch).to_have_css("pointer-events", "auto")
        rematch.tap(force=True)
        expect(phone.locator("#link-state .link-what")).to_have_text(
            "Cela a besoin du serveur : réessayez à son retour")
        # Undo takes back the winning tap: the count without it has no result.
        undo = phone.locator(".undo-button")
        undo.tap()
        expect(result).to_have_count(0)
        expect_scores(phone, 32, 1)
        expect(phone.locator("#notice.shown")).to_have_count(0)
        missa = phone.get_by_role("button", name="Missa pour Eux", exact=True)
        expect(missa).not_to_have_attribute("aria-disabled", "true")
        # Nothing left waiting once the winning tap is undone: the result goes too.
        wait_past_double_tap(phone)
        undo.tap()
        expect_scores(phone, 32, 0)
        tap_while_away(phone, "Missa pour Nous")
        expect(result.locator(".winner")).to_have_text("Nous gagnons\u00a0!")
        undo.tap()
        expect(phone.locator("html:not([data-outbox])")).to_have_count(1)
        expect(result).to_have_count(0)
        expect_scores(phone, 32, 0)
        expect(missa).not_to_have_attribute("aria-disabled", "true")
        wait_past_double_tap(phone)
        tap_while_away(phone, "Missa pour Nous")
        expect(result.locator(".winner")).to_have_text("Nous gagnons\u00a0!")
        go_online(phone)
        # The server's own result: the same winner and score, stored.
        expect(phone.locator("#winner")).to_have_text("Nous gagnons\u00a0!", timeout=SEND_MS)
        expect(phone.locator(".over .final")).to_have_text("Nous 33 – Eux 0")
        expect(phone.locator(RESULT)).to_have_count(0)
        expect(phone.locator("html:not([data-outbox])")).to_have_count(1)
    finally:
        context.close()


def test_offline_a_chain_ended_by_the_next_tap_leaves_the_board(phone, table_server):
    away_with(phone, table_server, "1 Bount pour Nous")
    strip = phone.locator("#board .chain-strip")
    expect(strip.locator("span")).to_have_text("Chaîne : Nous +1, pas encore compté")
    # A Missa ends the chain: the Bount scores, and the Khamsa no longer follows.
    tap_while_away(phone, "Missa pour Eux")
    expect_scores(phone, 1, 1)
    expect(strip).to_have_count(0)
    expect(phone.locator(HIT.format(side=1, value=5))).to_have_attribute("aria-disabled", "true")
    # Undo takes back the waiting Missa, then the Bount: the strip, then the
    # server's board again, with no chain.
    undo = phone.locator(".undo-button")
    expect(undo).to_contain_text("Missa")
    undo.tap()
    expect(strip.locator("span")).to_have_text("Chaîne : Nous +1, pas encore compté")
    expect(undo).to_contain_text("Bount")
    wait_past_double_tap(phone)
    undo.tap()
    expect(phone.locator("html:not([data-outbox])")).to_have_count(1)
    expect(strip).to_have_count(0)
    # The chain's slot is the server's again (the announcements' stays the
    # count's while the server is away: test_offline_announce.py).
    expect(phone.locator("#board .chain-slot[data-kept-html]")).to_have_count(0)


def test_offline_a_team_reaching_the_target_shows_its_result_in_arabic(browser, table_server,
                                                                      screenshot):
    context = table_phone(browser, table_server, viewport={"width": 360, "height": 740})
    context.add_cookies([{"name": "lang", "value": "ar", "url": table_url(table_server)}])
    phone = context.new_page()
    try:
        board_at(phone, table_server, [20, 32], players=4, names=("Omar & Leila", "Karim & Sofia"))
        phone.locator(".pad.side-1 button[value^=missa]").tap()
        result = phone.locator(RESULT)
        expect(result).to_be_visible()
        expect_scores(phone, 20, 33)
        expect(phone.locator(".pad.side-0 button[value^=missa]")).to_have_attribute(
            "aria-disabled", "true")
        shown = result.locator(".winner").inner_text()
        screenshot(phone, "offline-result-ar")
        assert serious_violations(phone) == []
        go_online(phone)
        expect(phone.locator("#winner")).to_be_visible(timeout=SEND_MS)
        assert phone.locator("#winner").inner_text() == shown
    finally:
        context.close()


MOVES_OFF = """() => Array.from(document.querySelectorAll('#board button[name=move]'),
    b => b.value + (b.getAttribute('aria-disabled') === 'true' ? ' off' : ' on'))"""


def test_offline_a_result_undone_leaves_each_move_as_the_board_had_it(phone, table_server):
    """At a hand's last deal, 32–0: Next deal is off (the hand is counted
    first). A winning Missa offline turns every move off under its result;
    undone, each is again as it was, Next deal off among them."""
    game = open_game(phone, server=table_server)
    for event in [{"type": "next_deal"}] * 5 + [{"type": "adjust", "side": 0, "points": 32}]:
        post(phone, table_server, f"/api/games/{game}/events", event)
    phone.reload()
    wait_for_engine(phone)
    drawn = phone.evaluate(MOVES_OFF)
    assert "next_deal off" in drawn
    go_offline(phone)
    tap_while_away(phone, "Missa pour Nous")
    expect(phone.locator(RESULT)).to_be_visible()
    assert all(move.endswith(" off") for move in phone.evaluate(MOVES_OFF))
    phone.locator(".undo-button").tap()
    expect(phone.locator(RESULT)).to_have_count(0)
    assert phone.evaluate(MOVES_OFF) == drawn
    go_online(phone)
