"""Rotating backups with SQLite's backup API, and a safe restore: nothing lost."""

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import sqlite_utils

from scorekeeper import create_app
from scorekeeper.storage import backup, migrations
from scorekeeper.web.plumbing import backup_cli

ROOT = Path(__file__).resolve().parents[2]
FIRST_SCHEMA = Path(__file__).parents[1] / "data" / "schema_v1.sqlite3"


@pytest.fixture
def folder(tmp_path):
    return tmp_path


def make_app(folder: Path, **config):
    return create_app({
        "TESTING": True, "DATABASE": str(folder / "store.sqlite3"),
        "BACKUP_DIR": str(folder / "backups"), **config,
    })


def play(client, game_id, *points):
    for p in points:
        response = client.post(f"/api/games/{game_id}/events",
                               json={"type": "adjust", "side": 0, "points": p})
        assert response.status_code == 200


def new_game(client) -> str:
    return client.post("/api/games", json={"sides": ["A", "B"]}).get_json()["id"]


def state(client, game_id) -> dict:
    return client.get(f"/api/games/{game_id}").get_json()


def test_backup_then_restore_gives_back_every_game(folder):
    app = make_app(folder)
    client = app.test_client()
    runner = app.test_cli_runner()
    first, second = new_game(client), new_game(client)
    play(client, first, 3, 4)
    play(client, second, 7)
    at_backup = {g: state(client, g) for g in (first, second)}

    result = runner.invoke(args=["backup"])
    assert result.exit_code == 0, result.output
    [made] = backup.backups(folder / "backups")
    assert str(made) in result.output
    # One self-contained file: no -wal or -shm to carry along.
    assert not list((folder / "backups").glob("*-wal"))
    with sqlite3.connect(made) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"

    play(client, first, 10)
    third = new_game(client)
    later = {g: state(client, g) for g in (first, second, third)}

    result = runner.invoke(args=["restore", str(made)])
    assert result.exit_code == 0, result.output
    assert {g: state(client, g) for g in (first, second)} == at_backup
    assert client.get(f"/api/games/{third}").status_code == 404
    with sqlite3.connect(folder / "store.sqlite3") as conn:  # still a WAL store
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # The store that was replaced was backed up first, and can be put back.
    saved = [p for p in backup.backups(folder / "backups") if p != made]
    assert len(saved) == 1 and str(saved[0]) in result.output
    assert runner.invoke(args=["restore", str(saved[0])]).exit_code == 0
    assert {g: state(client, g) for g in later} == later


def test_rotation_keeps_the_newest_copies_only(folder):
    app = make_app(folder, BACKUP_KEEP=3)
    client = app.test_client()
    game = new_game(client)
    (folder / "backups").mkdir()
    mine = folder / "backups" / "notes.txt"  # not a backup: never touched
    mine.write_text("keep me")
    made = []
    for points in range(1, 6):
        play(client, game, points)
        made.append(backup_cli.backup_app(app))
    kept = backup.backups(folder / "backups")
    assert kept == made[-3:]
    assert [p.name for p in kept] == sorted(p.name for p in kept)  # named by UTC time
    assert kept[0].name.startswith("scorekeeper-") and kept[0].name.endswith("Z.sqlite3")
    assert mine.read_text() == "keep me"
    # The newest copy holds the last event.
    with sqlite3.connect(kept[-1]) as conn:
        assert conn.execute("SELECT max(seq) FROM events").fetchone()[0] == 5


def store_bytes(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.glob("store.sqlite3*")}


def a_store_that_is_not_ours(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (text)")


def a_store_from_a_newer_version(path: Path, folder: Path) -> None:
    folder.mkdir()
    app = make_app(folder)
    new_game(app.test_client())
    backup.make_backup(app.config["DATABASE"], folder / "newer")
    [made] = backup.backups(folder / "newer")
    with sqlite3.connect(made) as conn:
        conn.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at)"
                     " VALUES ('scorekeeper', '9999_from_the_future', '')")
    made.rename(path)


@pytest.mark.parametrize("kind, words", [
    ("garbage", "not a database"),
    ("empty", "no scorekeeper games"),
    ("not ours", "no scorekeeper games"),
    ("newer", "newer version"),
    ("truncated", "scorekeeper backup"),
])
def test_a_bad_backup_is_refused_and_the_store_left_untouched(folder, kind, words):
    app = make_app(folder)
    client = app.test_client()
    game = new_game(client)
    play(client, game, 5)
    before, files = state(client, game), store_bytes(folder)
    bad = folder / "bad.sqlite3"
    if kind == "garbage":
        bad.write_bytes(os.urandom(8192))
    elif kind == "empty":
        bad.write_bytes(b"")
    elif kind == "not ours":
        a_store_that_is_not_ours(bad)
    elif kind == "newer":
        a_store_from_a_newer_version(bad, folder / "other")
    else:
        made = backup.make_backup(app.config["DATABASE"], folder / "good")
        bad.write_bytes(made.read_bytes()[:5000])

    result = app.test_cli_runner().invoke(args=["restore", str(bad)])
    assert result.exit_code != 0
    assert "is not a scorekeeper backup" in result.output and "Nothing was changed" in result.output
    assert words in result.output
    assert "Traceback" not in result.output
    assert store_bytes(folder) == files
    assert state(client, game) == before
    assert not (folder / "backups").exists() or not os.listdir(folder / "backups")


