"""What the scorer picks and types in an open sheet stays while the board
follows the other phone.

A board that follows the other phone's taps is drawn again with its sheet
open, from the server, which knows nothing of what was picked and typed in
it: a correction's side picked ("For: Eux") went back to the first side, and
its note was emptied, so "Add the correction" gave the points to the wrong
side. The same with the ranks picked to settle two Rondas."""

import json

from playwright.sync_api import expect

from support.table import open_game, wait_for_polls


def post(page, game: str, body: dict) -> dict:
    response = page.request.post(f"/api/games/{game}/events", data=json.dumps(body),
                                 headers={"Content-Type": "application/json"})
    assert response.ok, response.text()
    return response.json()


def test_a_corrections_side_and_note_stay_as_picked_while_the_board_follows(phone):
    game = open_game(phone)
    phone.goto(f"/games/{game}?sheet=more")
    phone.get_by_role("radio", name="Eux").check()
    phone.locator("#note").fill("carte tombée")
    phone.locator("#points").fill("2")  # the field typed in last keeps the focus
    version = phone.locator("#board").get_attribute("data-version")
    post(phone, game, {"type": "missa", "side": 0})  # the other phone's tap
    expect(phone.locator("#board")).not_to_have_attribute("data-version", version)
    wait_for_polls(phone)
    expect(phone.get_by_role("radio", name="Eux")).to_be_checked()
    expect(phone.locator("#note")).to_have_value("carte tombée")
    phone.get_by_role("button", name="Ajouter la correction").tap()
    expect(phone.locator(".more-sheet, .sheet")).to_have_count(0)
    state = json.loads(phone.request.get(f"/api/games/{game}").text())
    assert state["scores"] == [1, 2]  # the Missa for Nous, the correction for Eux


def test_the_ranks_picked_stay_picked_while_the_board_follows(phone):
    game = open_game(phone)
    post(phone, game, {"type": "announce", "announcements": [
        {"side": 0, "kind": "ronda"}, {"side": 1, "kind": "ronda"}]})
    phone.goto(f"/games/{game}?sheet=ranks")
    nous, eux = phone.locator("fieldset.side-0"), phone.locator("fieldset.side-1")
    nous.get_by_role("radio", name="7").check()
    eux.get_by_role("radio", name="3").check()
    version = phone.locator("#board").get_attribute("data-version")
    post(phone, game, {"type": "missa", "side": 1})  # the other phone's tap
    expect(phone.locator("#board")).not_to_have_attribute("data-version", version)
    wait_for_polls(phone)
    expect(nous.get_by_role("radio", name="7")).to_be_checked()
    expect(eux.get_by_role("radio", name="3")).to_be_checked()
    phone.get_by_role("button", name="Valider les rangs").tap()
    expect(phone.locator("#sheet")).to_have_count(0)
    state = json.loads(phone.request.get(f"/api/games/{game}").text())
    assert not state["awaiting_reveal"]
    assert state["scores"] == [2, 1]  # Nous's Ronda of 7 beats Eux's of 3; their Missa
