"""Rotating copies of the store, made with SQLite's online backup API.

A copy is made at start-up (before any migration touches the file) and on
demand (`flask --app scorekeeper backup`); `flask --app scorekeeper restore
FILE` puts one back (those commands: web/plumbing/backup_cli.py). The backup API
copies a consistent snapshot even while the server writes, which a plain
file copy of a WAL database does not.

A restore makes the live store only from what the app itself makes: a
fresh store built by the same migrations the backup says were applied,
then the backup's rows copied into its tables, column by column. A file
can hold anything SQLite can (a trigger that deletes the log as taps
arrive, a view, an index, a table, a changed `user_version` or journal
mode): none of it comes along, and the restore names what it left out.
"""

import os
import shutil
import sqlite3
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import sqlite_utils

from . import db, migrations
from .lock import StoreInUse, restore_lock

PREFIX = "scorekeeper-"
SUFFIX = ".sqlite3"
PARTIAL_PREFIX = ".partial-"
DEFAULT_KEEP = 10
# A copy being written by another process is younger than this; older
# leftovers are from a process killed mid-copy.
STALE_PARTIAL_SECONDS = 60


class BackupError(Exception):
    """A backup or a restore that did not happen; the message says why."""


def _copy(source: sqlite3.Connection, target: sqlite3.Connection, timeout: float) -> None:
    """source -> target with the backup API, giving up after `timeout` seconds
    of waiting for a lock (Python's backup() would otherwise retry forever)."""
    deadline = time.monotonic() + timeout

    def progress(status: int, remaining: int, total: int) -> None:
        if status in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) and time.monotonic() > deadline:
            raise sqlite3.OperationalError("database is locked")

    source.backup(target, progress=progress, sleep=0.05)


def _check(conn: sqlite3.Connection) -> None:
    """Raise sqlite3.DatabaseError unless the file is whole."""
    result = conn.execute("PRAGMA quick_check").fetchone()[0]
    if result != "ok":
        raise sqlite3.DatabaseError(f"the file is damaged ({result[:80]})")


def _timestamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")


def make_backup(
    database: str, backup_dir: Path, keep: int = DEFAULT_KEEP,
    timeout: float = db.BUSY_TIMEOUT_SECONDS,
) -> Path | None:
    """Copy `database` into backup_dir/scorekeeper-<UTC time>.sqlite3, checked,
    then keep only the newest `keep` copies. None when the store is empty.
    Raises sqlite3.DatabaseError when the store cannot be read (then no copy
    is pushed out), OSError when the folder cannot be written."""
    source = db.connect(database, timeout).conn
    try:
        if source.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
            return None
        backup_dir.mkdir(parents=True, exist_ok=True)
        fd, partial = tempfile.mkstemp(prefix=PARTIAL_PREFIX, suffix=SUFFIX, dir=backup_dir)
        os.close(fd)
        try:
            target = sqlite3.connect(partial)
            try:
                _copy(source, target, timeout)
                # One self-contained file: no -wal or -shm beside a backup.
                target.execute("PRAGMA journal_mode=DELETE")
                _check(target)
            finally:
                target.close()
            path = backup_dir / f"{PREFIX}{_timestamp()}{SUFFIX}"
            os.replace(partial, path)  # a copy is whole or absent, even if killed
        except BaseException:
            Path(partial).unlink(missing_ok=True)
            raise
    finally:
        source.close()
    rotate(backup_dir, keep)
    return path


def backups(backup_dir: Path) -> list[Path]:
    """The folder's backups, oldest first (their names sort by time)."""
    return sorted(backup_dir.glob(f"{PREFIX}*{SUFFIX}"))


def rotate(backup_dir: Path, keep: int) -> None:
    """Keep the newest `keep` backups; other files in the folder are left alone."""
    for path in backups(backup_dir)[:-keep] if keep > 0 else []:
        path.unlink(missing_ok=True)
    now = time.time()
    for path in backup_dir.glob(f"{PARTIAL_PREFIX}*"):
        try:
            if now - path.stat().st_mtime > STALE_PARTIAL_SECONDS:
                path.unlink()
        except FileNotFoundError:
            pass


def _stage(source_file: Path, timeout: float) -> sqlite3.Connection:
    """The backup file copied into memory and checked, so that the restore
    reads exactly what was checked."""
    staged = sqlite3.connect(":memory:")
    try:
        source = sqlite3.connect(source_file.resolve().as_uri() + "?mode=ro", uri=True)
        try:
            _copy(source, staged, timeout)
        finally:
            source.close()
        _check(staged)
        tables = {row[0] for row in staged.execute("SELECT name FROM sqlite_master")}
        if not {"games", "events", migrations.migrations.migrations_table} <= tables:
            raise BackupError("it holds no scorekeeper games")
        applied = {m.name for m in migrations.migrations.applied(sqlite_utils.Database(staged))}
        if applied - _known_migrations():
            raise BackupError("it was made by a newer version of the scorekeeper")
    except BaseException:
        staged.close()
        raise
    return staged


def _rebuilt(staged: sqlite3.Connection) -> tuple[sqlite3.Connection, list[str]]:
    """A fresh store made by the migrations the backup says it went through,
    holding the backup's rows; and what the backup held that they do not
    make ("trigger erase_log"), left out. Raises BackupError when a table of
    the app lacks a column or its rows break the app's own constraints."""
    applied = {m.name: m.applied_at for m in
               migrations.migrations.applied(sqlite_utils.Database(staged))}
    fresh = sqlite3.connect(":memory:")
    try:
        migrations.apply_these(sqlite_utils.Database(fresh), applied)
        made = _objects(fresh)
        left_out = [f"{kind} {name}" for kind, name in sorted(_objects(staged) - made)]
        for kind, table in sorted(made):
            if kind == "table" and table != migrations.migrations.migrations_table:
                left_out += _copy_table(staged, fresh, table)
        problems = fresh.execute("PRAGMA foreign_key_check").fetchall()
        if problems:
            raise BackupError(f"a row of its table {problems[0][0]} points to nothing")
        fresh.commit()
        _check(fresh)
    except sqlite3.IntegrityError as error:
        fresh.close()
        raise BackupError(f"its rows break the store's own rules ({error})") from None
    except BaseException:
        fresh.close()
        raise
    return fresh, left_out


