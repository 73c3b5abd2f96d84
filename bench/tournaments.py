"""Tournaments at a big evening: a knockout of 64 entrants and a Swiss evening
of 128.

The store is built through the service's own writes (`nights.create`,
`tournaments.start_match`, `tournaments.start_swiss_round`, `games.record`):
tables, seats, summaries, ratings and pairings as the app keeps them; only
the build's connection commits with `synchronous=OFF` (the build is not
timed). Both are caught mid-evening, when a screen is busiest: the knockout
has played its first three rounds (56 tables) and its round of 8 is being
played, half of it over; the Swiss evening of 8 rounds has played 6 (384
tables) and its 7th is being played, half of it over, so that its 8th
round's pairing is proposed on every read.

Then, in-process through the test client and interleaved sample by sample:

- pairing: the engine's Swiss pairing of the 8th round of 128 (by standing,
  no rematch), and the service's whole read of the Swiss evening (its
  standings from every table, and that pairing) and of the knockout's bracket;
- the night's page (`/nights/<id>`, the bracket or the Swiss table, with its
  start buttons) of each;
- the big screen's update of each, as `static/screen.js` makes it when a
  table changed: its stamp (`screen.json?stamp=1`, which it asks every
  second) then the screen's content (`X-Screen: 1`) that it swaps in; and
  beside it the whole `screen.json` (every table and match as data), which
  the screen does not ask.
"""

import random
import time
from datetime import datetime, timedelta, timezone

from scorekeeper import create_app, engine
from scorekeeper.engine import tournament
from scorekeeper.service import games, nights, tournaments
from scorekeeper.storage import migrations
from scorekeeper.storage.db import connect

from .common import Check, Row, median, ms, percentile, scratch_dir

WHAT = "tournaments at a big evening"
HOW = ("a knockout of 64 entrants (round of 8 being played) and a Swiss evening of 128 "
       "(8 rounds, the 7th being played), built through the service's writes: the Swiss "
       "pairing of 128 (engine, and the service's whole read), the bracket's and the Swiss "
       "table's night pages, the big screen's update (its stamp, then its content), "
       "in-process (test client), p50 and p99, interleaved with the home page `/`")
TARGET = ("Swiss pairing of 128 ≤ 50 ms; each night page ≤ 100 ms; each screen update "
          "(stamp + content) ≤ 100 ms server side")
SIZES = {
    "full": {"knockout": 64, "swiss": 128, "swiss_rounds": 8, "repeats": 3, "samples": 30,
             "warmup": 3},
    "smoke": {"knockout": 8, "swiss": 9, "swiss_rounds": 4, "repeats": 1, "samples": 2,
              "warmup": 1},
}
PAIRING_MS, PAGE_MS, SCREEN_MS = 50.0, 100.0, 100.0
START = datetime(2026, 6, 5, 19, 0, tzinfo=timezone.utc)
PRESETS = engine.BUILT_IN_PRESETS


class Clock:
    def __init__(self):
        self.moment = START

    def __call__(self) -> str:
        self.moment += timedelta(seconds=20)
        return self.moment.isoformat(timespec="milliseconds")


def _win(db, game: games.Game, rng: random.Random, now) -> None:
    """The game won by either side, by a random margin."""
    side = rng.randrange(2)
    games.record(db, game.id, {"type": "adjust", "side": side, "points": 33 + rng.randrange(17)},
                 None, now())


