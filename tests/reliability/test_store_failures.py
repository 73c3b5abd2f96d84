"""A store that is locked, read-only or corrupt gets a clear error page (JSON
under /api/), never a traceback and never a half-applied event."""

import logging
import os
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.service import games
from scorekeeper.service.clock import utc_now
from scorekeeper.storage import migrations
from scorekeeper.storage.db import connect
from scorekeeper.testing.live_server import LiveServer
from scorekeeper.web.plumbing.db import get_db
from support.testing_routes import add_testing_routes


def make_app(database, **config):
    return add_testing_routes(create_app({"TESTING": True, "DATABASE": str(database), **config}))


def english(client):
    """A client whose requests ask for English, the language of the assertions."""
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def a_store_with_a_game(path: Path) -> str:
    """A store holding one game with one event, all connections closed; the game's id."""
    store = connect(str(path))
    try:
        migrations.migrate(store)
        game, _ = games.create(store, {"sides": ["A", "B"]}, None, utc_now())
        games.record(store, game.id, {"type": "hit", "side": 0, "value": 1}, None, utc_now())
    finally:
        store.close()
    return game.id


def garble(path: Path, keep: int = 0) -> None:
    """Overwrite the file with garbage after its first `keep` bytes."""
    size = max(path.stat().st_size, 8192)
    data = path.read_bytes()[:keep]
    path.write_bytes(data + os.urandom(size - len(data)))


def assert_json_error(response, status, *words):
    assert response.status_code == status, response.data
    assert response.is_json, response.data
    error = response.get_json()["error"]
    for word in words:
        assert word in error, error


def assert_error_page(response, status, *words):
    assert response.status_code == status, response.data
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert 'role="alert"' in page
    assert "Traceback" not in page and "sqlite3." not in page
    for word in words:
        assert word in page, page


def stored_version(path: Path, game_id: str) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT version FROM games WHERE id = ?", [game_id]).fetchone()[0]


# -- locked --------------------------------------------------------------------

@pytest.fixture
def locked_store(tmp_path):
    path = tmp_path / "locked.sqlite3"
    game_id = a_store_with_a_game(path)
    holder = sqlite3.connect(path, isolation_level=None)
    yield path, game_id, holder
    holder.close()


def test_a_write_lock_held_too_long_is_a_clear_503(locked_store):
    path, game_id, holder = locked_store
    app = make_app(path, DB_BUSY_TIMEOUT=0.2)
    client = english(app.test_client())
    holder.execute("BEGIN IMMEDIATE")  # another writer that does not let go

    start = time.monotonic()
    response = client.post(f"/api/games/{game_id}/events", json={"type": "chain_end"})
    assert time.monotonic() - start < 3  # the configured timeout, not the default 5 s
    assert_json_error(response, 503, "database is locked", "Nothing was changed")
    assert_error_page(client.get(f"/_test/adjust/{game_id}"), 503, "database is locked")
    # Readers are not held up by a writer (WAL).
    assert client.get(f"/api/games/{game_id}").status_code == 200

    holder.execute("ROLLBACK")
    assert stored_version(path, game_id) == 1
    response = client.post(f"/api/games/{game_id}/events", json={"type": "chain_end"})
    assert response.status_code == 200 and response.get_json()["version"] == 2


def test_an_exclusive_lock_is_a_clear_503_for_readers_too(locked_store):
    path, game_id, holder = locked_store
    client = english(make_app(path, DB_BUSY_TIMEOUT=0.1).test_client())
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("COMMIT")  # the exclusive lock stays until the connection closes

    assert_json_error(client.get(f"/api/games/{game_id}"), 503, "locked")
    assert_json_error(client.post("/api/games", json={"sides": ["A", "B"]}), 503, "locked")
    assert_error_page(client.get(f"/_test/adjust/{game_id}"), 503, "locked")


def test_the_busy_timeout_defaults_to_five_seconds(tmp_path):
    app = make_app(tmp_path / "t.sqlite3")
    with app.test_request_context():
        timeout = get_db().execute("PRAGMA busy_timeout").fetchone()[0]
    assert timeout == 5000


# -- read-only -----------------------------------------------------------------

def test_a_read_only_store_shows_games_and_refuses_changes_clearly(tmp_path):
    path = tmp_path / "ro.sqlite3"
    game_id = a_store_with_a_game(path)
    client = english(make_app(f"{path.resolve().as_uri()}?mode=ro").test_client())

    assert client.get(f"/api/games/{game_id}").get_json()["version"] == 1
    response = client.post(f"/api/games/{game_id}/events", json={"type": "chain_end"})
    assert_json_error(response, 503, "readonly", "Nothing was changed")
    assert_json_error(client.post("/api/games", json={"sides": ["A", "B"]}), 503, "readonly")
    assert_error_page(client.get(f"/_test/adjust/{game_id}"), 503, "readonly")
    assert stored_version(path, game_id) == 1


