"""What the service worker costs a tap (static/sw.js, docs/OFFLINE.md).

    .venv/bin/python -m bench.service_worker            # 60 taps each
    .venv/bin/python -m bench.service_worker --taps 20

Two phones on one served app (127.0.0.1: a secure context, where the board
registers its worker), one with its service worker, one without
(Playwright's service_workers="block"), tap Bounts in turn, one tap each,
so that both see the same machine. A tap is timed in the page, from the
finger lifted (the pointerup event's own time) to the server's board in
place (its version changed): the part the worker can delay, since every
request of the page passes through it. The new score that the page shows
before the server answers does not wait for the network, nor for it. No CPU
slow-down: the difference, not the phone's time, is the figure.
"""

import argparse
import json
import time

from .chromium import PHONE, chromium, live_server
from .common import median, percentile

# In the page: each change of the board's version, timed from the last pointerup.
WATCH = """() => { window.benchTaps = []; let lifted = 0;
  document.addEventListener('pointerup', event => { lifted = event.timeStamp; }, true);
  new MutationObserver(() => { window.benchTaps.push(performance.now() - lifted); })
    .observe(document.getElementById('board'),
             {attributes: true, attributeFilter: ['data-version']}); }"""
ACTIVE = "navigator.serviceWorker.getRegistration().then(r => !!(r && r.active))"


def board(browser, url: str, workers: str):
    """A phone's page on a new game's board, its taps watched."""
    context = browser.new_context(**dict(PHONE, service_workers=workers), base_url=url)
    page = context.new_page()
    page.goto("/")
    deadline = time.monotonic() + 20
    while workers == "allow" and not page.evaluate(ACTIVE):
        assert time.monotonic() < deadline, "the service worker never started"
        time.sleep(0.05)
    page.goto("/games/new")
    page.get_by_role("button", name="Commencer la partie").tap()
    page.locator("#board").wait_for()
    assert page.evaluate("navigator.serviceWorker.controller !== null") == (workers == "allow")
    page.evaluate(WATCH)
    return page


def measure(taps: int) -> dict:
    with live_server("service-worker") as server, chromium() as browser:
        pages = {"with": board(browser, server.url, "allow"),
                 "without": board(browser, server.url, "block")}
        for number in range(taps):
            side = "Nous" if number % 2 else "Eux"  # a new chain each tap: every tap counts
            for page in pages.values():
                seen = page.evaluate("window.benchTaps.length")
                page.get_by_role("button", name=f"1 Bount pour {side}", exact=True).tap()
                page.wait_for_function("n => window.benchTaps.length > n", arg=seen)
                time.sleep(0.05)
        figures = {}
        for name, page in pages.items():
            times = page.evaluate("window.benchTaps")
            figures[name] = {"taps": len(times), "p50_ms": round(median(times), 1),
                             "p90_ms": round(percentile(times, 0.9), 1)}
        figures["p50_difference_ms"] = round(
            figures["with"]["p50_ms"] - figures["without"]["p50_ms"], 1)
        return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=60)
    args = parser.parse_args()
    print(json.dumps(measure(args.taps), indent=2))


if __name__ == "__main__":
    main()
