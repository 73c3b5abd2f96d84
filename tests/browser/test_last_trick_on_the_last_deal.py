"""The dealer's last trick is played on the hand's last deal: before it the
Options sheet shows its buttons off, and a tap on one says why, where the
scorer sees it, and scores nothing; on the last deal it scores."""


import pytest
from playwright.sync_api import expect

from support.table import expect_scores, post, wait_settled

SMALL = {"width": 360, "height": 640}
WHY = {"fr": "Le dernier pli se joue à la dernière donne de la manche (donne 6)",
       "ar": "آخر أكلة تُلعب في آخر توزيعة من الجولة (التوزيعة 6)",
       "en": "The last trick is played on the hand's last deal (deal 6)"}
TWELVE = {"fr": "Pris avec un 12", "ar": "أُخذت بورقة 12", "en": "Taken with a 12"}


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_the_last_trick_is_off_before_the_last_deal_and_says_why(new_phone, server, screenshot,
                                                                 language):
    page = new_phone(viewport=SMALL)
    game = post(page, server, "/api/games", {"sides": ["Ali", "Karim"],
                                             "rules": {"preset": "classique"}})
    page.goto(f"/games/{game['id']}?sheet=more&lang={language}")
    wait_settled(page)
    button = page.locator("button[value='last_trick.twelve']")
    expect(button).to_have_attribute("aria-disabled", "true")
    expect(button).to_contain_text(TWELVE[language])
    button.tap(force=True)  # it is off: a finger can still tap it
    notice = page.locator("#notice")
    expect(notice).to_contain_text(WHY[language])
    assert notice.is_visible() and notice.bounding_box()["y"] >= 0
    screenshot(page, f"last-trick-off-{language}")
    expect_scores(page, 0, 0)
    for _ in range(5):
        post(page, server, f"/api/games/{game['id']}/events", {"type": "next_deal"})
    page.goto(f"/games/{game['id']}?sheet=more")
    wait_settled(page)
    page.locator("button[value='last_trick.twelve']").tap()
    expect_scores(page, 5, 0)
