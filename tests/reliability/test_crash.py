"""Nothing lost: the real server, killed with SIGKILL at random moments while a
client plays, keeps exactly the acknowledged events: an answered tap is on disk.

The client sends a scripted game (every step valid, worked out beforehand
with the engine) through the JSON API. Every request carries an
Idempotency-Key and the expected_version; a request that gets no answer is
sent again, the same, until it is answered. A kill thread SIGKILLs the server
at random moments and starts it again. At the end the stored log must be the
acknowledged sequence, record for record, and the stored state the replay of
that log.
"""

import http.client
import json
import random
import sqlite3
import threading
import time
from dataclasses import dataclass, field

import pytest

from scorekeeper import engine
from scorekeeper.engine.errors import ScoringError
from scorekeeper.service import games
from scorekeeper.storage import backup, db
from scorekeeper.testing.live_server import LiveServer

MIN_KILLS = 20  # kills while the server was answering the client
MIN_STEPS = 500  # acknowledged events and undos, over all games
TIME_LIMIT = 90  # seconds: a guard against a hang; a run takes 10 to 20 s on an idle machine
GAMES = [
    {"sides": ["Nous", "Eux"], "rules": {"target": 101}},
    {"sides": ["A", "B", "C"], "players": 3, "rules": {"target": 101}},
    {"sides": ["Nous", "Eux"], "players": 4, "rules": {"preset": "classique", "target": 101}},
]
STEPS_PER_GAME = 250


# -- the script: always valid, so that every answer must be a 200 ----------------------

@dataclass
class Script:
    body: dict
    setup: engine.Setup
    steps: list[tuple[str, dict]] = field(default_factory=list)  # ("event"|"undo", body)
    # What the store must hold for each step: [seq, action, payload, key].
    log: list[list] = field(default_factory=list)

    def expected_log(self) -> list[tuple]:
        """(seq, action, payload, key, undone_by) of every acknowledged step."""
        undone_by = {row[2]["undoes"]: row[0] for row in self.log if row[1] == "undo"}
        return [(*row, undone_by.get(row[0])) for row in self.log]

    def expected_state(self) -> engine.State:
        undone = {row[2]["undoes"] for row in self.log if row[1] == "undo"}
        return engine.replay(self.setup, [
            engine.parse_event(row[2], self.setup)
            for row in self.log if row[1] == "event" and row[0] not in undone
        ])


