"""Two phones tap the same Missa at once (playtest 1, #4): it counts once,
and the phone whose tap came second says, in words, that it was already
recorded, with the fresh score. With and without the page's script."""

import json

import pytest
from playwright.sync_api import expect

from support.table import expect_scores, start_game


@pytest.mark.parametrize("script", [True, False], ids=["js", "no-js"])
def test_the_same_missa_from_two_phones_counts_once(phone, new_phone, screenshot, script):
    start_game(phone)
    other = new_phone(java_script_enabled=script,
                      viewport={"width": 360, "height": 640})
    other.goto(phone.url)
    # The second phone has not yet seen the first one's tap (its next look at
    # the game comes within two seconds): its polls see the game as it was.
    game = phone.locator("#board").get_attribute("data-game")
    before = phone.request.get(f"/api/games/{game}").text()
    other.route(f"**/api/games/{game}", lambda route: route.fulfill(
        status=200, content_type="application/json", body=before))
    phone.get_by_role("button", name="Missa pour Nous").tap()
    expect_scores(phone, 1, 0)
    other.get_by_role("button", name="Missa pour Nous").tap()
    expect(other.locator("#notice")).to_contain_text("Déjà enregistré sur un autre téléphone")
    expect_scores(other, 1, 0)
    # The sentence fits the notice's three lines on the small phone (its 2 px padding aside).
    overflow = other.locator("#notice").evaluate("n => n.scrollHeight - n.clientHeight")
    assert overflow <= 2
    screenshot(other, f"two-phones-same-missa-{'js' if script else 'no-js'}-360")
    # The next deal, tapped on both, is dealt once.
    before = phone.request.get(f"/api/games/{game}").text()
    phone.get_by_role("button", name="Donne suivante").tap()
    expect(phone.locator(".status-text")).to_contain_text("Donne 2/6")
    other.get_by_role("button", name="Donne suivante").tap()
    expect(other.locator("#notice")).to_contain_text("Déjà enregistré sur un autre téléphone")
    state = json.loads(phone.request.get(f"/api/games/{game}").text())
    assert state["scores"] == [1, 0] and state["deal"] == 2 and state["version"] == 2
