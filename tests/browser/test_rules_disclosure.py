"""The disclosure "Change a rule for this game only" looks tappable (a
button's outline and a disclosure mark that turns when it opens) and opening
it moves nothing above it: only what comes after it goes down, pushed by
what opened. With and without JavaScript, at 360 and 390 px, in French,
Arabic and English."""

import pytest
from playwright.sync_api import expect

SIZES = {"small": {"width": 360, "height": 640}, "large": {"width": 390, "height": 844}}
SUMMARY = {"fr": "Changer une règle pour cette partie seulement",
           "ar": None, "en": "Change a rule for this game only"}

# Every block of the form but the disclosure itself, which grows as it opens.
BOXES = """() => Array.from(document.querySelectorAll(
    'h1, form.new-game > :not(details), form.new-game .field, form.new-game summary'))
  .map(node => { const b = node.getBoundingClientRect();
                 return [node.tagName + '.' + node.className, b.x, b.y, b.width, b.height]; })"""

MARK = """summary => { const mark = getComputedStyle(summary, '::before');
  const look = getComputedStyle(summary);
  return { mark: mark.content !== 'none' && parseFloat(mark.borderInlineStartWidth) > 0,
           transform: mark.transform, outline: look.boxShadow !== 'none',
           width: summary.getBoundingClientRect().width,
           fits: summary.scrollWidth <= summary.clientWidth }; }"""


@pytest.mark.parametrize("script", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_the_rules_disclosure_looks_tappable_and_opens_below(new_phone, screenshot, script,
                                                             size, language):
    phone = new_phone(viewport=SIZES[size], java_script_enabled=script)
    phone.goto(f"/games/new?lang={language}")
    summary = phone.locator("details.game-rules > summary")
    if SUMMARY[language]:
        expect(summary).to_have_text(SUMMARY[language])
    closed = summary.evaluate(MARK)
    assert closed["mark"] and closed["outline"] and closed["fits"], closed
    assert closed["transform"] == "none"
    summary.scroll_into_view_if_needed()
    before = phone.evaluate(BOXES)
    top = summary.bounding_box()
    summary.tap()
    expect(phone.locator("details.game-rules")).to_have_attribute("open", "")
    after = phone.evaluate(BOXES)
    opened = summary.evaluate(MARK)
    assert opened["transform"] != "none"  # the mark turned
    assert summary.bounding_box() == top  # the summary itself holds still
    moved = [(b, a) for b, a in zip(before, after) if b != a]
    # What moved is below the summary, went down, and kept its size.
    assert all(b[2] > top["y"] and a[2] > b[2] and a[3:] == b[3:] for b, a in moved), moved
    assert any(b[0].startswith("BUTTON") for b, _ in moved)  # the Start button, pushed down
    if size == "small" and script:
        screenshot(phone, f"rules-disclosure-open-{language}")


@pytest.mark.parametrize("language", ["fr", "ar"])
def test_a_preset_card_shows_it_opens(new_phone, screenshot, language):
    """Seen at a club: a table's own preset on the house rules page read as
    a plain line; its values, Edit and Delete were found by chance. Its card
    has the disclosure's mark, which turns as it opens."""
    phone = new_phone(viewport=SIZES["small"])
    phone.goto(f"/settings?lang={language}")
    summary = phone.locator("details.card.preset > summary").first
    closed = summary.evaluate(MARK)
    assert closed["mark"] and closed["transform"] == "none" and closed["fits"], closed
    summary.tap()
    expect(phone.locator("details.card.preset").first).to_have_attribute("open", "")
    assert summary.evaluate(MARK)["transform"] != "none"
    screenshot(phone, f"preset-card-open-{language}")