# The tables Litestream keeps in a store it replicates (storage/replica.py):
# its own bookkeeping, which a restore leaves out without naming it.
LITESTREAM_TABLES = ("_litestream_seq", "_litestream_lock")


def litestream_folder(database: str) -> Path:
    """Where Litestream keeps its record of a store it replicates, beside it."""
    path = Path(database)
    return path.with_name(f".{path.name}-litestream")


def _objects(conn: sqlite3.Connection) -> set[tuple[str, str]]:
    """The schema's objects, SQLite's own (sqlite_autoindex_…, sqlite_sequence…) and
    Litestream's aside."""
    return {(kind, name) for kind, name in conn.execute("SELECT type, name FROM sqlite_master")
            if not name.startswith("sqlite_") and name not in LITESTREAM_TABLES}


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in conn.execute(f'PRAGMA table_info("{table}")')]


def _copy_table(staged: sqlite3.Connection, fresh: sqlite3.Connection, table: str) -> list[str]:
    """The backup's rows of `table` copied into the fresh store, column by
    column of the fresh one; returns the backup's columns it does not have
    ("column games.colour"), left out. Raises BackupError when the backup's
    table lacks one of the fresh one's columns."""
    columns = _columns(fresh, table)
    held = _columns(staged, table)
    missing = [c for c in columns if c not in held]
    if missing:
        raise BackupError(f"its table {table} lacks the column {missing[0]}")
    names = ", ".join(f'"{c}"' for c in columns)
    fresh.executemany(
        f'INSERT INTO "{table}" ({names}) VALUES ({", ".join("?" for _ in columns)})',
        staged.execute(f'SELECT {names} FROM "{table}"'))
    return [f"column {table}.{c}" for c in held if c not in columns]


def _known_migrations() -> set[str]:
    # Every migration is pending on an empty database.
    return {m.name for m in migrations.migrations.pending(sqlite_utils.Database(memory=True))}


def _locked(error: sqlite3.Error) -> bool:
    return "locked" in str(error)


IN_USE = "The store is in use: stop the server, then restore again."


class Restored(tuple):
    """What a restore did: where the previous store was saved (None if it
    held nothing), and what the backup held that the app does not make."""

    saved: Path | None
    left_out: list[str]

    def __new__(cls, saved: Path | None, left_out: list[str]):
        made = super().__new__(cls, (saved, left_out))
        made.saved, made.left_out = saved, left_out
        return made


def restore(
    database: str, source_file: Path, backup_dir: Path, keep: int = DEFAULT_KEEP,
    timeout: float = db.BUSY_TIMEOUT_SECONDS,
) -> Restored:
    """Put `source_file` back as the store: check it, build a fresh store of
    its rows (what the migrations make, nothing else), copy the current store
    aside, copy the fresh one in with the backup API, then migrate. Raises
    BackupError, leaving the current store untouched, when the file is not a
    sound scorekeeper backup or the store is in use (a server runs on it:
    store_lock)."""
    try:
        with restore_lock(database):
            return _restore(database, source_file, backup_dir, keep, timeout)
    except StoreInUse as error:
        raise BackupError(f"The restore was refused: {error}") from None


def _restore(database: str, source_file: Path, backup_dir: Path, keep: int, timeout: float
             ) -> Restored:
    try:
        staged = _stage(Path(source_file), timeout)
        try:
            fresh, left_out = _rebuilt(staged)
        finally:
            staged.close()
    except (BackupError, sqlite3.DatabaseError) as error:
        raise BackupError(
            f"{source_file} is not a scorekeeper backup that can be restored ({error}). "
            "Nothing was changed."
        ) from None
    try:
        try:
            saved = make_backup(database, backup_dir, keep, timeout)
        except sqlite3.DatabaseError as error:
            if _locked(error):
                raise
            saved = _set_aside(database, backup_dir)  # past reading: keep its bytes
        _put_back(fresh, database, timeout)
        # Litestream's record of the store replaced: the restored one is a
        # new file, which Litestream copies whole at its next start.
        shutil.rmtree(litestream_folder(database), ignore_errors=True)
    except sqlite3.OperationalError as error:
        if _locked(error):
            raise BackupError(IN_USE) from None
        raise
    finally:
        fresh.close()
    return Restored(saved, left_out)


def _set_aside(database: str, backup_dir: Path) -> Path:
    """Move a store that cannot be read (and its -wal, -shm) into the backup
    folder, byte for byte, so that the restore starts a new file."""
    backup_dir.mkdir(parents=True, exist_ok=True)
    saved = backup_dir / f"unreadable-{_timestamp()}{SUFFIX}"
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(database + suffix):
            shutil.move(database + suffix, str(saved) + suffix)
    return saved


def _put_back(staged: sqlite3.Connection, database: str, timeout: float) -> None:
    store = db.connect(database, timeout)
    try:
        _copy(staged, store.conn, timeout)
        # The store runs in WAL mode whatever the backup's journal mode was.
        store.execute("PRAGMA journal_mode=WAL")
        migrations.migrate(store)  # a backup made by an older version is brought up to date
        _check(store.conn)
    finally:
        store.close()
