"""With the server away the board still takes the deal's announcements: a
side's Ronda or Tringa marks it in a draft the page draws as the server
does (its chips, Confirm and ✕), the links on as the phone's engine judges
them, and Confirm waits as any tap does, counted by that engine
(docs/OFFLINE.md, "The board counts by itself"). Once the server is back,
a draft still marked is its board's, and a waiting Confirm counts once.

The phone reaches the server as http://table.lan:PORT/, as in
test_offline_count.py.
"""

import re

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

pytestmark = pytest.mark.xdist_group("offline_announce")  # its module fixture, built once a run

SEND_MS = 8000


@pytest.fixture(scope="module")
def table_server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("table"), "table", **TABLE_ENV, **QUICK_ENV) as live:
        yield live


@pytest.fixture
def narrow(browser, table_server):
    """A phone 360 px wide."""
    context = table_phone(browser, table_server, viewport={"width": 360, "height": 640})
    yield context.new_page()
    context.close()


# The announcements as a scorer and a screen reader meet them: each link on
# or off, and the draft's strip (its form's fields by name, its sentence, its
# chips with where they lead, its Confirm and what it posts, its ✕).
ANNOUNCEMENTS = """() => {
  const strip = document.querySelector('#board .announce-slot .draft-strip');
  const confirm = strip && strip.querySelector('button');
  const clear = strip && strip.querySelector('a.clear');
  return {
    links: Array.from(document.querySelectorAll('.pads .announce a'),
                      a => a.getAttribute('aria-label') +
                           (a.getAttribute('aria-disabled') === 'true' ? ' off' : ' on')),
    strip: strip && {
      form: [strip.className, strip.getAttribute('method'), strip.getAttribute('action'),
             strip.hasAttribute('data-follows-view')],
      fields: Array.from(strip.querySelectorAll('input[type=hidden]'),
                         i => i.name === 'a' || i.name === 'back' ? i.name + '=' + i.value : i.name),
      words: strip.querySelector('.draft-words').innerHTML,
      chips: Array.from(strip.querySelectorAll('.marks li'), li => [
        li.className, li.querySelector('a').innerHTML, li.querySelector('a').getAttribute('aria-label'),
        new URL(li.querySelector('a').href).search]),
      confirm: [confirm.name, confirm.value, confirm.textContent, confirm.dataset.what,
                JSON.parse(confirm.dataset.event), confirm.getAttribute('aria-disabled')],
      clear: [clear.getAttribute('aria-label'), clear.textContent, new URL(clear.href).search],
    },
    quiet: (document.querySelector('#board .announce-slot .strip:not(.draft-strip)') || {}).textContent,
  };
}"""
# Whether a line or a chip of the strip is cut, or the strip is wider than the phone.
CUT = """() => {
  const strip = document.querySelector('#board .announce-slot .strip');
  const cut = Array.from(strip.querySelectorAll('.marks a, button, .clear'))
    .filter(n => n.scrollWidth > n.clientWidth + 1).map(n => n.textContent);
  if (strip.getBoundingClientRect().right > window.innerWidth + 1 ||
      strip.getBoundingClientRect().left < -1) { cut.push('the strip'); }
  return cut;
}"""
def link(page, side: int, kind: str):
    return page.locator(f".pads .pad.side-{side} .announce a.kind-{kind}")


def mark(page, side: int, kind: str) -> None:
    link(page, side, kind).tap()
    wait_past_double_tap(page)


def away(page, server, names=("Nous", "Eux"), language="fr", players=2) -> str:
    game = open_game(page, players=players, names=names, server=server)
    page.goto(f"/games/{game}?lang={language}")
    wait_for_engine(page)
    go_offline(page)
    return game


def stored(page, server, game: str) -> dict:
    return page.request.get(f"{server.url}/api/games/{game}").json()


NAMES = {"fr": ("Nous", "Eux"), "en": ("Us", "Them"), "ar": ("نحن", "هم")}
TWO = [(0, "ronda"), (1, "tringa")]
# Two partners' Rondas: one chip, "×2"; Latin names in an Arabic sentence.
TEAMS = [(1, "tringa"), (0, "ronda"), (0, "ronda")]


@pytest.mark.parametrize("language, names, players, marks", [
    ("fr", NAMES["fr"], 2, TWO), ("en", NAMES["en"], 2, TWO), ("ar", NAMES["ar"], 2, TWO),
    ("ar", ("Karim & Salma", "Omar & Leila"), 4, TEAMS)])
