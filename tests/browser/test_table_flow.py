"""What a table does, in the browser: a double tap counts once, the
card count typed is the count recorded, a hand ended early asks once, the
rematch is the new game's address on every phone, a button that is off says
why when tapped."""

import json
import re

import pytest
from playwright.sync_api import expect

from support.table import (
    expect_scores,
    mark,
    open_game,
    start_game,
    tap,
    wait_for_polls,
    wait_past_double_tap,
)


def state(page):
    game = page.locator("#board").get_attribute("data-game")
    return json.loads(page.request.get(f"/api/games/{game}").text())


def new_game(page, server, **body):
    body.setdefault("sides", ["Nous", "Eux"])
    return page.request.post(f"{server.url}/api/games", data=json.dumps(body),
                             headers={"Content-Type": "application/json"}).json()


def at_the_last_deal(page, server, query=""):
    """A new game's board at its first hand's last deal."""
    game = new_game(page, server)
    for _ in range(5):
        page.request.post(f"{server.url}/api/games/{game['id']}/events",
                          data='{"type": "next_deal"}',
                          headers={"Content-Type": "application/json"})
    page.goto(f"/games/{game['id']}{query}")


# A tap, then a second one on the same control as soon as the first one's
# answer is on the page (its fresh one-time token too): how long that took.
DOUBLE_TAP = """selector => new Promise(resolve => {
  const board = document.getElementById("board"), version = board.dataset.version;
  const started = performance.now();
  document.querySelector(selector).click();
  const watch = new MutationObserver(() => {
    if (document.getElementById("board").dataset.version === version) { return; }
    watch.disconnect();
    document.querySelector(selector).click();
    resolve(performance.now() - started);
  });
  watch.observe(board, {attributes: true});
})"""


@pytest.mark.real_time
def test_a_second_tap_right_after_the_first_ones_answer_counts_once(phone):
    open_game(phone)
    elapsed = phone.evaluate(DOUBLE_TAP, "button[value='missa.0']")
    assert elapsed < 400, f"the first tap's answer took {elapsed:.0f} ms: no double tap"
    phone.wait_for_timeout(600)
    assert state(phone)["scores"] == [1, 0] and state(phone)["version"] == 1
    expect_scores(phone, 1, 0)
    # Later, the same button is another tap.
    tap(phone, "Missa pour Nous")
    expect_scores(phone, 2, 0)


@pytest.mark.real_time
def test_a_double_tap_on_missa_with_a_chain_open_is_one_missa_and_no_undo(phone):
    open_game(phone)
    tap(phone, "1 Bount pour Eux")
    box = phone.get_by_role("button", name="Missa pour Nous").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    # The finger taps twice at one place; the second lands once the first is
    # answered (the chain strip gone): on the same Missa, never on Undo.
    version = phone.locator("#board").get_attribute("data-version")
    phone.touchscreen.tap(x, y)
    phone.wait_for_function("v => document.getElementById('board').dataset.version !== v",
                            arg=version)
    phone.touchscreen.tap(x, y)
    phone.wait_for_timeout(600)
    game = state(phone)
    assert game["scores"] == [1, 1] and game["chain"] is None and game["version"] == 2


def test_a_button_that_is_off_says_why_when_tapped(phone, phone_without_js):
    for page in (phone, phone_without_js):
        open_game(page)
        page.get_by_role("button", name="5 Khamsa pour Nous").tap(force=True)  # it is off
        expect(page.locator("#notice")).to_have_text("Le 5 suit un 1 ouvert de l'autre camp.")
        assert state(page)["version"] == 0
    # Hints are no list pushing the last events down: said only when asked.
    expect(phone.locator("#hints")).to_have_class("visually-hidden")


def test_the_card_count_typed_is_the_count_recorded_even_at_once(phone, server):
    at_the_last_deal(phone, server)
    mark(phone, "Fin de manche", then="Cartes ramassées par Nous")
    field = phone.get_by_label("Cartes ramassées par Nous")
    expect(field).to_have_value("")  # the sheet starts empty
    field.fill("17")
    # At once: before the preview of 17 came back (no stale +0 shown either).
    confirm = phone.get_by_role("button", name="Valider le compte")
    assert confirm.get_attribute("data-scores") is None
    tap(phone, "Valider le compte")
    expect_scores(phone, 0, 3)  # 17 for Nous, so 23 for Eux: +3


def test_the_card_count_typed_is_the_count_recorded_without_javascript(phone_without_js,
                                                                         server):
    page = phone_without_js
    at_the_last_deal(page, server, "?sheet=end")
    page.get_by_label("Cartes ramassées par Nous").fill("17")
    # Without JavaScript it posts what is typed: it looks as tappable as it is.
    page.get_by_role("button", name="Valider le compte").tap()
    expect(page.get_by_text("Manche 2 · Donne 1/6")).to_be_visible()
    expect_scores(page, 0, 3)


