"""The pool of open connections (storage/db.py): a connection is reused
across requests, also after one of them checkpointed the store; a store
changed by another hand between requests gets fresh connections."""

import os

import pytest

from scorekeeper.storage.db import ConnectionPool, connect, write_transaction


def a_store(path) -> None:
    db = connect(str(path))
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE taps (id INTEGER PRIMARY KEY, body TEXT)")
        db.conn.commit()
    finally:
        db.close()


def write_and_checkpoint(db) -> None:
    """A write whose commit is followed by a checkpoint, which writes the
    main file (its size and time change), as SQLite's automatic one does
    once the -wal file holds 1,000 pages."""
    with write_transaction(db):
        db.execute("INSERT INTO taps (body) VALUES (?)", ["x" * 20_000])
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


@pytest.fixture
def store(tmp_path):
    """A store's path and the pool of its connections, closed after the test."""
    path = tmp_path / "store.sqlite3"
    a_store(path)
    pool = ConnectionPool(str(path), 5)
    yield path, pool
    pool.close()


def replace_store(path) -> None:
    """Another store put in its place, as a restore does."""
    replacement = path.with_name("restored.sqlite3")
    a_store(replacement)
    os.replace(replacement, path)


def test_a_connection_outlives_its_own_requests_checkpoint(store):
    path, pool = store
    pool.give_back(pool.take())
    before = os.stat(path)
    db = pool.take()
    write_and_checkpoint(db)
    after = os.stat(path)
    assert (after.st_size, after.st_mtime_ns) != (before.st_size, before.st_mtime_ns)
    pool.give_back(db)
    assert pool.take() is db  # no schema read again on the next tap's time
    pool.give_back(db)


def test_a_store_changed_by_another_hand_between_requests_gets_a_fresh_connection(store):
    path, pool = store
    db = pool.take()
    pool.give_back(db)
    other = connect(str(path))  # not the pool's: a restore, a copy, a repair
    try:
        write_and_checkpoint(other)
    finally:
        other.close()
    fresh = pool.take()
    assert fresh is not db
    assert fresh.execute("SELECT count(*) FROM taps").fetchone() == (1,)
    pool.give_back(fresh)


def test_a_replaced_store_gets_a_fresh_connection(store):
    path, pool = store
    db = pool.take()
    pool.give_back(db)
    replace_store(path)
    fresh = pool.take()
    assert fresh is not db
    pool.give_back(fresh)


def test_a_store_replaced_during_a_request_is_not_served_from_the_file_it_replaced(store):
    path, pool = store
    db = pool.take()
    replace_store(path)  # while the request that took `db` runs
    pool.give_back(db)
    fresh = pool.take()
    assert fresh is not db
    pool.give_back(fresh)