def test_offline_a_draft_is_drawn_as_the_server_draws_it_and_is_its_once_back(
        narrow, table_server, screenshot, language, names, players, marks):
    away(narrow, table_server, names, language, players)
    strip = narrow.locator("#board .announce-slot .draft-strip")
    for count, (side, kind) in enumerate(marks, 1):
        mark(narrow, side, kind)
        expect(strip.locator("input[name=a]")).to_have_count(count)
    # A side whose announcements are made: its links off, as the engine says.
    expect(link(narrow, 0, "tringa")).to_have_attribute("aria-disabled", "true")
    expect(narrow.locator("html")).not_to_have_attribute("data-outbox", "1")  # nothing sent yet
    assert narrow.evaluate(CUT) == []
    screenshot(narrow, f"offline-draft-{language}-{players}")
    drawn = narrow.evaluate(ANNOUNCEMENTS)
    # A chip per side and kind, in the sides' order, in its side's colour,
    # named as the side's link; two of a kind: "×2".
    chips = sorted(set(marks))
    assert [chip[:2] for chip in drawn["strip"]["chips"]] == [
        [f"side-{side}", link(narrow, side, kind).inner_html() +
         (' <bdi dir="ltr">×2</bdi>' if marks.count((side, kind)) == 2 else "")]
        for side, kind in chips]
    # Back: the server's board has the draft (in its address) and draws it the same.
    go_online(narrow)
    query = "&".join(f"a={side}-{kind}" for side, kind in marks) + "&at=0"
    expect(narrow).to_have_url(re.compile(re.escape(f"?{query}") + "$"), timeout=SEND_MS)
    expect(narrow.locator(".announce-slot[data-kept-html]")).to_have_count(0)
    expect(strip).to_have_count(1)
    server = narrow.evaluate(ANNOUNCEMENTS)
    if players == 4:
        # The waiting Confirm's name, as the log will say it, but with each
        # team's name whole: the server cuts long names to fit the Undo's
        # two lines (describe.undo_words), which style.css also shortens.
        assert drawn["strip"]["confirm"].pop(3) == (
            "الإعلانات: \u2068Omar & Leila\u2069 ترينكا، \u2068Karim & Salma\u2069 روندا ×2")
        server["strip"]["confirm"].pop(3)
    assert server == drawn


def test_offline_a_chip_takes_one_back_clear_empties_and_confirm_waits_and_counts(
        narrow, table_server):
    game = away(narrow, table_server)
    mark(narrow, 0, "ronda")
    mark(narrow, 1, "tringa")
    strip = narrow.locator("#board .announce-slot .draft-strip")
    # The Tringa's chip takes it back; ✕ takes the rest.
    strip.get_by_role("link", name="Retirer une Tringa marquée pour Eux").tap()
    expect(strip.locator(".marks li")).to_have_text(["Ronda"])
    expect(link(narrow, 1, "tringa")).not_to_have_attribute("aria-disabled", "true")
    # A move that closes the deal says why while marks wait, as the server's board does.
    narrow.get_by_role("button", name="Donne suivante").tap()
    expect(narrow.locator("#notice")).to_contain_text("Valider ou Effacer (✕)")
    expect(narrow.locator("html")).not_to_have_attribute("data-outbox", "1")
    wait_past_double_tap(narrow)
    strip.get_by_role("link", name="Effacer").tap()
    expect(strip).to_have_count(0)
    expect(narrow.locator(".announce-slot .quiet-strip")).to_have_text(
        "Annonces : touchez chacune de celles de la donne, puis Valider.")
    # Marked again and confirmed: a waiting tap, counted by the engine.
    wait_past_double_tap(narrow)
    mark(narrow, 0, "ronda")
    strip.get_by_role("button", name="Valider").tap()
    expect(narrow.locator("html")).to_have_attribute("data-outbox", "1")
    expect(strip).to_have_count(0)
    expect_scores(narrow, 1, 0)
    expect(narrow.locator(".scores")).to_have_class("scores pending")
    expect(narrow.locator(".announce-slot .quiet-strip")).to_contain_text(
        "Annonces : \u2068Nous\u2069 Ronda")
    for side in (0, 1):
        expect(link(narrow, side, "ronda")).to_have_attribute("aria-disabled", "true")
    # Undo takes the waiting Confirm back: nothing announced, the links on again.
    wait_past_double_tap(narrow)
    narrow.locator(".undo-button").tap()
    expect(narrow.locator("html:not([data-outbox])")).to_have_count(1)
    expect_scores(narrow, 0, 0)
    expect(link(narrow, 0, "ronda")).not_to_have_attribute("aria-disabled", "true")
    # Confirmed again, then back: stored once, as the server's Confirm posts it.
    wait_past_double_tap(narrow)
    mark(narrow, 0, "ronda")
    mark(narrow, 1, "ronda")
    narrow.locator("#board .draft-strip").get_by_role("button", name="Valider").tap()
    expect(narrow.locator("html")).to_have_attribute("data-outbox", "1")
    # Two Rondas contend: the ranks decide, which needs the server.
    reveal = narrow.locator(".announce-slot .reveal-strip")
    expect(reveal).to_contain_text("Rondas : le rang décide")
    reveal.get_by_role("link").tap(force=True)
    expect(narrow.locator("#link-state .link-what")).to_have_text(
        "Cela a besoin du serveur : réessayez à son retour")
    expect(narrow.locator("html")).to_have_attribute("data-outbox", "1")
    go_online(narrow)
    expect(narrow.locator("#board")).to_have_attribute("data-version", "1", timeout=SEND_MS)
    expect(narrow.locator("html:not([data-outbox])")).to_have_count(1, timeout=SEND_MS)
    held = stored(narrow, table_server, game)
    assert (held["version"], held["awaiting_reveal"]) == (1, True)
    expect(reveal).to_contain_text("Rondas : le rang décide")
    expect(reveal.get_by_role("link")).not_to_have_attribute("aria-disabled", "true")


