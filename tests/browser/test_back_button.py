"""The phone's Back button, which scorers at the table reach for. On an open sheet it closes the
sheet, and the board stays (also offline); the history holds the board once,
however many sheets were opened and closed. From the board it leads to the
new-game form, which says the game is in progress, and whose Start leads
back to that game, not to a second one: with and without JavaScript."""

import re

from playwright.sync_api import expect

from support import accessibility
from support.table import expect_scores, go_offline, go_online, mark, start_game, tap, wait_settled

NAMES = ("Nadia", "Samir")


def _game(phone) -> str:
    return phone.locator("#board").get_attribute("data-game")


def _open_options(phone):
    mark(phone, "Plus", then="Règles de la maison (pour les prochaines parties)")
    expect(phone.get_by_role("dialog")).to_be_visible()


def test_back_closes_the_sheet_and_the_board_stays(phone):
    start_game(phone, names=NAMES)
    tap(phone, "Missa pour Nadia")
    board = phone.url
    # Opened and closed by its own Close, again and again: no entry is left behind.
    for _ in range(3):
        _open_options(phone)
        assert "sheet=more" in phone.url
        phone.get_by_role("link", name="Fermer").tap()
        expect(phone.get_by_role("dialog")).to_have_count(0)
        expect(phone).to_have_url(board)
        wait_settled(phone)
    _open_options(phone)
    phone.go_back()
    expect(phone.get_by_role("dialog")).to_have_count(0)
    expect(phone).to_have_url(board)
    expect_scores(phone, 1, 0)
    wait_settled(phone)
    # A tap made in a sheet closes it, and leaves no entry either.
    _open_options(phone)
    phone.locator("#points").fill("2")
    tap(phone, "Ajouter la correction")
    expect(phone.get_by_role("dialog")).to_have_count(0)
    expect_scores(phone, 3, 0)
    expect(phone).to_have_url(board)
    # One Back from the board: the page before it, the new-game form.
    phone.go_back()
    expect(phone).to_have_url(re.compile(r"/games/new$"))
    expect(phone.get_by_role("heading", name="Nouvelle partie")).to_be_visible()


def test_offline_back_still_closes_the_sheet(phone):
    start_game(phone, names=NAMES)
    _open_options(phone)
    go_offline(phone)
    phone.go_back()
    expect(phone.get_by_role("dialog")).to_have_count(0)
    expect(phone.locator("#board")).to_be_visible()
    go_online(phone)


def _back_then_start(phone, screenshot, name, javascript=True):
    start_game(phone, names=NAMES)
    game = _game(phone)
    tap(phone, "Missa pour Nadia")
    # Without JavaScript each tap's answer is a page of its own: Back goes over it first.
    for _ in range(3):
        phone.go_back()
        if "/games/new" in phone.url:
            break
    heading = phone.get_by_text("Une partie est en cours sur ce téléphone")
    expect(heading).to_be_visible()
    if javascript:  # at the top, where it was not left (without it, the browser restores)
        expect(heading).to_be_in_viewport()
    resume = phone.locator(".running-game .big-button.resume")
    expect(resume).to_contain_text("Reprendre la partie")
    expect(resume).to_contain_text("Nadia 1 · Samir 0")
    screenshot(phone, name)
    if javascript:  # axe runs in the page
        accessibility.check(phone, "the new-game form with a game in progress")
    phone.get_by_role("button", name="Commencer la partie").tap()
    expect(phone.locator("#board")).to_be_visible()
    assert _game(phone) == game
    expect_scores(phone, 1, 0)
    expect(phone.locator("#notice")).to_contain_text("Cette partie était déjà commencée")
    phone.goto("/")
    expect(phone.locator(".big-button.resume")).to_have_attribute("href", f"/games/{game}")


def test_back_from_the_board_then_start_is_the_same_game(phone, screenshot):
    _back_then_start(phone, screenshot, "back-then-start-js")


def test_without_javascript_back_then_start_is_the_same_game(phone_without_js, screenshot):
    _back_then_start(phone_without_js, screenshot, "back-then-start-nojs", javascript=False)


def test_without_javascript_back_closes_the_sheet(phone_without_js):
    phone = phone_without_js
    start_game(phone, names=NAMES)
    board = phone.url
    phone.get_by_role("link", name="Plus").tap()
    expect(phone.get_by_role("dialog")).to_be_visible()
    phone.go_back()
    expect(phone.get_by_role("dialog")).to_have_count(0)
    expect(phone).to_have_url(board)
