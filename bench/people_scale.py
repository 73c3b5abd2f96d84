"""People at scale (the roster, ratings and club nights): a club with 5,000 games and 200 players.

The store is built through the service's own writes (`games.create` and
`games.record` with seats and partners, `nights.create` and
`nights.start_round`): so the seats, the per-side summaries and the ratings
are what the app keeps at write time, not hand-written rows. Only the
build's connection commits with `synchronous=OFF` (the build is not
measured; every timed request below runs on the app's own connections).
About one game in eight is a table of a club night (a round robin of 8).

Then, in-process through the test client and interleaved sample by sample
(whatever else the machine does weighs on all of them):

- `/players` (the roster), `/players/<id>` (a busy person's statistics,
  partners, opponents, rating and its chart), `/stats` (the ranking, beside
  the per-name figures of the history), `/nights/<id>` (a night's standings
  and tables), and the existing history rows' `/games` and home page `/`;
- a tap (a Missa, which ends nothing) on a running game of the big store and
  the same tap on a running game of a fresh store beside it: the ratio says
  whether a tap's cost grows with the players and nights;
- once per repeat, a correction of the first finished game's winner, which
  re-rates every game after it (the ratings are sequential): its time, and
  how many games it re-rated.
"""

import random
import time
from datetime import datetime, timedelta, timezone

from scorekeeper import create_app, engine
from scorekeeper.service import games, nights, ratings
from scorekeeper.storage import migrations
from scorekeeper.storage.db import connect

from .common import Check, Row, median, ms, percentile, scratch_dir

WHAT = "people at scale"
HOW = ("5,000 games and 200 players built through the service's writes (seats, partners, "
       "ratings, club nights): `/players`, `/players/<id>`, `/stats` (ranking), `/nights/<id>` "
       "(standings), in-process (test client), p50 and p99, interleaved with the history "
       "rows' `/games` and `/`; a Missa on the big store and on a fresh one, interleaved; a "
       "correction of the first finished game (re-rates every later game)")
TARGET = "each page ≤ 100 ms server side; the tap ≤ 1.5× the fresh store's"
SIZES = {
    "full": {"games": 5_000, "people": 200, "repeats": 3, "samples": 40, "warmup": 5},
    "smoke": {"games": 60, "people": 16, "repeats": 1, "samples": 3, "warmup": 1},
}
LIMIT_MS = 100.0
START = datetime(2025, 1, 3, 19, 0, tzinfo=timezone.utc)
NIGHT_EVERY = 8  # one game in eight is a night's table


class Clock:
    """Stored times a minute apart, in order: the build's `now`."""

    def __init__(self):
        self.moment = START

    def __call__(self) -> str:
        self.moment += timedelta(minutes=1)
        return self.moment.isoformat(timespec="milliseconds")


def _finish(db, game: games.Game, skill: dict[str, float], rng: random.Random, now) -> None:
    """A short game: a few Missas, then the stronger side (with luck) reaches 33."""
    setup = game.setup
    people = [[name] for name in setup.sides]
    strength = [sum(skill.get(n, 0) for n in side) + rng.gauss(0, 1) for side in people]
    winner = max(range(setup.side_count), key=lambda s: strength[s])
    for _ in range(rng.randrange(1, 5)):
        games.record(db, game.id, {"type": "missa", "side": rng.randrange(setup.side_count)},
                     None, now())
    games.record(db, game.id, {"type": "adjust", "side": winner, "points": 33}, None, now())


