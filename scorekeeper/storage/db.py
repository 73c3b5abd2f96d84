"""Connections to the store: every commit durable before it returns, a pool
of open connections kept between requests, and the write transaction that
keeps one phone's tap from interleaving with another's. No Flask: the web
layer (web/plumbing/db.py) takes a request's connection from the pool."""

import os
import sqlite3
import threading
import time
from contextlib import contextmanager
from typing import Iterator
from urllib.parse import urlparse

import sqlite_utils

# Wait this long for another writer (a second phone's tap) before giving up.
BUSY_TIMEOUT_SECONDS = 5


# An import writes all its games in one transaction, a few seconds at most
# (64 MiB); the writers queued behind it wait for it this long, not less.
LONG_WRITE_SECONDS = 120


class WriteLock:
    """The writers of one store in this process, one at a time (see
    write_transaction). A writer gives up after its timeout, except while a
    long writer (an import) holds the lock: then taps wait their turn and
    succeed, instead of failing with "database is locked"."""

    def __init__(self):
        self._lock = threading.RLock()
        self.long_until = 0.0  # while a long writer holds the lock: how long to wait for it

    def acquire(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while True:
            remaining = max(deadline, self.long_until) - time.monotonic()
            if remaining <= 0:
                return False
            # Woken at once by a release; the slice only looks at long_until again.
            if self._lock.acquire(timeout=min(remaining, 0.25)):
                return True

    def release(self) -> None:
        self._lock.release()


# One lock per store file for the writers of this process.
_write_locks: dict[str, WriteLock] = {}
_write_locks_guard = threading.Lock()


def _file_path(path: str) -> str:
    """The file of `path`, which may be a `file:` URI."""
    return urlparse(path).path if path.startswith("file:") else path


def _write_lock(path: str) -> WriteLock | None:
    if path == ":memory:" or path == "" or "mode=memory" in path:
        return None
    key = os.path.realpath(_file_path(path))
    with _write_locks_guard:
        return _write_locks.setdefault(key, WriteLock())


def connect(path: str, timeout: float = BUSY_TIMEOUT_SECONDS) -> sqlite_utils.Database:
    """A connection to the store; every commit reaches the disk before it returns.
    `path` may be a `file:` URI (e.g. `?mode=ro` for a read-only store)."""
    conn = sqlite3.connect(
        path, timeout=timeout, check_same_thread=False, uri=path.startswith("file:")
    )
    db = sqlite_utils.Database(conn, execute_plugins=False)
    # FULL: in WAL mode, NORMAL may lose the last commits on a power cut.
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    db._scorekeeper_write_lock = _write_lock(path)
    db._scorekeeper_timeout = timeout
    return db


class ConnectionPool:
    """Connections to one store, kept open between requests.

    Opening a connection per request and closing it afterwards cost most of
    a tap (docs/PERFORMANCE.md): closing the last connection to a WAL store
    checkpoints it and deletes the -wal file, and the next one reads the
    schema again. A connection is used by one request at a time; at most
    `keep` idle ones are kept. One whose file is no longer the store's (a
    restore put another in its place) is closed rather than reused. When the
    file changed since the pool last looked at it, after a request of its
    own, someone else's hand changed it in place (a copy, damage): every idle
    connection is closed. A change during one of its requests is the pool's
    own (a commit that checkpointed the store writes the main file): its
    connections stay, where reopening each cost the next taps a schema read.
    """

    def __init__(self, path: str, timeout: float, keep: int = 8):  # waitress's threads
        self.path = path
        self.timeout = timeout
        self.keep = keep
        self._idle: list[tuple[sqlite_utils.Database, tuple[int, ...] | None]] = []
        self._known: tuple[int, ...] | None = None  # the file as the last request left it
        self._lock = threading.Lock()

    def _file_identity(self) -> tuple[int, ...] | None:
        """The store file as it is now. In WAL mode only a checkpoint writes
        the main file, so a change here is a checkpoint (rare) or someone
        else's hand (a restore, a copy, damage): then a fresh connection sees
        the file as it is, instead of pages cached from before."""
        try:
            status = os.stat(_file_path(self.path))
        except OSError:
            return None
        return status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns

    def take(self) -> sqlite_utils.Database:
        identity = self._file_identity()
        stale: list = []
        found = None
        with self._lock:
            if identity is None or identity != self._known:
                stale, self._idle = self._idle, []
            while self._idle and found is None:
                db, opened_on = self._idle.pop()
                if opened_on == identity[:2]:
                    found = db
                else:
                    stale.append((db, opened_on))
        if found is None:
            found = connect(self.path, self.timeout)
            opened_on = self._file_identity()  # after: connect may make the file
            found._scorekeeper_opened_on = None if opened_on is None else opened_on[:2]
        # Closed only now that another connection is open: closing the last
        # one would checkpoint the store and delete its -wal file on this tap's time.
        for db, _ in stale:
            db.close()
        return found

    def give_back(self, db: sqlite_utils.Database) -> None:
        try:
            if db.conn.in_transaction:  # a request must never leave one open
                db.conn.rollback()
        except sqlite3.Error:
            db.close()
            return
        identity = self._file_identity()
        with self._lock:
            self._known = identity
            if identity is not None and len(self._idle) < self.keep:
                self._idle.append((db, getattr(db, "_scorekeeper_opened_on", None)))
                return
        db.close()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for db, _ in idle:
            db.close()


@contextmanager
def write_transaction(db: sqlite_utils.Database, long: bool = False
                      ) -> Iterator[sqlite_utils.Database]:
    """One atomic write that takes the write lock at once, so that reading a
    game and appending to it cannot interleave with another phone's tap.

    The writers of this process first queue on a lock of their own. SQLite
    makes a writer that finds the store locked sleep and retry (1, 2, 5, 10 …
    100 ms): with a server's threads all writing, the store can sit unlocked
    while they sleep, and on a busy machine an unlucky one slept past the
    busy timeout (a 503) while the others kept winning (docs/PERFORMANCE.md,
    bench/contention.py). A thread waiting on this lock wakes as soon as the
    writer before it is done. Other processes are still kept out by
    SQLite's own lock and its busy timeout. `long`: an import, which the
    writers after it wait for however long it takes (WriteLock)."""
    if db.conn.in_transaction and getattr(db, "_scorekeeper_writing", False):
        # Inside another write of this module's (a night's table is a game
        # and its table, one transaction): the outer one commits or rolls back.
        yield db
        return
    lock = getattr(db, "_scorekeeper_write_lock", None)
    if lock is not None:
        timeout = getattr(db, "_scorekeeper_timeout", BUSY_TIMEOUT_SECONDS)
        if not lock.acquire(timeout=timeout):
            raise sqlite3.OperationalError("database is locked")
        if long:
            lock.long_until = time.monotonic() + LONG_WRITE_SECONDS
    try:
        db.execute("BEGIN IMMEDIATE")
        db._scorekeeper_writing = True
        try:
            yield db
        except BaseException:
            db.rollback()
            raise
        finally:
            db._scorekeeper_writing = False
        db.execute("COMMIT")
    finally:
        if lock is not None:
            if long:
                lock.long_until = 0.0
            lock.release()


@contextmanager
def read_transaction(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """Several reads that see the store as one moment left it (a game's row
    and its log's last records), not a tap committed between two of them.
    Inside a write, the write's own view already is one."""
    if db.conn.in_transaction:
        yield db
        return
    db.execute("BEGIN")
    try:
        yield db
    finally:
        db.execute("COMMIT")

