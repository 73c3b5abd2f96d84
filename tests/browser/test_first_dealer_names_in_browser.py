"""A new game on a phone starts from that phone, and its first-dealer choice
says what each side will be called, live as the fields change: typed,
tapped as recent players (four players: "Karim & Salma"), or left empty
(the default names). A phone that never played finds the default names,
not another table's, and that table's people as one-tap recent players."""

import json

import pytest
from playwright.sync_api import expect

SMALL = {"width": 360, "height": 640}
WORDS = {"fr": ("Nous", "Eux", "4 joueurs, deux équipes"),
         "ar": ("نحن", "هم", "4 لاعبين، فريقان"),
         "en": ("Us", "Them", "4 players, two teams")}


def another_tables_game(page, server):
    body = {"sides": ["Karim & Salma", "Omar & Leila"], "players": 4,
            "partners": [["Karim", "Salma"], ["Omar", "Leila"]]}
    response = page.request.post(f"{server.url}/api/games", data=json.dumps(body),
                                 headers={"Content-Type": "application/json"})
    assert response.status == 201


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_the_first_dealer_is_named_as_the_sides_are_filled_in(new_phone, server, screenshot,
                                                               language):
    us, them, four = WORDS[language]
    page = new_phone(viewport=SMALL)
    another_tables_game(page, server)
    page.goto(f"/games/new?lang={language}")
    dealer = [page.locator(f"span[data-name-of=name{side}]") for side in (0, 1)]
    expect(page.locator("#name0")).to_have_value(us)  # not the other table's names
    expect(page.locator("#name1")).to_have_value(them)
    page.get_by_label(four).check()
    # The partners tapped as recent players: the team deals under their names.
    page.locator("button[value='p0a:Karim']").tap()
    expect(dealer[0]).to_have_text("Karim")
    page.locator("button[value='p0b:Salma']").tap()
    expect(dealer[0]).to_have_text("Karim & Salma")
    expect(dealer[1]).to_have_text(them)
    page.locator("fieldset.dealer").scroll_into_view_if_needed()
    screenshot(page, f"first-dealer-{language}")
    page.locator("#p1a").fill("Omar")
    expect(dealer[1]).to_have_text("Omar")
    # A side's own name typed over the offered one; then left empty: its default name.
    page.locator("#name1").fill("Les Lions")
    expect(dealer[1]).to_have_text("Les Lions")
    page.locator("#name1").fill("")
    expect(dealer[1]).to_have_text("Omar")
    page.locator("#p1a").fill("")
    expect(dealer[1]).to_have_text(them)
    page.locator("#p0a").fill("")
    page.locator("#p0b").fill("")
    page.locator("#name0").fill("")
    expect(dealer[0]).to_have_text(us)
    box = page.locator("fieldset.dealer").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= SMALL["width"]