def test_an_empty_count_cannot_be_confirmed(phone_without_js, server):
    page = phone_without_js
    game = new_game(page, server)
    page.goto(f"/games/{game['id']}?sheet=end")
    page.get_by_role("button", name="Valider le compte").tap()  # the server says why
    expect(page.locator("#notice")).to_have_text("Tapez combien de cartes \u2068Nous\u2069 a ramassées.")
    assert state(page)["version"] == 0


def test_a_hand_ended_before_its_last_deal_asks_once_more(phone):
    open_game(phone)
    mark(phone, "Fin de manche", then="Cartes ramassées par Nous")
    phone.get_by_label("Cartes ramassées par Nous").fill("25")
    phone.get_by_role("button", name="Valider le compte").tap()
    expect(phone.get_by_text("La manche n'est pas finie (donne 1 sur 6) : la terminer "
                             "maintenant ?")).to_be_visible()
    assert state(phone)["version"] == 0
    tap(phone, "Oui, terminer la manche maintenant")
    expect_scores(phone, 5, 0)
    expect(phone.get_by_text("Manche 2 · Donne 1/6")).to_be_visible()


def test_the_rematch_is_the_new_games_address_on_every_phone(phone, new_phone, server):
    game = new_game(phone, server, rules={"target": 11})
    phone.goto(f"/games/{game['id']}")
    other = new_phone()
    other.goto(f"/games/{game['id']}")
    phone.request.post(f"{server.url}/api/games/{game['id']}/events",
                       data='{"type": "adjust", "side": 1, "points": 11}',
                       headers={"Content-Type": "application/json"})
    expect(phone.get_by_role("heading", name="Ils gagnent !")).to_be_visible(timeout=5000)
    phone.get_by_role("button", name="Revanche").tap()
    expect(phone).not_to_have_url(f"{server.url}/games/{game['id']}")
    rematch = phone.url
    expect(phone.locator("#board[data-live='1']")).to_be_visible()
    # The other phone follows to the rematch, and stays there.
    expect(other).to_have_url(rematch, timeout=5000)
    wait_for_polls(other)
    expect(other).to_have_url(rematch)
    phone.reload()
    assert phone.url == rematch and state(phone)["version"] == 0
    # Back on the old game: no second rematch, the way to the first one.
    phone.goto(f"/games/{game['id']}")
    phone.get_by_role("link", name="La revanche a commencé : y aller").tap()
    expect(phone).to_have_url(rematch)


def test_the_house_rules_are_found_from_home_and_from_the_board(phone):
    phone.goto("/")
    phone.get_by_role("link", name="Règles de la maison").tap()
    expect(phone.get_by_role("heading", name="Règles de la maison")).to_be_visible()
    start_game(phone)
    mark(phone, "Plus", then="Règles de la maison (pour les prochaines parties)")
    phone.get_by_role("link", name="Règles de la maison (pour les prochaines parties)").tap()
    expect(phone).to_have_url(re.compile(r".*/settings$"))


def test_an_announcement_after_the_first_card_is_recorded_from_the_board(phone):
    open_game(phone)
    tap(phone, "1 Bount pour Nous")
    mark(phone, "Ronda pour Eux", then="Annonces : Eux Ronda")
    tap(phone, "Valider")
    expect_scores(phone, 0, 1)
    expect(phone.get_by_text("Chaîne : Nous +1, pas encore compté")).to_be_visible()


def test_a_side_that_announced_says_so_instead_of_drafting_twice(phone):
    open_game(phone)
    mark(phone, "Ronda pour Nous", then="Annonces : Nous Ronda")
    wait_past_double_tap(phone)  # a second tap, not a double tap
    phone.get_by_role("link", name="Ronda pour Nous").tap(force=True)  # it is off
    expect(phone.locator("#notice")).to_have_text(
        "Nous avons déjà annoncé : chaque joueur annonce une fois par donne.")
    expect(phone.locator(".draft-strip .draft-words")).to_have_text("Annonces : Nous Ronda")


# Two taps in the same instant: the second one lands before the first one's
# board (its draft) has come back from the server.
AT_ONCE = """selectors => selectors.forEach(s => document.querySelector(s).click())"""


def test_two_announcements_tapped_at_once_are_both_drafted(phone):
    open_game(phone)
    phone.evaluate(AT_ONCE, [".pad.side-0 .kind-ronda", ".pad.side-1 .kind-ronda"])
    expect(phone.locator(".draft-strip .draft-words")).to_have_text("Annonces : Nous Ronda, Eux Ronda")


def test_confirm_tapped_before_the_last_announcement_came_back_confirms_it_too(phone):
    """Tap B's Ronda, then at once Confirm (where the finger already is):
    both Rondas are recorded, a contest for the ranks, not A's alone."""
    open_game(phone)
    mark(phone, "Ronda pour Nous", then="Annonces : Nous Ronda")
    phone.evaluate(AT_ONCE, [".pad.side-1 .kind-ronda", "button[value=announce]"])
    expect(phone.locator(".reveal-strip")).to_be_visible()
    recorded = state(phone)  # A's Ronda alone would have scored at once, no contest
    assert recorded["awaiting_reveal"] is True and recorded["scores"] == [0, 0]
    assert recorded["version"] == 1
