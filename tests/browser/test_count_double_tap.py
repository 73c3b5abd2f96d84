"""A double tap on the count's Confirm. The sheet closes on the new hand's
board, and the second tap, half a second to a second later, landed on what
was under the finger there: with long team names the Undo, which took the
count back, saying nothing; elsewhere End of hand, a blank sheet for the new
hand. After a sheet's move the whole board takes no tap for 1.5 s. With and
without JavaScript."""

import json
import time

import pytest
from playwright.sync_api import expect

from support.table import wait_settled

TEAMS = ["Abdelkader & Fatima-Zahra", "Youssef & Nadia"]


def post(page, path, body):
    return page.request.post(path, data=json.dumps(body),
                             headers={"Content-Type": "application/json"}).json()


@pytest.mark.real_time
@pytest.mark.parametrize("javascript, gap", [(True, 0.7), (True, 1.2), (False, 1.0)])
def test_a_double_tap_on_the_counts_confirm_counts_it_once(new_phone, javascript, gap):
    page = new_phone(java_script_enabled=javascript, viewport={"width": 360, "height": 640})
    game = post(page, "/api/games", {"sides": TEAMS, "players": 4})["id"]
    for _ in range(2):  # the hand's last deal: the count ends it without a question
        post(page, f"/api/games/{game}/events", {"type": "next_deal"})
    page.goto(f"/games/{game}?sheet=end")
    page.locator("#cards0").fill("18")
    confirm = page.locator("button[value=end_hand]")
    if javascript:  # the sheet follows the typing: its Confirm is on once the points are in
        expect(confirm).not_to_have_attribute("aria-disabled", "true")
    wait_settled(page)
    box = confirm.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    time.sleep(gap)  # the second tap of a hurried finger (the subject: its timing)
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(800)  # whatever the second tap started has arrived
    state = page.request.get(f"/api/games/{game}").json()
    assert state["hand"] == 2 and state["version"] == 3, (state["hand"], state["version"])  # counted once, not undone
    expect(page.locator("#board .sheet")).to_have_count(0)  # no sheet opened by it