def build(path: str, count: int, people: int, seed: int = 15) -> dict:
    """A store of `count` games among `people` players; what it holds."""
    rng = random.Random(seed)
    names = [f"Joueur {n:03d}" for n in range(people)]
    skill = {name: rng.gauss(0, 1) for name in names}
    db = connect(path)
    migrations.migrate(db)
    db.execute("PRAGMA synchronous=OFF")  # the build only: nothing of it is timed
    now = Clock()
    made, night_ids, running = 0, [], None
    while made < count:
        if made % (NIGHT_EVERY * 28) == 0 and count - made >= 28:
            # A night of 8 entrants (players, or teams every other night): 7 rounds of 4 tables.
            teams = len(night_ids) % 2 == 1
            chosen = rng.sample(names, 16 if teams else 8)
            entrants = [chosen[i:i + 2] for i in range(0, 16, 2)] if teams else [[n] for n in chosen]
            night = nights.create(db, {"name": f"Soirée {len(night_ids) + 1}",
                                       "date": now()[:10], "preset": "appli",
                                       "players": 4 if teams else 2, "entrants": entrants},
                                  now(), engine.BUILT_IN_PRESETS)
            night_ids.append(night.id)
            for number in range(1, 8):
                for game in nights.start_round(db, night, number, f"{night.id}:{number}", now(),
                                               engine.BUILT_IN_PRESETS):
                    _finish(db, game, skill, rng, now)
                    made += 1
            continue
        if rng.random() < 0.3:
            four = rng.sample(names, 4)
            body = {"sides": [f"{four[0]} & {four[1]}", f"{four[2]} & {four[3]}"], "players": 4,
                    "partners": [four[:2], four[2:]]}
        else:
            body = {"sides": rng.sample(names, 2)}
        game, _ = games.create(db, body, None, now())
        _finish(db, game, skill, rng, now)
        made += 1
    running, _ = games.create(db, {"sides": names[:2]}, None, now())
    busiest = db.execute("SELECT person FROM seats GROUP BY person ORDER BY count(*) DESC"
                         " LIMIT 1").fetchone()[0]
    first = db.execute("SELECT game_id FROM rated_games ORDER BY rated_at, game_id"
                       " LIMIT 1").fetchone()[0]
    held = {"games": db.execute("SELECT count(*) FROM games").fetchone()[0],
            "players": db.execute("SELECT count(*) FROM players").fetchone()[0],
            "nights": len(night_ids), "night": night_ids[-1], "running": running.id,
            "busiest": busiest, "first_finished": first,
            "rating_steps": db.execute("SELECT count(*) FROM rating_steps").fetchone()[0]}
    db.execute("PRAGMA synchronous=FULL")
    db.close()
    return held


def timed(client, method: str, url: str, **kwargs) -> tuple[float, float]:
    started, cpu_started = time.perf_counter(), time.thread_time()
    response = getattr(client, method)(url, **kwargs)
    wall, cpu = time.perf_counter() - started, time.thread_time() - cpu_started
    if response.status_code != 200:
        raise AssertionError(f"{url}: {response.status_code} {response.get_data()[:300]!r}")
    return wall, cpu


def _correction(client, game_id: str) -> float:
    """The first finished game's last event (its winner's 33) moved to the other side."""
    state = client.get(f"/api/games/{game_id}").get_json()
    log = client.get(f"/games/{game_id}/export.json").get_json()["games"][0]["log"]
    last = [r for r in log if r["action"] in ("event", "correction")][-1]
    seq = last["payload"].get("corrects", last["seq"])
    event = dict(last["payload"].get("event") or last["payload"])
    event["side"] = (event["side"] + 1) % len(state["sides"])
    started = time.perf_counter()
    response = client.post(f"/api/games/{game_id}/corrections", json={"seq": seq, "event": event})
    seconds = time.perf_counter() - started
    if response.status_code != 200:
        raise AssertionError(response.get_json())
    return seconds


