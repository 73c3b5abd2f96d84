"""A count typed before the sheet's first answer is kept as typed.

A sheet opened by a whole page asks the server for itself once more, as
the script follows the count. On a slow network that answer came once both
fields were typed: it put the first field back to empty (the count it was
asked for), the sheet then followed "" and 12, and the preview stayed blank
with the scorer's 15 gone from the field. The answer is held here until
both fields are typed, then let through."""


from playwright.sync_api import expect

from support.table import post


def test_the_first_field_keeps_its_count_when_the_sheets_answer_comes_late(new_phone, server):
    page = new_phone(viewport={"width": 360, "height": 640})
    game = post(page, server, "/api/games", {"sides": ["Ali", "Badr", "Chama"], "players": 3})
    for _ in range(3):
        post(page, server, f"/api/games/{game['id']}/events", {"type": "next_deal"})
    post(page, server, f"/api/games/{game['id']}/events", {"type": "hit", "side": 0, "value": 1})
    held = []

    def the_empty_count(url):
        return "sheet=end" in url and "cards0=&" in url
    page.route(the_empty_count, lambda route: held.append(route))
    page.goto(f"/games/{game['id']}?lang=en&sheet=end")
    page.wait_for_function("() => Ronda.board.busy()")  # the sheet asked for itself
    assert len(held) == 1
    page.locator("#cards0").fill("15")
    page.locator("#cards1").fill("12")
    held[0].continue_()  # its answer, of the empty count, arrives now
    parts = page.locator(".parts")
    expect(parts).to_have_text("\u2068Ali\u2069: 2 for the cards + 1 for the open Bount")
    expect(page.locator("#cards0")).to_have_value("15")
    expect(page.locator("#cards1")).to_have_value("12")