def test_a_draft_marked_with_the_server_goes_on_offline_and_its_clear_holds_once_back(
        narrow, table_server):
    game = open_game(narrow, server=table_server)
    narrow.goto(f"/games/{game}")
    wait_for_engine(narrow)
    mark(narrow, 0, "ronda")  # with the server: its draft, in its address
    narrow.wait_for_url("**a=0-ronda**")
    go_offline(narrow)
    strip = narrow.locator("#board .announce-slot .draft-strip")
    mark(narrow, 1, "tringa")
    expect(strip.locator(".marks li")).to_have_text(["Ronda", "Tringa"])
    expect(strip.locator("input[name=back]")).to_have_value("a=0-ronda&a=1-tringa&at=0")
    strip.get_by_role("link", name="Effacer").tap()
    expect(strip).to_have_count(0)
    go_online(narrow)
    # The server's board without the draft its address had.
    expect(narrow).to_have_url(re.compile(rf"/games/{game}$"), timeout=SEND_MS)
    expect(narrow.locator(".announce-slot .quiet-strip")).to_have_text(
        "Annonces : touchez chacune de celles de la donne, puis Valider.")
    expect(narrow.locator(".announce-slot[data-kept-html]")).to_have_count(0)


def test_offline_after_a_waiting_next_deal_the_next_deals_announcements_are_on(
        narrow, table_server):
    """The server's board has the deal's announcements recorded (its links
    off); a Next deal waits: the count's next deal takes announcements."""
    game = open_game(narrow, server=table_server)
    narrow.goto(f"/games/{game}")
    wait_for_engine(narrow)
    mark(narrow, 0, "ronda")
    narrow.locator("#board .draft-strip").get_by_role("button", name="Valider").tap()
    expect(narrow.locator("#board")).to_have_attribute("data-version", "1", timeout=SEND_MS)
    expect(narrow.locator("#board .draft-strip")).to_have_count(0)
    expect(link(narrow, 0, "ronda")).to_have_attribute("aria-disabled", "true")
    go_offline(narrow)
    wait_past_double_tap(narrow)
    narrow.get_by_role("button", name="Donne suivante").tap()
    expect(narrow.locator("html")).to_have_attribute("data-outbox", "1")
    expect(link(narrow, 0, "ronda")).not_to_have_attribute("aria-disabled", "true")
    mark(narrow, 0, "ronda")
    narrow.locator("#board .draft-strip").get_by_role("button", name="Valider").tap()
    expect(narrow.locator("html")).to_have_attribute("data-outbox", "2")
    expect_scores(narrow, 2, 0)
    go_online(narrow)
    expect(narrow.locator("#board")).to_have_attribute("data-version", "3", timeout=SEND_MS)
    expect(narrow.locator("html:not([data-outbox])")).to_have_count(1, timeout=SEND_MS)
    expect_scores(narrow, 2, 0)
    assert stored(narrow, table_server, game)["scores"] == [2, 0]


