"""The button just recorded looks pressed while it takes no tap (the settle,
style.css): a second tap too soon is seen to land on a button still down.
Read from the page's own style sheet, the settle held at its start and then
run to its end (no clock waited on)."""

import json

import pytest

from support.table import open_game

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
    open_game(phone)
    looks = phone.evaluate(LOOKS, '<button class="missa settling">Missa</button>')
    shadow, pointer = looks["during"]
    assert "inset" in shadow and pointer == "none", looks
    assert looks["after"] == ["none", "auto"], looks


def test_the_whole_board_settling_after_a_sheet_keeps_its_look(phone):
    """After a sheet's move every control settles: none looks pressed."""
    open_game(phone)
    looks = phone.evaluate(LOOKS, '<div class="settles"><button class="missa">Missa</button></div>')
    assert looks["during"] == ["none", "none"], looks
    assert looks["after"] == ["none", "auto"], looks


def test_a_settle_restyles_nothing_while_it_holds(phone):
    """A settle is an animation's delay: while it holds, no frame restyles
    the button. A running animation restyled it at every frame, half a
    second of a slow phone's work after every tap (docs/PERFORMANCE.md).
    The settle is made long here, and its first 0.4 s are watched."""
    open_game(phone)
    cdp = phone.context.new_cdp_session(phone)
    cdp.send("Performance.enable")

    def restyles() -> float:
        metrics = cdp.send("Performance.getMetrics")["metrics"]
        return next(m["value"] for m in metrics if m["name"] == "RecalcStyleCount")

    phone.evaluate("""() => {
      const probe = document.createElement("div");
      probe.id = "probe";
      probe.style.setProperty("--settle", "3s");
      probe.innerHTML = '<button class="missa settling">Missa</button>';
      document.getElementById("board").append(probe);
      getComputedStyle(probe.firstChild).boxShadow;  // styled once, now
    }""")
    before = restyles()
    phone.wait_for_timeout(400)  # the subject is what the frames do meanwhile
    during = restyles() - before
    held = phone.evaluate("""() => {
      const button = document.querySelector("#probe button");
      return [getComputedStyle(button).pointerEvents, button.getAnimations().length];
    }""")
    assert held == ["none", 1], held  # still held, by its animation
    assert during <= 3, f"the button was restyled {during} times in 0.4 s"


DELAYS = """(html) => {
  const probe = document.createElement("div");
  probe.innerHTML = html;
  document.getElementById("board").append(probe);
  const delay = probe.querySelector("button").getAnimations()[0].effect.getTiming().delay;
  probe.remove();
  return delay;
}"""


def test_on_a_whole_page_the_button_just_recorded_holds_three_times_longer(phone):
    """Without JavaScript the page after a tap comes late on a slow phone,
    and the second tap of a double tap later after it (a Next deal tapped
    twice a second apart skipped a deal)."""
    open_game(phone)
    short = phone.evaluate(DELAYS, '<button class="settling">Missa</button>')
    long = phone.evaluate(DELAYS, '<button class="settling long">Missa</button>')
    assert short > 0 and round(long) == 3 * short, (short, long)


@pytest.mark.real_time
def test_without_the_script_next_deal_tapped_twice_a_second_apart_deals_once(new_phone):
    page = new_phone(java_script_enabled=False, viewport={"width": 360, "height": 640})
    game = open_game(page)
    with page.expect_navigation():
        page.locator('button[value="next_deal"]').tap()
    page.wait_for_timeout(800)  # the second tap of a slow double tap (the subject: its timing)
    page.locator('button[value="next_deal"]').tap(force=True)
    page.wait_for_timeout(300)  # a navigation it would have started
    assert json.loads(page.request.get(f"/api/games/{game}").text())["deal"] == 2
