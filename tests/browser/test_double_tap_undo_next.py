"""At the table, a double tap on Undo took back two events, and one on Next
deal skipped a deal: after the first tap's answer the Undo names the event
before, and without JavaScript the page is a new one, so the second tap was
"another" tap. Neither is ever meant twice within a moment: with and without
JavaScript, a double tap on them (150 to 450 ms) counts once; a deliberate
second tap a moment later counts."""

import contextlib
import re
import time

import pytest
from playwright.sync_api import Error, expect

from support.table import post, wait_until_held

pytestmark = pytest.mark.real_time  # the gaps are the subject: a phone's timings


def a_game(page, server):
    """Missa Us, Missa Them, Bount Us: 1–1, a chain of Us +1 open."""
    game = post(page, server, "/api/games", {"sides": ["Nous", "Eux"]})
    for event in ({"type": "missa", "side": 0}, {"type": "missa", "side": 1},
                  {"type": "hit", "side": 0, "value": 1}):
        post(page, server, f"/api/games/{game['id']}/events", event)
    return game["id"]


def state(page, server, game_id):
    return page.request.get(f"{server.url}/api/games/{game_id}").json()


def double_tap(page, selector, gap_ms):
    """Two taps at one place; the gap between them as sent (a busy machine
    adds to the sleep), in ms."""
    box = page.locator(selector).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    first = time.monotonic()
    page.touchscreen.tap(x, y)
    time.sleep(max(0.0, first + gap_ms / 1000 - time.monotonic()))
    second = time.monotonic()
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(900)  # whatever the second tap started has arrived
    return round((second - first) * 1000)


GAPS = [(True, (150, 350)), (False, (150, 300))]


def double_taps(page, server, gaps, selector):
    """For each gap, a fresh game doubly tapped on `selector`: (state, gap as sent)."""
    for gap in gaps:
        game_id = a_game(page, server)
        page.goto(f"/games/{game_id}")
        sent = double_tap(page, selector, gap)
        yield state(page, server, game_id), sent


@pytest.mark.parametrize("javascript, gaps", GAPS)
def test_a_double_tap_on_undo_takes_back_one_event(new_phone, server, javascript, gaps):
    page = new_phone(java_script_enabled=javascript)
    for game, sent in double_taps(page, server, gaps, "form.undo button"):
        assert game["version"] == 4 and game["scores"] == [1, 1] and game["chain"] is None, sent
    # A second undo, on purpose: it counts.
    page.wait_for_timeout(300)
    expect(page.locator("form.undo button")).to_contain_text("Missa · \u2068Eux\u2069")
    page.locator("form.undo button").tap()
    expect(page.locator("#score-1")).to_have_text("0")


@pytest.mark.parametrize("javascript, gaps", GAPS)
def test_a_double_tap_on_next_deal_moves_one_deal(new_phone, server, javascript, gaps):
    page = new_phone(java_script_enabled=javascript)
    for game, sent in double_taps(page, server, gaps, "button[value=next_deal]"):
        assert game["deal"] == 2, sent
    page.locator("button[value=next_deal]").tap()
    expect(page.get_by_text("Manche 1 · Donne 3/6")).to_be_visible()


# Seen at the table: without JavaScript the page after a tap comes back in about
# 80 ms with fresh tokens, so the second tap of a double tap on a scoring
# button was a new tap (+2 for one Missa).
@pytest.mark.parametrize("javascript, gaps", GAPS)
def test_a_double_tap_on_a_scoring_button_counts_once(new_phone, server, javascript, gaps):
    page = new_phone(java_script_enabled=javascript)
    for game, sent in double_taps(page, server, gaps, "button[value='missa.1']"):
        # One Missa: it closes Us's chain (+1) and scores its own (+1).
        assert game["scores"] == [2, 2] and game["version"] == 4, sent
    page.locator("button[value='missa.1']").tap()  # another one, a moment later: it counts
    expect(page.locator("#score-1")).to_have_text("3")


@pytest.mark.parametrize("javascript", [True, False])
def test_a_double_tap_on_the_counts_confirm_opens_no_sheet_under_it(new_phone, server,
                                                                    javascript):
    """At 360×640 the count's Confirm sits over End of hand: once the count
    is recorded and the sheet gone, the second tap of a double tap opened
    the next hand's count sheet, empty."""
    page = new_phone(java_script_enabled=javascript, viewport={"width": 360, "height": 640})
    game_id = a_game(page, server)
    for _ in range(5):
        post(page, server, f"/api/games/{game_id}/events", {"type": "next_deal"})
    page.goto(f"/games/{game_id}?sheet=end")
    page.locator("#cards0").fill("25")
    if javascript:
        expect(page.locator("button[value=end_hand]")).to_have_attribute("data-scores", re.compile("."))
    sent = double_tap(page, "button[value=end_hand]", 250)
    game = state(page, server, game_id)
    assert game["hand"] == 2 and game["version"] == 9, sent  # 3 events, 5 deals, the count
    expect(page.locator(".end-sheet")).to_have_count(0)


def test_a_tap_made_before_the_last_ones_page_is_back_counts_without_javascript(
        new_phone, server):
    """Seen at the table: Bount, then Missa before the Bount's page is back:
    the Missa was lost ("changed on another phone"). Both taps of the page
    count, each once (tests/web/test_fast_second_tap.py). The Bount reaches
    the server and its answer is held, as a slow Wi-Fi holds it, while the
    Missa is tapped on the page still shown: a tap before the page is back on
    any machine (two taps 60 ms apart met the Bount's new page instead when
    the machine was busy, and the Missa never left the browser)."""
    page = new_phone(java_script_enabled=False)
    game = post(page, server, "/api/games", {"sides": ["Nous", "Eux"]})["id"]
    page.goto(f"/games/{game}")
    centres = []
    for selector in ("button[value='hit.0.1']", "button[value='missa.0']"):
        box = page.locator(selector).bounding_box()
        centres.append((box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))
    held = []
    page.route(f"**/games/{game}/play", lambda route: held.append((route, route.fetch())),
               times=1)
    page.touchscreen.tap(*centres[0])
    wait_until_held(page, held)
    assert state(page, server, game)["version"] == 1  # the Bount is stored, its page not back
    page.touchscreen.tap(*centres[1])
    expect(page.locator("#score-0")).to_have_text("2")  # Bount closed by the Missa, + the Missa
    assert state(page, server, game)["version"] == 2
    expect(page.locator("#board")).not_to_contain_text("autre téléphone")
    route, answer = held[0]
    with contextlib.suppress(Error):  # its navigation gave way to the Missa's
        route.fulfill(response=answer)
