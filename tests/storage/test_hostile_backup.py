"""A restore makes the live store only from what the app itself makes.
Before: a sound store plus a trigger that deletes a game's earlier events
on every insert passed the restore's checks ("Restored", exit 0); after it,
3 taps answered 200 and the game held 1 event while the API still said
version 8, and every start-up backup copied the trigger on."""

import sqlite3
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.storage import backup

ERASE_LOG = ("CREATE TRIGGER erase_log AFTER INSERT ON events BEGIN DELETE FROM events"
             " WHERE game_id = NEW.game_id AND seq < NEW.seq; END")
# Each a thing the migrations never make, and what the restore says it left out.
HOSTILE = {
    "trigger": ([ERASE_LOG], "trigger erase_log"),
    "view": (["CREATE VIEW every_game AS SELECT * FROM games"], "view every_game"),
    "index": (["CREATE INDEX by_payload ON events (payload)"], "index by_payload"),
    "table": (["CREATE TABLE notes (x TEXT)", "INSERT INTO notes VALUES ('hello')"],
              "table notes"),
    "column": (["ALTER TABLE games ADD COLUMN extra TEXT DEFAULT 'x'"], "column games.extra"),
    "pragmas": (["PRAGMA user_version = 77", "PRAGMA application_id = 1234"], None),
}


def make_app(folder: Path, **config):
    return create_app({"TESTING": True, "DATABASE": str(folder / "store.sqlite3"),
                       "BACKUP_DIR": str(folder / "backups"), **config})


def tap(client, game_id, points=1):
    response = client.post(f"/api/games/{game_id}/events",
                           json={"type": "adjust", "side": 0, "points": points})
    assert response.status_code == 200
    return response.get_json()


def hostile_backup(folder: Path, statements: list[str]) -> tuple[Path, str]:
    """A sound backup of a game of 5 events, with `statements` run on it."""
    (folder / "maker").mkdir()
    maker = make_app(folder / "maker")
    client = maker.test_client()
    game = client.post("/api/games", json={"sides": ["A", "B"]}).get_json()["id"]
    for _ in range(5):
        tap(client, game)
    made = backup.make_backup(maker.config["DATABASE"], folder / "made")
    with sqlite3.connect(made) as conn:
        for statement in statements:
            conn.execute(statement)
    conn.close()
    return made, game


def schema(path) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        return sorted(conn.execute("SELECT type, name FROM sqlite_master"))


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_nothing_the_migrations_do_not_make_comes_back(tmp_path, kind):
    statements, named = HOSTILE[kind]
    made, game = hostile_backup(tmp_path, statements)
    app = make_app(tmp_path)
    fresh_schema = schema(app.config["DATABASE"])
    result = app.test_cli_runner().invoke(args=["restore", str(made)])
    assert result.exit_code == 0, result.output
    if named:
        assert f"Left out, as the scorekeeper does not make them: {named}" in result.output
    assert schema(app.config["DATABASE"]) == fresh_schema
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 0
        assert conn.execute("PRAGMA application_id").fetchone()[0] == 0
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    # Every tap acknowledged after the restore is kept, with the backup's.
    client = app.test_client()
    for number in range(3):
        assert tap(client, game)["version"] == 6 + number
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        seqs = [s for (s,) in conn.execute("SELECT seq FROM events WHERE game_id = ? ORDER BY seq",
                                           [game])]
    conn.close()
    assert seqs == list(range(1, 9))
    assert client.get(f"/api/games/{game}").get_json()["scores"] == [8, 0]
    # And the start-up backups carry nothing on.
    copy = backup.make_backup(app.config["DATABASE"], tmp_path / "later")
    assert schema(copy) == fresh_schema


def test_a_backup_whose_rows_break_the_stores_rules_is_refused(tmp_path):
    made, game = hostile_backup(tmp_path, [
        "DROP INDEX idx_events_game_id_idempotency_key",
        "UPDATE events SET idempotency_key = 'the same key twice' WHERE seq IN (1, 2)"])
    app = make_app(tmp_path)
    client = app.test_client()
    other = client.post("/api/games", json={"sides": ["C", "D"]}).get_json()["id"]
    before = Path(app.config["DATABASE"]).read_bytes()
    result = app.test_cli_runner().invoke(args=["restore", str(made)])
    assert result.exit_code == 1
    assert "its rows break the store's own rules" in result.output
    assert "Nothing was changed." in result.output
    assert client.get(f"/api/games/{other}").status_code == 200
    assert client.get(f"/api/games/{game}").status_code == 404
    assert Path(app.config["DATABASE"]).read_bytes() == before


def test_a_backup_missing_a_column_of_the_app_is_refused(tmp_path):
    made, _ = hostile_backup(tmp_path, ["ALTER TABLE games DROP COLUMN winner"])
    app = make_app(tmp_path)
    result = app.test_cli_runner().invoke(args=["restore", str(made)])
    assert result.exit_code == 1
    assert "its table games lacks the column winner" in result.output
