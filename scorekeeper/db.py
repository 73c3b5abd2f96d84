"""The SQLite connection of a request, opened lazily on `g`."""

import sqlite3
from contextlib import contextmanager
from typing import Iterator

import sqlite_utils
from flask import current_app, g

# Wait this long for another writer (a second phone's tap) before giving up.
BUSY_TIMEOUT_SECONDS = 5


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
    return db


def get_db() -> sqlite_utils.Database:
    if "db" not in g:
        config = current_app.config
        g.db = connect(config["DATABASE"], config.get("DB_BUSY_TIMEOUT", BUSY_TIMEOUT_SECONDS))
    return g.db


def close_db(error: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


@contextmanager
def write_transaction(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """One atomic write that takes the write lock at once, so that reading a
    game and appending to it cannot interleave with another phone's tap."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.rollback()
        raise
    db.execute("COMMIT")
