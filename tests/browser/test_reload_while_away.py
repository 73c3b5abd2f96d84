"""Before a reload while the server is away. Over plain http no service worker
can draw the page, so a reload shows the browser's own "no connection" page
until the server is back: while taps wait, the connection box says so, and
that the waiting taps are kept; a reload (or a link away) asks first. With
nothing waiting the page reloads at once."""

import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from support.table import expect_scores, go_offline, go_online, open_game, wait_past_double_tap

SAYS = {"fr": ("Sans serveur, pas de rechargement", "2 touches en attente, gardées ici"),
        "ar": ("لا خادم: لا يمكن إعادة تحميل الصفحة", "لمستان في الانتظار، محفوظتان هنا"),
        "en": ("No server: the page cannot reload", "2 taps waiting, kept on this phone")}


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_offline_with_taps_waiting_the_box_says_a_reload_cannot_reopen_the_page(new_phone,
                                                                                 language):
    what, count = SAYS[language]
    phone = new_phone(viewport={"width": 360, "height": 640})
    open_game(phone)
    phone.goto(phone.url + f"?lang={language}")
    go_offline(phone)
    for selector in ("button[value='missa.0']", "button[value='missa.1']"):
        phone.locator(selector).tap()
    box = phone.locator("#link-state")
    expect(box.locator(".link-what")).to_have_text(what)
    expect(box.locator(".link-count")).to_have_text(count)
    # Each on its own line, whole (the box's size is fixed).
    assert phone.evaluate("""() => [...document.querySelectorAll('#link-state span')].every(
        s => s.scrollWidth <= s.clientWidth && s.scrollHeight <= s.clientHeight + 1)""")


def _until(page, seen, seconds=5):
    """Let the page's events come in (a dialog) until `seen()` is true."""
    deadline = time.monotonic() + seconds
    while not seen() and time.monotonic() < deadline:
        page.wait_for_timeout(50)


def test_a_reload_with_taps_waiting_asks_first_and_the_taps_count_once(new_phone):
    phone = new_phone()
    open_game(phone)
    url = phone.url
    go_offline(phone)
    phone.locator("button[value='missa.0']").tap()
    expect(phone.locator("html")).to_have_attribute("data-outbox", "1")
    asked = []

    def answer(dialog):
        asked.append(dialog.type)
        dialog.dismiss() if len(asked) == 1 else dialog.accept()

    phone.on("dialog", answer)
    phone.evaluate("() => location.reload()")  # the browser's reload, asked as a person's
    _until(phone, lambda: asked)
    assert asked == ["beforeunload"]
    # Stayed: the board, its box and its waiting tap are still there.
    expect(phone.locator("#link-state .link-what")).to_have_text(
        "Sans serveur, pas de rechargement")
    expect(phone.locator("html")).to_have_attribute("data-outbox", "1")
    with pytest.raises(PlaywrightError):  # asked again, and let go: the browser's own error page
        phone.reload()
    assert asked == ["beforeunload", "beforeunload"]
    go_online(phone)
    phone.goto(url)
    expect(phone.locator("html")).not_to_have_attribute("data-outbox", re.compile("."),
                                                        timeout=8000)
    expect_scores(phone, 1, 0)


def test_with_nothing_waiting_a_reload_goes_at_once(new_phone):
    phone = new_phone()
    open_game(phone)
    phone.locator("button[value='missa.0']").tap()
    expect(phone.locator("#board")).to_have_attribute("data-version", "1")
    wait_past_double_tap(phone)
    asked = []
    phone.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.accept()))
    go_offline(phone)
    expect(phone.locator("#link-state")).to_be_visible()  # the page knows the server is away
    with pytest.raises(PlaywrightError):  # the browser's own error page, at once
        phone.reload()
    assert asked == []
