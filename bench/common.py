"""What every row module shares: statistics, checks, a row's result, a scratch app."""

import math
import os
import shutil
import statistics
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence

import sqlite_utils

from scorekeeper import create_app
from scorekeeper.storage.db import connect

ROOT = Path(__file__).resolve().parent.parent


def percentile(samples: Sequence[float], q: float) -> float:
    """The nearest-rank q-quantile (0 < q <= 1): the smallest sample that at
    least q of the samples do not exceed. No interpolation: a reported p99 is
    a time that was actually measured."""
    if not samples:
        raise ValueError("no samples")
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


@dataclass
class Check:
    """One figure against its target: `value op limit`."""

    name: str
    value: float
    op: str  # "<=" or ">="
    limit: float
    unit: str = ""

    @property
    def met(self) -> bool:
        return self.value <= self.limit if self.op == "<=" else self.value >= self.limit

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "value": self.value, "op": self.op, "limit": self.limit,
            "unit": self.unit, "met": self.met,
        }


@dataclass
class Row:
    """What a row module measured: `figures` are the reported numbers (medians
    over the repeats, unless named otherwise), `repeats` the per-repeat values
    they come from, `measured` the table's cell."""

    measured: str
    checks: list[Check]
    figures: dict[str, Any]
    repeats: list[dict[str, Any]] = field(default_factory=list)


def ratio_row(runs: list[dict], names: tuple[str, str], taps: int, limit: float,
              check: str) -> Row:
    """A row of `taps` interleaved pairs a run: each run's p50 of the first
    (`names[0]`, as "<name>_p50_ms") over the second's, the median of each
    figure across runs, checked against `limit`."""
    first, second = (f"{name}_p50_ms" for name in names)
    for run in runs:
        run["ratio"] = round(run[first] / run[second], 3)
    figures = {key: median([run[key] for run in runs]) for key in runs[0]}
    figures.update(repeats=len(runs), taps_per_repeat=taps)
    measured = (f"{names[0]} p50 {figures[first]:.3f} ms, {names[1]} p50 "
                f"{figures[second]:.3f} ms: ratio {figures['ratio']:.2f}× "
                f"(median of {len(runs)} repeats × {taps} interleaved pairs)")
    return Row(measured, [Check(check, figures["ratio"], "<=", limit, "×")], figures, runs)


@contextmanager
def scratch_dir(prefix: str) -> Iterator[Path]:
    """A temporary folder on the machine's temporary file system (recorded in
    results.json: durable commits cost what that file system's fsync costs)."""
    path = Path(tempfile.mkdtemp(prefix=f"ronda-bench-{prefix}-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def scratch_app(path: Path):
    """The app as it is served, on a fresh database file."""
    return create_app({"DATABASE": str(path), "SECRET_KEY": "bench"})


def baseline_db(path: Path) -> sqlite_utils.Database:
    """A bare database of the same kind as the app's: same connection set-up
    (synchronous=FULL), WAL, one small table."""
    db = connect(str(path))
    db.enable_wal()
    db["log"].create({"game_id": str, "seq": int, "payload": str}, pk=("game_id", "seq"))
    return db


def baseline_insert(db: sqlite_utils.Database, seq: int, payload: str) -> float:
    """One bare sqlite-utils insert and its durable commit; its time in seconds."""
    started = time.perf_counter()
    with db.conn:
        db["log"].insert({"game_id": "bench", "seq": seq, "payload": payload})
    return time.perf_counter() - started


def file_system_of(path: str) -> str:
    """The type of the file system holding `path`, from /proc/mounts (Linux)."""
    try:
        mounts = [line.split() for line in Path("/proc/mounts").read_text().splitlines()]
    except OSError:
        return "unknown"
    path = os.path.realpath(path)
    best, kind = "", "unknown"
    for fields_ in mounts:
        if len(fields_) >= 3:
            point = fields_[1]
            inside = path == point or path.startswith(point.rstrip("/") + "/")
            if inside and len(point) > len(best):
                best, kind = point, fields_[2]
    return kind