def build(path: str, knockout: int, swiss: int, swiss_rounds: int, seed: int = 24) -> dict:
    rng = random.Random(seed)
    db = connect(path)
    migrations.migrate(db)
    db.execute("PRAGMA synchronous=OFF")  # the build only: nothing of it is timed
    now = Clock()

    def night(kind: str, count: int, **more) -> nights.Night:
        entrants = [[f"{kind[:1].upper()}{n:03d}"] for n in range(count)]
        return nights.create(db, {"name": kind, "date": "2026-06-05", "preset": "appli",
                                  "players": 2, "format": kind, "entrants": entrants,
                                  "seeding": "draw", **more}, now(), PRESETS,
                             draw=random.Random(seed))

    cup = night("knockout", knockout)
    rounds = len(tournament.knockout(knockout, []).rounds)
    for number in range(1, rounds + 1):
        ready = [m for m in tournaments.bracket(db, cup).rounds[number - 1] if m.match.ready]
        last = number == rounds - 2 if rounds > 2 else number == rounds
        for index, line in enumerate(ready):
            game = tournaments.start_match(db, cup, number, line.match.slot,
                                           f"b{number}.{line.match.slot}", now(), PRESETS)
            if not last or index % 2 == 0:
                _win(db, game, rng, now)
        if last:
            break
    evening = night("swiss", swiss, rounds=swiss_rounds)
    for number in range(1, swiss_rounds):
        evening = nights.get(db, evening.id)
        started = tournaments.start_swiss_round(db, evening, number, f"s{number}", now(),
                                                PRESETS, force=True)
        for index, game in enumerate(started):
            if number < swiss_rounds - 1 or index % 2 == 0:
                _win(db, game, rng, now)
    held = {"knockout_night": cup.id, "swiss_night": evening.id,
            "tables": db.execute("SELECT count(*) FROM night_tables").fetchone()[0],
            "knockout_tables": db.execute("SELECT count(*) FROM night_tables WHERE night_id = ?",
                                          [cup.id]).fetchone()[0]}
    db.execute("PRAGMA synchronous=FULL")
    db.close()
    return held


def _timed(call) -> tuple[float, float]:
    """Wall-clock and CPU seconds (this thread's: what other processes do not lengthen)."""
    started, cpu_started = time.perf_counter(), time.thread_time()
    call()
    return time.perf_counter() - started, time.thread_time() - cpu_started


def _get(client, url: str, **kwargs):
    def call():
        response = client.get(url, **kwargs)
        if response.status_code != 200:
            raise AssertionError(f"{url}: {response.status_code}")
    return call


def _pairing_inputs(db, night):
    """What the engine is given for the next Swiss round: the standing, the pairs met, the byes."""
    pairings = tournaments._pairings(db, night.id)
    matches = tournament.swiss_matches(pairings, tournaments._played(
        tournaments._tables(db, night.id)), night.match_games)
    ranked = [s.entrant for s in tournament.swiss_standings(len(night.entrants), matches)]
    met = {frozenset(p.entrants) for p in pairings if p.entrants[1] is not None}
    byes = {p.entrants[0] for p in pairings if p.entrants[1] is None}
    return ranked, met, byes


def one_repeat(client, db, held: dict, samples: int, warmup: int) -> dict:
    cup = nights.get(db, held["knockout_night"])
    evening = nights.get(db, held["swiss_night"])
    ranked, met, byes = _pairing_inputs(db, evening)
    screen = {"X-Screen": "1"}
    calls = {
        "pairing_engine": lambda: tournament.swiss_pairing(ranked, met, byes),
        "swiss_read": lambda: tournaments.swiss(db, evening),
        "bracket_read": lambda: tournaments.bracket(db, cup),
        "knockout_page": _get(client, f"/nights/{cup.id}"),
        "swiss_page": _get(client, f"/nights/{evening.id}"),
        "knockout_screen_poll": _get(client, f"/nights/{cup.id}/screen.json?stamp=1"),
        "knockout_screen_content": _get(client, f"/nights/{cup.id}/screen", headers=screen),
        "knockout_screen_data": _get(client, f"/nights/{cup.id}/screen.json"),
        "swiss_screen_poll": _get(client, f"/nights/{evening.id}/screen.json?stamp=1"),
        "swiss_screen_content": _get(client, f"/nights/{evening.id}/screen", headers=screen),
        "swiss_screen_data": _get(client, f"/nights/{evening.id}/screen.json"),
        "home": _get(client, "/"),
    }
    wall: dict[str, list[float]] = {name: [] for name in calls}
    cpu: dict[str, list[float]] = {name: [] for name in calls}
    for index in range(warmup + samples):
        measured = {name: _timed(call) for name, call in calls.items()}
        if index >= warmup:
            for name, (seconds, cpu_seconds) in measured.items():
                wall[name].append(seconds)
                cpu[name].append(cpu_seconds)
    figures = {}
    for name, values in wall.items():
        figures[f"{name}_p50_ms"] = ms(percentile(values, 0.5))
        figures[f"{name}_p99_ms"] = ms(percentile(values, 0.99))
        figures[f"{name}_cpu_p50_ms"] = ms(percentile(cpu[name], 0.5))
    for kind in ("knockout", "swiss"):  # an update: the stamp asked, then the content swapped in
        figures[f"{kind}_screen_update_p99_ms"] = round(
            figures[f"{kind}_screen_poll_p99_ms"] + figures[f"{kind}_screen_content_p99_ms"], 3)
    return figures