def test_a_store_that_cannot_be_opened_at_start_is_an_error_page(tmp_path, caplog):
    missing = (tmp_path / "no-such-folder" / "x.sqlite3").resolve()
    with caplog.at_level(logging.ERROR):
        app = make_app(f"{missing.as_uri()}?mode=ro")
    assert "cannot be opened" in caplog.text
    client = english(app.test_client())
    assert_error_page(client.get("/"), 503, "cannot be opened")
    assert_json_error(client.get("/api/games/abc"), 503, "cannot be opened")


# -- corrupt -------------------------------------------------------------------

def test_a_store_corrupted_while_serving_is_a_clear_503(tmp_path):
    path = tmp_path / "c.sqlite3"
    game_id = a_store_with_a_game(path)
    client = english(make_app(path).test_client())
    assert client.get(f"/api/games/{game_id}").status_code == 200
    garble(path)

    assert_json_error(client.get(f"/api/games/{game_id}"), 503, "not a database")
    response = client.post(f"/api/games/{game_id}/events", json={"type": "chain_end"})
    assert_json_error(response, 503, "not a database")
    assert_error_page(client.get(f"/_test/adjust/{game_id}"), 503, "not a database")


def test_damaged_pages_behind_a_sound_header_are_a_clear_503(tmp_path):
    path = tmp_path / "d.sqlite3"
    game_id = a_store_with_a_game(path)
    with sqlite3.connect(path) as conn:  # enough rows to fill pages past the schema
        conn.execute("CREATE TABLE filler (x)")
        conn.executemany("INSERT INTO filler VALUES (?)", [("x" * 500,)] * 200)
    page_size = 4096
    garble(path, keep=page_size)  # the schema page stays, the game pages go

    client = english(make_app(path).test_client())
    response = client.get(f"/api/games/{game_id}")
    assert_json_error(response, 503, "malformed")
    assert_error_page(client.get(f"/_test/adjust/{game_id}"), 503, "malformed")


def test_a_corrupt_store_at_start_answers_every_request_with_an_error_page(tmp_path, caplog):
    path = tmp_path / "corrupt.sqlite3"
    path.write_bytes(os.urandom(16384))
    with caplog.at_level(logging.ERROR):
        app = make_app(path)  # no exception: the server still starts
    assert "cannot be opened" in caplog.text and "flask --app scorekeeper restore" in caplog.text
    assert "Traceback" not in caplog.text
    client = english(app.test_client())

    assert_error_page(client.get("/"), 503, "cannot be opened", "restore")
    assert_error_page(client.get("/_test/form"), 503, "cannot be opened")
    assert_json_error(client.get("/api/games/abc"), 503, "cannot be opened", "restore")
    assert_json_error(client.post("/api/games", json={"sides": ["A", "B"]}), 503)

    # Once a sound store is put back, the same app serves again (no restart).
    good = tmp_path / "good.sqlite3"
    game_id = a_store_with_a_game(good)
    shutil.copyfile(good, path)
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["version"] == 1
    assert client.get("/").status_code == 200


def test_a_migration_that_fails_at_start_is_an_error_page_until_it_passes(
    tmp_path, monkeypatch, caplog
):
    path = tmp_path / "m.sqlite3"
    game_id = a_store_with_a_game(path)

    def unreadable(store):
        raise ValueError("a row no migration can read")

    monkeypatch.setattr(migrations, "migrate", unreadable)
    with caplog.at_level(logging.ERROR):
        client = english(make_app(path).test_client())  # no exception
    assert "cannot be opened" in caplog.text and "a row no migration can read" in caplog.text
    assert_json_error(client.get(f"/api/games/{game_id}"), 503, "a row no migration can read")
    monkeypatch.undo()
    assert client.get(f"/api/games/{game_id}").status_code == 200


def test_a_failed_write_leaves_the_snapshot_and_the_log_in_step(locked_store):
    path, game_id, holder = locked_store
    client = english(make_app(path, DB_BUSY_TIMEOUT=0.1).test_client())
    holder.execute("BEGIN IMMEDIATE")
    for _ in range(3):
        client.post(f"/api/games/{game_id}/events", json={"type": "adjust", "side": 0, "points": 2})
    holder.execute("ROLLBACK")
    store = connect(str(path))
    try:
        assert games.replay_log(store, game_id) == games.load(store, game_id).state
        assert games.load(store, game_id).version == 1
    finally:
        store.close()


def test_the_real_server_on_a_corrupt_store_serves_an_error_page(tmp_path):
    path = tmp_path / "corrupt.sqlite3"
    path.write_bytes(os.urandom(16384))
    server = LiveServer(tmp_path, path)
    server.start()
    try:
        status, body = server.get("/api/games/abc")
        assert status == 503 and b"cannot be opened" in body
        status, page = server.get("/")
        assert status == 503 and b'role="alert"' in page and b"Traceback" not in page
        assert server.running()
    finally:
        server.kill()
    output = server.log.read_text()
    assert "cannot be opened" in output and "Traceback" not in output
    # A corrupt store is never copied into the backups (it would push good ones out).
    assert not list((tmp_path / "backups").glob("scorekeeper-*"))
