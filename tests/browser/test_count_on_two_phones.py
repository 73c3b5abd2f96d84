"""One hand's count, typed on two phones' sheets: it ends its hand once.
The second Confirm says the count is already recorded (it used to ask
whether to end the next hand early, and its Yes ended that one too); a
sheet whose hand the other phone counted closes as the phone follows the
game (docs/BOARD.md, "Two phones")."""

import json

import pytest
from playwright.sync_api import expect

from support.table import open_game

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
    before = phone.request.get(f"/api/games/{game}").text()
    other.route(f"**/api/games/{game}", lambda route: route.fulfill(
        status=200, content_type="application/json", body=before))
    phone.get_by_role("button", name="Valider le compte").tap()
    expect(phone.locator(".status-text")).to_contain_text("Manche 2")
    counted = state_of(phone, game)
    assert (counted["hand"], counted["scores"]) == (2, [0, 5])
    other.get_by_role("button", name="Valider le compte").tap()
    expect(other.locator("#notice")).to_contain_text("Déjà enregistré sur un autre téléphone")
    screenshot(other, f"count-on-two-phones-{'js' if script else 'no-js'}-360")
    expect(other.locator(".end-sheet")).to_have_count(0)
    expect(other.locator(".ask")).to_have_count(0)  # no early end of hand 2 asked
    assert state_of(phone, game) == counted


def test_a_sheet_whose_hand_the_other_phone_counted_closes_as_it_follows(phone, new_phone):
    game = at_the_last_deal(phone)
    other = new_phone()
    other.goto(phone.url)
    other.locator(SHEET).tap()
    other.locator("#cards0").fill("16")
    expect(other.locator(".end-sheet")).to_be_visible()
    phone.locator(SHEET).tap()
    phone.locator("#cards0").fill("15")
    phone.get_by_role("button", name="Valider le compte").tap()
    expect(phone.locator(".status-text")).to_contain_text("Manche 2")
    # Its next poll: the board of hand 2, without the sheet of hand 1.
    expect(other.locator(".status-text")).to_contain_text("Manche 2")
    expect(other.locator(".end-sheet")).to_have_count(0)
    assert state_of(phone, game)["hand"] == 2
