"""The board's timings in the browser tests.

A phone polls every 1.5 s, takes a second tap on one control within 0.6 s
as the same tap, and keeps a control just answered from taking a tap for
0.5 s (the result's buttons for 1 s): scorekeeper/web/app.py, BOARD_TIMINGS.
A test that waited those out, tap after tap, would mostly wait; so the
live servers of the tests run with the shorter ones below, which keep
every behaviour (a poll, a double tap, a settle) but last less. A test
whose subject is one of these timings is marked `real_time` and gets a
server at a phone's own (tests/browser/conftest.py).
"""

from playwright.sync_api import Page

from scorekeeper.web.pages.template_helpers import BOARD_TIMINGS

QUICK = {"BOARD_POLL_MS": 200, "BOARD_DOUBLE_TAP_MS": 100, "BOARD_SETTLE_MS": 50,
         "BOARD_OVER_SETTLE_MS": 100, "BOARD_SAID_MS": 2500}

# A live server's environment for them (its configuration keys as FLASK_...).
QUICK_ENV = {f"FLASK_{key}": str(value) for key, value in QUICK.items()}


def double_tap_seconds(page: Page) -> float:
    """How close a second tap on one control is the same tap, on this page's
    server (what the page says on <html>, else a phone's)."""
    said = page.evaluate("document.documentElement.dataset.doubleTapMs")
    return int(said or BOARD_TIMINGS["BOARD_DOUBLE_TAP_MS"]) / 1000
