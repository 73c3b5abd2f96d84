"""Where a tap's time goes beyond the floor's (issue 14): not a row of the
table, a tool for docs/PERFORMANCE.md's breakdown.

The tap and the floor of bench/tap_floor.py, interleaved the same way, with
pieces of the tap taken out to see what each costs: the before-request
hooks (the access guard, CSRF), the after-request ones (compression, the
language's Vary, the resume cookie), the summaries (the sides' UPDATE and the
game's summary columns), the answer's state (a constant instead). Taking a
piece out is for this measurement only: the store it leaves is not one the
app would write.

    python -m bench.tap_breakdown                        # every variant, 1,000 pairs each
    python -m bench.tap_breakdown --variant none --variant all --pairs 3000
    python -m bench.tap_breakdown --commits   # the COMMIT alone, tap against floor

Wall and CPU medians move with the machine's load; the number of
instructions does not. Counted with valgrind (user space only: the kernel's
share of a commit is not in it), per request, as the difference of two runs:

    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        .venv/bin/python -m bench.tap_breakdown --count tap 60 --variant none
    (the same with 20; then (I60 - I20) / 40; `--count floor` for the floor)
"""

import argparse
import os
import sqlite3
import statistics
import subprocess
import sys
import time

from .common import scratch_dir
from .tap import long_game, post
from .tap_floor import floor_app

VARIANTS = ("none", "before", "after", "summaries", "answer", "all")


def take_out(variant: str, app) -> None:
    """Take the variant's pieces out of this process's app (never undone)."""
    from scorekeeper.service import summaries
    from scorekeeper.web import api

    if variant in ("before", "all"):
        app.before_request_funcs.clear()
    if variant in ("after", "all"):
        app.after_request_funcs.clear()
    if variant in ("summaries", "all"):
        summaries.after_event = lambda *args, **kwargs: None
        summaries.game_columns = lambda *args, **kwargs: {}
    if variant in ("answer", "all"):
        api.state_json = lambda game, rematch=None: '{"ok":true}'


def interleaved(variant: str, pairs: int, warmup: int = 50) -> dict:
    with scratch_dir("tap-breakdown") as folder:
        client, path, stream = long_game(folder, 9000)
        take_out(variant, client.application)
        floor = floor_app(str(folder / "floor.sqlite3"))
        floor_client = floor.test_client()
        times = {"tap": ([], []), "floor": ([], [])}
        try:
            for i in range(warmup + pairs):
                event, _ = next(stream)
                for which in (("tap", "floor") if i % 2 else ("floor", "tap")):
                    cpu, wall = time.thread_time_ns(), time.perf_counter_ns()
                    post(client if which == "tap" else floor_client,
                         path if which == "tap" else "/floor", event, f"k{i}")
                    wall, cpu = time.perf_counter_ns() - wall, time.thread_time_ns() - cpu
                    if i >= warmup:
                        times[which][0].append(wall)
                        times[which][1].append(cpu)
        finally:
            floor.extensions["floor.conn"].close()
    medians = {f"{which}_{kind}_ms": round(statistics.median(samples) / 1e6, 3)
               for which, lists in times.items() for kind, samples in zip(("wall", "cpu"), lists)}
    medians["wall_ratio"] = round(medians["tap_wall_ms"] / medians["floor_wall_ms"], 3)
    medians["cpu_ratio"] = round(medians["tap_cpu_ms"] / medians["floor_cpu_ms"], 3)
    return medians


class TimedConnection(sqlite3.Connection):
    """A connection that notes how long each COMMIT takes, by store file."""

    commits: dict[str, list[int]] = {}

    def execute(self, sql, *args):
        if sql != "COMMIT":
            return super().execute(sql, *args)
        started = time.perf_counter_ns()
        try:
            return super().execute(sql, *args)
        finally:
            file = self.execute("PRAGMA database_list").fetchone()[2]
            self.commits.setdefault(os.path.basename(file), []).append(
                time.perf_counter_ns() - started)


def commits(pairs: int) -> None:
    """The COMMIT's own time on each side: whether the tap's larger commit
    (more WAL frames) or its Python is what it costs beyond the floor."""
    connect = sqlite3.connect
    sqlite3.connect = lambda *args, **kwargs: connect(*args, factory=TimedConnection, **kwargs)
    try:
        figures = interleaved("none", pairs)
    finally:
        sqlite3.connect = connect
    tap, floor = (statistics.median(TimedConnection.commits[name][50:]) / 1e3
                  for name in ("app.sqlite3", "floor.sqlite3"))
    print(f"commit p50: tap {tap:.0f} µs, floor {floor:.0f} µs; whole request p50: tap "
          f"{figures['tap_wall_ms'] * 1e3:.0f} µs (CPU {figures['tap_cpu_ms'] * 1e3:.0f}), floor "
          f"{figures['floor_wall_ms'] * 1e3:.0f} µs (CPU {figures['floor_cpu_ms'] * 1e3:.0f}); "
          f"load {os.getloadavg()[0]:.2f}", flush=True)


def count(which: str, requests: int, variant: str) -> None:
    """`requests` of one kind after the same set-up, for an instruction count."""
    with scratch_dir("tap-count") as folder:
        client, path, stream = long_game(folder, 9000)
        take_out(variant, client.application)
        floor = floor_app(str(folder / "floor.sqlite3"))
        floor_client = floor.test_client()
        events = [next(stream)[0] for _ in range(50 + requests)]
        for i, event in enumerate(events[:50]):
            post(client, path, event, f"w{i}")
            post(floor_client, "/floor", event, f"w{i}")
        for i, event in enumerate(events[50:]):
            if which == "tap":
                post(client, path, event, f"k{i}")
            else:
                post(floor_client, "/floor", event, f"k{i}")
        floor.extensions["floor.conn"].close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", action="append", choices=VARIANTS)
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--count", nargs=2, metavar=("tap|floor", "N"))
    parser.add_argument("--commits", action="store_true", help="time the COMMITs alone")
    args = parser.parse_args()
    if args.commits:
        commits(args.pairs)
        return
    variants = args.variant or list(VARIANTS)
    if args.count:
        count(args.count[0], int(args.count[1]), variants[0])
        return
    if len(variants) > 1:  # a piece taken out stays out: one process per variant
        for variant in variants:
            subprocess.run([sys.executable, "-m", "bench.tap_breakdown", "--variant", variant,
                            "--pairs", str(args.pairs)], check=True)
        return
    before = os.getloadavg()[0]
    figures = interleaved(variants[0], args.pairs)
    print(f"{variants[0]:10s} load {before:5.2f}-{os.getloadavg()[0]:5.2f}  "
          + "  ".join(f"{name} {value}" for name, value in figures.items()), flush=True)


if __name__ == "__main__":
    main()
