"""The schema's history, applied at start-up. A step never drops data."""

import sqlite_utils
from sqlite_utils.migrations import Migrations

migrations = Migrations("scorekeeper")


@migrations(name="0001_wal", transactional=False)
def enable_wal(db: sqlite_utils.Database) -> None:
    db.enable_wal()


@migrations(name="0002_games_and_events")
def games_and_events(db: sqlite_utils.Database) -> None:
    db["games"].create(
        {
            "id": str,
            "created_at": str,
            "updated_at": str,
            "sides": str,  # JSON list of names
            "players": int,
            "first_dealer": int,
            "rules": str,  # JSON: the game's own copy of its rules
            "version": int,  # the seq of the game's last log record
            "state": str,  # JSON snapshot of the engine state after the log
            "creation_key": str,  # Idempotency-Key of the request that created it
        },
        pk="id",
        not_null={"created_at", "updated_at", "sides", "players", "rules", "version", "state"},
    )
    db["games"].create_index(["creation_key"], unique=True)
    # The append-only log: one record per accepted event or undo. An undone
    # event stays, marked with the seq of the undo that took it back.
    db["events"].create(
        {
            "game_id": str,
            "seq": int,
            "action": str,  # "event" or "undo"
            "payload": str,  # JSON: the event, or {"undoes": seq}
            "idempotency_key": str,
            "undone_by": int,
            "created_at": str,
        },
        pk=("game_id", "seq"),
        foreign_keys=[("game_id", "games", "id")],
        not_null={"action", "payload", "created_at"},
    )
    db["events"].create_index(["game_id", "idempotency_key"], unique=True)


@migrations(name="table_presets")
def table_presets(db: sqlite_utils.Database) -> None:
    # The table's own house-rule presets, beside the built-in ones; a game
    # keeps a copy of its rules, so editing a preset never reaches it.
    db["presets"].create(
        {
            "id": str,
            "name": str,
            "name_key": str,  # the name casefolded: names are unique ignoring case
            "rules": str,  # JSON: every rule's value
            "created_at": str,
            "updated_at": str,
        },
        pk="id",
        not_null={"name", "name_key", "rules", "created_at", "updated_at"},
    )
    db["presets"].create_index(["name_key"], unique=True)
    db["settings"].create({"key": str, "value": str}, pk="key", not_null={"value"})


def migrate(db: sqlite_utils.Database) -> None:
    migrations.apply(db)