def one_repeat(client, small, held: dict, small_game: str, samples: int, warmup: int) -> dict:
    pages = {"roster": "/players", "person": f"/players/{held['busiest']}",
             "ranking": "/stats", "night": f"/nights/{held['night']}", "games": "/games",
             "home": "/"}
    wall = {name: [] for name in (*pages, "tap_big", "tap_small")}
    cpu = {name: [] for name in pages}
    for i in range(warmup + samples):
        measured = {name: timed(client, "get", url) for name, url in pages.items()}
        side = i % 2
        big_tap = timed(client, "post", f"/api/games/{held['running']}/events",
                        json={"type": "missa", "side": side})
        small_tap = timed(small, "post", f"/api/games/{small_game}/events",
                          json={"type": "missa", "side": side})
        for tapped, game_id in ((client, held["running"]), (small, small_game)):  # untimed:
            tapped.post(f"/api/games/{game_id}/events",  # the score stays low, the game runs
                        json={"type": "adjust", "side": side, "points": -1})
        if i < warmup:
            continue
        for name, (seconds, cpu_seconds) in measured.items():
            wall[name].append(seconds)
            cpu[name].append(cpu_seconds)
        wall["tap_big"].append(big_tap[0])
        wall["tap_small"].append(small_tap[0])
    figures = {}
    for name, values in wall.items():
        figures[f"{name}_p50_ms"] = ms(percentile(values, 0.5))
        figures[f"{name}_p99_ms"] = ms(percentile(values, 0.99))
    for name, values in cpu.items():
        figures[f"{name}_cpu_p50_ms"] = ms(percentile(values, 0.5))
    figures["tap_p50_ratio"] = round(figures["tap_big_p50_ms"] / figures["tap_small_p50_ms"], 2)
    figures["correction_ms"] = ms(_correction(client, held["first_finished"]))
    return figures


def measure(games: int, people: int, repeats: int, samples: int, warmup: int) -> Row:
    with scratch_dir("people") as folder:
        path = folder / "people.sqlite3"
        started = time.perf_counter()
        held = build(str(path), games, people)
        build_seconds = time.perf_counter() - started
        app = create_app({"DATABASE": str(path), "SECRET_KEY": "bench",
                          "BACKUP_ON_START": False})
        client = app.test_client()
        small_app = create_app({"DATABASE": str(folder / "small.sqlite3"), "SECRET_KEY": "bench",
                                "BACKUP_ON_START": False})
        small = small_app.test_client()
        small_game = small.post("/api/games", json={"sides": ["A", "B"]}).get_json()["id"]
        runs = [one_repeat(client, small, held, small_game, samples, warmup)
                for _ in range(repeats)]
        size_mib = path.stat().st_size / 2**20
        store = connect(str(path))
        rerated = ratings.rerate_from(store, (store.execute(
            "SELECT rated_at FROM rated_games WHERE game_id = ?",
            [held["first_finished"]]).fetchone()[0], held["first_finished"]))
        store.conn.rollback()
        store.close()
    figures = {key: median([run[key] for run in runs]) for key in runs[0]}
    figures.update(held, repeats=repeats, samples_per_repeat=samples, rerated_games=rerated,
                   build_seconds=round(build_seconds, 1), store_mib=round(size_mib, 1))
    checks = [Check(f"{name} p99", figures[f"{name}_p99_ms"], "<=", LIMIT_MS, "ms")
              for name in ("roster", "person", "ranking", "night")]
    checks.append(Check("tap ratio to a fresh store (p50)", figures["tap_p50_ratio"], "<=", 1.5))
    f = figures
    measured = (
        f"{f['games']:,} games, {f['players']} players, nights: {f['nights']} "
        f"({f['store_mib']} MiB, built in {f['build_seconds']:.0f} s): `/players` p50 "
        f"{f['roster_p50_ms']:.1f} ms, p99 {f['roster_p99_ms']:.1f}; `/players/<id>` "
        f"{f['person_p50_ms']:.1f}, {f['person_p99_ms']:.1f}; `/stats` with the ranking "
        f"{f['ranking_p50_ms']:.1f}, {f['ranking_p99_ms']:.1f}; `/nights/<id>` "
        f"{f['night_p50_ms']:.1f}, {f['night_p99_ms']:.1f}; beside them `/games` "
        f"{f['games_p50_ms']:.1f}, `/` {f['home_p50_ms']:.1f}; a Missa p50 "
        f"{f['tap_big_p50_ms']:.2f} ms against {f['tap_small_p50_ms']:.2f} on a fresh store "
        f"(ratio {f['tap_p50_ratio']:.2f}×); correcting the first finished game (re-rates "
        f"{f['rerated_games']:,} games) {f['correction_ms']:.0f} ms"
    )
    return Row(measured, checks, figures, runs)
