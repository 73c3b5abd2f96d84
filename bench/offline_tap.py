"""Offline, a Missa to the phone's own count painted (docs/OFFLINE.md, "The
board counts by itself").

    .venv/bin/python -m bench.offline_tap --taps 24 --throttle 4

The served app and Debian's Chromium, as bench.browser_game's Missa series:
a board whose engine worker is ready, then the phone taken off the network
(the browser's offline state, every request aborted); a series of Missas,
the two sides in turn, each a touch dispatched through the DevTools
protocol with the tab's CPU slowed down for the time of the tap. Each is
timed from the finger down (the pointerdown event's own time) to the first
task after the frame that painted the new score, which the engine's answer
brings (the worker's fold of every waiting tap, then the paint). Before
them, with the CPU slowed down from the page's opening, the time from its
first contentful paint to its engine ready (`<html data-engine="ready">`,
as soon as Playwright sees it: a few milliseconds late at most). Chromium's CPU slowdown is the page's:
whether it slows the worker as much is not known here, so the figures are a
floor for a slow phone.
"""

import argparse
import time

from . import table
from .browser_game import SAME_CONTROL_S, WARM_UP_TAPS, Phone
from .chromium import api_post, chromium, live_server
from .common import median, percentile

# The watch: a score's text changed, then painted.
WATCH = """() => {
  const b = window.__bench = {};
  addEventListener("pointerdown", e => { b.down = e.timeStamp; }, true);
  new MutationObserver(() => {
    if (!b.resolve || b.down == null) { return; }
    const resolve = b.resolve;
    b.resolve = null;
    requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - b.down), 0));
  }).observe(document.querySelector(".scores"), {childList: true, subtree: true,
                                                 characterData: true});
  b.arm = () => { b.down = null; b.done = new Promise(resolve => { b.resolve = resolve; }); };
}"""
TIMEOUT_MS = 15_000


# From the first contentful paint to the engine ready, in ms.
READY = """() => performance.now() -
  performance.getEntriesByName("first-contentful-paint")[0].startTime"""


def offline_missas(browser, base: str, throttle: int, taps: int) -> tuple[float, list[float]]:
    """The engine ready after the first paint, then the offline Missas' times, in ms."""
    phone = Phone(browser, base, throttle, javascript=True)
    try:
        game = api_post(base, "/api/games", table.new_game_body(long=True))
        page = phone.page
        with phone.slowed_down():
            page.goto(f"/games/{game['id']}", wait_until="load")
            page.wait_for_selector("html[data-engine=ready]", state="attached",
                                   timeout=TIMEOUT_MS)
            ready = page.evaluate(READY)
        phone.context.set_offline(True)
        phone.context.route("**/*", lambda route: route.abort("internetdisconnected"))
        page.evaluate(WATCH)
        times = []
        for tap in range(WARM_UP_TAPS + taps):
            time.sleep(SAME_CONTROL_S)  # the same button no sooner: no double tap
            page.evaluate("window.__bench.arm()")
            with phone.slowed_down():
                phone.touch(f'#board button[name=move][value="missa.{tap % 2}"]', arm=False)
                times.append(page.evaluate(
                    f"Promise.race([window.__bench.done, new Promise((_, no) => setTimeout("
                    f"() => no(new Error('no count painted')), {TIMEOUT_MS}))])"))
        return ready, times[WARM_UP_TAPS:]
    finally:
        phone.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=24)
    parser.add_argument("--throttle", type=int, default=4, help="CPU slowdown")
    args = parser.parse_args(argv)
    with live_server("offline-tap") as server, chromium() as browser:
        ready, times = offline_missas(browser, server.url, args.throttle, args.taps)
    print(f"the engine ready {ready:.0f} ms after the first contentful paint, "
          f"{args.throttle}× CPU")
    print(f"offline Missa, finger down to the phone's count painted, {args.throttle}× CPU, "
          f"{len(times)} taps: p50 {median(times):.1f} ms, p90 {percentile(times, 0.9):.1f} ms, "
          f"max {max(times):.1f} ms")


if __name__ == "__main__":
    main()
