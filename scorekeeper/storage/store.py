"""Games and their append-only event logs in SQLite.

Plain rows in, plain rows out: what the rows mean is the service's business
(service/games.py), what a log of corrections adds up to the engine's
(engine/log.py). Callers wrap writes that belong together in
`db.write_transaction`.
"""

import json
from typing import Any, Iterator

import sqlite_utils

GAME_COLUMNS = (
    "id", "created_at", "updated_at", "sides", "players", "first_dealer", "rules",
    "version", "state", "creation_key",
)


# json.dumps with these options builds an encoder at every call; a tap
# writes two documents (issue 14).
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def dumps(data: Any) -> str:
    return _ENCODER.encode(data)


def game_row(db: sqlite_utils.Database, game_id: str) -> dict | None:
    cursor = db.execute(
        f"SELECT {', '.join(GAME_COLUMNS)} FROM games WHERE id = ?", [game_id]
    )
    row = cursor.fetchone()
    return None if row is None else dict(zip(GAME_COLUMNS, row))


def game_exists(db: sqlite_utils.Database, game_id: str) -> bool:
    return db.execute("SELECT 1 FROM games WHERE id = ?", [game_id]).fetchone() is not None


def game_id_for_creation_key(db: sqlite_utils.Database, key: str) -> str | None:
    row = db.execute("SELECT id FROM games WHERE creation_key = ?", [key]).fetchone()
    return None if row is None else row[0]


def insert_game(db: sqlite_utils.Database, row: dict) -> None:
    columns = ", ".join(row)
    marks = ", ".join("?" for _ in row)
    db.execute(f"INSERT INTO games ({columns}) VALUES ({marks})", list(row.values()))


def game_row_and_key(db: sqlite_utils.Database, game_id: str, key: str | None
                     ) -> tuple[dict | None, bool]:
    """The game's row (None: no such game) and whether `key` was used on it
    already, in one statement (a tap's first read)."""
    if key is None:
        return game_row(db, game_id), False
    cursor = db.execute(
        f"SELECT {', '.join(GAME_COLUMNS)}, EXISTS(SELECT 1 FROM events WHERE"
        " events.game_id = games.id AND idempotency_key = ?) FROM games WHERE id = ?",
        [key, game_id],
    )
    row = cursor.fetchone()
    if row is None:
        return None, False
    return dict(zip(GAME_COLUMNS, row)), bool(row[-1])


def key_used(db: sqlite_utils.Database, game_id: str, key: str) -> bool:
    cursor = db.execute(
        "SELECT 1 FROM events WHERE game_id = ? AND idempotency_key = ?", [game_id, key]
    )
    return cursor.fetchone() is not None


def append(
    db: sqlite_utils.Database, game_id: str, seq: int, action: str, payload: dict,
    key: str | None, now: str,
) -> None:
    db.execute(
        "INSERT INTO events (game_id, seq, action, payload, idempotency_key, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [game_id, seq, action, dumps(payload), key, now],
    )


def save_state(
    db: sqlite_utils.Database, game_id: str, version: int, state: dict, now: str,
    also: dict | None = None,
) -> str:
    """The game's new version and snapshot; `also`: more of its columns, by
    name, in the same statement (a tap's summary columns: one UPDATE, not two).
    Returns the snapshot's text as stored."""
    also = also or {}
    columns = "".join(f", {name} = ?" for name in also)
    text = dumps(state)
    db.execute(
        f"UPDATE games SET version = ?, state = ?, updated_at = ?{columns} WHERE id = ?",
        [version, text, now, *also.values(), game_id],
    )
    return text


def mark_undone(db: sqlite_utils.Database, game_id: str, seq: int, by: int) -> None:
    db.execute(
        "UPDATE events SET undone_by = ? WHERE game_id = ? AND seq = ?", [by, game_id, seq]
    )


def last_record(db: sqlite_utils.Database, game_id: str) -> tuple[str, dict, str] | None:
    """The game's log's last record: (action, payload, created_at), or None."""
    row = db.execute(
        "SELECT action, payload, created_at FROM events WHERE game_id = ? "
        "ORDER BY seq DESC LIMIT 1",
        [game_id],
    ).fetchone()
    return None if row is None else (row[0], json.loads(row[1]), row[2])


def keys_since(db: sqlite_utils.Database, game_id: str, seq: int) -> list[tuple[str | None, str]]:
    """The records after `seq`: (idempotency_key, created_at) each, in order."""
    return [(row[0], row[1]) for row in db.execute(
        "SELECT idempotency_key, created_at FROM events WHERE game_id = ? AND seq > ? "
        "ORDER BY seq", [game_id, seq]).fetchall()]


def first_recorded(db: sqlite_utils.Database, game_id: str, seq: int) -> dict | None:
    """The event record `seq` as it was first recorded, or None."""
    row = db.execute(
        "SELECT payload FROM events WHERE game_id = ? AND seq = ? AND action = 'event'",
        [game_id, seq],
    ).fetchone()
    return None if row is None else json.loads(row[0])


def standing_records(db: sqlite_utils.Database, game_id: str
                     ) -> Iterator[tuple[int, str, dict]]:
    """The game's event and correction records that are not undone, oldest
    first: (seq, action, payload). What they add up to is the engine's
    fold (engine/log.py)."""
    cursor = db.execute(
        "SELECT seq, action, payload FROM events WHERE game_id = ?"
        " AND action IN ('event', 'correction') AND undone_by IS NULL ORDER BY seq",
        [game_id],
    )
    for seq, action, payload in cursor:
        yield seq, action, json.loads(payload)


def log(db: sqlite_utils.Database, game_id: str) -> Iterator[dict]:
    """Every record of a game's log, undone ones included, oldest first."""
    cursor = db.execute(
        "SELECT seq, action, payload, idempotency_key, undone_by, created_at FROM events"
        " WHERE game_id = ? ORDER BY seq",
        [game_id],
    )
    for seq, action, payload, key, undone_by, created_at in cursor:
        yield {
            "seq": seq, "action": action, "payload": json.loads(payload),
            "idempotency_key": key, "undone_by": undone_by, "created_at": created_at,
        }


def running_game_id(db: sqlite_utils.Database, preferred: str | None = None) -> str | None:
    """`preferred` while it runs (unfinished, outside the bin), else the
    running game added last: insertion order, never a stored clock."""
    running = "finished = 0 AND deleted_at IS NULL"
    if preferred is not None:
        row = db.execute(f"SELECT id FROM games WHERE id = ? AND {running}", [preferred]).fetchone()
        if row is not None:
            return row[0]
    row = db.execute(f"SELECT id FROM games WHERE {running} ORDER BY rowid DESC LIMIT 1").fetchone()
    return None if row is None else row[0]