def test_offline_a_double_tap_on_a_chip_takes_back_one(narrow, table_server):
    """Two partners' Rondas, one chip "×2": a double tap on it takes back
    one, as the server's chips do (the chip under the finger after the
    first tap takes no second)."""
    away(narrow, table_server, ("Karim & Salma", "Omar & Leila"), players=4)
    mark(narrow, 0, "ronda")
    mark(narrow, 0, "ronda")
    chips = narrow.locator("#board .draft-strip .marks a")
    expect(chips).to_have_text(["Ronda ×2"])
    chips.first.dispatch_event("click")
    chips.first.dispatch_event("click")
    expect(narrow.locator("#board .draft-strip input[name=a]")).to_have_count(1)
    expect(chips).to_have_text(["Ronda"])
    wait_past_double_tap(narrow)
    chips.first.tap()
    expect(narrow.locator("#board .draft-strip")).to_have_count(0)


def test_a_confirm_left_waiting_is_not_drawn_again_as_a_draft(narrow, table_server):
    """Marked with the server, its Confirm tapped as the server goes: the
    server's board (still showing the draft) is not taken over by the
    count, whose Confirm waits: the Ronda counted, no draft."""
    game = open_game(narrow, server=table_server)
    narrow.goto(f"/games/{game}")
    wait_for_engine(narrow)
    mark(narrow, 0, "ronda")
    narrow.wait_for_url("**a=0-ronda**")

    def gone(route):
        route.abort("internetdisconnected")
    narrow.context.route("**/*", gone)
    narrow.locator("#board .draft-strip").get_by_role("button", name="Valider").tap()
    expect(narrow.locator("html")).to_have_attribute("data-link", "lost", timeout=SEND_MS)
    expect(narrow.locator("html")).to_have_attribute("data-outbox", "1")
    expect_scores(narrow, 1, 0)
    expect(narrow.locator("#board .draft-strip")).to_have_count(0)
    expect(narrow.locator(".announce-slot .quiet-strip")).to_contain_text(
        "Annonces : \u2068Nous\u2069 Ronda")
    narrow.context.unroute("**/*", gone)
    expect(narrow.locator("html:not([data-outbox])")).to_have_count(1, timeout=SEND_MS)
    assert stored(narrow, table_server, game)["scores"] == [1, 0]
    expect(narrow.locator("#board .draft-strip")).to_have_count(0)


# The end-of-hand sheet's words and numbers, as a scorer reads them.
def status_lines(page) -> list[str]:
    """The board's two lines under its top bar: the hand and deal, the dealer."""
    return [" ".join(line.split()) for line in
            page.locator("#board .status-text > span").all_text_contents()]


SHEET = """() => {
  const sheet = document.querySelector('#board #sheet');
  const text = selector => (sheet.querySelector(selector) || {}).textContent;
  return {title: text('#sheet-title'), computed: text('.computed'), gets: text('.gets'),
          ask: text('.ask'), cards: sheet.querySelector('#cards0').value,
          yes: Array.from(sheet.querySelectorAll('button[value=end_hand]'), b => b.textContent)};
}"""


@pytest.mark.parametrize("language", ["fr", "en", "ar"])
def test_offline_the_end_of_hand_sheet_counts_as_the_servers_then_waits(
        narrow, table_server, screenshot, language):
    game = open_game(narrow, names=NAMES[language], server=table_server)
    # The server's sheet for 26 cards to the first side, its question asked.
    narrow.goto(f"/games/{game}?sheet=end&hand=1&cards0=26&ask=early&lang={language}")
    served = narrow.evaluate(SHEET)
    scores = narrow.locator("#sheet button[value=end_hand]").get_attribute("data-scores")
    # The board fetches the server's sheet while it answers (once per game).
    with narrow.expect_response(lambda answer: "sheet=end" in answer.url, timeout=15000):
        narrow.goto(f"/games/{game}")
        wait_for_engine(narrow)
    go_offline(narrow)
    end = narrow.locator(".actions a[data-end]")
    expect(end).not_to_have_attribute("aria-disabled", "true")
    end.tap()
    sheet = narrow.locator("#board #sheet")
    expect(sheet).to_be_visible()
    # 25 typed, one more by its stepper: the rest and the points, the engine's.
    narrow.locator("#cards0").fill("25")
    narrow.locator("#sheet button[value='end_step.0.1']").tap()
    expect(narrow.locator("#cards0")).to_have_value("26")
    expect(sheet.locator(".gets")).to_have_text(served["gets"])
    expect(sheet.locator(".computed")).to_have_text(served["computed"])
    wait_past_double_tap(narrow)
    sheet.locator("button[value=end_hand]").tap()  # before the last deal: it asks first
    expect(sheet.locator(".ask")).to_have_text(served["ask"])
    assert narrow.evaluate(SHEET) == served
    screenshot(narrow, f"offline-end-sheet-{language}")
    wait_past_double_tap(narrow)
    first_lines = status_lines(narrow)
    sheet.locator("button[value=end_hand]").tap()
    expect(sheet).to_have_count(0)
    expect(narrow.locator("html")).to_have_attribute("data-outbox", "1")
    expect_scores(narrow, *map(int, scores.split()))
    # The next hand's lines, its dealer too, as the server draws them once back.
    counted_lines = status_lines(narrow)
    assert counted_lines[0] != first_lines[0] and counted_lines[1] != first_lines[1]
    go_online(narrow)
    expect(narrow.locator("#board")).to_have_attribute("data-version", "1", timeout=SEND_MS)
    expect(narrow.locator("html:not([data-outbox])")).to_have_count(1, timeout=SEND_MS)
    expect_scores(narrow, *map(int, scores.split()))
    assert status_lines(narrow) == counted_lines
    assert stored(narrow, table_server, game)["scores"] == list(map(int, scores.split()))


