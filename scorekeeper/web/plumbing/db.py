"""The SQLite connection of a request, taken lazily on `g` from the app's
pool of open connections (storage/db.py) and given back when the request ends."""

import sqlite_utils
from flask import Flask, current_app, g

from ...storage.db import BUSY_TIMEOUT_SECONDS, ConnectionPool


def pool_of(app: Flask) -> ConnectionPool:
    """The app's pool for its configured store (one per path and timeout)."""
    config = app.config
    key = (config["DATABASE"], config.get("DB_BUSY_TIMEOUT", BUSY_TIMEOUT_SECONDS))
    pools = app.extensions.setdefault("scorekeeper.db", {})
    pool = pools.get(key)
    if pool is None:
        pool = pools.setdefault(key, ConnectionPool(*key))
    return pool


def get_db() -> sqlite_utils.Database:
    if "db" not in g:
        g.db_pool = pool_of(current_app)
        g.db = g.db_pool.take()
    return g.db


def close_db(error: BaseException | None = None) -> None:
    db = g.pop("db", None)
    pool = g.pop("db_pool", None)
    if db is not None:
        if pool is None:
            db.close()
        else:
            pool.give_back(db)
