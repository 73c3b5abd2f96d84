"""One hand's count, typed on two phones' sheets: it ends its hand once.
The second Confirm says the count is already recorded (it used to ask
whether to end the next hand early, and its Yes ended that one too); a
sheet whose hand the other phone counted stays open while its phone follows
the game, and its Confirm is refused (docs/BOARD.md, "Two phones")."""

import json
import re

import pytest
from playwright.sync_api import expect

from support.table import hold_polls, open_game, wait_for_polls

SHEET = ".actions a[href$='sheet=end']"


def at_the_last_deal(page) -> str:
    """A two-player game at its first hand's last deal, its board on `page`; its id."""
    game = open_game(page)
    for _ in range(5):
        page.request.post(f"/api/games/{game}/events", data='{"type": "next_deal"}',
                          headers={"Content-Type": "application/json"})
    page.reload()
    return game


def state_of(page, game: str) -> dict:
    return json.loads(page.request.get(f"/api/games/{game}").text())


def game_of(state: dict) -> dict:
    """The game a state says, less its version and time: a tap that was
    the other phone's record (the same count) is a record of its own."""
    return {key: value for key, value in state.items() if key not in ("version", "updated_at")}


@pytest.mark.parametrize("script", [True, False], ids=["js", "no-js"])
def test_a_count_confirmed_on_two_phones_ends_its_hand_once(phone, new_phone, screenshot, script):
    game = at_the_last_deal(phone)
    other = new_phone(java_script_enabled=script, viewport={"width": 360, "height": 640})
    other.goto(phone.url)
    for page in (phone, other):
        page.locator(SHEET).tap()
        page.locator("#cards0").fill("15")
    # The second phone has not yet seen the first one's count (its next look
    # at the game comes within two seconds): its polls see the game as it was.
    release = hold_polls(other, game)
    phone.get_by_role("button", name="Valider le compte").tap()
    expect(phone.locator(".status-text")).to_contain_text("Manche 2")
    counted = state_of(phone, game)
    assert (counted["hand"], counted["scores"]) == (2, [0, 5])
    other.get_by_role("button", name="Valider le compte").tap()
    release()
    expect(other.locator("#notice")).to_contain_text("Déjà enregistré sur un autre téléphone")
    screenshot(other, f"count-on-two-phones-{'js' if script else 'no-js'}-360")
    expect(other.locator(".end-sheet")).to_have_count(0)
    expect(other.locator(".ask")).to_have_count(0)  # no early end of hand 2 asked
    assert game_of(state_of(phone, game)) == game_of(counted)


@pytest.mark.parametrize("typed", ["before", "after"])
def test_a_sheet_whose_hand_the_other_phone_counted_stays_until_its_confirm_is_refused(
        phone, new_phone, typed):
    """The other phone's board follows the count while its sheet is open: the
    sheet stays where it is (closed, it left that count's Undo where Confirm
    was, and the next tap took the hand back), and its Confirm, tapped a few
    seconds later, says the count is already recorded. The same when the
    count typed on it reaches the server after the other phone's count."""
    game = at_the_last_deal(phone)
    other = new_phone()
    other.goto(phone.url)
    other.locator(SHEET).tap()
    confirm = other.get_by_role("button", name="Valider le compte")
    if typed == "before":
        other.locator("#cards0").fill("15")
        expect(confirm).not_to_have_attribute("aria-disabled", "true")
    else:
        expect(other.locator(".end-sheet")).to_be_visible()
    where = confirm.bounding_box()
    phone.locator(SHEET).tap()
    phone.locator("#cards0").fill("15")
    phone.get_by_role("button", name="Valider le compte").tap()
    expect(phone.locator(".status-text")).to_contain_text("Manche 2")
    counted = state_of(phone, game)
    # Its next polls: the board of hand 2 behind, the sheet of hand 1 unmoved.
    expect(other.locator(".status-text")).to_contain_text("Manche 2")
    if typed == "after":
        other.locator("#cards0").fill("15")
        expect(other.locator(".end-sheet .gets")).to_contain_text("La manche 1 est déjà comptée")
    wait_for_polls(other)
    expect(other.locator(".end-sheet")).to_be_visible()
    expect(other.locator(".end-sheet .gets")).to_contain_text("La manche 1 est déjà comptée")
    assert confirm.bounding_box() == where
    confirm.tap()
    expect(other.locator("#notice")).to_contain_text("Déjà enregistré sur un autre téléphone")
    expect(other.locator(".end-sheet")).to_have_count(0)
    assert game_of(state_of(phone, game)) == game_of(counted)
    # Closed for good: the board follows the game on, and the sheet stays shut.
    assert "sheet" not in other.url
    phone.request.post(f"/api/games/{game}/events", data='{"type": "next_deal"}',
                       headers={"Content-Type": "application/json"})
    expect(other.locator(".status-text")).to_contain_text("Donne 2")
    wait_for_polls(other)
    expect(other.locator(".end-sheet")).to_have_count(0)


def test_the_address_of_a_sheet_of_a_hand_counted_opens_no_sheet_by_itself(phone):
    """The address of a count's sheet opened again once its hand is counted
    (a reload, Back): the page closes the sheet, saying so, and its address
    too. It kept the sheet's query, and the board's next follow, asked at
    that address, opened the sheet by itself, filled with that count."""
    game = at_the_last_deal(phone)
    phone.request.post(f"/api/games/{game}/events", data='{"type": "end_hand", "cards": [21, null]}',
                       headers={"Content-Type": "application/json"})
    phone.goto(f"/games/{game}?sheet=end&cards0=21&hand=1")
    expect(phone.locator("#notice")).to_contain_text("La manche 1 est déjà comptée")
    assert "sheet" not in phone.url and "hand=" not in phone.url
    # The other phone plays on: this board follows, and opens no sheet.
    phone.request.post(f"/api/games/{game}/events", data='{"type": "next_deal"}',
                       headers={"Content-Type": "application/json"})
    expect(phone.locator(".status-text")).to_contain_text("Donne 2")
    wait_for_polls(phone)
    expect(phone.locator(".end-sheet")).to_have_count(0)


def test_a_count_typed_as_the_other_phone_reaches_the_last_deal_keeps_its_digits(phone):
    """The count typed on the sheet before the hand's last deal, while the
    other phone taps Next deal to it: the board follows between two digits,
    and the last card's Missa comes above the count. The field typed in was
    made another element: a digit was lost ("1" for "19"), and the sheet's
    next look at the count went to /games/undefined (a 404 said in the page)."""
    game = open_game(phone)
    for _ in range(4):
        phone.request.post(f"/api/games/{game}/events", data='{"type": "next_deal"}',
                           headers={"Content-Type": "application/json"})
    phone.reload()
    phone.locator(SHEET).tap()
    field = phone.locator("#cards0")
    field.click()
    phone.keyboard.type("1")
    phone.wait_for_url("**cards0=1**")
    phone.request.post(f"/api/games/{game}/events", data='{"type": "next_deal"}',
                       headers={"Content-Type": "application/json"})  # the other phone
    phone.keyboard.type("9")
    phone.evaluate("() => window.Ronda.board.poll()")  # its follow, between the digits
    expect(phone.locator(".last-card")).to_be_visible()
    expect(field).to_have_value("19")
    phone.wait_for_url("**cards0=19**")
    expect(phone.locator(".end-sheet .computed")).to_contain_text("21 cartes")  # of 19 typed
    expect(phone.locator("#notice")).not_to_have_class(re.compile(r"\bshown\b"))
