"""A finger's tap on a board button is made at its lift (static/board/board.js,
the `touchend` listener): the real script in a real page, touches made by the
test with the times it sets, as a phone's screen gives them. What is judged:
which buttons were sent (the outbox's `take`, stood in for by the test), and
whether the browser's click after the lift was cancelled."""

import itertools

import pytest

pytestmark = pytest.mark.xdist_group("lift_tap")  # its module fixture, built once a run

BOARD = """<div id="board" data-game="g1" data-version="1">
  <form method="post" action="/games/g1/play">
    <button id="missa" name="move" value="missa.0">Missa</button>
    <button id="bount" name="move" value="hit.0.1">1</button>
  </form>
  <form method="post" action="/games/g1/play">
    <input name="cards0" value="20" aria-label="Cartes">
    <button id="confirm" name="move" value="end_hand">Confirmer</button>
  </form>
  <form method="get" action="/games/g1">
    <button id="view" name="sheet" value="more">Plus</button>
  </form>
</div>"""

_cases = itertools.count(1)


@pytest.fixture(scope="module")
def shown(board_page):
    return board_page(f'<div id="drawn">{BOARD}</div>', html="")  # a phone's timings


@pytest.fixture
def page(shown):
    """The board drawn again, the buttons sent recorded, not posted; this
    case's touches an hour of event time after the last case's."""
    shown.evaluate("""([html, start]) => {
      document.getElementById("drawn").innerHTML = html;
      window.start = start;
      window.sent = [];
      window.Ronda.outbox = { take: (form, data, submitter) => {
        window.sent.push(submitter.id);
        return true;
      } };
    }""", [BOARD, next(_cases) * 3_600_000])
    return shown


def touch(page, steps) -> list[bool]:
    """Touch events, each (type, button id, dx, dy, at ms, fingers): at that
    button's centre moved by (dx, dy), at that time; whether each lift's
    default (the browser's click) was cancelled."""
    return page.evaluate("""steps => {
      const cancelled = [];
      for (const [type, id, dx, dy, at, fingers, cancelable] of steps) {
        const box = document.getElementById(id).getBoundingClientRect();
        const x = box.left + box.width / 2 + dx, y = box.top + box.height / 2 + dy;
        const target = document.elementFromPoint(x, y);
        const points = Array.from({ length: fingers }, (_, i) =>
          new Touch({ identifier: i, target, clientX: x + 40 * i, clientY: y }));
        const lifted = type === "touchend" ? points.slice(0, 1) : [];
        const event = new TouchEvent(type, {
          bubbles: true, cancelable: cancelable !== false, composed: true,
          touches: type === "touchend" ? points.slice(1) : points,
          changedTouches: type === "touchend" ? lifted : points,
        });
        Object.defineProperty(event, "timeStamp", { value: window.start + at });
        target.dispatchEvent(event);
        if (type === "touchend") { cancelled.push(event.defaultPrevented); }
      }
      return cancelled;
    }""", [list(step) for step in steps])


def tap(page, button, at=0, dx=0, dy=0, held=80):
    return touch(page, [("touchstart", button, 0, 0, at, 1),
                        ("touchend", button, dx, dy, at + held, 1)])


def sent(page) -> list[str]:
    return page.evaluate("window.sent")


def test_a_tap_is_sent_at_the_lift_and_its_click_cancelled(page):
    assert tap(page, "missa") == [True]
    assert sent(page) == ["missa"]


def test_a_finger_moved_a_few_pixels_still_taps(page):
    assert tap(page, "bount", dx=6, dy=-5) == [True]
    assert sent(page) == ["bount"]


def test_a_slide_is_left_to_the_browser(page):
    steps = [("touchstart", "missa", 0, 0, 0, 1), ("touchmove", "missa", 0, 25, 40, 1),
             ("touchend", "missa", 0, 2, 90, 1)]  # back over the button: still a scroll
    assert touch(page, steps) == [False]
    assert tap(page, "missa", at=1000, dy=14) == [False]
    assert sent(page) == []


def test_a_long_press_is_left_to_the_browser(page):
    assert tap(page, "missa", held=501) == [False]
    assert tap(page, "missa", at=2000, held=499) == [True]
    assert sent(page) == ["missa"]


def test_a_second_finger_is_left_to_the_browser(page):
    steps = [("touchstart", "missa", 0, 0, 0, 1), ("touchstart", "missa", 0, 0, 20, 2),
             ("touchend", "missa", 0, 0, 80, 2), ("touchend", "missa", 0, 0, 90, 1)]
    assert touch(page, steps) == [False, False]
    assert sent(page) == []


def test_a_lift_that_cannot_be_cancelled_is_left_to_the_browser(page):
    """A lift the browser will not let the page cancel (its scroll began):
    sent here, its click would send it again."""
    steps = [("touchstart", "missa", 0, 0, 0, 1), ("touchend", "missa", 0, 0, 80, 1, False)]
    assert touch(page, steps) == [False]
    assert sent(page) == []


def test_a_lift_on_what_covers_the_button_is_no_tap(page):
    page.evaluate("""() => document.getElementById("missa").addEventListener("touchstart", () => {
      const cover = document.createElement("div");
      Object.assign(cover.style, { position: "fixed", inset: "0" });
      document.body.appendChild(cover);
      setTimeout(() => cover.remove(), 0);
    }, { once: true })""")
    assert tap(page, "missa") == [False]
    assert sent(page) == []


def test_buttons_beside_a_field_and_views_are_the_browsers(page):
    """The count's Confirm takes the focus (it closes the keyboard) by the
    browser's tap; a GET form is a view, not a tap on the game."""
    assert tap(page, "confirm") == [False]
    assert tap(page, "view", at=1000) == [False]
    assert sent(page) == []


def test_a_double_tap_at_the_lift_is_one_tap(page):
    assert tap(page, "missa") + tap(page, "missa", at=300) == [True, True]
    assert tap(page, "missa", at=1500) == [True]
    assert sent(page) == ["missa", "missa"]


def test_a_click_that_came_after_the_lift_anyway_counts_nothing(page):
    """Where a browser sends its click all the same, the double tap's window
    takes it for the tap it is."""
    tap(page, "missa")
    page.evaluate("""() => {
      const click = new MouseEvent("click", { bubbles: true, cancelable: true, composed: true });
      Object.defineProperty(click, "timeStamp", { value: window.start + 120 });
      document.getElementById("missa").dispatchEvent(click);
    }""")
    assert sent(page) == ["missa"]
