"""The browser row's Missa series on several checkouts of the app, side by side.

    git archive <commit> | tar -x -C /tmp/before    # a checkout to compare with
    .venv/bin/python -m bench.paint_ab --rounds 6 --taps 24 before=/tmp/before now=.

Each checkout is served by its own server (its code, its page and its script)
on a fresh database, and the rounds take turns: a series of Missas on one, then
on the next, so that what else the shared machine is doing weighs on each
alike (its absolute times do not hold from one run to the next; the ratio
does). A series is bench/browser_game.py's: from the finger down (the
pointerdown's time) to the new score painted, at the row's 4× CPU slowdown;
beside it the same from the finger lifted (the pointerup's time), the
time between the two, and how long the finger down and the lift each waited
for the page (from the event's own time to its listener).
`--probe` adds, in each round, a series of taps on the row's baseline: a
page whose button changes a number in place (bench/browser_game.py, Probe),
the floor of any tap on this machine at that moment.
`--trace FILE` writes a Chromium trace of the whole run (devtools.timeline
and the JavaScript sampler), to open in DevTools or Perfetto: where a tap's
time goes, task by task.
"""

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from scorekeeper.testing.live_server import LiveServer

from .browser_game import SAME_CONTROL_S, Probe, missa_parts
from .chromium import chromium
from .common import percentile

TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline",
                    "disabled-by-default-v8.cpu_profiler", "blink.user_timing", "toplevel"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkouts", nargs="+", metavar="NAME=FOLDER")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--taps", type=int, default=24, help="Missas in a series")
    parser.add_argument("--throttle", type=int, default=4, help="CPU slowdown")
    parser.add_argument("--trace", type=Path, help="write a Chromium trace of the run here")
    parser.add_argument("--probe", action="store_true", help="a baseline series in each round")
    args = parser.parse_args(argv)
    named = [spec.split("=", 1) for spec in args.checkouts]
    if args.probe:
        named.append(["probe", None])
    servers: list[LiveServer] = []
    times: dict[str, list[float]] = {name: [] for name, _ in named}
    lifted: dict[str, list[float]] = {name: [] for name, _ in named}
    gaps: dict[str, list[float]] = {name: [] for name, _ in named}
    medians: dict[str, list[float]] = {name: [] for name, _ in named}
    waited: dict[str, dict[str, list[float]]] = {
        name: {"down_waited": [], "lift_waited": []} for name, _ in named}
    try:
        for name, folder in named:
            if folder is None:
                continue
            scratch = Path(tempfile.mkdtemp(prefix=f"paint-ab-{name}-"))
            server = LiveServer(scratch, scratch / "app.sqlite3", root=Path(folder).resolve(),
                                FLASK_SECRET_KEY="a secret for this bench only")
            server.start()
            servers.append(server)
            server.get("/api/games/none", timeout=30)
        with chromium() as browser:
            if args.trace:
                browser.start_tracing(path=str(args.trace), categories=TRACE_CATEGORIES)
            for _ in range(args.rounds):
                for (name, _), server in zip(named, servers + [None]):
                    parts = (missa_parts(browser, server.url, args.throttle, args.taps) if server
                             else probe_parts(browser, args.throttle, args.taps))
                    series = [part["down"] for part in parts]
                    times[name] += series
                    lifted[name] += [part["lift"] for part in parts if part["lift"] is not None]
                    gaps[name] += [part["down"] - part["lift"] for part in parts
                                   if part["lift"] is not None]
                    for part in parts:
                        for key, values in waited[name].items():
                            if key in part:
                                values.append(part[key])
                    medians[name].append(round(statistics.median(series), 1))
            if args.trace:
                browser.stop_tracing()
    finally:
        for server in servers:
            server.stop()
    for name, _ in named:
        print(f"{name}: p50 {percentile(times[name], 0.5):.1f} ms, p90 "
              f"{percentile(times[name], 0.9):.1f} ms over {len(times[name])} Missas; "
              f"each series' median: {medians[name]}; from the finger lifted: p50 "
              f"{percentile(lifted[name], 0.5):.1f} ms; down to lift: p50 "
              f"{percentile(gaps[name], 0.5):.1f} ms; the finger down waited for the page: "
              f"p50 {median_of(waited[name]['down_waited'])}, the lift: "
              f"p50 {median_of(waited[name]['lift_waited'])}")


def median_of(values: list[float]) -> str:
    return f"{percentile(values, 0.5):.1f} ms" if values else "not seen"


def probe_parts(browser, throttle: int, taps: int) -> list[dict]:
    """`taps` taps on the baseline's button, as missa_parts's Missas."""
    probe = Probe(browser, throttle)
    try:
        parts = []
        for _ in range(taps):
            time.sleep(SAME_CONTROL_S / 2)
            with probe.phone.slowed_down():
                _, lift, down, waits = probe.tap()
            if down is None:
                raise AssertionError("the baseline's tap was not seen")
            parts.append({"down": down, "lift": lift, **waits})
        return parts
    finally:
        probe.close()


if __name__ == "__main__":
    main()
