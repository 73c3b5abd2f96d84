"""Load at a club: 50 tables playing at once against one waitress server.

The server is the app as `make run` serves it (`python -m scorekeeper.serve`,
waitress), in its own process on loopback, on a fresh database file. Each
table is a client thread with its own keep-alive connection, playing one
realistic game (2 or 4 players) as fast as the server answers: every POST
carries an Idempotency-Key and the expected version, and a connection error
is retried with the same key. The run is bounded in events per table and in
time. Afterwards the database is read directly: every acknowledged event
must be stored exactly once, in order, and each game's stored state must be
the one the table computed.
"""

import http.client
import json
import random
import secrets
import threading
import time
from pathlib import Path

import sqlite_utils

from scorekeeper import engine
from scorekeeper.testing.live_server import LiveServer

from . import table
from .common import Check, Row, median, ms, percentile, scratch_dir

WHAT = "load at a club"
HOW = ("waitress on loopback, 50 tables playing at once (bounded count and time), "
       "each posting a realistic game")
TARGET = "≥ 300 events/s, 0 errors, 0 events lost or doubled (counted in the database)"
SIZES = {
    "full": {"tables": 50, "repeats": 3, "max_events": 200, "seconds": 120},
    "smoke": {"tables": 3, "repeats": 1, "max_events": 8, "seconds": 30},
}
RATE_LIMIT = 300
RETRIES = 5
TIMEOUT_SECONDS = 30


class Server(LiveServer):
    """`python -m scorekeeper.serve` on a free loopback port, on `database`
    (`extra_env`: more environment variables, e.g. FLASK_BACKUP_DIR), answering
    once made: the tests' own live server (scorekeeper/testing/live_server.py)."""

    def __init__(self, database: Path, log: Path, **extra_env: str):
        extra_env.setdefault("FLASK_SECRET_KEY", secrets.token_hex(16))
        super().__init__(database.parent, database, log=log, **extra_env)
        self.start()
        self.get("/api/games/none", timeout=20)  # a 404 once it answers


class Table(threading.Thread):
    """One table's scorer: creates a game, then posts its taps one by one."""

    def __init__(self, number: int, port: int, max_events: int, start: threading.Event,
                 deadline: list[float], connect=None, headers: dict | None = None):
        super().__init__(name=f"table-{number}", daemon=True)
        self.number = number
        self.port = port
        # How the table reaches the server (bench/club_proxy.py: through Caddy, with its pass).
        self.connect = connect or (lambda: http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=TIMEOUT_SECONDS))
        self.headers = headers or {}
        self.start_signal = start
        self.deadline = deadline
        rng = random.Random(number)
        players = 4 if number % 3 == 0 else 2
        self.body = table.new_game_body(players)
        self.events = table.game(rng, table.setup_of(self.body), limit=max_events)
        self.game_id: str | None = None
        self.acknowledged: list[str] = []  # keys of the events answered 200
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.retries = 0
        self.last_state: dict | None = None
        self.connection: http.client.HTTPConnection | None = None

    def post(self, path: str, body: dict, key: str) -> tuple[int, dict]:
        data = json.dumps(body).encode()
        headers = {"Content-Type": "application/json", "Idempotency-Key": key, **self.headers}
        for attempt in range(RETRIES + 1):
            try:
                if self.connection is None:
                    self.connection = self.connect()
                started = time.perf_counter()
                self.connection.request("POST", path, body=data, headers=headers)
                response = self.connection.getresponse()
                answer = json.loads(response.read() or b"null")
                self.latencies.append(time.perf_counter() - started)
                return response.status, answer
            except (OSError, http.client.HTTPException):
                # The same key again: a request that did arrive is not applied twice.
                if self.connection is not None:
                    self.connection.close()
                self.connection = None
                if attempt == RETRIES:
                    raise
                self.retries += 1
                time.sleep(0.05 * (attempt + 1))
        raise AssertionError("unreachable")

    def run(self) -> None:
        self.start_signal.wait()
        try:
            status, game = self.post("/api/games", self.body, f"table-{self.number}-game")
            if status not in (200, 201):
                self.errors.append(f"new game: {status} {game}")
                return
            self.game_id = game["id"]
            version = game["version"]
            for i, event in enumerate(self.events):
                if time.monotonic() > self.deadline[0]:
                    break
                key = f"table-{self.number}-{i}"
                status, state = self.post(
                    f"/api/games/{self.game_id}/events", dict(event, expected_version=version),
                    key)
                if status != 200:
                    self.errors.append(f"event {i} {event}: {status} {state}")
                    return
                self.acknowledged.append(key)
                self.last_state = state
                version = state["version"]
        except Exception as error:  # counted, never hidden
            self.errors.append(f"{type(error).__name__}: {error}")
        finally:
            if self.connection is not None:
                self.connection.close()


