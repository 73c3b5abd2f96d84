"""Seen at the table: four players, the partners typed, then the first tap on
"Start the game". Its focus leaves the last partner's field, the first
dealer's choices take the sides' new names ("Karim & Salma")... and used to
wrap to a second row, pushing the button 56 px down under the finger: the tap
did nothing. Nothing above the button changes height now; the first tap
starts the game."""

import re

import pytest
from playwright.sync_api import expect

PHONES = {"small": {"width": 360, "height": 640}, "tall": {"width": 390, "height": 844}}
PARTNERS = {"p0a": "Karim", "p0b": "Salma", "p1a": "Youssef", "p1b": "Nadia"}
LONG = {"p0a": "Abdelkrim Benjelloun", "p0b": "Salma El Ouazzani", "p1a": "Youssef Alaoui",
        "p1b": "Nadia Bennani Smires"}


@pytest.mark.parametrize("language, phone, names", [("en", "tall", PARTNERS),
                                                    ("ar", "small", LONG)])
def test_the_first_tap_on_start_starts_a_four_player_game(new_phone, language, phone, names):
    page = new_phone(viewport=PHONES[phone])

    def type_the_partners():
        page.goto(f"/games/new?lang={language}")
        page.locator("input[name=players][value='4']").check()
        for field, name in names.items():
            page.locator(f"#{field}").tap()
            page.keyboard.type(name)
        start = page.locator("form.new-game > button.primary")
        start.scroll_into_view_if_needed()  # the last partner's field keeps the focus
        assert page.evaluate("() => document.activeElement.id") == "p1b"
        return start, start.bounding_box()

    # Measured: the focus leaves the field, the choices relabel, nothing moves.
    start, before = type_the_partners()
    dealer = page.locator(".choice.dealer").bounding_box()
    page.evaluate("() => document.activeElement.blur()")
    expect(page.locator(".choice.dealer span").first).to_contain_text(names["p0a"])
    assert start.bounding_box() == before
    assert page.locator(".choice.dealer").bounding_box()["height"] == dealer["height"]
    # Played: a real finger on Start, the field still focused.
    start, box = type_the_partners()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page).to_have_url(re.compile(r"/games/[a-z2-9]{10}$"))
    expect(page.locator("#board")).to_be_visible()
