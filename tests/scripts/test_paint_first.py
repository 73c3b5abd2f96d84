"""A tap's new score is painted first (static/board/board.js, `paintsFirst`;
outbox.js, `paintFirst`): a finger lifted on a button whose score the board
can show at once changes the score in that very task, and the tap is read,
kept and sent just after that paint, in the order of the taps. The app's real
board page and script, behind the test's network (conftest.Network)."""

import time

import pytest

WAITING = "ronda.outbox.v1"  # the outbox's key in localStorage

# Lift taps on these buttons (by their `value`), one after the other in one
# task, as a finger's touches come; then what the page shows and keeps at
# once, before anything painted: the scores, the taps kept, the POSTs made.
TAPS_THEN_LOOK = """([values, then]) => {
  for (const value of values) {
    const button = document.querySelector(`#board button[name=move][value="${value}"]`);
    const box = button.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    for (const type of ["touchstart", "touchend"]) {
      const touch = new Touch({ identifier: 0, target: button, clientX: x, clientY: y });
      button.dispatchEvent(new TouchEvent(type, {
        bubbles: true, cancelable: true, composed: true,
        touches: type === "touchstart" ? [touch] : [], changedTouches: [touch] }));
    }
  }
  if (then) { (then === "pagehide" ? window : document).dispatchEvent(new Event(then)); }
  return { scores: [0, 1].map(side => document.getElementById("score-" + side).textContent.trim()),
           pending: document.querySelector("#board .scores").classList.contains("pending"),
           kept: JSON.parse(localStorage.getItem("%s") || "[]").map(entry => entry.fields
             .filter(field => field[0] === "move")[0][1]),
           sent: window.sends.made };
}""" % WAITING

DRAINED = """v => !document.documentElement.hasAttribute("data-outbox") &&
                 !document.querySelector("#board .scores.pending") &&
                 document.getElementById("board").dataset.version === String(v)"""


def shown_scores(page) -> list[int]:
    return [int(page.locator(f"#score-{side}").inner_text()) for side in (0, 1)]


def test_a_missa_at_the_lift_shows_its_score_before_it_is_kept_or_sent(table):
    page = table.open()
    version = table.state()["version"]
    at_once = page.evaluate(TAPS_THEN_LOOK, [["missa.0"], None])
    # The new score, and nothing else done yet: its pending look, keeping the
    # tap and sending it come after that paint.
    assert at_once == {"scores": ["1", "0"], "pending": False, "kept": [], "sent": 0}
    page.wait_for_function(DRAINED, arg=version + 1)
    assert table.network.moves() == ["missa.0"]
    assert table.state()["scores"] == [1, 0] == shown_scores(page)


def test_taps_made_before_that_paint_are_made_in_their_order_each_once(table):
    page = table.open()
    version = table.state()["version"]
    at_once = page.evaluate(TAPS_THEN_LOOK, [["missa.0", "missa.1", "missa.0"], None])
    # The second lift made the first tap before its own: kept first. Only the
    # first was painted first; the others, with a tap before them, wait for
    # what the server says of it (the board shows no score they predicted).
    assert at_once["scores"] == ["1", "0"]
    assert at_once["kept"] == ["missa.0", "missa.1", "missa.0"]
    page.wait_for_function(DRAINED, arg=version + 3)
    assert table.network.moves() == ["missa.0", "missa.1", "missa.0"]
    assert table.state()["scores"] == [2, 1] == shown_scores(page)


def test_a_tap_behind_one_on_its_way_is_not_painted_first(table):
    page = table.open()
    version = table.state()["version"]
    table.network.hold = True
    page.evaluate(TAPS_THEN_LOOK, [["missa.0"], None])
    deadline = time.monotonic() + 10
    while not table.network.held:  # the first Missa is on its way, unanswered
        assert time.monotonic() < deadline, "the first Missa was never sent"
        page.wait_for_timeout(20)
    at_once = page.evaluate(TAPS_THEN_LOOK, [["missa.1"], None])
    assert at_once["scores"] == ["1", "0"]  # the first's, not a guess over it
    table.network.hold = False
    table.network.release()
    page.wait_for_function(DRAINED, arg=version + 2)
    assert table.network.moves() == ["missa.0", "missa.1"]
    assert table.state()["scores"] == [1, 1] == shown_scores(page)


def test_a_tap_painted_first_on_a_board_behind_the_game_ends_on_the_servers_score(table):
    page = table.open()
    version = table.state()["version"]
    table.event(type="missa", side=1)  # the other phone, unseen here: the game is at 0–1
    at_once = page.evaluate(TAPS_THEN_LOOK, [["missa.0"], None])
    assert at_once["scores"] == ["1", "0"]
    # The server counts this Missa on the game as it is (another tap, not the
    # same one): 1–1, whatever this board guessed.
    page.wait_for_function(DRAINED, arg=version + 2)
    assert table.state()["scores"] == [1, 1] == shown_scores(page)


@pytest.mark.parametrize("event", ["visibilitychange", "pagehide"])
def test_a_page_hidden_or_left_before_that_paint_keeps_the_tap_at_once(table, event):
    page = table.open()
    version = table.state()["version"]
    at_once = page.evaluate(TAPS_THEN_LOOK, [["missa.0"], event])
    # A hidden page draws no frame, and one left would lose the tap.
    assert at_once["scores"] == ["1", "0"] and at_once["kept"] == ["missa.0"]
    page.wait_for_function(DRAINED, arg=version + 1)
    assert table.network.moves() == ["missa.0"]
