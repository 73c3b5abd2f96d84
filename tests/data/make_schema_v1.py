"""FROZEN: how tests/data/schema_v1.sqlite3 was made. Do not run it again.

The fixture is a store written by the first schema (migrations 0001_wal and
0002_games_and_events), holding games with every kind of event, undos,
refused requests and Idempotency-Keys. tests/storage/test_upgrade.py starts the app on
a copy of it and checks that every game survives the migrations added since.
Running this script again with a later schema would make a later store, and
the test would prove nothing about upgrading: the committed file is the
fixture, this script only documents it. It was run once, from the
repository's root, as: .venv/bin/python tests/data/make_schema_v1.py

Beside the store it writes schema_v1.expected.json: each game's state as the
API showed it then (the contract's keys), the keys already used, and the
creation keys.
"""

import json
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from scorekeeper import create_app  # noqa: E402

STATE_KEYS = ("id", "sides", "players", "rules", "scores", "finished", "winner", "hand", "deal",
              "chain", "awaiting_reveal", "version")

# Each game: its creation body, its creation key, and its steps. A step is
# (path end, body, Idempotency-Key or None, expected status).
GAMES = [
    ({"sides": ["Nous", "Eux"], "rules": {"target": 101}}, "fixture-create-1", [
        ("events", {"type": "announce", "announcements": [
            {"side": 0, "kind": "ronda", "rank": 7}, {"side": 1, "kind": "ronda"}]}, None, 200),
        ("events", {"type": "reveal", "ranks": [7, 3]}, None, 200),
        ("events", {"type": "hit", "side": 0, "value": 1}, "tap-1", 200),
        ("events", {"type": "hit", "side": 1, "value": 5}, "tap-2", 200),
        ("events", {"type": "hit", "side": 1, "value": 5}, "tap-2", 200),  # double tap
        ("events", {"type": "hit", "side": 0, "value": 10}, "tap-3", 200),
        ("events", {"type": "missa", "side": 0}, None, 200),
        ("events", {"type": "hit", "side": 1, "value": 1}, None, 200),
        ("events", {"type": "chain_end"}, None, 200),
        ("events", {"type": "chain_end"}, None, 409),  # refused: not stored
        ("events", {"type": "missa", "side": 1, "last_card": True}, None, 200),
        ("events", {"type": "next_deal"}, None, 200),
        ("events", {"type": "adjust", "side": 1, "points": -2, "note": "pénalité <b>x</b>"},
         "tap-4", 200),
        ("undo", {}, "undo-1", 200),
        ("undo", {}, "undo-1", 200),  # a retried undo undoes once
        ("events", {"type": "hit", "side": 0, "value": 1}, None, 200),
        ("events", {"type": "end_hand", "cards": [23, None]}, None, 200),
        ("events", {"type": "hit", "side": 1, "value": 1}, None, 200),
        ("undo", {"expected_version": 15}, None, 200),
        ("events", {"type": "adjust", "side": 0, "points": 4}, None, 200),
    ]),
    ({"sides": ["Ali", "<script>x</script>", "سارة"], "players": 3, "rules": {"target": 61}},
     None, [
        ("events", {"type": "announce", "announcements": [
            {"side": 0, "kind": "tringa", "rank": 4}, {"side": 2, "kind": "ronda", "rank": 12}]},
         None, 200),
        ("events", {"type": "hit", "side": 2, "value": 1}, None, 200),
        ("events", {"type": "hit", "side": 0, "value": 5}, None, 200),
        ("events", {"type": "missa", "side": 0}, None, 200),
        ("events", {"type": "next_deal"}, None, 200),
        ("events", {"type": "announce", "announcements": [
            {"side": 0, "kind": "ronda"}, {"side": 1, "kind": "ronda"}]}, "a-2", 200),
        ("events", {"type": "reveal", "ranks": [2, 5, None]}, None, 200),
        ("events", {"type": "end_hand", "cards": [14, 14, None]}, None, 200),
        ("undo", {}, None, 200),
        ("undo", {}, None, 200),
        ("events", {"type": "reveal", "ranks": [6, 5, None]}, None, 200),
        ("events", {"type": "end_hand", "cards": [20, None, 5]}, "end-1", 200),
    ]),
    ({"sides": ["Eux", "Nous"], "players": 4, "rules": {"preset": "classique"}},
     "fixture-create-3", [
        ("events", {"type": "announce", "announcements": [
            {"side": 0, "kind": "double_ronda", "rank": 6}, {"side": 1, "kind": "ronda", "rank": 3},
            {"side": 1, "kind": "ronda", "rank": 1}]}, None, 200),
        ("events", {"type": "hit", "side": 1, "value": 1}, None, 200),
        ("events", {"type": "hit", "side": 0, "value": 5}, None, 200),
        ("events", {"type": "hit", "side": 1, "value": 10}, None, 200),
        ("events", {"type": "hit", "side": 0, "value": 5}, None, 409),  # no chain at 1
        ("events", {"type": "hidden_ronda", "side": 1}, None, 200),
        ("events", {"type": "next_deal"}, None, 200),
        ("events", {"type": "announce", "announcements": [
            {"side": 0, "kind": "tringa", "rank": 2}, {"side": 1, "kind": "tringa", "rank": 10}]},
         None, 200),
        ("events", {"type": "missa", "side": 1}, None, 200),
        ("events", {"type": "next_deal"}, None, 200),
        ("events", {"type": "missa", "side": 0}, None, 200),
        ("events", {"type": "dealer_last_trick", "outcome": "twelve"}, None, 200),
        ("events", {"type": "end_hand", "cards": [None, 24]}, None, 200),
    ]),
    ({"sides": ["A", "B"], "rules": {"target": 11}}, None, [
        ("events", {"type": "adjust", "side": 0, "points": 11, "note": "finish"}, None, 200),
        ("events", {"type": "hit", "side": 1, "value": 1}, None, 409),  # game over
        ("undo", {}, None, 200),
        ("events", {"type": "hit", "side": 1, "value": 1}, None, 200),
        ("events", {"type": "adjust", "side": 1, "points": 12}, "win", 200),
    ]),
    ({"sides": ["Ils", "Elles"], "rules": {"target": 21, "stop": "end_of_hand",
                                           "tringa_contest": "lower", "missa": 3}}, None, [
        ("events", {"type": "announce", "announcements": [
            {"side": 0, "kind": "tringa"}, {"side": 1, "kind": "tringa"}]}, None, 200),
        ("events", {"type": "reveal", "ranks": [11, 2]}, None, 200),
        ("events", {"type": "adjust", "side": 1, "points": 20}, None, 200),
        ("events", {"type": "missa", "side": 0}, None, 200),
        ("events", {"type": "end_hand", "cards": [10, None]}, None, 200),
    ]),
    ({"sides": ["Vide", "Rien"]}, "fixture-create-6", []),  # a game with no event
]


