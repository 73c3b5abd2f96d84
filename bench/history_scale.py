"""History at scale: /games (first page) and /stats over 10,000 stored games.

A store of 10,000 games is written once by `scorekeeper.testing.sample_history.build`
(the module that also fills tests/web/test_history_scale.py's store: whole logs,
snapshots and the per-game summary rows, as the app writes them). Then each
repeat requests, in turn and again and again, the two pages and two
baselines through the app's test client (in-process: the server's time, no
network):

- `/games`, the history list's first page, and `/stats`, the statistics page;
- `/`, the home page: the same app, template and request machinery with one
  small query, so a ratio to it tells the history's own cost from the
  machine's speed;
- a bare `SELECT count(*) FROM games` on its own connection to the same file.

The four are interleaved sample by sample so that whatever else the machine
does weighs on all of them. Each request's CPU time (this thread's) is kept
beside its wall-clock time: other processes lengthen the latter, not the
former.
"""

import time

from scorekeeper import create_app
from scorekeeper.storage.db import connect
from scorekeeper.testing.sample_history import build

from .common import Check, Row, median, ms, percentile, scratch_dir

WHAT = "history at scale"
HOW = ("10,000 stored games (`sample_history.build`): `/games` first page and `/stats`, "
       "in-process (test client), p50 and p99; baselines in the same run, interleaved: "
       "the home page `/` and a bare `SELECT count(*)` on the same file")
TARGET = "each ≤ 100 ms server side"
SIZES = {
    "full": {"games": 10_000, "repeats": 5, "samples": 60, "warmup": 5},
    "smoke": {"games": 200, "repeats": 1, "samples": 3, "warmup": 1},
}
LIMIT_MS = 100.0
PAGES = {"games": "/games", "stats": "/stats", "home": "/"}


def timed_get(client, url: str) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one GET answered 200."""
    started, cpu_started = time.perf_counter(), time.thread_time()
    response = client.get(url)
    wall, cpu = time.perf_counter() - started, time.thread_time() - cpu_started
    if response.status_code != 200:
        raise AssertionError(f"{url}: {response.status_code}")
    return wall, cpu


def timed_count(db) -> float:
    started = time.perf_counter()
    db.execute("SELECT count(*) FROM games").fetchone()
    return time.perf_counter() - started


def one_repeat(client, bare, samples: int, warmup: int) -> dict:
    wall: dict[str, list[float]] = {name: [] for name in (*PAGES, "count")}
    cpu: dict[str, list[float]] = {name: [] for name in PAGES}
    for i in range(warmup + samples):
        measured = {name: timed_get(client, url) for name, url in PAGES.items()}
        counted = timed_count(bare)
        if i < warmup:
            continue
        for name, (seconds, cpu_seconds) in measured.items():
            wall[name].append(seconds)
            cpu[name].append(cpu_seconds)
        wall["count"].append(counted)
    figures = {}
    for name, values in wall.items():
        figures[f"{name}_p50_ms"] = ms(percentile(values, 0.5))
        figures[f"{name}_p99_ms"] = ms(percentile(values, 0.99))
    for name, values in cpu.items():
        figures[f"{name}_cpu_p50_ms"] = ms(percentile(values, 0.5))
    for name in ("games", "stats"):
        figures[f"{name}_to_home_p50"] = round(
            figures[f"{name}_p50_ms"] / figures["home_p50_ms"], 2)
    return figures


def measure(games: int, repeats: int, samples: int, warmup: int) -> Row:
    with scratch_dir("history") as folder:
        path = folder / "history.sqlite3"
        started = time.perf_counter()
        built = build(str(path), games)
        build_seconds = time.perf_counter() - started
        # The app as served, except the start-up backup of the big store (into
        # the instance folder): not part of a request, and no place for a copy.
        app = create_app({"DATABASE": str(path), "SECRET_KEY": "bench",
                          "BACKUP_ON_START": False})
        client = app.test_client()
        bare = connect(str(path))
        try:
            runs = [one_repeat(client, bare, samples, warmup) for _ in range(repeats)]
        finally:
            bare.close()
        size_mib = path.stat().st_size / 2**20
    figures = {key: median([run[key] for run in runs]) for key in runs[0]}
    figures.update(games=len(built), repeats=repeats, samples_per_repeat=samples,
                   build_seconds=round(build_seconds, 2), store_mib=round(size_mib, 1))
    checks = [
        Check("/games p99", figures["games_p99_ms"], "<=", LIMIT_MS, "ms"),
        Check("/stats p99", figures["stats_p99_ms"], "<=", LIMIT_MS, "ms"),
    ]
    measured = (
        f"{len(built):,} games ({figures['store_mib']} MiB): `/games` p50 "
        f"{figures['games_p50_ms']:.1f} ms, p99 {figures['games_p99_ms']:.1f} ms; `/stats` p50 "
        f"{figures['stats_p50_ms']:.1f} ms, p99 {figures['stats_p99_ms']:.1f} ms (CPU p50 "
        f"{figures['games_cpu_p50_ms']:.1f} and {figures['stats_cpu_p50_ms']:.1f} ms); "
        f"baselines: home page p50 {figures['home_p50_ms']:.1f} ms (ratios "
        f"{figures['games_to_home_p50']:.1f}× and {figures['stats_to_home_p50']:.1f}×), "
        f"bare count p50 {figures['count_p50_ms']:.2f} ms"
    )
    return Row(measured, checks, figures, runs)
