"""FROZEN: how tests/data/legacy_last_trick.sqlite3 was made. Do not run it again.

The fixture is a store written by the app as it was when the dealer's last
trick was taken on any deal of a hand: these games hold a
`dealer_last_trick` event recorded before the hand's last deal, which scored
at once. Today such an event is refused before the last deal (API.md), and
tests/storage/test_legacy_last_trick.py opens a copy with today's app and
checks that those games keep exactly the scores they had, on replay, undo,
correction, review and export. It was run once, with the code of commit
b3a63c7 (`git archive b3a63c7 | tar -x -C /tmp/oldcode`, this file copied to
/tmp/oldcode/tests/data/), as: .venv/bin/python /tmp/oldcode/tests/data/make_legacy_last_trick.py

Beside the store it writes legacy_last_trick.expected.json: each game's
scores after each of its events, and its hand and deal then, as the API
answered.
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
    "two": ({"sides": ["Nous", "Eux"], "rules": {"preset": "classique"}}, [
        {"type": "dealer_last_trick", "outcome": "twelve"},
        {"type": "hit", "side": 1, "value": 1},
        {"type": "next_deal"},
        {"type": "missa", "side": 0},
    ]),
    "three": ({"sides": ["Ali", "Badr", "Chama"], "players": 3,
               "rules": {"preset": "classique"}}, [
        {"type": "next_deal"},
        {"type": "dealer_last_trick", "outcome": "missed"},
        {"type": "announce", "announcements": [{"side": 0, "kind": "ronda"}]},
        {"type": "end_hand", "cards": [20, 10, None]},
        {"type": "dealer_last_trick", "outcome": "missed"},
    ]),
    "won": ({"sides": ["Karim", "Salma"], "rules": {"preset": "classique", "target": 11}}, [
        {"type": "adjust", "side": 0, "points": 6},
        {"type": "dealer_last_trick", "outcome": "twelve"},
    ]),
}


def make(folder: Path) -> tuple[Path, dict]:
    path = folder / "legacy_last_trick.sqlite3"
    client = create_app({"TESTING": True, "DATABASE": str(path)}).test_client()
    expected = {}
    for name, (body, events) in GAMES.items():
        game_id = client.post("/api/games", json=body).get_json()["id"]
        scores, places = [], []
        for event in events:
            response = client.post(f"/api/games/{game_id}/events", json=event)
            assert response.status_code == 200, response.get_json()
            state = response.get_json()
            scores.append(state["scores"])
            places.append([state["hand"], state["deal"], state["finished"]])
        expected[name] = {"id": game_id, "events": events, "scores": scores, "places": places}
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # everything in the main file
    with sqlite3.connect(path) as conn:
        conn.execute("VACUUM")  # no free pages committed with the fixture
    return path, expected


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path, expected = make(Path(folder))
        shutil.copyfile(path, HERE / "legacy_last_trick.sqlite3")
    (HERE / "legacy_last_trick.expected.json").write_text(
        json.dumps(expected, ensure_ascii=False, indent=1) + "\n")
    print(f"wrote {HERE / 'legacy_last_trick.sqlite3'}")


if __name__ == "__main__":
    main()
