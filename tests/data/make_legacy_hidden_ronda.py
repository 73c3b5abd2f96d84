"""FROZEN: how tests/data/legacy_hidden_ronda.sqlite3 was made. Do not run it again.

The fixture is a store written by the app as it was before a hidden Ronda's
penalty had a receiver (`to`, so that three sides can say who gets it): with
three sides, a `hidden_ronda` event was stored as {"type": "hidden_ronda",
"side": n} and gave the penalty to each opponent.
tests/storage/test_legacy_hidden_ronda.py opens a copy with today's app and
checks that those games keep exactly the scores they had, on replay, undo
and correction. It was run once, with the code of commit 03e48bb
(`git archive 03e48bb | tar -x -C /tmp/oldcode`, this file copied to
/tmp/oldcode/tests/data/), as: .venv/bin/python /tmp/oldcode/tests/data/make_legacy_hidden_ronda.py

Beside the store it writes legacy_hidden_ronda.expected.json: each game's
scores after each of its events, as the API answered then.
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

GAMES = {
    "three": ({"sides": ["Ali", "Badr", "Chama"], "players": 3,
               "rules": {"preset": "classique"}}, [
        {"type": "announce", "announcements": [{"side": 0, "kind": "ronda"}]},
        {"type": "hidden_ronda", "side": 1},
        {"type": "hit", "side": 2, "value": 1},
        {"type": "missa", "side": 0},
        {"type": "hidden_ronda", "side": 0},
        {"type": "adjust", "side": 1, "points": 2},
    ]),
    "two": ({"sides": ["Nous", "Eux"], "rules": {"preset": "classique"}}, [
        {"type": "hidden_ronda", "side": 0},
        {"type": "missa", "side": 0},
        {"type": "hidden_ronda", "side": 1},
    ]),
}


def make(folder: Path) -> tuple[Path, dict]:
    path = folder / "legacy_hidden_ronda.sqlite3"
    client = create_app({"TESTING": True, "DATABASE": str(path)}).test_client()
    expected = {}
    for name, (body, events) in GAMES.items():
        game_id = client.post("/api/games", json=body).get_json()["id"]
        scores = []
        for event in events:
            response = client.post(f"/api/games/{game_id}/events", json=event)
            assert response.status_code == 200, response.get_json()
            scores.append(response.get_json()["scores"])
        expected[name] = {"id": game_id, "events": events, "scores": scores}
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # everything in the main file
    return path, expected


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path, expected = make(Path(folder))
        shutil.copyfile(path, HERE / "legacy_hidden_ronda.sqlite3")
    (HERE / "legacy_hidden_ronda.expected.json").write_text(
        json.dumps(expected, ensure_ascii=False, indent=1) + "\n")
    print(f"wrote {HERE / 'legacy_hidden_ronda.sqlite3'}")


if __name__ == "__main__":
    main()
