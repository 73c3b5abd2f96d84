"""Announcements are marked as they are tapped. Two partners each announce a
Ronda and the scorer taps the team's Ronda twice, quickly: both are marked
("Ronda ×2"), however close together the taps (the double-tap guard is for
the taps that score at once: these only mark the draft, which shows them).
A side holds one announcement per player: a further tap says why, in the
engine's words. An accidental double tap is seen in the draft and one of the
two is taken back before Confirm, by its chip, with or without JavaScript
(the draft is the board's address: the chip is a link)."""

import json
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from support.table import expect_scores, hold_polls

TEAMS = ["Karim & Salma", "Ali & Omar"]
# Each click's own time on the page, before any listener of the page's.
_CLICKS = """() => { window.clicks = [];
  window.addEventListener('click', e => window.clicks.push(e.timeStamp), true); }"""
RONDA = "Ronda pour Karim & Salma"
FULL = "Karim & Salma ont déjà annoncé deux fois : chaque partenaire annonce une fois par donne."


def marks_of(url: str) -> list[str]:
    """The announcements marked in a board's address (its draft)."""
    return parse_qs(urlsplit(url).query).get("a", [])


def _game(page, server, players=4, sides=TEAMS):
    game = page.request.post(f"{server.url}/api/games", data=json.dumps(
        {"sides": sides, "players": players}),
        headers={"Content-Type": "application/json"}).json()
    page.goto(f"/games/{game['id']}")
    return game["id"]


def _centre(page, name):
    box = page.get_by_role("link", name=name, exact=True).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _chips(page):
    return page.locator(".draft-strip .marks li")


def _tap_at(page, x, y):
    """A tap at a point, once the page takes taps: without JavaScript each
    mark loads a new page, whose marks are in its document before Chromium
    lets a touch reach it (a tap made then was lost, now and then). A trial
    tap of the home link waits until the page is drawn and steady."""
    page.locator("#board .home").tap(trial=True)
    page.touchscreen.tap(x, y)


@pytest.mark.real_time  # the gaps between the taps are the subject
@pytest.mark.parametrize("gap_ms", [300, 450, 550, 700])
def test_two_rondas_tapped_quickly_are_both_marked(new_phone, server, gap_ms):
    phone = new_phone()
    for _ in range(3):  # a loaded machine can stretch the gap: a new game, again
        _game(phone, server)
        x, y = _centre(phone, RONDA)
        phone.evaluate(_CLICKS)
        phone.touchscreen.tap(x, y)
        phone.wait_for_timeout(gap_ms)  # the gap between the two taps is the subject
        phone.touchscreen.tap(x, y)
        expect(_chips(phone)).to_have_text(["Ronda ×2"])
        clicks = phone.evaluate("window.clicks")
        if clicks[1] - clicks[0] < gap_ms + 140:
            break
    assert len(clicks) == 2 and clicks[1] - clicks[0] < gap_ms + 140, clicks
    assert marks_of(phone.url) == ["0-ronda", "0-ronda"]


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_a_third_ronda_says_why_and_a_double_tap_is_taken_back_before_confirm(
        new_phone, server, javascript):
    phone = new_phone(java_script_enabled=javascript)
    _game(phone, server)
    x, y = _centre(phone, RONDA)
    for marked in (["Ronda"], ["Ronda ×2"]):
        _tap_at(phone, x, y)
        expect(_chips(phone)).to_have_text(marked)
    _tap_at(phone, x, y)  # a side of two partners holds two
    expect(phone.locator("#notice")).to_have_text(FULL)
    expect(_chips(phone)).to_have_text(["Ronda ×2"])
    take_back = phone.get_by_role("link", name="Retirer une Ronda marquée pour Karim & Salma")
    expect(take_back).to_be_visible()
    take_back.tap()
    expect(_chips(phone)).to_have_text(["Ronda"])
    assert marks_of(phone.url) == ["0-ronda"]
    phone.get_by_role("button", name="Valider").tap()
    expect(phone.locator(".draft-strip")).to_have_count(0)
    expect_scores(phone, 1, 0)


@pytest.mark.real_time  # a double tap within a phone's own window
@pytest.mark.parametrize("language, says", [
    ("fr", "Nous avons déjà annoncé : chaque joueur annonce une fois par donne."),
    ("ar", "أعلنّا من قبل: كل لاعب يعلن مرة واحدة في كل توزيعة."),
    ("en", "We have already announced: each player announces once per deal."),
])
def test_one_player_holds_one_and_a_quick_second_tap_says_why(new_phone, server, language,
                                                               says):
    phone = new_phone()
    game = _game(phone, server, players=2, sides=["Nous", "Eux"])
    phone.goto(f"/games/{game}?lang={language}")
    ronda = phone.locator(".side-0 .announce a.kind-ronda")
    box = ronda.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    phone.touchscreen.tap(x, y)
    phone.wait_for_timeout(300)  # a double tap: the second is heard, and says why
    phone.touchscreen.tap(x, y)
    expect(phone.locator("#notice")).to_contain_text(says)
    expect(_chips(phone)).to_have_count(1)
    take_back = _chips(phone).locator("a")
    take_back.tap()
    expect(phone.locator(".draft-strip")).to_have_count(0)
    assert "a=" not in phone.url


def test_announcements_confirmed_on_two_phones_at_once_count_together(new_phone, server):
    """One phone confirms our Ronda, the other their Tringa, at once: the
    second joins the first (a deal's announcements are one record, now
    holding both), and its board says so; no mark is left behind."""
    first, second = new_phone(), new_phone()
    game = _game(first, server, players=2, sides=["Nous", "Eux"])
    second.goto(f"/games/{game}")
    first.get_by_role("link", name="Ronda pour Nous").tap()
    second.get_by_role("link", name="Tringa pour Eux").tap()
    for phone in (first, second):
        expect(phone.locator("button[value=announce]")).not_to_have_attribute(
            "aria-disabled", "true")
    # At the same moment: the second phone has not yet seen the first one's
    # Confirm (its next look at the game comes within two seconds).
    release = hold_polls(second, game)
    first.locator("button[value=announce]").tap()
    expect_scores(first, 1, 0)
    second.locator("button[value=announce]").tap()
    release()
    expect(second.locator("#notice")).to_contain_text(
        "Ajoutées aux annonces confirmées sur un autre téléphone")
    expect(second.locator(".draft-strip")).to_have_count(0)
    expect_scores(second, 0, 6)  # the Tringa takes both: 1 + 5
    expect_scores(first, 0, 6)