def test_offline_an_open_sheet_closes_and_one_left_open_is_the_servers_once_back(
        narrow, table_server):
    game = open_game(narrow, server=table_server)
    narrow.goto(f"/games/{game}")
    wait_for_engine(narrow)  # its sheet fetched too
    go_offline(narrow)
    end = narrow.locator(".actions a[data-end]")
    sheet = narrow.locator("#board #sheet")
    end.tap()
    sheet.get_by_role("link", name="Fermer").tap()
    expect(sheet).to_have_count(0)
    wait_past_double_tap(narrow)
    end.tap()
    narrow.locator("#cards0").fill("25")
    expect(sheet.locator(".computed")).to_contain_text("15")
    go_online(narrow)
    # The server's sheet, the count typed kept in its address.
    expect(narrow).to_have_url(re.compile(r"\?sheet=end&hand=1&cards0=25$"), timeout=SEND_MS)
    expect(narrow.locator("#sheet[data-counts], #count-form[data-counts]")).to_have_count(0)
    expect(narrow.locator("#cards0")).to_have_value("25")
    expect(sheet.locator(".computed")).to_contain_text("15")


def test_offline_a_three_sided_sheet_says_which_count_is_missing_as_the_server(
        narrow, table_server):
    game = open_game(narrow, players=3, names=("Ali", "Badr", "Chama"), server=table_server)
    said = []
    for query in ("", "&cards0=10"):
        narrow.goto(f"/games/{game}?sheet=end&hand=1{query}")
        said.append(narrow.locator("#sheet .gets").text_content())
    assert "Ali" in said[0] and "Badr" in said[1]
    narrow.goto(f"/games/{game}")
    wait_for_engine(narrow)
    go_offline(narrow)
    narrow.locator(".actions a[data-end]").tap()
    gets = narrow.locator("#board #sheet .gets")
    expect(gets).to_have_text(said[0])
    narrow.locator("#cards0").fill("10")
    expect(gets).to_have_text(said[1])
    confirm = narrow.locator("#sheet button[value=end_hand]")
    expect(confirm).to_have_attribute("aria-disabled", "true")
    confirm.tap(force=True)  # off: it says why, and nothing waits
    expect(narrow.locator("#notice")).to_have_text(said[1])
    expect(narrow.locator("html")).not_to_have_attribute("data-outbox", "1")
    narrow.locator("#cards1").fill("12")
    expect(narrow.locator("#sheet .computed")).to_contain_text("18")


def test_a_sheet_that_never_comes_leaves_the_end_of_hand_to_the_server(narrow, table_server):
    """The Wi-Fi dropped as the board fetched the server's sheet (no answer):
    the engine is ready all the same, the announcements are drawn offline,
    and the End of hand says it needs the server, as without a count."""
    held = []
    narrow.route(lambda url: "sheet=end" in url, lambda route: held.append(route))
    game = open_game(narrow, server=table_server)
    narrow.goto(f"/games/{game}")
    wait_for_engine(narrow)
    assert held  # asked, never answered
    go_offline(narrow)
    end = narrow.get_by_role("link", name="Fin de manche", exact=True)
    expect(end).to_have_attribute("data-offline", "")
    end.tap(force=True)
    expect(narrow.locator("#link-state")).to_contain_text("besoin du serveur")
    expect(narrow.locator("#board #sheet")).to_have_count(0)
    mark(narrow, 0, "ronda")
    expect(narrow.locator("#board .draft-strip")).to_have_count(1)
