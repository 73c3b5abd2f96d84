"""A finger's tap on the board leaves the focus where it was: moving it to the
button restyled two buttons inside the tap, before its click ran
(docs/PERFORMANCE.md). The keyboard still focuses and presses every button,
and a button beside a field to type in takes the focus from the field, as the
browser gives it, so that the phone's keyboard closes."""

from playwright.sync_api import expect

from support.table import expect_scores, mark, open_game, tap

FOCUSED = "() => document.activeElement && (document.activeElement.id || document.activeElement.tagName)"


def test_a_tapped_button_counts_and_takes_no_focus(phone):
    open_game(phone)
    tap(phone, "Missa pour Nous")
    expect_scores(phone, 1, 0)
    assert phone.evaluate(FOCUSED) == "BODY"
    tap(phone, "Donne suivante")
    assert phone.evaluate(FOCUSED) == "BODY"


def test_the_keyboard_still_focuses_and_presses_a_board_button(phone):
    open_game(phone)
    missa = phone.get_by_role("button", name="Missa pour Eux")
    missa.focus()
    phone.keyboard.press("Enter")
    expect_scores(phone, 0, 1)
    expect(missa).to_be_focused()


def test_a_button_beside_a_field_takes_the_focus_from_it(phone):
    open_game(phone)
    for _ in range(5):
        tap(phone, "Donne suivante")
    mark(phone, "Fin de manche", then="Cartes ramassées par Nous")
    field = phone.get_by_label("Cartes ramassées par Nous")
    field.fill("20")
    expect(field).to_be_focused()
    phone.get_by_role("button", name="Une carte de plus pour Nous").tap()
    expect(field).to_have_value("21")
    assert phone.evaluate(FOCUSED) not in ("cards0", "BODY")


def test_an_off_button_reached_by_the_keyboard_shows_its_focus_ring(phone):
    """Its ring is drawn inside its opacity: at the off look's .38 it was as pale
    as the button, and a keyboard user lost where the focus was."""
    open_game(phone)
    off = phone.get_by_role("button", name="5 Khamsa pour Nous")
    assert off.get_attribute("aria-disabled") == "true"
    opacity = "e => Number(getComputedStyle(e).opacity)"
    assert off.evaluate(opacity) < 0.5  # the off look
    phone.keyboard.press("Tab")  # the keyboard's focus, as Tab gives it
    off.focus()
    expect(off).to_be_focused()
    assert off.evaluate("e => e.matches(':focus-visible')")
    assert off.evaluate(opacity) >= 0.8
    assert off.evaluate("e => getComputedStyle(e).outlineStyle") == "solid"