def test_restore_mends_a_corrupt_store_and_keeps_its_bytes(folder):
    app = make_app(folder)
    client = app.test_client()
    game = new_game(client)
    play(client, game, 9)
    good = backup_cli.backup_app(app)
    before = state(client, game)
    garbage = os.urandom(8192)
    Path(app.config["DATABASE"]).write_bytes(garbage)

    broken = make_app(folder)  # starts, answering an error page
    assert broken.test_client().get(f"/api/games/{game}").status_code == 503
    result = broken.test_cli_runner().invoke(args=["restore", str(good)])
    assert result.exit_code == 0, result.output
    assert state(broken.test_client(), game) == before
    [kept] = (folder / "backups").glob("unreadable-*.sqlite3")
    assert kept.read_bytes() == garbage


def test_a_backup_is_made_at_start_up_before_migrations(folder):
    shutil.copyfile(FIRST_SCHEMA, folder / "store.sqlite3")
    make_app(folder)
    assert not (folder / "backups").exists()  # not in tests, unless asked
    shutil.copyfile(FIRST_SCHEMA, folder / "store.sqlite3")
    make_app(folder, BACKUP_ON_START=True)
    [made] = backup.backups(folder / "backups")
    # The copy is the store as it was before this start's migrations ran
    # (opened from a second copy: opening the fixture would write beside it).
    shutil.copyfile(FIRST_SCHEMA, folder / "first.sqlite3")
    assert applied_migrations(made) == applied_migrations(folder / "first.sqlite3")
    assert sorted(applied_migrations(folder / "store.sqlite3")) == sorted(
        m.name for m in migrations.migrations.pending(sqlite_utils.Database(memory=True)))
    with sqlite3.connect(made) as conn, sqlite3.connect(folder / "first.sqlite3") as first:
        query = "SELECT id, version, state FROM games ORDER BY id"
        assert conn.execute(query).fetchall() == first.execute(query).fetchall()


def applied_migrations(path: Path) -> list[str]:
    with sqlite3.connect(path) as conn:
        return [row[0] for row in conn.execute("SELECT name FROM _sqlite_migrations")]


def test_a_fresh_store_makes_no_backup(folder):
    make_app(folder / "fresh", BACKUP_ON_START=True, BACKUP_DIR=str(folder / "b"))
    assert not (folder / "b").exists() or not backup.backups(folder / "b")


def test_a_corrupt_store_never_pushes_good_backups_out(folder):
    app = make_app(folder, BACKUP_KEEP=2)
    new_game(app.test_client())
    good = [backup_cli.backup_app(app), backup_cli.backup_app(app)]
    Path(app.config["DATABASE"]).write_bytes(os.urandom(8192))
    make_app(folder, BACKUP_KEEP=2, BACKUP_ON_START=True)
    assert backup.backups(folder / "backups") == good


def test_the_flask_commands_work_from_the_command_line(folder):
    app = make_app(folder)
    game = new_game(app.test_client())
    env = dict(os.environ, FLASK_DATABASE=str(folder / "store.sqlite3"),
               FLASK_BACKUP_DIR=str(folder / "backups"))
    flask = [sys.executable, "-m", "flask", "--app", "scorekeeper"]

    made = subprocess.run(flask + ["backup"], env=env, cwd=ROOT, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    # Only the command's copy: the command line makes no start-up backup of its own.
    [copy] = backup.backups(folder / "backups")
    assert str(copy) in made.stdout

    bad = folder / "bad.sqlite3"
    bad.write_bytes(b"not a database at all" * 100)
    refused = subprocess.run(flask + ["restore", str(bad)], env=env, cwd=ROOT,
                             capture_output=True, text=True)
    assert refused.returncode != 0
    assert "Nothing was changed" in refused.stderr and "Traceback" not in refused.stderr

    restored = subprocess.run(flask + ["restore", str(copy)], env=env, cwd=ROOT,
                              capture_output=True, text=True)
    assert restored.returncode == 0, restored.stderr
    assert state(make_app(folder).test_client(), game)["id"] == game


def test_a_restore_is_refused_while_a_server_runs_on_the_store(folder):
    """Before: `flask restore` under a running server exited 0, and the taps
    the server had acknowledged since the backup were gone."""
    import json
    import urllib.request

    from scorekeeper.testing.live_server import LiveServer

    database = folder / "served.sqlite3"
    env = dict(os.environ, FLASK_DATABASE=str(database),
               FLASK_BACKUP_DIR=str(folder / "backups"))
    flask = [sys.executable, "-m", "flask", "--app", "scorekeeper"]
    live = LiveServer(folder, database)
    live.start()
    try:
        live.get("/")
        request = urllib.request.Request(
            live.url + "/api/games", data=json.dumps({"sides": ["A", "B"]}).encode(),
            headers={"Content-Type": "application/json"})
        game = json.load(urllib.request.urlopen(request, timeout=10))["id"]
        made = subprocess.run(flask + ["backup"], env=env, cwd=ROOT, capture_output=True,
                              text=True)
        assert made.returncode == 0, made.stderr
        [copy] = backup.backups(folder / "backups")
        tap = urllib.request.Request(
            f"{live.url}/api/games/{game}/events",
            data=json.dumps({"type": "missa", "side": 0}).encode(),
            headers={"Content-Type": "application/json"})
        assert json.load(urllib.request.urlopen(tap, timeout=10))["version"] == 1

        refused = subprocess.run(flask + ["restore", str(copy)], env=env, cwd=ROOT,
                                 capture_output=True, text=True)
        assert refused.returncode != 0
        assert "a server is using" in refused.stderr and "Nothing was changed" in refused.stderr
        assert "Traceback" not in refused.stderr
        status, body = live.get(f"/api/games/{game}")
        assert status == 200 and json.loads(body)["version"] == 1  # the tap is still there
    finally:
        live.kill()
    # Once the server is stopped, the same restore goes through.
    restored = subprocess.run(flask + ["restore", str(copy)], env=env, cwd=ROOT,
                              capture_output=True, text=True)
    assert restored.returncode == 0, restored.stderr
