"""Engine replay: events per second folding games of 100, 1,000 and 10,000 events.

The events are parsed once, then `engine.replay(setup, events)` is timed, the
fold alone (what the engine costs). Each repeat folds the game enough times
to last a measurable while. Parsing plus folding (what an undo does with the
stored log) is reported beside it, not checked.
"""

import random
import time
from functools import partial

from scorekeeper import engine

from . import table
from .common import Check, Row, median

WHAT = "engine replay"
HOW = "events per second folding games of 100, 1,000, 10,000 events"
TARGET = "≥ 200,000 events/s"
SIZES = {
    "full": {"lengths": [100, 1000, 10000], "repeats": 7, "events_per_repeat": 100_000},
    "smoke": {"lengths": [20, 100], "repeats": 2, "events_per_repeat": 200},
}
RATE_LIMIT = 200_000


def parse_and_replay(setup, raw: list[dict]):
    return engine.replay(setup, [engine.recorded_event(e, setup) for e in raw])


def rate(function, events: int, times: int) -> tuple[float, float]:
    """Events per second of wall-clock time (the checked figure) and per
    second of this thread's CPU time (what other work on the machine does
    not change: it tells a slow engine from a busy machine)."""
    started, cpu_started = time.perf_counter(), time.thread_time()
    for _ in range(times):
        function()
    wall, cpu = time.perf_counter() - started, time.thread_time() - cpu_started
    return events * times / wall, events * times / max(cpu, 1e-9)


def measure(lengths: list[int], repeats: int, events_per_repeat: int) -> Row:
    figures: dict = {"repeats": repeats}
    runs: list[dict] = [{} for _ in range(repeats)]
    for length in lengths:
        body = table.new_game_body(long=True)
        setup = table.setup_of(body)
        raw = table.game(random.Random(length), setup, limit=length, long=True)
        events = [engine.recorded_event(event, setup) for event in raw]
        expected = engine.replay(setup, events)
        assert expected.events == length and not expected.finished
        times = max(1, events_per_repeat // length)
        for run in runs:
            wall, cpu = rate(partial(engine.replay, setup, events), length, times)
            run[f"fold_{length}"], run[f"fold_{length}_cpu"] = round(wall), round(cpu)
            wall, _ = rate(partial(parse_and_replay, setup, raw), length, times)
            run[f"parse_fold_{length}"] = round(wall)
        for key, name in (("fold_{}", "fold_{}_events_per_s"),
                          ("fold_{}_cpu", "fold_{}_events_per_cpu_s"),
                          ("parse_fold_{}", "parse_fold_{}_events_per_s")):
            figures[name.format(length)] = median([run[key.format(length)] for run in runs])
    checks = [
        Check(f"fold of {length:,} events", figures[f"fold_{length}_events_per_s"], ">=",
              RATE_LIMIT, "events/s")
        for length in lengths
    ]
    measured = "; ".join(
        f"{length:,}: {figures[f'fold_{length}_events_per_s']:,.0f}/s" for length in lengths
    ) + " (per CPU second: " + ", ".join(
        f"{figures[f'fold_{length}_events_per_cpu_s']:,.0f}" for length in lengths
    ) + "; parse + fold: " + ", ".join(
        f"{figures[f'parse_fold_{length}_events_per_s']:,.0f}/s" for length in lengths
    ) + ")"
    return Row(measured, checks, figures, runs)