def count_in_database(database: Path, tables: list[Table]) -> dict:
    """Lost and doubled events, and states that differ, as stored."""
    db = sqlite_utils.Database(database)
    try:
        lost = doubled = wrong_state = 0
        games_stored = db.execute("SELECT count(*) FROM games").fetchone()[0]
        for t in tables:
            if t.game_id is None:
                continue
            rows = db.execute(
                "SELECT seq, action, idempotency_key FROM events WHERE game_id = ? ORDER BY seq",
                [t.game_id],
            ).fetchall()
            keys = [key for _, _, key in rows]
            stored, acknowledged = set(keys), set(t.acknowledged)
            lost += len(acknowledged - stored)
            # A key stored twice, or an event stored that was never acknowledged.
            doubled += len(keys) - len(stored) + len(stored - acknowledged)
            if [seq for seq, _, _ in rows] != list(range(1, len(rows) + 1)):
                wrong_state += 1
            # The stored snapshot must be the fold of what the table sent.
            setup = table.setup_of(t.body)
            expected = engine.replay(setup, [engine.recorded_event(e, setup)
                                            for e in t.events[: len(t.acknowledged)]])
            snapshot = json.loads(db.execute(
                "SELECT state FROM games WHERE id = ?", [t.game_id]).fetchone()[0])
            if snapshot != expected.snapshot():
                wrong_state += 1
            if t.last_state is not None and t.last_state["scores"] != list(expected.scores):
                wrong_state += 1
        games_created = sum(1 for t in tables if t.game_id is not None)
        return {
            "lost": lost, "doubled": doubled + max(0, games_stored - games_created),
            "wrong_state": wrong_state, "games_stored": games_stored,
            "events_stored": db.execute("SELECT count(*) FROM events").fetchone()[0],
        }
    finally:
        db.close()


def one_repeat(tables: int, max_events: int, seconds: float, front=None) -> dict:
    """`front(folder, server)`: what stands before the server (a proxy), a
    context manager giving each table's Table options; None: nothing."""
    with scratch_dir("club") as folder:
        database = folder / "club.sqlite3"
        server = Server(database, folder / "server.log", **(front.env if front else {}))
        proxy = front(folder, server) if front else None
        try:
            options = proxy.__enter__() if proxy else (lambda number: {})
            start = threading.Event()
            deadline = [0.0]
            players = [Table(n, server.port, max_events, start, deadline, **options(n))
                       for n in range(tables)]
            for t in players:
                t.start()
            server_cpu, client_cpu = server.cpu_seconds(), time.process_time()
            started = time.perf_counter()
            deadline[0] = time.monotonic() + seconds
            start.set()
            for t in players:
                t.join(seconds + TIMEOUT_SECONDS * (RETRIES + 1))
            elapsed = time.perf_counter() - started
            client_cpu = time.process_time() - client_cpu
            if server_cpu is not None:
                server_cpu = server.cpu_seconds() - server_cpu
            hung = sum(1 for t in players if t.is_alive())
        finally:
            if proxy:
                proxy.__exit__(None, None, None)
            server.stop()
        counts = count_in_database(database, players)
    acknowledged = sum(len(t.acknowledged) for t in players)
    latencies = [x for t in players for x in t.latencies]
    errors = [e for t in players for e in t.errors]
    requests = len(latencies) or 1
    return {
        "tables": tables,
        "events_acknowledged": acknowledged,
        # CPU per answered request: where the time goes on a 2-core machine.
        "server_cpu_ms_per_request": None if server_cpu is None
        else round(server_cpu / requests * 1000, 3),
        "client_cpu_ms_per_request": round(client_cpu / requests * 1000, 3),
        "seconds": round(elapsed, 3),
        "events_per_s": round(acknowledged / elapsed, 1),
        "request_p50_ms": ms(percentile(latencies, 0.5)),
        "request_p99_ms": ms(percentile(latencies, 0.99)),
        "errors": len(errors) + hung,
        "first_errors": errors[:5],
        "retries": sum(t.retries for t in players),
        "stopped_by_deadline": sum(
            1 for t in players if len(t.acknowledged) < len(t.events) and not t.errors),
        **counts,
    }


def measure(tables: int, repeats: int, max_events: int, seconds: float, front=None) -> Row:
    runs = [one_repeat(tables, max_events, seconds, front) for _ in range(repeats)]
    figures = {
        key: median([run[key] for run in runs])
        for key in ("events_per_s", "request_p50_ms", "request_p99_ms", "seconds",
                    "events_acknowledged", "client_cpu_ms_per_request")
    }
    server_cpu = [run["server_cpu_ms_per_request"] for run in runs
                  if run["server_cpu_ms_per_request"] is not None]
    figures["server_cpu_ms_per_request"] = median(server_cpu) if server_cpu else None
    # Errors and losses are not medians: every one of every repeat counts.
    for key in ("errors", "lost", "doubled", "wrong_state", "retries", "stopped_by_deadline"):
        figures[key] = sum(run[key] for run in runs)
    figures.update(tables=tables, repeats=repeats, max_events_per_table=max_events,
                   time_bound_s=seconds)
    checks = [
        Check("events/s", figures["events_per_s"], ">=", RATE_LIMIT, "events/s"),
        Check("errors", figures["errors"], "<=", 0),
        Check("events lost", figures["lost"], "<=", 0),
        Check("events doubled", figures["doubled"], "<=", 0),
        Check("stored states that differ", figures["wrong_state"], "<=", 0),
    ]
    measured = (
        f"{figures['events_per_s']:,.0f} events/s ({figures['events_acknowledged']:,.0f} events "
        f"in {figures['seconds']:.1f} s; request p50 {figures['request_p50_ms']:.1f} ms, "
        f"p99 {figures['request_p99_ms']:.1f} ms; CPU per request: server "
        f"{_ms_or_unknown(figures['server_cpu_ms_per_request'])}, clients "
        f"{_ms_or_unknown(figures['client_cpu_ms_per_request'])}); over {repeats} runs: "
        f"{figures['errors']} errors, {figures['lost']} lost, {figures['doubled']} doubled, "
        f"{figures['retries']} retries"
    )
    return Row(measured, checks, figures, runs)


def _ms_or_unknown(value: float | None) -> str:
    return "unknown" if value is None else f"{value:.2f} ms"
