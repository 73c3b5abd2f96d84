"""What the board page itself costs a tap, without the board's script.

    .venv/bin/python -m bench.board_floor --rounds 3

The browser row's baseline (a number changed in place on a page of its own,
bench/browser_game.py's Probe) beside the same tap on the board's own page,
as the server draws it, with its style sheet but none of its script: a
finger's tap on its Missa button, made at the lift as the board's script
makes it, changes what a Missa changes before its paint (the score, the
line under it, the pending and pressed looks), and nothing else; then the
same with the board script's one look at the page under the finger
(`elementFromPoint`). Each is a series of Missas timed as the row times
them (from the finger down to the new score painted, 4× CPU slowdown), in
turns, so that what else the machine is doing weighs on each alike.

What is left between the second and the board's own Missa (`bench.paint_ab`)
is the board's script: its listeners and its work in the tap.
"""

import argparse
import json
import re
import tempfile
import time
from pathlib import Path

from scorekeeper.testing.live_server import LiveServer

from . import browser_game
from .browser_game import PROBE_PAGE, SAME_CONTROL_S, WARM_UP_TAPS, Probe
from .chromium import chromium
from .common import percentile

# The row's watch, on the board's page: the first change after the tap that
# is not a class, painted; and the tap itself, made at the lift.
HARNESS = """
const b = window.__bench = {};
addEventListener("pointerdown", e => { b.down = e.timeStamp; b.downAt = performance.now(); }, true);
addEventListener("pointerup", e => { b.up = e.timeStamp; b.upAt = performance.now(); }, true);
new MutationObserver(records => {
  if (records.every(r => r.type === "attributes" && r.attributeName === "class")) { return; }
  requestAnimationFrame(() => setTimeout(() => b.resolve(
    {origin: performance.timeOrigin, down: b.down, up: b.up, painted: performance.now(),
     downAt: b.downAt, upAt: b.upAt}), 0));
}).observe(document.body, {childList: true, characterData: true, subtree: true, attributes: true});
b.arm = () => { b.down = b.up = null; b.done = new Promise(resolve => { b.resolve = resolve; }); };
const button = document.querySelector('button[value="missa.0"]');
button.id = "b";
let n = 0;
document.addEventListener("touchend", event => {
  if (!event.target.closest("#b")) { return; }
  event.preventDefault();
  LOOK
  n += 1;
  button.classList.add("pressed");
  setTimeout(() => button.classList.remove("pressed"), 150);
  document.getElementById("score-0").lastChild.nodeValue = String(n);
  document.querySelector(".needs").lastChild.nodeValue = "needs " + (101 - n);
  const scores = document.querySelector(".scores");
  scores.classList.add("pending");
  scores.setAttribute("aria-busy", "true");
  setTimeout(() => { scores.classList.remove("pending"); scores.removeAttribute("aria-busy"); }, 150);
}, true);
"""
HIT_TEST = """const touch = event.changedTouches[0];
  if (!document.elementFromPoint(touch.clientX, touch.clientY).closest("#b")) { return; }"""


def board_page(server: LiveServer) -> str:
    """A new game's board as the server draws it, its scripts taken out."""
    status, body = server.call("POST", "/api/games", {"sides": ["Nous", "Eux"],
                                                      "rules": {"target": 101}})
    assert status == 201, body
    status, page = server.get(f"/games/{json.loads(body)['id']}")
    assert status == 200
    html = re.sub(r"<script\b.*?</script>", "", page.decode(), flags=re.S)
    return html.replace("<head>", f'<head><base href="{server.url}/">', 1)


def series(browser, page: str, taps: int, throttle: int) -> list[float]:
    """From the finger down to the new score painted, `taps` times, in ms."""
    browser_game.PROBE_PAGE = page
    try:
        probe = Probe(browser, throttle)
    finally:
        browser_game.PROBE_PAGE = PROBE_PAGE
    try:
        probe.phone.page.wait_for_load_state("load")
        times = []
        for _ in range(WARM_UP_TAPS + taps):
            time.sleep(SAME_CONTROL_S / 2)
            with probe.phone.slowed_down():
                _, _, down, _ = probe.tap()
            times.append(down)
        return times[WARM_UP_TAPS:]
    finally:
        probe.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--taps", type=int, default=24)
    parser.add_argument("--throttle", type=int, default=4, help="CPU slowdown")
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="board-floor-"))
    server = LiveServer(scratch, scratch / "app.sqlite3", root=Path(__file__).parent.parent,
                        FLASK_SECRET_KEY="a secret for this bench only")
    server.start()
    try:
        server.get("/api/games/none", timeout=30)
        board = board_page(server)
        pages = {
            "the baseline": PROBE_PAGE,
            "the board's page, a Missa's changes": board + f"<script>{HARNESS.replace('LOOK', '')}</script>",
            "the same, and elementFromPoint": board + f"<script>{HARNESS.replace('LOOK', HIT_TEST)}</script>",
        }
        times: dict[str, list[float]] = {name: [] for name in pages}
        with chromium() as browser:
            for _ in range(args.rounds):
                for name, page in pages.items():
                    times[name] += series(browser, page, args.taps, args.throttle)
    finally:
        server.stop()
    for name, values in times.items():
        print(f"{name}: from the finger down to the new score painted, p50 "
              f"{percentile(values, 0.5):.1f} ms, p90 {percentile(values, 0.9):.1f} ms "
              f"over {len(values)} taps")


if __name__ == "__main__":
    main()
