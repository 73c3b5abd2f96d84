"""One scoring tap, server side: POST an event in-process, durable commit included.

Each repeat starts a long game on a fresh database and posts the taps of a
realistic table to it through Flask's test client, each with its own
Idempotency-Key, as the pages do. The baseline is measured in the same
repeat, interleaved tap by tap so that both see the same machine: a bare
sqlite-utils insert and its commit, on a file of the same kind (WAL,
synchronous=FULL) in the same folder.
"""

import json
import random
import time

from . import table
from .common import (
    Check,
    Row,
    baseline_db,
    baseline_insert,
    median,
    ms,
    percentile,
    scratch_app,
    scratch_dir,
)

WHAT = "one scoring tap, server side"
HOW = ("POST an event in-process (test client), durable commit included, p50 and p99; "
       "baseline in the same run: a bare sqlite-utils insert+commit on the same kind of file")
TARGET = "p99 ≤ 10 ms and ≤ 3× the baseline"
SIZES = {
    "full": {"repeats": 5, "taps": 400, "warmup": 20},
    "smoke": {"repeats": 2, "taps": 10, "warmup": 2},
}
P99_LIMIT_MS = 10.0
RATIO_LIMIT = 3.0


def post(client, path: str, body: dict, key: str):
    response = client.post(path, json=body, headers={"Idempotency-Key": key})
    if response.status_code != 200:
        raise AssertionError(f"{path} {body}: {response.status_code} {response.get_json()}")
    return response


def long_game(folder, seed: int):
    """A test client of the app as served on a fresh store in `folder`, the
    events address of a long game started there, and the taps to post to it."""
    body = table.new_game_body(long=True)
    stream = table.play(random.Random(seed), table.setup_of(body), long=True)
    client = scratch_app(folder / "app.sqlite3").test_client()
    game_id = client.post("/api/games", json=body).get_json()["id"]
    return client, f"/api/games/{game_id}/events", stream


def one_repeat(repeat: int, taps: int, warmup: int) -> dict:
    with scratch_dir("tap") as folder:
        client, path, stream = long_game(folder, 7000 + repeat)
        base = baseline_db(folder / "baseline.sqlite3")
        tap_times, base_times = [], []
        try:
            for i in range(warmup + taps):
                event, _ = next(stream)
                started = time.perf_counter()
                post(client, path, event, f"tap-{repeat}-{i}")
                elapsed = time.perf_counter() - started
                base_elapsed = baseline_insert(base, i, json.dumps(event))
                if i >= warmup:
                    tap_times.append(elapsed)
                    base_times.append(base_elapsed)
        finally:
            base.close()
    return {
        "tap_p50_ms": ms(percentile(tap_times, 0.5)),
        "tap_p99_ms": ms(percentile(tap_times, 0.99)),
        "baseline_p50_ms": ms(percentile(base_times, 0.5)),
        "baseline_p99_ms": ms(percentile(base_times, 0.99)),
    }


def measure(repeats: int, taps: int, warmup: int) -> Row:
    runs = [one_repeat(r, taps, warmup) for r in range(repeats)]
    for run in runs:
        run["p99_ratio"] = round(run["tap_p99_ms"] / run["baseline_p99_ms"], 2)
        run["p50_ratio"] = round(run["tap_p50_ms"] / run["baseline_p50_ms"], 2)
    figures = {key: median([run[key] for run in runs]) for key in runs[0]}
    figures.update(repeats=repeats, taps_per_repeat=taps)
    checks = [
        Check("tap p99", figures["tap_p99_ms"], "<=", P99_LIMIT_MS, "ms"),
        Check("tap p99 / baseline p99", figures["p99_ratio"], "<=", RATIO_LIMIT, "×"),
    ]
    measured = (
        f"p50 {figures['tap_p50_ms']:.2f} ms, p99 {figures['tap_p99_ms']:.2f} ms; "
        f"baseline p50 {figures['baseline_p50_ms']:.2f} ms, p99 "
        f"{figures['baseline_p99_ms']:.2f} ms; p99 ratio {figures['p99_ratio']:.2f}× "
        f"(p50 ratio {figures['p50_ratio']:.2f}×)"
    )
    return Row(measured, checks, figures, runs)