def _candidates(rng: random.Random, state: engine.State) -> list[dict]:
    sides = state.setup.side_count
    if max(state.scores) > 60:  # keep far from the target of 101
        leader = state.scores.index(max(state.scores))
        return [{"type": "adjust", "side": leader, "points": -rng.randint(20, 50)}]
    side = rng.randrange(sides)
    cards = [rng.randint(0, 40 // sides) for _ in range(sides - 1)] + [None]
    rng.shuffle(cards)
    events = [
        {"type": "hit", "side": side, "value": rng.choice([1, 1, 5, 10])},
        {"type": "chain_end"},
        {"type": "missa", "side": side, "last_card": rng.random() < 0.2},
        {"type": "next_deal"},
        {"type": "end_hand", "cards": cards},
        {"type": "adjust", "side": side, "points": rng.choice([-4, -2, -1, 1, 3]), "note": "k"},
    ]
    rng.shuffle(events)
    return events


def make_script(rng: random.Random, body: dict, length: int) -> Script:
    setup = engine.parse_new_game(body)
    script = Script(body, setup)
    state = engine.new_game(setup)
    standing: list[tuple[int, engine.Event]] = []
    for seq in range(1, length + 1):
        if standing and rng.random() < 0.06:
            undone, _ = standing.pop()
            script.steps.append(("undo", {}))
            script.log.append([seq, "undo", {"undoes": undone}, None])
            state = engine.replay(setup, [event for _, event in standing])
            continue
        for candidate in _candidates(rng, state):
            event = engine.parse_event(candidate, setup)
            try:
                after = engine.apply(state, event)
            except ScoringError:
                continue
            if not after.finished:
                break
        else:
            raise AssertionError("no valid step")  # an adjust down always is
        script.steps.append(("event", candidate))
        script.log.append([seq, "event", engine.to_dict(event), None])
        standing.append((seq, event))
        state = after
    return script


# -- the client ------------------------------------------------------------------------

class Client:
    """Sends each request until it is answered; counts what it took."""

    def __init__(self, server: LiveServer, answered: threading.Event):
        self.server = server
        self.answered = answered
        self.attempts_lost = 0  # sends that got no answer
        self.requests_cut = 0  # requests that needed more than one send

    def post(self, path: str, body: dict, key: str) -> tuple[int, dict]:
        payload = json.dumps(body)
        headers = {"Content-Type": "application/json", "Idempotency-Key": key}
        cut = False
        while True:
            conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=10)
            try:
                conn.request("POST", path, body=payload, headers=headers)
                response = conn.getresponse()
                data = json.loads(response.read())
            except (OSError, http.client.HTTPException, ValueError):
                self.attempts_lost += 1
                cut = True
                time.sleep(0.01)
                continue
            finally:
                conn.close()
            self.answered.set()
            self.requests_cut += cut
            return response.status, data


class Killer(threading.Thread):
    """SIGKILLs the server at random moments, mostly while it answers the
    client, now and then during its start-up, and starts it again."""

    def __init__(self, server: LiveServer, answered: threading.Event, rng: random.Random):
        super().__init__(daemon=True)
        self.server, self.answered, self.rng = server, answered, rng
        self.stop = threading.Event()
        self.kills = self.kills_while_serving = 0

    def run(self) -> None:
        while not self.stop.is_set():
            self.answered.clear()
            if self.rng.random() < 0.1:
                time.sleep(self.rng.uniform(0, 0.3))  # start-up, backup, migrations
                serving = False
            else:
                serving = self.answered.wait(5)
                time.sleep(self.rng.uniform(0, 0.35))
            if self.stop.is_set():
                return
            self.server.kill()
            self.kills += 1
            self.kills_while_serving += serving
            self.server.start()


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_nothing(tmp_path, record_property):
    database = tmp_path / "crash.sqlite3"
    server = LiveServer(tmp_path, database)
    script_rng = random.Random(6)  # the same games every run
    kill_seed = random.randrange(2**32)  # the kill times vary: printed to replay a failure
    answered = threading.Event()
    client = Client(server, answered)
    killer = Killer(server, answered, random.Random(kill_seed))
    played: dict[str, Script] = {}
    steps = 0
    start = time.monotonic()

    server.start()
    killer.start()
    try:
        while steps < MIN_STEPS or killer.kills_while_serving < MIN_KILLS:
            assert time.monotonic() - start < TIME_LIMIT, (
                f"too slow: {steps} steps, {killer.kills} kills (kill seed {kill_seed})")
            number = len(played)
            script = make_script(script_rng, GAMES[number % len(GAMES)], STEPS_PER_GAME)
            status, game = client.post("/api/games", script.body, f"game-{number}")
            assert status in (200, 201), game
            assert game["version"] == 0 and game["id"] not in played
            played[game["id"]] = script
            for seq, (action, body) in enumerate(script.steps, 1):
                key = f"{game['id']}-{seq}"
                path = f"/api/games/{game['id']}/{'events' if action == 'event' else 'undo'}"
                status, state = client.post(path, {**body, "expected_version": seq - 1}, key)
                assert status == 200, (seq, action, body, state, f"kill seed {kill_seed}")
                assert state["version"] == seq
                script.log[seq - 1][3] = key
                steps += 1
                if steps >= MIN_STEPS and killer.kills_while_serving >= MIN_KILLS:
                    del script.steps[seq:], script.log[seq:]  # the rest was never sent
                    break
    finally:
        killer.stop.set()
        killer.join()
        server.kill()  # the last one too: no clean shutdown before the check
    elapsed = time.monotonic() - start

    lost = doubled = 0
    with sqlite3.connect(database) as conn:
        assert {row[0] for row in conn.execute("SELECT id FROM games")} == set(played)
        for game_id, script in played.items():
            stored = [
                (seq, action, json.loads(payload), key, undone_by)
                for seq, action, payload, key, undone_by in conn.execute(
                    "SELECT seq, action, payload, idempotency_key, undone_by FROM events"
                    " WHERE game_id = ? ORDER BY seq", [game_id])
            ]
            expected = script.expected_log()
            keys = {row[3] for row in stored}
            lost += sum(row[3] not in keys for row in expected)
            doubled += len(stored) - len(keys) + len(keys - {row[3] for row in expected})
            assert stored == expected, f"game {game_id} (kill seed {kill_seed})"
    store = db.connect(str(database))
    try:
        for game_id, script in played.items():
            game = games.load(store, game_id)
            assert games.replay_log(store, game_id) == game.state
            assert game.version == len(script.log)
            assert game.state == script.expected_state()
    finally:
        store.close()

    # Start-up backups killed half-way never leave a broken copy behind.
    copies = backup.backups(tmp_path / "backups")
    assert 1 <= len(copies) <= backup.DEFAULT_KEEP
    for copy in copies:
        with sqlite3.connect(copy) as conn:
            assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"

    figures = {
        "kills": killer.kills, "kills_while_serving": killer.kills_while_serving,
        "games": len(played), "steps_acknowledged": steps,
        "requests_cut": client.requests_cut, "sends_without_answer": client.attempts_lost,
        "lost": lost, "doubled": doubled, "seconds": round(elapsed, 1), "kill_seed": kill_seed,
    }
    record_property("crash_figures", json.dumps(figures))
    print("crash test:", json.dumps(figures))
    assert lost == 0 and doubled == 0
    assert killer.kills_while_serving >= MIN_KILLS and client.requests_cut > 0