def measure(knockout: int, swiss: int, swiss_rounds: int, repeats: int, samples: int,
            warmup: int) -> Row:
    with scratch_dir("tournaments") as folder:
        path = folder / "tournaments.sqlite3"
        started = time.perf_counter()
        held = build(str(path), knockout, swiss, swiss_rounds)
        build_seconds = time.perf_counter() - started
        app = create_app({"DATABASE": str(path), "SECRET_KEY": "bench",
                          "BACKUP_ON_START": False})
        client = app.test_client()
        db = connect(str(path))
        try:
            runs = [one_repeat(client, db, held, samples, warmup) for _ in range(repeats)]
        finally:
            db.close()
    figures = {key: median([run[key] for run in runs]) for key in runs[0]}
    figures.update(held, knockout_entrants=knockout, swiss_entrants=swiss,
                   swiss_rounds=swiss_rounds, repeats=repeats, samples_per_repeat=samples,
                   build_seconds=round(build_seconds, 1))
    f = figures
    checks = [
        Check("Swiss pairing p99 (engine)", f["pairing_engine_p99_ms"], "<=", PAIRING_MS, "ms"),
        Check("knockout page p99", f["knockout_page_p99_ms"], "<=", PAGE_MS, "ms"),
        Check("Swiss page p99", f["swiss_page_p99_ms"], "<=", PAGE_MS, "ms"),
        Check("knockout screen update p99", f["knockout_screen_update_p99_ms"], "<=",
              SCREEN_MS, "ms"),
        Check("Swiss screen update p99", f["swiss_screen_update_p99_ms"], "<=", SCREEN_MS, "ms"),
    ]
    measured = (
        f"knockout of {knockout} ({f['knockout_tables']} tables), Swiss of {swiss} "
        f"({f['tables'] - f['knockout_tables']} tables; built in {f['build_seconds']:.0f} s): "
        f"Swiss pairing of round {swiss_rounds} p50 {f['pairing_engine_p50_ms']:.1f} ms, "
        f"p99 {f['pairing_engine_p99_ms']:.1f} (the whole Swiss read with it "
        f"{f['swiss_read_p50_ms']:.1f}, the bracket's {f['bracket_read_p50_ms']:.1f}); night "
        f"page p50/p99: knockout {f['knockout_page_p50_ms']:.1f}/{f['knockout_page_p99_ms']:.1f}"
        f" ms, Swiss {f['swiss_page_p50_ms']:.1f}/{f['swiss_page_p99_ms']:.1f}; screen update "
        f"(stamp + content) p99: knockout {f['knockout_screen_update_p99_ms']:.1f} ms "
        f"(stamp p50 {f['knockout_screen_poll_p50_ms']:.2f}, content p50 "
        f"{f['knockout_screen_content_p50_ms']:.1f}), Swiss "
        f"{f['swiss_screen_update_p99_ms']:.1f} (stamp p50 {f['swiss_screen_poll_p50_ms']:.2f},"
        f" content p50 {f['swiss_screen_content_p50_ms']:.1f}); the whole `screen.json` p50: "
        f"knockout {f['knockout_screen_data_p50_ms']:.1f}, Swiss "
        f"{f['swiss_screen_data_p50_ms']:.1f}; beside them the home page p50 "
        f"{f['home_p50_ms']:.1f}; CPU p50: knockout page {f['knockout_page_cpu_p50_ms']:.1f}, "
        f"Swiss page {f['swiss_page_cpu_p50_ms']:.1f}, Swiss screen content "
        f"{f['swiss_screen_content_cpu_p50_ms']:.1f}, home page {f['home_cpu_p50_ms']:.1f}"
    )
    return Row(measured, checks, figures, runs)