def make(folder: Path) -> tuple[Path, dict]:
    path = folder / "schema_v1.sqlite3"
    app = create_app({"TESTING": True, "DATABASE": str(path)})
    client = app.test_client()
    expected = {"migrations": ["0001_wal", "0002_games_and_events"], "games": {},
                "creation_keys": {}, "used_keys": {}}
    for body, creation_key, steps in GAMES:
        headers = {"Idempotency-Key": creation_key} if creation_key else {}
        response = client.post("/api/games", json=body, headers=headers)
        assert response.status_code == 201, response.get_json()
        game_id = response.get_json()["id"]
        if creation_key:
            expected["creation_keys"][creation_key] = game_id
        used = []
        for number, (end, step, key, status) in enumerate(steps, 1):
            headers = {"Idempotency-Key": key} if key else {}
            response = client.post(f"/api/games/{game_id}/{end}", json=step, headers=headers)
            assert response.status_code == status, (game_id, number, step, response.get_json())
            if key and status == 200 and key not in used:
                used.append(key)
        state = client.get(f"/api/games/{game_id}").get_json()
        expected["games"][game_id] = {key: state[key] for key in STATE_KEYS}
        expected["used_keys"][game_id] = used
    with sqlite3.connect(path) as conn:
        applied = [row[0] for row in conn.execute("SELECT name FROM _sqlite_migrations")]
        assert applied == expected["migrations"], applied
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # everything in the main file
    return path, expected


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path, expected = make(Path(folder))
        shutil.copyfile(path, HERE / "schema_v1.sqlite3")
    (HERE / "schema_v1.expected.json").write_text(
        json.dumps(expected, ensure_ascii=False, indent=1) + "\n"
    )
    print(f"wrote {HERE / 'schema_v1.sqlite3'}: {len(expected['games'])} games")


if __name__ == "__main__":
    main()
