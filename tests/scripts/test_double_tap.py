"""The double-tap guard (static/board/board.js, `repeated`): a second tap on
the same control within a phone's 600 ms is the same tap, on the real script
in a real page. Each tap is a click whose event time the test sets, as a
phone's touch gives it: what is judged is when the finger tapped, whenever a
busy page gets to it."""

import itertools

import pytest

pytestmark = pytest.mark.xdist_group("double_tap")  # its module fixture, built once a run

WINDOW_MS = 600  # a phone's (template_helpers.BOARD_TIMINGS); the page says none

BOARD = """<div id="board" data-game="g1" data-version="1">
  <form method="post" action="/games/g1/play">
    <button id="missa" name="move" value="missa.0" aria-label="Missa pour Nous">Missa</button>
    <button id="bount" name="move" value="hit.0.1" aria-label="1 Bount pour Nous">1</button>
    <button id="confirm" name="move" value="end_hand">Confirmer</button>
    <button id="more" name="move" value="end_step.0.1" data-repeat aria-label="Une carte de plus">+</button>
    <button id="undo" class="undo-button" data-once>Annuler : Missa</button>
    <button id="next" name="move" value="next_deal" data-once>Donne suivante</button>
  </form>
  <a id="ronda" href="/?a=0-ronda" data-swap data-repeat aria-label="Ronda pour Nous">Ronda</a>
  <a id="chip-1" href="/?less=ronda" data-swap data-tap-group="take-back">Ronda</a>
  <a id="chip-2" href="/?less=tringa" data-swap data-tap-group="take-back">Tringa</a>
  <a id="sheet" href="/?sheet=end" data-swap>Fin de manche</a>
</div>
<button id="outside">Langue</button>"""

_cases = itertools.count(1)


@pytest.fixture(scope="module")
def shown(board_page):
    return board_page(f'<div id="drawn">{BOARD}</div>', html="")  # a phone's timings


@pytest.fixture
def page(shown):
    """The board drawn again, each control counting the taps that reach it
    (and going nowhere); this case's taps an hour of event time after the
    last case's."""
    shown.evaluate("""([html, start]) => {
      document.getElementById("drawn").innerHTML = html;
      window.start = start;
      window.taken = [];
      document.querySelectorAll("#board button, #board a, #outside").forEach(control => {
        control.addEventListener("click", event => {
          window.taken.push(control.id);
          event.preventDefault();
        });
      });
    }""", [BOARD, next(_cases) * 3_600_000])
    return shown


def taps(page, *taps: tuple[str, float]) -> list[str]:
    """Tap each control (its id) at its time (ms into the case), one right
    after the other; the controls the taps reached, in order."""
    return page.evaluate("""taps => {
      window.taken = [];
      for (const [id, at] of taps) {
        const click = new MouseEvent("click", { bubbles: true, cancelable: true, composed: true });
        Object.defineProperty(click, "timeStamp", { value: window.start + at });
        document.getElementById(id).dispatchEvent(click);
      }
      return window.taken;
    }""", [list(tap) for tap in taps])


def relabel(page, control: str, words: str) -> None:
    """What the first tap's answer makes a control say."""
    page.evaluate("([id, words]) => { document.getElementById(id).textContent = words; }",
                  [control, words])


def test_the_same_control_twice_within_the_window_is_one_tap(page):
    assert taps(page, ("missa", 0), ("missa", 150)) == ["missa"]
    assert taps(page, ("missa", 1000), ("missa", 1000 + WINDOW_MS - 1)) == ["missa"]


def test_the_same_control_after_the_window_is_two_taps(page):
    assert taps(page, ("missa", 0), ("missa", WINDOW_MS + 1)) == ["missa", "missa"]


def test_taps_are_timed_by_their_events_not_by_when_the_page_got_to_them(page):
    """A slowed phone runs two taps 0.7 s apart one right after the other:
    still two. And a third tap within the window of the second (not of the
    first, which is past): one more."""
    assert taps(page, ("bount", 0), ("bount", 700), ("bount", 800)) == ["bount", "bount"]


def test_another_control_within_the_window_is_another_tap(page):
    assert taps(page, ("missa", 0), ("bount", 100), ("missa", 200)) == ["missa", "bount", "missa"]


def test_the_same_control_saying_something_else_is_another_tap(page):
    """A Confirm that became "Yes, end the hand now" is another question."""
    assert taps(page, ("confirm", 0)) == ["confirm"]
    relabel(page, "confirm", "Oui, finir la manche")
    assert taps(page, ("confirm", 200)) == ["confirm"]


def test_undo_and_next_deal_are_one_tap_whatever_the_first_answer_made_them_say(page):
    assert taps(page, ("undo", 0)) == ["undo"]
    relabel(page, "undo", "Annuler : Bount")  # the event before, once the first undo is back
    assert taps(page, ("undo", 300)) == []
    assert taps(page, ("next", 1000)) == ["next"]
    relabel(page, "next", "Donne suivante (dernière)")
    assert taps(page, ("next", 1300)) == []


def test_steppers_take_every_tap(page):
    assert taps(page, ("more", 0), ("more", 80), ("more", 160)) == ["more", "more", "more"]


def test_announcement_links_take_every_tap(page):
    """Two partners each announcing a Ronda: two taps 0.3 s apart, two Rondas."""
    assert taps(page, ("ronda", 0), ("ronda", 300)) == ["ronda", "ronda"]


def test_other_links_of_the_board_are_guarded(page):
    assert taps(page, ("sheet", 0), ("sheet", 200)) == ["sheet"]


def test_the_drafts_chips_are_one_control(page):
    """The chip tapped away lets the next one slide under the finger: the
    second tap of a double tap must not take that one too."""
    assert taps(page, ("chip-1", 0), ("chip-2", 200)) == ["chip-1"]
    assert taps(page, ("chip-2", 1000)) == ["chip-2"]


def test_a_control_off_the_board_is_left_alone(page):
    assert taps(page, ("outside", 0), ("outside", 100)) == ["outside", "outside"]


def test_a_real_double_click_is_one_tap(page):
    page.evaluate("window.taken = []")
    page.dblclick("#missa")
    assert page.evaluate("window.taken") == ["missa"]
