"""Nothing moves under the finger: a button that moved got the tap meant
for the one before it (docs/BOARD.md, "The layout, top to bottom").

Whole games with 2, 3 and 4 players, with and without JavaScript, on a
360×640 and a 390×844 phone, in French, Arabic and English (every pair of
those met in one game at least, not every combination): after every tap,
every side button (announcements, hits, Missa) and every action button is
exactly where it was at the game's start, whatever came or went (the draft
strip, the chain strip, the ranks prompt, a sheet, a notice), and the page is
no wider than the screen. Short games: a target of 11, through the API.

Controls are found by what they post or link to, not by their words, so one
script plays every language.
"""

import itertools
import json
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from support.board_boxes import CONTROLS, MEASURE, PHONES
from support.table import (
    go_offline,
    go_online,
    wait_past_double_tap,
    wait_settled,
    without_the_engine,
)
from support.timings import double_tap_seconds

NAMES = {"fr": ["Nous", "Eux", "Vous"], "ar": ["نحن", "هم", "أنتم"],
         "en": ["Us", "Them", "You"]}


# Which page the phone shows, and the board's version on it.
PAGE = """() => { const b = document.getElementById('board');
  return {origin: performance.timeOrigin, version: b && b.dataset.version}; }"""

# Whether the game took the tap: its board at another version, or what the
# tap opens shown (`then`), or what it closes gone (`gone`), on a loaded page.
# A page without JavaScript changes only by loading another: it must be a new
# one. Then whether the game is over, and what check() measures; else null.
TAKEN = """([before, then, gone, javascript, controls]) => {
  if (document.readyState !== 'complete' || (!javascript && performance.timeOrigin === before.origin)) {
    return null;
  }
  const shown = sel => { const e = document.querySelector(sel);
    if (!e || !e.checkVisibility({visibilityProperty: true})) { return false; }
    const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const board = document.getElementById('board');
  const version = board && board.dataset.version;
  const taken = then ? shown(then) : gone ? !document.querySelector(gone)
                                          : version != null && version !== before.version;
  return taken ? {over: !!document.querySelector('.over'), seen: (MEASURE)(controls)} : null;
}""".replace("MEASURE", MEASURE)

# With JavaScript, the page says at once when the tap is taken, and what the
# board then shows once painted (what a finger sees); null after a second.
TAKEN_PAINTED = """args => new Promise(resolve => {
  const taken = TAKEN;
  const look = () => {
    if (!taken(args)) { return; }
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => resolve(taken(args)), 0));
  };
  const observer = new MutationObserver(look);
  observer.observe(document, {subtree: true, childList: true, attributes: true,
                              characterData: true});
  setTimeout(() => { observer.disconnect(); resolve(null); }, 1000);
  look();
})""".replace("TAKEN", TAKEN)


