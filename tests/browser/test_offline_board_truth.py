"""While the Wi-Fi is down the board shows the phone's own count of all the
waiting taps, score, needs and deal together, and nothing half-guessed (a
half-guess showed the table a score that was neither the server's nor its
own); a tap on its way shows its score and what each side then needs
together; a waiting tap is named as the log will name it."""

from playwright.sync_api import expect

from support.table import (
    expect_scores,
    go_offline,
    go_online,
    open_game,
    wait_past_double_tap,
    wait_until_held,
)


def _tap(page, name):
    page.get_by_role("button", name=name, exact=True).tap()
    wait_past_double_tap(page)


def test_taps_waiting_offline_are_counted_by_the_phone_all_together(new_phone):
    phone = new_phone(viewport={"width": 360, "height": 640})
    open_game(phone)
    go_offline(phone)
    for name in ("Missa pour Nous", "Missa pour Nous", "Donne suivante"):
        _tap(phone, name)
    expect(phone.locator("#link-state")).to_contain_text("3 touches en attente, gardées ici")
    # Score, needs and deal are the phone's own count of all three, together,
    # each marked as not yet stored.
    expect_scores(phone, 2, 0)
    expect(phone.locator(".needs")).to_have_text(["encore 31 pas encore enregistré",
                                                  "encore 33 pas encore enregistré"])
    expect(phone.locator(".status-text")).to_contain_text("Donne 2/6")
    expect(phone.locator(".scores")).to_have_class("scores pending")
    # The last waiting tap, in the log's words, as it will read once sent.
    expect(phone.locator(".undo-what")).to_have_text("Annuler : Donne suivante")
    go_online(phone)
    expect(phone.locator("html")).not_to_have_attribute("data-outbox", "3", timeout=8000)
    expect(phone.locator(".needs")).to_have_text(["encore 31", "encore 33"], timeout=8000)
    expect(phone.locator(".status-text")).to_contain_text("Donne 2/6")
    expect_scores(phone, 2, 0)
    expect(phone.locator(".scores")).to_have_class("scores")


def test_a_waiting_missa_is_named_as_the_log_names_it(new_phone):
    phone = new_phone()
    open_game(phone)
    go_offline(phone)
    _tap(phone, "Missa pour Eux")
    expect(phone.locator(".undo-what")).to_have_text("Annuler : Missa · \u2068Eux\u2069")
    go_online(phone)
    expect(phone.locator("html")).not_to_have_attribute("data-outbox", "1", timeout=8000)
    expect_scores(phone, 0, 1)
    expect(phone.locator(".undo-what")).to_have_text("Annuler : Missa · \u2068Eux\u2069")


def test_a_tap_on_its_way_shows_its_score_and_needs_together(new_phone):
    phone = new_phone()
    open_game(phone)
    game = phone.locator("#board").get_attribute("data-game")
    held = []  # a slow network: the tap is held until the board has been looked at
    phone.route(f"**/games/{game}/play", lambda route: held.append(route))
    phone.get_by_role("button", name="Missa pour Nous", exact=True).tap()
    expect(phone.locator("#score-0")).to_have_text("1")
    expect(phone.locator(".needs").first).to_have_text("encore 32")
    expect(phone.locator(".scores")).to_have_class("scores pending")
    wait_until_held(phone, held)
    assert len(held) == 1 and phone.locator("#board").get_attribute("data-version") == "0"
    held[0].continue_()
    expect(phone.locator("#board")).to_have_attribute("data-version", "1")
    expect(phone.locator(".scores")).to_have_class("scores")
    expect_scores(phone, 1, 0)
    expect(phone.locator(".needs").first).to_have_text("encore 32")
