"""Undo names what it will take back, and takes back exactly that. Offline,
with taps waiting, that is the last waiting tap; with none, the last counted
event; and after each Undo the label names the next one, whatever the label
ends with (a name, a number, a list), in French, Arabic and English. The
label built for a waiting tap is the server's own markup for the same event,
so it shortens the same way and keeps every name."""

import json
import re

import pytest
from playwright.sync_api import expect

from support.table import expect_scores, go_offline, go_online, wait_past_double_tap

# The label as read: the names' direction isolates aside.
LABEL = r"""() => document.querySelector('.undo-what').textContent.replace(/[\u2066-\u2069]/g, '')"""
UNDO_DISABLED = "() => document.querySelector('.undo-button').getAttribute('aria-disabled')"


def _game(page, server, sides=("Ali", "Salma")):
    game = page.request.post(f"{server.url}/api/games", data=json.dumps(
        {"sides": list(sides), "players": 2}),
        headers={"Content-Type": "application/json"}).json()
    return game["id"]


def _event(page, server, game, event):
    answer = page.request.post(f"{server.url}/api/games/{game}/events", data=json.dumps(event),
                               headers={"Content-Type": "application/json"})
    assert answer.ok, answer.text()


def _label(page, expected):
    page.wait_for_function(f"e => ({LABEL})() === e", arg=expected)


def _tap(page, selector):
    page.locator(selector).tap()
    wait_past_double_tap(page)  # the next tap on it is no double tap


def _waiting(page):
    return page.locator(".announce-slot .quiet-strip")


def test_offline_undo_names_and_takes_back_the_last_waiting_tap_then_the_counted_ones(
        new_phone, server):
    phone = new_phone()
    game = _game(phone, server)
    _event(phone, server, game, {"type": "announce", "announcements": [{"side": 0, "kind": "ronda"}]})
    _event(phone, server, game, {"type": "hit", "side": 1, "value": 1})
    phone.goto(f"/games/{game}")
    _label(phone, "Annuler : Bount (1) · Salma")
    go_offline(phone)
    for selector in ("button[value='missa.0']", "button[value='hit.1.1']",
                     "button[value=chain_end]", "button[value=next_deal]"):
        _tap(phone, selector)
    expect(_waiting(phone)).to_have_text(re.compile(
        "Missa · .Ali., Bount \\(1\\) · .Salma., Chaîne terminée, Donne suivante$"))
    expect(phone.locator("html")).to_have_attribute("data-outbox", "4")
    # Each Undo takes back the tap its label named, and names the one before.
    for label, left in (("Annuler : Donne suivante", "3"), ("Annuler : Chaîne terminée", "2"),
                        ("Annuler : Bount (1) · Salma", "1"), ("Annuler : Missa · Ali", None)):
        _label(phone, label)
        _tap(phone, ".undo-button")
        if left:
            expect(phone.locator("html")).to_have_attribute("data-outbox", left)
        else:
            expect(phone.locator("html")).not_to_have_attribute("data-outbox", re.compile("."))
    # Nothing waits: the last counted event, as the server named it.
    _label(phone, "Annuler : Bount (1) · Salma")
    _tap(phone, ".undo-button")  # an undo that waits for the server
    expect(_waiting(phone)).to_contain_text("Annuler : Bount (1) · ")
    _label(phone, "Annuler : Annonces : Ali Ronda")
    go_online(phone)
    expect(phone.locator("html")).not_to_have_attribute("data-outbox", re.compile("."),
                                                        timeout=8000)
    _label(phone, "Annuler : Annonces : Ali Ronda")
    expect_scores(phone, 1, 0)
    state = phone.request.get(f"{server.url}/api/games/{game}").json()
    assert state["deal"] == 1 and state["chain"] is None


@pytest.mark.parametrize("language, missa, counted, nothing", [
    ("ar", "ميسا · Ali", "تراجع: بونت (1) · Salma", "لا شيء للتراجع عنه"),
    ("en", "Missa · Ali", "Undo: Bount (1) · Salma", "Nothing to undo"),
])
def test_the_labels_follow_in_each_language_down_to_nothing(new_phone, server, language, missa,
                                                            counted, nothing):
    phone = new_phone()
    game = _game(phone, server)
    _event(phone, server, game, {"type": "hit", "side": 1, "value": 1})
    phone.goto(f"/games/{game}?lang={language}")
    go_offline(phone)
    _tap(phone, "button[value='missa.0']")
    _label(phone, counted.replace(counted.split(": ", 1)[1], missa))
    _tap(phone, ".undo-button")
    _label(phone, counted)
    _tap(phone, ".undo-button")  # waits: it will take back the counted Bount
    _label(phone, nothing)
    assert phone.evaluate(UNDO_DISABLED) == "true"
    go_online(phone)
    expect(phone.locator("html")).not_to_have_attribute("data-outbox", re.compile("."),
                                                        timeout=8000)
    _label(phone, nothing)
    expect_scores(phone, 0, 0)


# Long names: the label's markup decides how it is shortened at 360 px.
LONG = ("Abdelkrim & Salma-Nour", "Mohammed-Amine & Fatima-Zahra")


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_a_waiting_taps_label_is_the_servers_markup_for_that_event(new_phone, server, language):
    phone = new_phone(viewport={"width": 360, "height": 640})
    game = _game(phone, server, LONG)
    phone.goto(f"/games/{game}?lang={language}")
    phone.locator("button[value='missa.1']").tap()
    expect(phone.locator("#board")).to_have_attribute("data-version", "1")
    wait_past_double_tap(phone)
    server_label = phone.locator(".undo-what").inner_html()
    assert "<bdi>" in server_label
    phone.locator(".undo-button").tap()
    expect(phone.locator("#board")).to_have_attribute("data-version", "2")
    wait_past_double_tap(phone)
    go_offline(phone)
    phone.locator("button[value='missa.1']").tap()
    expect(phone.locator("html")).to_have_attribute("data-outbox", "1")
    assert phone.locator(".undo-what").inner_html() == server_label
    go_online(phone)
    expect(phone.locator("#board")).to_have_attribute("data-version", "3", timeout=8000)
    assert phone.locator(".undo-what").inner_html() == server_label


def test_labels_that_end_with_a_number_or_a_list_are_named_whole(new_phone, server):
    """A reveal's label ends with a number after a name, the announcements'
    with a list of names: each is named whole, the waiting tap's and then the
    counted ones, and put back as the server wrote it."""
    phone = new_phone()
    game = _game(phone, server)
    _event(phone, server, game, {"type": "announce", "announcements": [
        {"side": 0, "kind": "ronda"}, {"side": 1, "kind": "ronda"}]})
    _event(phone, server, game, {"type": "reveal", "ranks": [7, 5]})
    phone.goto(f"/games/{game}")
    counted = "Annuler : Rangs montrés : Ali 7, Salma 5"
    _label(phone, counted)
    server_label = phone.locator(".undo-what").inner_html()
    go_offline(phone)
    _tap(phone, "button[value='missa.1']")
    _label(phone, "Annuler : Missa · Salma")
    _tap(phone, ".undo-button")
    _label(phone, counted)
    assert phone.locator(".undo-what").inner_html() == server_label
    _tap(phone, ".undo-button")  # waits for the server: it takes back the reveal
    _label(phone, "Annuler : Annonces : Ali Ronda, Salma Ronda")
    go_online(phone)
    expect(phone.locator("html")).not_to_have_attribute("data-outbox", re.compile("."),
                                                        timeout=8000)
    _label(phone, "Annuler : Annonces : Ali Ronda, Salma Ronda")
    expect_scores(phone, 0, 0)
