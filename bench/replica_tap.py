"""One scoring tap with a replica against the same tap without: what Litestream,
replicating the store as `make run FLASK_REPLICA=<folder>` runs it, costs a tap,
and how soon the tap reaches the replica.

Each repeat serves the app in-process on two fresh stores, one of them
replicated by Litestream to a folder beside it (scorekeeper/storage/replica.py,
the same configuration as `make run`'s), and posts the same taps of a long
game to both through the test client, interleaved tap by tap in alternating
order so that both see the same machine. The ratio is of their medians. Then
a few taps more on the replicated store alone, each once the replica holds
every earlier commit, and followed by a look at the replica's folder every
few milliseconds until a new file of Litestream's arrives there: the time a
tap takes to reach the replica.
"""

import random
import time
from pathlib import Path

from scorekeeper.storage import replica

from .common import Check, Row, median, ms, scratch_dir
from .tap import long_game, post

WHAT = "one scoring tap with a replica (Litestream to a folder) against without"
HOW = ("the same taps posted in-process to a store replicated by Litestream and to one not, "
       "interleaved, p50 of each; then the time from a tap's answer to its copy in the replica")
TARGET = "tap p50 with ≤ 1.1× without; every tap in the replica within 2 s"
SIZES = {
    "full": {"repeats": 5, "taps": 400, "warmup": 20, "lags": 4},
    "smoke": {"repeats": 1, "taps": 10, "warmup": 2, "lags": 1},
}
RATIO_LIMIT = 1.1
LAG_LIMIT_S = 2.0  # what docs/RELIABILITY.md promises ("What survives what")
LOOK_EVERY_S = 0.005


# Litestream's first level in a folder replica: a file per copy of new
# commits (the levels above it are compactions of these).
FIRST_LEVEL = Path("ltx") / "0"
SETTLED_S = 1.2  # more than twice Litestream's intervals with no new file: all copied


def replica_files(where: Path) -> set[Path]:
    return set((where / FIRST_LEVEL).glob("*.ltx"))


def settle(where: Path) -> None:
    """Wait until the replica holds every earlier commit (no new file for a while)."""
    files, since = replica_files(where), time.perf_counter()
    while time.perf_counter() - since < SETTLED_S:
        time.sleep(0.05)
        now = replica_files(where)
        if now != files:
            files, since = now, time.perf_counter()


def time_to_replica(client, path: str, event: dict, key: str, where: Path,
                    phase: float) -> float:
    """Seconds from a tap's answer until the replica holds it: a new file of
    Litestream's, once every earlier commit was there. `phase`: a wait before
    the tap, so that taps fall anywhere between Litestream's looks at the store."""
    settle(where)
    time.sleep(phase)
    before = replica_files(where)
    post(client, path, event, key)
    answered = time.perf_counter()
    while not replica_files(where) - before:
        if time.perf_counter() - answered > 10 * LAG_LIMIT_S:
            raise AssertionError("the tap never reached the replica")
        time.sleep(LOOK_EVERY_S)
    return time.perf_counter() - answered


def one_repeat(repeat: int, taps: int, warmup: int, lags: int) -> dict:
    with scratch_dir("replica-tap") as folder:
        (folder / "with").mkdir()
        (folder / "without").mkdir()
        seed = 11000 + repeat
        replicated, path, stream = long_game(folder / "with", seed)
        plain, plain_path, _ = long_game(folder / "without", seed)  # the same game, the same taps
        where = folder / "replica"
        database = replicated.application.config["DATABASE"]
        times: dict[str, list[float]] = {"with": [], "without": []}
        with replica.replicating(database, str(where), str(folder / "with")):
            for i in range(warmup + taps):
                event, _ = next(stream)
                order = ("with", "without") if i % 2 else ("without", "with")
                for which in order:
                    client, address = (replicated, path) if which == "with" else (plain, plain_path)
                    started = time.perf_counter()
                    post(client, address, event, f"tap-{repeat}-{i}")
                    if i >= warmup:
                        times[which].append(time.perf_counter() - started)
            phases = random.Random(seed)
            lag = [time_to_replica(replicated, path, next(stream)[0], f"lag-{repeat}-{n}", where,
                                   phases.uniform(0, 1))
                   for n in range(lags)]
    return {"with_p50_ms": ms(median(times["with"])),
            "without_p50_ms": ms(median(times["without"])),
            "lag_p50_s": round(median(lag), 3), "lag_max_s": round(max(lag), 3)}


def measure(repeats: int, taps: int, warmup: int, lags: int) -> Row:
    runs = [one_repeat(r, taps, warmup, lags) for r in range(repeats)]
    for run in runs:
        run["ratio"] = round(run["with_p50_ms"] / run["without_p50_ms"], 3)
    figures = {key: median([run[key] for run in runs]) for key in runs[0]}
    figures["lag_max_s"] = max(run["lag_max_s"] for run in runs)  # the worst, not a median
    figures.update(repeats=repeats, taps_per_repeat=taps, lags_per_repeat=lags)
    checks = [Check("tap p50 with / without", figures["ratio"], "<=", RATIO_LIMIT, "×"),
              Check("time to the replica, worst", figures["lag_max_s"], "<=", LAG_LIMIT_S, "s")]
    measured = (f"tap p50 {figures['with_p50_ms']:.3f} ms with a replica, "
                f"{figures['without_p50_ms']:.3f} ms without: ratio {figures['ratio']:.2f}× "
                f"(median of {repeats} repeats × {taps} interleaved pairs); in the replica "
                f"{figures['lag_p50_s']:.2f} s after its answer (p50), "
                f"{figures['lag_max_s']:.2f} s at worst ({repeats} × {lags} taps)")
    return Row(measured, checks, figures, runs)
