"""The board's timings in the browser: a phone gets its own (a poll every
1.5 s, a control just answered off for 0.5 s, the result's for 1 s, what a
tap made offline needed said for 5 s); the
tests' server hands the page its shorter ones, and the page keeps to them,
so a test that uses them tests the same code."""

import time

import pytest

from support.table import expect_scores, open_game, wait_for_polls
from support.timings import QUICK

# What the server said on <html> (data-poll-ms...).
TIMINGS = """() => Object.fromEntries(Object.entries(document.documentElement.dataset)
  .filter(([key]) => key.endsWith("Ms")))"""
# How long the style sheet holds a control just answered and the result's:
# each settle is its animation's delay.
SETTLES = """() => {
  const probe = document.createElement("div");
  probe.innerHTML = '<button class="settling">a</button><div class="over"><a href="#">b</a></div>';
  document.body.append(probe);
  const found = [probe.querySelector("button"), probe.querySelector("a")]
    .map(e => getComputedStyle(e).animationDelay);
  probe.remove();
  return found;
}"""


# When the board's polls started, by the page's own clock (in ms).
POLL_STARTS = """() => performance.getEntriesByType("resource")
  .filter(e => /\\/api\\/games\\/[^/?#]+$/.test(e.name)).map(e => e.startTime)"""


def poll_gaps(page, polls: int = 3) -> list[float]:
    """The seconds between the board's polls, once it has made `polls` more."""
    wait_for_polls(page, polls)
    starts = page.evaluate(POLL_STARTS)
    return [(later - earlier) / 1000 for earlier, later in zip(starts, starts[1:])]


@pytest.mark.real_time
def test_a_phone_gets_a_phones_timings(phone):
    open_game(phone)
    assert phone.evaluate(TIMINGS) == {}
    assert phone.evaluate(SETTLES) == ["0.5s", "2s"]
    gaps = poll_gaps(phone)
    # A poll starts when the page gets to it: a busy page starts one late, and
    # the next one then sooner after it; not every 0.2 s as the tests' server.
    assert min(gaps) > 1.0 and sum(gaps) / len(gaps) > 1.3, gaps


def test_the_tests_server_hands_the_page_its_shorter_timings(phone):
    open_game(phone)
    assert phone.evaluate(TIMINGS) == {
        "pollMs": str(QUICK["BOARD_POLL_MS"]), "doubleTapMs": str(QUICK["BOARD_DOUBLE_TAP_MS"]),
        "settleMs": str(QUICK["BOARD_SETTLE_MS"]),
        "overSettleMs": str(QUICK["BOARD_OVER_SETTLE_MS"]), "saidMs": str(QUICK["BOARD_SAID_MS"])}
    assert phone.evaluate(SETTLES) == [f"{QUICK['BOARD_SETTLE_MS'] / 1000:g}s",
                                       f"{QUICK['BOARD_OVER_SETTLE_MS'] / 1000:g}s"]
    gaps = poll_gaps(phone)
    assert sum(gaps) / len(gaps) < 0.75, gaps  # a phone's are 1.5 s apart
    # Two taps on one Missa 0.3 s apart: two Missas here, where a phone takes
    # them as one double tap (test_offline_double_tap.py).
    missa = phone.get_by_role("button", name="Missa pour Nous")
    missa.tap()
    expect_scores(phone, 1, 0)
    time.sleep(max(0.0, 0.3 - QUICK["BOARD_SETTLE_MS"] / 1000))
    missa.tap()
    expect_scores(phone, 2, 0)
