"""The button just recorded looks pressed while it takes no tap (the settle,
style.css): a second tap too soon is seen to land on a button still down.
Read from the page's own style sheet, the settle held at its start and then
run to its end (no clock waited on)."""

from support.table import start_game

# The look of a control while its settle runs and once it is over.
LOOKS = """(html) => {
  const probe = document.createElement("div");
  probe.innerHTML = html;
  document.getElementById("board").append(probe);
  const button = probe.querySelector("button");
  const [settle] = button.getAnimations();
  settle.pause();
  settle.currentTime = 0;
  const during = [getComputedStyle(button).boxShadow, getComputedStyle(button).pointerEvents];
  settle.finish();
  const after = [getComputedStyle(button).boxShadow, getComputedStyle(button).pointerEvents];
  probe.remove();
  return {during, after};
}"""


def test_the_button_just_recorded_looks_pressed_while_it_takes_no_tap(phone):
    start_game(phone)
    looks = phone.evaluate(LOOKS, '<button class="missa settling">Missa</button>')
    shadow, pointer = looks["during"]
    assert "inset" in shadow and pointer == "none", looks
    assert looks["after"] == ["none", "auto"], looks


def test_the_whole_board_settling_after_a_sheet_keeps_its_look(phone):
    """After a sheet's move every control settles: none looks pressed."""
    start_game(phone)
    looks = phone.evaluate(LOOKS, '<div class="settles"><button class="missa">Missa</button></div>')
    assert looks["during"] == ["none", "none"], looks
    assert looks["after"] == ["none", "auto"], looks
