"""Offline, the connection box leaves the header's deal line (as the
phone counts the waiting taps) in sight and moves nothing, and the board lists the waiting taps in words (a
waiting Next deal, a second Missa), so no one taps them again."""

import re

import pytest
from playwright.sync_api import expect

from support.table import (
    expect_scores,
    go_offline,
    go_online,
    open_game,
    wait_for_polls,
    wait_past_double_tap,
)

WORDS = {"fr": ("Donne suivante", "Missa pour Nous", "Donne 1/6", "En attente, pas encore enregistrées : ",
                "Donne suivante, Missa · \u2068Nous\u2069, Missa · \u2068Nous\u2069"),
         "en": ("Next deal", "Missa for Nous", "Deal 1/6", "Waiting, not yet stored: ",
                "Next deal, Missa · \u2068Nous\u2069, Missa · \u2068Nous\u2069"),
         "ar": (None, None, "1/6", "في الانتظار، لم تُحفظ بعد: ", None)}

BOXES = """() => [...document.querySelectorAll(
  '#board button, #board a.button, #board .status-text span, #board .strip')].map(
  e => [e.tagName, JSON.stringify(e.getBoundingClientRect())])"""

# Is the deal line's every point out from under the connection box?
UNCOVERED = """() => { const line = document.querySelector('.status-text span').getBoundingClientRect();
  const box = document.getElementById('link-state').getBoundingClientRect();
  return box.height > 0 && line.bottom <= box.top; }"""


def _tap(phone, name):
    phone.get_by_role("button", name=name, exact=True).tap()
    wait_past_double_tap(phone)


@pytest.mark.parametrize("size", [(390, 844), (360, 640)])
@pytest.mark.parametrize("language", ["fr", "en"])
def test_offline_the_deal_line_shows_and_the_waiting_taps_are_listed(
        new_phone, screenshot, size, language):
    next_deal, missa, deal, waiting, listed = WORDS[language]
    phone = new_phone(viewport={"width": size[0], "height": size[1]})
    open_game(phone)
    phone.goto(phone.url + f"?lang={language}")
    before = phone.evaluate(BOXES)
    go_offline(phone)
    _tap(phone, next_deal)
    expect(phone.locator("#link-state")).to_be_visible()
    assert phone.evaluate(UNCOVERED)
    # The deal line as the phone counts the waiting Next deal.
    expect(phone.locator(".status-text")).to_contain_text(deal.replace("1/", "2/"))
    strip = phone.locator(".announce-slot .quiet-strip")
    expect(strip).to_have_text(waiting + next_deal)
    _tap(phone, missa)
    _tap(phone, missa)
    expect(strip).to_have_text(waiting + listed)  # in the order tapped
    screenshot(phone, f"offline-waiting-listed-{language}-{size[0]}")
    assert phone.evaluate(UNCOVERED)
    assert phone.evaluate(BOXES) == before  # nothing moved, the strip's text changed
    go_online(phone)
    expect(phone.locator(".status-text")).to_contain_text(deal.replace("1/", "2/"), timeout=8000)
    expect_scores(phone, 2, 0)
    expect(strip).not_to_contain_text(waiting)  # the server's words again
    assert len(phone.evaluate(BOXES)) == len(before)


def test_arabic_too(new_phone, screenshot):
    phone = new_phone(viewport={"width": 360, "height": 640})
    open_game(phone)
    phone.goto(phone.url + "?lang=ar")
    go_offline(phone)
    phone.locator("button[value=next_deal]").tap()
    wait_past_double_tap(phone)
    phone.locator("button[value='hit.1.1']").tap()
    expect(phone.locator(".announce-slot .quiet-strip")).to_contain_text(
        WORDS["ar"][3] + "التوزيعة التالية، بونت (1) · \u2068Eux\u2069")  # Arabic's own comma
    assert phone.evaluate(UNCOVERED)
    screenshot(phone, "offline-waiting-listed-ar-360")


def test_a_second_next_deal_seen_waiting_is_taken_back_and_the_game_goes_to_deal_2(new_phone):
    """The deal a table saw skipped: the second Next deal shows in the list, and
    Undo takes it back (it was never sent, so nothing is lost)."""
    phone = new_phone(viewport={"width": 360, "height": 640})
    open_game(phone)
    go_offline(phone)
    _tap(phone, "Donne suivante")
    _tap(phone, "Donne suivante")
    strip = phone.locator(".announce-slot .quiet-strip")
    expect(strip).to_have_text("En attente, pas encore enregistrées : Donne suivante, Donne suivante")
    phone.locator(".undo-button").tap()
    expect(strip).to_have_text("En attente, pas encore enregistrées : Donne suivante")
    go_online(phone)
    expect(phone.locator(".status-text")).to_contain_text("Donne 2/6", timeout=8000)
    expect(phone.locator("html")).not_to_have_attribute("data-outbox", "1", timeout=8000)
    wait_for_polls(phone)  # a poll later, still deal 2
    expect(phone.locator(".status-text")).to_contain_text("Donne 2/6")


def test_many_waiting_taps_keep_the_newest_in_sight(new_phone, screenshot):
    """Seven taps waiting no longer fit the strip's two lines: the oldest
    give way to "…" and the newest stay readable (they were the ones cut off,
    "…, Donne…")."""
    phone = new_phone(viewport={"width": 360, "height": 640})
    open_game(phone)
    go_offline(phone)
    for name in ["Missa pour Nous", "Missa pour Eux", "Donne suivante", "Missa pour Nous",
                 "1 Bount pour Eux", "Missa pour Eux", "Donne suivante"]:
        _tap(phone, name)
    expect(phone.locator("html")).to_have_attribute("data-outbox", "7")
    words = phone.locator(".announce-slot .quiet-strip span")
    # Listed once the new score is painted; the newest whole.
    expect(words).to_have_text(re.compile(
        "^En attente, pas encore enregistrées : …, .*Missa · \u2068Eux\u2069, Donne suivante$"))
    assert not words.evaluate("e => e.scrollHeight > e.clientHeight + 1")  # nothing cut
    screenshot(phone, "offline-many-waiting")
