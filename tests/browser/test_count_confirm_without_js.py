"""Without JavaScript the count sheet's Confirm posts the counts as typed, so
a tap counts at once: it looked greyed out (off) until "Update the points"
was tapped. It now looks as tappable as it is; with JavaScript, which
follows the typing, it is still off until the count is complete."""

import json

import pytest
from playwright.sync_api import expect

SMALL = {"width": 360, "height": 640}
WORDS = {"fr": ("Nous", "Eux", "Valider le compte"), "ar": ("نحن", "هم", "تأكيد العدّ"),
         "en": ("Us", "Them", "Confirm the count")}
LOOK = "e => [getComputedStyle(e).opacity, getComputedStyle(e).backgroundColor]"


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_the_counts_confirm_looks_as_tappable_as_it_is(new_phone, server, screenshot, language):
    us, them, confirm_words = WORDS[language]
    page = new_phone(viewport=SMALL, java_script_enabled=False)
    body = json.dumps({"sides": [us, them]})
    game = page.request.post(f"{server.url}/api/games", data=body,
                             headers={"Content-Type": "application/json"}).json()
    for _ in range(5):  # the hand's last deal: the count ends it without a question
        page.request.post(f"{server.url}/api/games/{game['id']}/events",
                          data=json.dumps({"type": "next_deal"}),
                          headers={"Content-Type": "application/json"})
    page.goto(f"/games/{game['id']}?lang={language}&sheet=end")
    confirm = page.get_by_role("button", name=confirm_words)
    expect(confirm).not_to_have_attribute("aria-disabled", "true")
    primary = page.evaluate("() => { const b = document.createElement('button');"
                            " b.className = 'primary'; document.body.append(b);"
                            " const s = getComputedStyle(b); return [s.opacity, s.backgroundColor]; }")
    assert confirm.evaluate(LOOK) == primary  # not greyed out
    screenshot(page, f"count-confirm-nojs-{language}")
    page.locator("#cards0").fill("25")
    confirm.tap()  # a tap counts what is typed, at once
    expect(page).to_have_url(f"{server.url}/games/{game['id']}")  # the sheet closed
    state = page.request.get(f"{server.url}/api/games/{game['id']}").json()
    assert state["hand"] == 2 and state["scores"] == [5, 0]


def test_with_javascript_it_is_off_until_the_count_is_complete(new_phone, server):
    page = new_phone(viewport=SMALL)
    body = json.dumps({"sides": ["Nous", "Eux"]})
    game = page.request.post(f"{server.url}/api/games", data=body,
                             headers={"Content-Type": "application/json"}).json()
    page.goto(f"/games/{game['id']}")
    page.get_by_role("link", name="Fin de manche").tap()
    confirm = page.get_by_role("button", name="Valider le compte")
    expect(confirm).to_have_attribute("aria-disabled", "true")


@pytest.mark.parametrize("mid_hand", [False, True], ids=["last-deal", "mid-hand"])
def test_with_javascript_a_sheet_opened_by_its_address_is_off_too(new_phone, server, mid_hand):
    """A reload or a link opens the sheet as a whole page, drawn for a page
    without the script: the script draws it again as it follows the count."""
    page = new_phone(viewport=SMALL)
    body = json.dumps({"sides": ["Nous", "Eux"]})
    game = page.request.post(f"{server.url}/api/games", data=body,
                             headers={"Content-Type": "application/json"}).json()
    for _ in range(0 if mid_hand else 5):
        page.request.post(f"{server.url}/api/games/{game['id']}/events",
                          data=json.dumps({"type": "next_deal"}),
                          headers={"Content-Type": "application/json"})
    page.goto(f"/games/{game['id']}?sheet=end")
    confirm = page.get_by_role("button", name="Valider le compte")
    expect(confirm).to_have_attribute("aria-disabled", "true")
    page.locator("#cards0").fill("25")  # typed: the count is complete, the Confirm on
    expect(confirm).to_have_attribute("data-scores", "5 0")
    expect(confirm).not_to_have_attribute("aria-disabled", "true")
