"""While taps wait, the board shows the game before them, so
a control that is off there may be on once they are counted (the next deal's
announcements, after a waiting "Next deal"). A tap on it says what it waits
for (the server, the waiting taps), not the board's stale reason; and what a
tap needed gives way to the state at the next tap. Online, a tap on it while
taps are on their way is made on the board they leave."""


from playwright.sync_api import expect

from support.table import (
    go_offline,
    go_online,
    mark,
    open_game,
    tap,
    wait_past_double_tap,
    wait_until_held,
)


def _announced(phone):
    """A game whose first deal's announcements are recorded: its Rondas are off."""
    open_game(phone)
    mark(phone, "Ronda pour Nous", then="Annonces : Nous Ronda")
    tap(phone, "Valider")
    expect(phone.get_by_role("link", name="Ronda pour Nous")).to_have_attribute(
        "aria-disabled", "true")


def _press(phone, role, name):
    # Forced: a finger taps a control that is off too (aria-disabled), to hear why.
    phone.get_by_role(role, name=name, exact=True).tap(force=True)
    wait_past_double_tap(phone)


def test_offline_an_announcement_after_a_waiting_next_deal_needs_the_server(phone, screenshot):
    # A board that cannot count by itself (its engine's files never came);
    # one that can draws the next deal's announcements (test_offline_announce.py).
    phone.route("**/phone/engine.*.json", lambda route: route.abort())
    _announced(phone)
    go_offline(phone)
    _press(phone, "button", "Donne suivante")
    state = phone.locator("#link-state")
    expect(state).to_contain_text("1 touche en attente")
    _press(phone, "link", "Ronda pour Nous")
    expect(state).to_contain_text("Les annonces ont besoin du serveur")
    expect(phone.locator("#notice")).not_to_contain_text("déjà enregistrées")
    screenshot(phone, "offline-ronda-after-waiting-next-deal")
    # The next tap: the box says the state again, at once (not 5 s later).
    _press(phone, "button", "Missa pour Eux")
    expect(state).not_to_contain_text("besoin du serveur", timeout=1500)
    expect(state).to_contain_text("2 touches en attente")
    _press(phone, "link", "Tringa pour Eux")
    expect(state).to_contain_text("Les annonces ont besoin du serveur")
    phone.locator(".undo-button").tap()  # takes back the waiting Missa
    expect(state).not_to_contain_text("besoin du serveur", timeout=1500)
    expect(state).to_contain_text("1 touche en attente")
    go_online(phone)
    expect(phone.locator(".status-text")).to_contain_text("Donne 2/6", timeout=8000)


def test_a_tap_off_before_a_tap_on_its_way_is_made_on_the_board_it_leaves(phone):
    """A Ronda marked as the Next deal before it is on its way (a slow
    network): off on the deal shown (its announcements are recorded), it is
    marked on the next deal once the Next deal's board is in, not refused
    with the old deal's reason, nor dropped."""
    _announced(phone)
    game = phone.locator("#board").get_attribute("data-game")
    held = []  # a slow network: the Next deal is on its way
    phone.route(f"**/games/{game}/play", lambda route: held.append(route))
    _press(phone, "button", "Donne suivante")
    wait_until_held(phone, held)
    assert len(held) == 1
    _press(phone, "link", "Ronda pour Nous")
    expect(phone.locator("#notice")).not_to_contain_text("déjà enregistrées")
    held[0].continue_()
    phone.unroute(f"**/games/{game}/play")
    expect(phone.locator(".status-text")).to_contain_text("Donne 2/6", timeout=8000)
    phone.wait_for_url("**a=0-ronda**")  # marked on the next deal
    expect(phone.locator("#notice")).not_to_contain_text("déjà enregistrées")


def test_offline_what_needs_the_server_looks_off_and_what_waits_does_not(phone, screenshot):
    """A newcomer offline: Options looked tappable, and only said it needed
    the server once tapped. The Missa, kept for later, does not look off,
    nor the Ronda and End of hand, which the board's own count draws."""
    open_game(phone)
    opacity = "e => Number(getComputedStyle(e).opacity)"
    needs_server = [phone.get_by_role("link", name="Plus", exact=True)]
    kept = [phone.get_by_role("button", name="Missa pour Nous", exact=True),
            phone.get_by_role("button", name="Donne suivante", exact=True),
            phone.get_by_role("link", name="Ronda pour Nous", exact=True),
            phone.get_by_role("link", name="Fin de manche", exact=True)]
    assert all(link.evaluate(opacity) == 1 for link in needs_server)
    go_offline(phone)
    _press(phone, "button", "Missa pour Nous")  # no answer: the link is lost
    expect(phone.locator("html")).to_have_attribute("data-link", "lost")
    assert all(link.evaluate(opacity) < 0.5 for link in needs_server)
    assert all(button.evaluate(opacity) == 1 for button in kept)
    _press(phone, "link", "Plus")  # off, and says why
    expect(phone.locator("#link-state")).to_contain_text("besoin du serveur")
    screenshot(phone, "offline-what-needs-the-server")
    go_online(phone)
    expect(phone.locator("html")).not_to_have_attribute("data-link", "lost", timeout=8000)
    assert all(link.evaluate(opacity) == 1 for link in needs_server)
