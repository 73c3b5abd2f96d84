"""Where a tap's time goes beyond the floor's (what the app adds to one
durable INSERT): not a row of the table, a tool of docs/PERFORMANCE.md, "The
tap on the server".

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
    python -m bench.tap_breakdown --bounds    # two lower bounds of any tap (below)

`--bounds` interleaves four requests, each through its own test client: the
tap as served, the floor, and two bare Flask routes built like the floor.
"statements" runs exactly the SQL of a tap (captured from the app's own taps
on this game, a fresh seq and key each time) on a copy of its store: what a
tap's reads and writes cost with no Python around them. "service" calls
only `games.record` and the answer's `api.state_json` on a connection it
keeps, on a game of its own fed the same events: the rules' work (parse,
fold, snapshot, summaries, the contract's answer) with no hook, no guard, no
body check and no pool.

Wall and CPU medians move with the machine's load; the number of
instructions does not. Counted with valgrind (user space only: the kernel's
share of a commit is not in it), per request, as the difference of two runs:

    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        .venv/bin/python -m bench.tap_breakdown --count tap 60 --variant none
    (the same with 20; then (I60 - I20) / 40; `--count floor` for the floor)
"""

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import time

from flask import Flask, request

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


def statements_app(folder, taps: list[list[tuple[str, list]]]) -> Flask:
    """A bare route that runs a captured tap's statements, in turn, on a copy
    of the tap's store (`folder / "app.sqlite3"`, copied now)."""
    source = sqlite3.connect(str(folder / "app.sqlite3"))
    copy = sqlite3.connect(str(folder / "statements.sqlite3"), check_same_thread=False,
                           isolation_level=None)
    source.backup(copy)
    source.close()
    copy.execute("PRAGMA journal_mode=WAL")
    copy.execute("PRAGMA synchronous=FULL")
    app = Flask("statements")
    served = [0]

    @app.post("/statements")
    def statements():
        request.get_data()
        served[0] += 1
        key = f"statements-{served[0]}"
        for sql, params in taps[served[0] % len(taps)]:
            if sql.startswith("INSERT INTO events"):  # (game_id, seq, action, payload, key, at…)
                params = [params[0], 1_000_000 + served[0], params[2], params[3], key,
                          *params[5:]]
            elif sql.startswith("SELECT") and "idempotency_key" in sql:
                params = [key, *params[1:]]
            copy.execute(sql, params)
        return {"ok": True}

    app.extensions["bounds.conn"] = copy
    return app


def service_app(folder, seed: int) -> Flask:
    """A bare route that records on a game of its own through the service
    and answers its state as the API does."""
    from scorekeeper.service import games
    from scorekeeper.service.clock import utc_now
    from scorekeeper.storage.db import connect
    from scorekeeper.web import api

    (folder / "service").mkdir()
    _, path, _ = long_game(folder / "service", seed)
    game_id = path.split("/")[3]
    db = connect(str(folder / "service" / "app.sqlite3"))
    app = Flask("service")

    @app.post("/service")
    def service():
        body = json.loads(request.get_data())
        game, _ = games.record(db, game_id, body, request.headers.get("Idempotency-Key"),
                               utc_now())
        return app.response_class(api.state_json(game) + "\n", mimetype="application/json")

    app.extensions["bounds.conn"] = db.conn
    return app


def capture_taps(client, path: str, events: list[dict]) -> list[list[tuple[str, list]]]:
    """The SQL statements of each of these taps, as the app ran them."""
    import sqlite_utils

    execute, taps = sqlite_utils.Database.execute, []

    def noted(db, sql, parameters=None):
        taps[-1].append((sql, list(parameters or [])))
        return execute(db, sql, parameters) if parameters is not None else execute(db, sql)

    sqlite_utils.Database.execute = noted
    try:
        for i, event in enumerate(events):
            taps.append([])
            post(client, path, event, f"captured-{i}")
    finally:
        sqlite_utils.Database.execute = execute
    return taps


def bounds(pairs: int, warmup: int = 50) -> None:
    """The tap, the floor and the two lower bounds, interleaved (the order
    rotating), p50 of each and their ratios to the floor's."""
    with scratch_dir("tap-bounds") as folder:
        client, path, stream = long_game(folder, 9000)
        events = [next(stream)[0] for _ in range(warmup + pairs + 50)]
        service = service_app(folder, 9000)
        service_client = service.test_client()
        for i, event in enumerate(events[:50]):  # the service's game keeps step with the tap's
            post(service_client, "/service", event, f"start-{i}")
        floor = floor_app(str(folder / "floor.sqlite3"))
        statements = statements_app(folder, capture_taps(client, path, events[:50]))
        routes = {"tap": (client, path), "floor": (floor.test_client(), "/floor"),
                  "statements": (statements.test_client(), "/statements"),
                  "service": (service_client, "/service")}
        times = {name: [] for name in routes}
        names = list(routes)
        try:
            for i, event in enumerate(events[50:]):
                for name in names[i % 4:] + names[:i % 4]:
                    route_client, route = routes[name]
                    started = time.perf_counter_ns()
                    post(route_client, route, event, f"k{i}")
                    if i >= warmup:
                        times[name].append(time.perf_counter_ns() - started)
        finally:
            for conn in (floor.extensions["floor.conn"], statements.extensions["bounds.conn"],
                         service.extensions["bounds.conn"]):
                conn.close()
    medians = {name: statistics.median(samples) / 1e3 for name, samples in times.items()}
    print("p50: " + ", ".join(
        f"{name} {medians[name]:.0f} µs ({medians[name] / medians['floor']:.2f}× floor)"
        for name in names) + f"; load {os.getloadavg()[0]:.2f}", flush=True)


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
    parser.add_argument("--bounds", action="store_true", help="the two lower bounds of a tap")
    args = parser.parse_args()
    if args.commits:
        commits(args.pairs)
        return
    if args.bounds:
        bounds(args.pairs)
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
