"""Opening the store at start-up: a backup first, then the migrations.

A store that cannot be opened (corrupt, locked past the busy timeout, not
readable) must not stop the server with a traceback: the app starts anyway,
logs one line that says what is wrong and how to mend it, and answers every
request with an error page (JSON under /api/) until the store opens again,
which it tries once per request.
"""

import sqlite3
import threading

from flask import Flask
from flask_babel import gettext

from ...engine.errors import N_
from ...service import ratings
from ...storage import db, migrations
from . import backup_cli
from .errors import error_answer

STORE_BROKEN = N_("The score store cannot be opened (%(reason)s). Nothing was changed. The "
                  "person running the scorekeeper can restore a backup with: flask --app "
                  "scorekeeper restore <file>")


def migrate(app: Flask) -> None:
    connection = db.connect(
        app.config["DATABASE"], app.config.get("DB_BUSY_TIMEOUT", db.BUSY_TIMEOUT_SECONDS)
    )
    try:
        migrations.migrate(connection)
        try:
            ratings.rebuild_if_stale(connection)  # derived data a migration left to rebuild
        except sqlite3.OperationalError as error:  # a read-only store: the scores still show
            app.logger.warning("The ratings are not rebuilt yet (%s): they will be at the next "
                               "start on a writable store.", _reason(error))
    finally:
        connection.close()


def _reason(error: Exception) -> str:
    return str(error).split("\n")[0][:80] or type(error).__name__


def _log_failure(app: Flask, error: Exception, message: str, *args) -> None:
    if isinstance(error, sqlite3.DatabaseError):
        app.logger.error(message, *args)  # the cause is in the sentence
    else:  # data a migration cannot read, or a bug: the traceback helps
        app.logger.exception(message, *args)


def open_store(app: Flask) -> None:
    try:
        if backup_cli.wanted_on_start(app):
            _backup_on_start(app)
        migrate(app)
    except Exception as error:  # a server that crash-loops helps nobody
        _refuse_until_open(app, error)


def _backup_on_start(app: Flask) -> None:
    try:
        path = backup_cli.backup_app(app)
    except OSError as error:  # the scores still work without a fresh copy
        app.logger.error("No backup at start-up: %s", error)
        return
    if path is not None:
        app.logger.info("Backed up the store to %s", path)


def _refuse_until_open(app: Flask, error: Exception) -> None:
    _log_failure(
        app, error,
        "The score store %s cannot be opened (%s). Every request gets an error page until it "
        "can. To mend it, restore a backup: flask --app scorekeeper restore <file>",
        app.config["DATABASE"], _reason(error),
    )
    lock = threading.Lock()
    broken = threading.Event()
    broken.set()

    @app.before_request
    def store_must_open():
        if not broken.is_set():
            return None
        with lock:  # one request at a time tries the migrations
            if broken.is_set():
                try:
                    migrate(app)
                except Exception as error:
                    return error_answer(gettext(STORE_BROKEN, reason=_reason(error)), 503)
                broken.clear()
                app.logger.info("The score store %s opened.", app.config["DATABASE"])
        return None
