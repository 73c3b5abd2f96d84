"""The end-of-hand sheet holds still under the finger.

Typing the first count turns the two-line hint into the one-line points;
the sheet rises from the bottom, so a line that changed height moved ✕, the
last card's Missa and the steppers. Every control of the sheet keeps its box
through the count typed, a count too big, and the question.
Before the hand's last deal the count's Confirm asks once more; the
question's Yes took the Confirm's place, so a double tap answered it. The Yes
is now elsewhere: a double tap (150 to 500 ms) ends no hand, with and without
JavaScript; a deliberate tap on the Yes does."""

import time

import pytest
from playwright.sync_api import expect

from support.table import centre, post

PHONES = {"small": {"width": 360, "height": 640}, "tall": {"width": 390, "height": 844}}
NAMES = {"fr": ["Nous", "Eux", "Vous"], "ar": ["نحن", "هم", "أنتم"], "en": ["Us", "Them", "You"]}
CONTROLS = ".sheet button:not(.default-submit), .sheet .button, .sheet input"
BOXES = """sel => [...document.querySelectorAll(sel)].filter(e => e.offsetParent).map(e => {
  const r = e.getBoundingClientRect();
  return [e.getAttribute('value') || e.id || e.className, Math.round(r.x), Math.round(r.y),
          Math.round(r.width), Math.round(r.height)]; })"""


def a_game(page, server, language, sides, last_deal):
    game = post(page, server, "/api/games", {"sides": NAMES[language][:sides],
                                             "players": sides})
    deals = game["deals_per_hand"] - 1 if last_deal else 1
    for _ in range(deals):
        post(page, server, f"/api/games/{game['id']}/events", {"type": "next_deal"})
    return game["id"]


def boxes(page):
    return {box[0]: box[1:] for box in page.evaluate(BOXES, CONTROLS)}


def same_places(before, after, what):
    moved = {name: (before[name], after[name]) for name in before
             if name in after and before[name] != after[name]}
    assert not moved, (what, moved)


@pytest.mark.parametrize("language, phone, sides", [
    ("fr", "tall", 2), ("ar", "small", 2), ("en", "small", 3), ("ar", "tall", 3)])
def test_typing_the_count_moves_nothing_in_the_sheet(new_phone, server, screenshot, language,
                                                     phone, sides):
    page = new_phone(viewport=PHONES[phone])
    game_id = a_game(page, server, language, sides, last_deal=True)
    page.goto(f"/games/{game_id}?lang={language}&sheet=end")
    start = boxes(page)
    assert "missa_last.0" in start  # the last card's Missa, above the steppers
    gets = page.locator(".gets")
    hint = gets.inner_text()
    page.locator("#cards0").fill("25" if sides == 2 else "14")
    expect(gets).not_to_have_text(hint)  # the live preview has come
    if sides == 3:
        same_places(start, boxes(page), "one of two counts")
        page.locator("#cards1").fill("13")
        expect(page.locator(".gets bdi").first).to_be_visible()
    screenshot(page, f"count-{language}-{phone}-{sides}")
    # With the script the points follow the typing: no Update button, its row kept.
    expect(page.locator("button[value=end_preview].answer")).to_be_hidden()
    same_places(start, boxes(page), "typed")
    # Back to a sentence: the field emptied, or three counts past the deck.
    page.locator("#cards0").fill("" if sides == 2 else "30")
    expect(page.locator(".gets.hint")).to_be_visible()
    same_places(start, boxes(page), "a sentence again")


@pytest.mark.parametrize("language, phone", [("fr", "small"), ("ar", "tall")])
def test_the_question_s_yes_is_not_where_the_confirm_was(new_phone, server, screenshot,
                                                          language, phone):
    page = new_phone(viewport=PHONES[phone], java_script_enabled=False)
    game_id = a_game(page, server, language, 2, last_deal=False)
    page.goto(f"/games/{game_id}?lang={language}&sheet=end&cards0=22")
    before = page.locator("button[value=end_hand]").bounding_box()
    others = boxes(page)
    page.locator("button[value=end_hand]").tap()
    expect(page.locator(".ask")).to_be_visible()
    screenshot(page, f"count-asked-{language}-{phone}")
    after = page.locator("button[value=end_hand]").bounding_box()
    assert after["y"] >= before["y"] + before["height"] or \
        after["y"] + after["height"] <= before["y"], (before, after)
    asked = page.locator(".ask").bounding_box()
    assert asked == before  # the question where the Confirm was, in its very box
    same_places({k: v for k, v in others.items() if k.startswith(("cards", "end_step", "close"))},
                boxes(page), "asked")


@pytest.mark.real_time
@pytest.mark.parametrize("javascript, gaps", [(True, (150, 500)), (False, (300,))])
def test_a_double_tap_on_confirm_ends_no_hand_early(new_phone, server, javascript, gaps):
    page = new_phone(java_script_enabled=javascript)
    for gap in gaps:
        game_id = a_game(page, server, "fr", 2, last_deal=False)
        page.goto(f"/games/{game_id}?sheet=end")
        page.locator("#cards0").fill("22")
        if javascript:
            expect(page.locator(".gets bdi").first).to_be_visible()
        else:
            page.goto(f"/games/{game_id}?sheet=end&cards0=22")
        x, y = centre(page, "button[value=end_hand]")
        page.touchscreen.tap(x, y)
        time.sleep(gap / 1000)
        page.touchscreen.tap(x, y)
        expect(page.locator(".ask")).to_be_visible()
        page.wait_for_timeout(600)
        state = page.request.get(f"{server.url}/api/games/{game_id}").json()
        assert state["hand"] == 1 and state["scores"] == [0, 0], gap
    # The answer, given on purpose, ends the hand: Nous +2.
    page.locator("button[value=end_hand]").tap()
    expect(page.locator("#score-0")).to_have_text("2")


@pytest.mark.parametrize("javascript, language", [(True, "fr"), (False, "fr"), (True, "ar")])
def test_the_counts_confirm_is_on_a_small_screen_on_the_last_deal(new_phone, server,
                                                                  javascript, language):
    """Seen at the table: three sides on the hand's last deal, 360×640: the last
    card's block pushed the Confirm below the screen's edge."""
    page = new_phone(viewport=PHONES["small"], java_script_enabled=javascript)
    game_id = a_game(page, server, language, 3, last_deal=True)
    page.goto(f"/games/{game_id}?sheet=end&lang={language}")
    expect(page.locator("button[value^=missa_last]")).to_be_visible()
    page.locator("#cards0").fill("15")
    page.locator("#cards1").fill("14")
    for control in ("button[value=end_hand]", "#cards0", "#cards1", "button[value^=missa_last]"):
        expect(page.locator(control)).to_be_in_viewport(ratio=1)


@pytest.mark.parametrize("javascript", [True, False])
def test_a_double_tap_on_confirm_selects_no_word_of_the_question(new_phone, server, javascript):
    """Seen at the table: the second tap of a double tap on the Confirm lands on the
    question that took its place, and selected its word "maintenant"."""
    page = new_phone(java_script_enabled=javascript)
    game_id = a_game(page, server, "fr", 2, last_deal=False)
    page.goto(f"/games/{game_id}?sheet=end&cards0=22")
    x, y = centre(page, "button[value=end_hand]")
    page.touchscreen.tap(x, y)
    expect(page.locator(".ask")).to_be_visible()
    page.mouse.dblclick(x, y)  # what a second, quick tap does to the text under it
    assert page.evaluate("getSelection().toString()") == ""
