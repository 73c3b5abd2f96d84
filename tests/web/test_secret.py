"""The access key and the secret key: written whole or not at all, never read
back empty, and a start with a bad one refuses with a sentence (an empty key
once let anyone in)."""

import errno
import multiprocessing
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.web.guard import access, secret

ROOT = Path(__file__).resolve().parents[2]


def _app(tmp_path, **config):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite3"),
                       "INSTANCE_PATH": str(tmp_path / "instance"), **config})


@pytest.mark.parametrize("name", ["access_key", "secret_key"])
@pytest.mark.parametrize("content", [b"", b"\n", b"abc", b"\xff" * 40])
def test_an_empty_or_short_secret_file_stops_the_start_with_a_sentence(tmp_path, name, content):
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / name).write_bytes(content)
    with pytest.raises(secret.SecretError, match=f"{name} is empty or damaged"):
        _app(tmp_path)


def test_an_empty_key_never_lets_a_stranger_in(tmp_path):
    """What happened before: a key file left at 0 bytes made '' the key, and
    `?key=` (an empty key) gave a stranger the cookie."""
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "access_key").write_bytes(b"")
    try:
        app = _app(tmp_path)
    except secret.SecretError:
        return  # refused to start: nobody gets in
    stranger = app.test_client()
    phone = {"REMOTE_ADDR": "192.168.1.23"}
    stranger.get("/?key=", environ_base=phone)
    stranger.post("/key", data={"key": ""}, environ_base=phone)
    assert stranger.get("/games/export.json", environ_base=phone).status_code == 403


class DiskFull:
    """A file whose writes fail as on a full disk."""

    def __init__(self, real):
        self.real = real

    def write(self, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    def __getattr__(self, name):
        return getattr(self.real, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.real.close()


def test_a_secret_that_cannot_be_written_leaves_nothing_behind(tmp_path, monkeypatch):
    real_fdopen = os.fdopen
    monkeypatch.setattr(secret.os, "fdopen", lambda *a, **k: DiskFull(real_fdopen(*a, **k)))
    with pytest.raises(secret.SecretError):
        secret.load_or_create_secret(str(tmp_path), "access_key", access.make_key)
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []  # no empty key, no temporary file
    key = secret.load_or_create_secret(str(tmp_path), "access_key", access.make_key,
                                       access.valid_key)
    assert access.valid_key(key) and (tmp_path / "access_key").read_text() == key


def test_a_full_disk_is_a_sentence_naming_the_file(tmp_path, monkeypatch):
    real_fdopen = os.fdopen
    monkeypatch.setattr(secret.os, "fdopen", lambda *a, **k: DiskFull(real_fdopen(*a, **k)))
    with pytest.raises(secret.SecretError, match="secret_key could not be written .No space"):
        secret.load_or_create_secret(str(tmp_path))


def _race(folder: str, barrier, results) -> None:
    barrier.wait()
    try:
        results.put(secret.load_or_create_secret(folder, "access_key", access.make_key))
    except Exception as error:  # noqa: BLE001 - reported to the test
        results.put(f"error: {error}")


def test_two_processes_starting_at_once_hold_the_same_whole_key(tmp_path):
    """Before: one of the two held '' in 28 of 40 trials."""
    context = multiprocessing.get_context("fork")
    for trial in range(30):
        folder = tmp_path / str(trial)
        folder.mkdir()
        barrier, results = context.Barrier(2), context.Queue()
        workers = [context.Process(target=_race, args=(str(folder), barrier, results))
                   for _ in range(2)]
        for worker in workers:
            worker.start()
        keys = [results.get(timeout=20) for _ in workers]
        for worker in workers:
            worker.join()
        assert keys[0] == keys[1] and len(keys[0]) == access.KEY_LENGTH, (trial, keys)
        assert (folder / "access_key").read_text() == keys[0]
        assert stat.S_IMODE((folder / "access_key").stat().st_mode) == 0o600


def test_make_run_with_a_damaged_key_says_so_and_serves_nothing(tmp_path):
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "access_key").write_bytes(b"")
    env = dict(os.environ, HOST="127.0.0.1", PORT="1", FLASK_INSTANCE_PATH=str(instance),
               FLASK_DATABASE=str(tmp_path / "s.sqlite3"))
    done = subprocess.run([sys.executable, "-m", "scorekeeper.serve"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=20)
    assert done.returncode != 0
    assert "access_key is empty or damaged" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


@pytest.mark.parametrize("key, valid", [
    ("abcdefghjkmn", True), ("tablekey2345", True), ("a" * 40, True), ("abcdefghjkm", False),
    ("ABCDEFGHJKMN", False), ("abcdef ghjkmn", False), ("abcdéfghjkmn", False), ("", False),
])
def test_a_configured_access_key_must_be_twelve_lowercase_letters_or_digits(tmp_path, key, valid):
    if valid:
        assert _app(tmp_path, ACCESS_KEY=key).config["ACCESS_KEY"] == key
    elif key:
        with pytest.raises(secret.SecretError, match="ACCESS_KEY must be"):
            _app(tmp_path, ACCESS_KEY=key)
    else:  # empty: as if unset, the instance's own key is made
        assert access.valid_key(_app(tmp_path, ACCESS_KEY=key).config["ACCESS_KEY"])