class Table:
    """A scorer's phone on one game, checking the board after every tap."""

    def __init__(self, page: Page, javascript: bool, shots, name: str):
        self.page, self.javascript, self.shots, self.name = page, javascript, shots, name
        self.start = None
        self.taps = 0
        self.tapped: dict[str, float] = {}
        self.double_tap = double_tap_seconds(page)

    def version(self) -> str | None:
        return self.page.evaluate(PAGE)["version"]

    def check(self, seen: dict | None = None) -> None:
        """Every control where it was at the game's start; the page no wider
        than the screen. `seen`: what MEASURE found (measured now by default)."""
        if seen is None:
            self.page.wait_for_load_state()
            seen = self.page.evaluate(MEASURE, CONTROLS)
        assert seen["width"] <= seen["viewport"], (self.name, self.taps, seen["width"])
        if self.start is None:
            self.start = seen["boxes"]
            assert len(self.start) >= 10
        assert seen["boxes"] == self.start, (self.name, self.taps)

    def press(self, selector: str, then: str | None = None, gone: str | None = None) -> None:
        """Tap the control, even one that is off (a finger can: it then says
        why); wait until the game took it (its version changed) or, for a tap
        that records nothing, until `then` shows (or `gone` goes)."""
        # A second tap on one control within a moment is a double tap, counted
        # once: a scorer's next tap on it comes later, and so does ours.
        if selector in self.tapped:
            wait_past_double_tap(self.page, self.tapped[selector], self.double_tap)
        # A control just answered takes no tap for a moment (docs/BOARD.md,
        # "Taps"); a forced tap would not wait for it as a finger does.
        before = wait_settled(self.page, then=PAGE)
        self.page.locator(selector).first.tap(force=True)
        shown = self.taken([before, then, gone, self.javascript, CONTROLS])
        self.tapped[selector] = time.monotonic()  # taken: the next tap on it counts from here
        self.taps += 1
        if not shown["over"]:
            self.check(shown["seen"])

    def taken(self, args: list, seconds: float = 10) -> dict:
        """TAKEN's answer once the tap is taken. Polled from here without
        JavaScript, whose page runs no timer for a promise to wait on."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                shown = self.page.evaluate(TAKEN_PAINTED if self.javascript else TAKEN, args)
            except PlaywrightError:  # between two pages: ask the next one
                shown = None
            if shown is not None:
                return shown
            assert time.monotonic() < deadline, (self.name, self.taps, "the tap was not taken")
            if not self.javascript:
                time.sleep(0.02)

    def shot(self, what: str) -> None:
        self.shots(self.page, f"moves-{self.name}-{what}")


def play_a_whole_game(table: Table, players: int) -> None:
    """From the first deal to the game's end: every strip, sheet and notice the
    board shows comes and goes at least once."""
    sides = 3 if players == 3 else 2
    table.check()
    if players == 4:  # the four-card deal's double Ronda, inside its button
        assert table.page.evaluate("""() => [...document.querySelectorAll('.kind-double_ronda')]
            .every(e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight)""")
    # Announcements: a draft, then a contest waiting for its ranks.
    table.press(".pad.side-0 .kind-ronda", then=".draft-strip")
    table.press(".pad.side-1 .kind-ronda", then=".draft-strip")
    table.shot("draft")
    table.press("button[value=announce]")
    table.press(".reveal-strip a", then=".ranks-sheet")
    expect(table.page.locator("button[value=reveal]")).to_be_in_viewport(ratio=1)
    table.shot("ranks")
    for side in (0, 1):
        table.page.locator(f"label:has(input[name=rank{side}][value='{7 - side}'])").tap()
    table.press("button[value=reveal]")  # side 0 takes the pool: +2
    # A button that is off says why, in the notice over the status line.
    table.press("button[value='hit.0.5']", then="#notice.shown")
    table.shot("notice")
    # A chain, ended by Over; another, ended by the other side's missa.
    table.press("button[value='hit.0.1']")
    table.press("button[value='hit.1.5']")
    table.shot("chain")
    table.press("button[value=chain_end]")  # side 1: +5
    table.press(f"button[value='hit.{sides - 1}.1']")
    table.press("button[value='missa.0']")  # the chain scores, then the missa
    table.press("form.undo button")
    table.press("button[value='missa.0']")
    # The sheets open over the board: More, then the end of the hand.
    table.press(".actions a[href$='sheet=more']", then=".sheet")
    table.press(".sheet .close", gone=".sheet")
    table.press("button[value=next_deal]")
    table.press(".actions a[href$='sheet=end']", then=".end-sheet")
    # The count before the hand's last deal: it gives nothing, and asks first.
    table.page.locator("#cards0").fill("13" if sides == 3 else "20")
    if sides == 3:
        table.page.locator("#cards1").fill("13")
    table.press("button[value=end_hand]", then=".ask")  # not the hand's last deal: asked once
    table.shot("end-asked")
    table.press("button[value=end_hand]")
    # The next hand: the last deal, a missa with its very last card, the count.
    deals = {2: 6, 3: 4, 4: 3}[players]
    for _ in range(deals - 1):
        table.press("button[value=next_deal]")
    table.press(f"button[value='hit.{sides - 1}.1']")
    table.press(".actions a[href$='sheet=end']", then=".end-sheet")
    table.press("button[value^=missa_last]")
    # Once a hand (at the table three taps made three): the button stays, off,
    # and says why when tapped again; nothing is recorded.
    recorded = table.version()
    table.press("button[value^=missa_last]", then="#notice.shown")
    assert table.version() == recorded
    expect(table.page.locator("#notice")).to_be_in_viewport()
    table.shot("last-card")
    table.page.locator("#cards0").fill("31")
    if sides == 3:
        table.page.locator("#cards1").fill("2")
    table.press("button[value=end_hand]")
    expect(table.page.locator(".over")).to_be_visible()
    # The result fits the screen too, whatever its Undo says (a long one
    # widened the page).
    seen = table.page.evaluate(MEASURE, CONTROLS)
    assert seen["width"] <= seen["viewport"], (table.name, "over", seen["width"])
    table.shot("over")


GAMES = [
    # (players, JavaScript, language, phone): every pair of values of any two
    # of these meets in one game at least (an orthogonal array of nine rows).
    (2, True, "fr", "small"), (2, False, "ar", "tall"), (2, True, "en", "small"),
    (3, False, "fr", "small"), (3, True, "ar", "small"), (3, True, "en", "tall"),
    (4, True, "fr", "tall"), (4, True, "ar", "small"), (4, False, "en", "small"),
]


def test_the_whole_games_meet_every_pair_of_players_script_language_and_phone():
    values = [sorted(set(column), key=str) for column in zip(*GAMES)]
    for (i, first), (j, second) in itertools.combinations(enumerate(values), 2):
        met = {(game[i], game[j]) for game in GAMES}
        assert met == set(itertools.product(first, second)), (i, j)


@pytest.mark.parametrize("players, javascript, language, phone", GAMES)
def test_no_button_moves_in_a_whole_game(new_phone, server, screenshot, players, javascript,
                                         language, phone):
    sides = NAMES[language][: 3 if players == 3 else 2]
    rules = {"target": 11, "preset": "classique" if players == 4 else "appli"}
    page = new_phone(viewport=PHONES[phone], java_script_enabled=javascript)
    game = page.request.post(f"{server.url}/api/games", data=json.dumps(
        {"sides": sides, "players": players, "rules": rules}),
        headers={"Content-Type": "application/json"}).json()
    page.goto(f"/games/{game['id']}?lang={language}")
    name = f"{players}p-{'js' if javascript else 'nojs'}-{language}-{phone}"
    play_a_whole_game(Table(page, javascript, screenshot, name), players)


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_a_long_notice_moves_nothing(new_phone, server, language):
    """The status line's notice (a refusal, or the connection state another
    part of the page may show there) covers no control and moves none."""
    page = new_phone(viewport=PHONES["small"])
    without_the_engine(page)  # three boards, each read as loaded
    for players in (2, 3, 4):
        sides = NAMES[language][: 3 if players == 3 else 2]
        game = page.request.post(f"{server.url}/api/games", data=json.dumps(
            {"sides": sides, "players": players}),
            headers={"Content-Type": "application/json"}).json()
        page.goto(f"/games/{game['id']}?lang={language}")
        before = page.evaluate(MEASURE, CONTROLS)
        page.evaluate("""() => { const n = document.getElementById('notice');
            n.textContent = 'x '.repeat(200); n.className = 'notice shown error'; }""")
        assert page.evaluate(MEASURE, CONTROLS) == before, players
        covered = page.evaluate("""sel => {
            const n = document.getElementById('notice').getBoundingClientRect();
            return [...document.querySelectorAll(sel + ', #board a')].filter(e => {
              const r = e.getBoundingClientRect();
              return r.width && r.left < n.right && r.right > n.left && r.top < n.bottom
                     && r.bottom > n.top; }).length; }""", CONTROLS)
        assert covered == 0, players


def test_the_connection_notice_moves_nothing(new_phone, server, screenshot):
    """The connection notice (the server away, the taps waiting) over the status
    line: every button stays where it was."""
    page = new_phone(viewport=PHONES["small"])
    game = page.request.post(f"{server.url}/api/games", data=json.dumps(
        {"sides": NAMES["fr"][:3], "players": 3}),
        headers={"Content-Type": "application/json"}).json()
    page.goto(f"/games/{game['id']}")
    before = page.evaluate(MEASURE, CONTROLS)
    go_offline(page)
    page.locator("button[value='missa.0']").tap()
    expect(page.locator("#link-state")).to_be_visible()
    screenshot(page, "moves-connection-notice")
    assert page.evaluate(MEASURE, CONTROLS) == before
    go_online(page)


def test_three_sides_settle_their_ranks_with_confirm_on_screen(new_phone, server):
    page = new_phone(viewport=PHONES["small"])
    game = page.request.post(f"{server.url}/api/games", data=json.dumps(
        {"sides": NAMES["fr"], "players": 3}), headers={"Content-Type": "application/json"}).json()
    page.request.post(f"{server.url}/api/games/{game['id']}/events", data=json.dumps(
        {"type": "announce", "announcements": [
            {"side": side, "kind": "ronda"} for side in range(3)]}),
        headers={"Content-Type": "application/json"})
    page.goto(f"/games/{game['id']}?sheet=ranks")
    expect(page.locator("fieldset.ranks")).to_have_count(3)
    expect(page.locator("button[value=reveal]")).to_be_in_viewport(ratio=1)
    assert page.evaluate("document.documentElement.scrollWidth <= screen.width")


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_every_control_holds_its_words_and_fits_the_small_phone(new_phone, server, language):
    """No label spills out of its button at 360 px ("Options" did, by 2 px,
    in the board's narrow third column), and every control is on the first
    screen of a 360×640 phone, 48 px high at least (with the
    classique preset's Double Ronda row, the bottom row ended at 645 px);
    2, 3 and 4 players, both built-in presets."""
    page = new_phone(viewport=PHONES["small"])
    without_the_engine(page)  # six boards, each read as loaded
    for players in (2, 3, 4):
        for preset in ("appli", "classique"):
            game = page.request.post(f"{server.url}/api/games", data=json.dumps(
                {"sides": NAMES[language][: 3 if players == 3 else 2], "players": players,
                 "rules": {"preset": preset}}),
                headers={"Content-Type": "application/json"}).json()
            page.goto(f"/games/{game['id']}?lang={language}")
            seen = page.evaluate("""sel => {
                const all = [...document.querySelectorAll(sel)];
                return {
                  spilled: all.filter(e => e.scrollWidth > e.clientWidth
                                           || e.scrollHeight > e.clientHeight)
                              .map(e => e.textContent.trim()),
                  bottom: Math.max(...all.map(e => e.getBoundingClientRect().bottom)),
                  lowest: Math.min(...all.map(e => e.getBoundingClientRect().height)),
                  screen: innerHeight, scrolled: scrollY };
            }""", CONTROLS + ", #board .status .home")
            where = (language, players, preset)
            assert seen["spilled"] == [], where
            assert seen["scrolled"] == 0 and seen["bottom"] <= seen["screen"], (where, seen)
            assert seen["lowest"] >= 48, (where, seen)
