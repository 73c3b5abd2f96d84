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
# writes two documents, and its cost is measured against a bare INSERT's
# (docs/PERFORMANCE.md).
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
                     ) -> tuple[dict | None, str | None]:
    """The game's row (None: no such game) and the action of the record that
    `key` made on it already (None: unused), in one statement (a tap's
    first read)."""
    if key is None:
        return game_row(db, game_id), None
    cursor = db.execute(
        f"SELECT {', '.join(GAME_COLUMNS)}, (SELECT action FROM events WHERE"
        " events.game_id = games.id AND idempotency_key = ?) FROM games WHERE id = ?",
        [key, game_id],
    )
    row = cursor.fetchone()
    if row is None:
        return None, None
    return dict(zip(GAME_COLUMNS, row)), row[-1]


def key_used(db: sqlite_utils.Database, game_id: str, key: str) -> bool:
    cursor = db.execute(
        "SELECT 1 FROM events WHERE game_id = ? AND idempotency_key = ?", [game_id, key]
    )
    return cursor.fetchone() is not None


def append(
    db: sqlite_utils.Database, game_id: str, seq: int, action: str, payload: dict,
    key: str | None, now: str, device: str | None = None, seen: int | None = None,
    place: int | None = None,
) -> None:
    """A record of the game's log; `device`, `seen`: the phone that made it
    and the version its finger saw; `place`: the record it is folded
    before, when not at the end (a tap of a deal another phone closed)."""
    db.execute(
        "INSERT INTO events (game_id, seq, action, payload, idempotency_key, created_at,"
        " device, seen, place) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [game_id, seq, action, dumps(payload), key, now, device, seen, place],
    )


# The fold's order of a game's records: by seq, a placed record just before
# the one it is placed before (docs/BOARD.md, "Two phones"), those placed
# before one record in their order (a seq is far below 10⁹).
FOLD_ORDER = "COALESCE(place - 1 + seq * 1e-9, seq)"
# The fold's key of the game's record `seq`, or `seq` when there is none
# (three parameters: game, seq, seq).
_KEY_OF = (f"COALESCE((SELECT {FOLD_ORDER} FROM events AS other WHERE other.game_id = ?"
           " AND other.seq = ?), ?)")


def has_placed(db: sqlite_utils.Database, game_id: str) -> bool:
    """Whether the game's log holds a placed record (folded before older ones)."""
    return db.execute("SELECT 1 FROM events WHERE game_id = ? AND place IS NOT NULL LIMIT 1",
                      [game_id]).fetchone() is not None


def last_seen(db: sqlite_utils.Database, game_id: str, device: str | None) -> int | None:
    """The version the last record of `device` in the game was tapped on
    (None: it made none)."""
    row = db.execute(
        "SELECT COALESCE(seen, seq - 1) FROM events WHERE game_id = ? AND device = ?"
        " ORDER BY seq DESC LIMIT 1", [game_id, device]).fetchone()
    return None if row is None else row[0]


def others_after(db: sqlite_utils.Database, game_id: str, seq: int, device: str | None) -> bool:
    """Whether a record after `seq` was made by another device than `device`."""
    return db.execute(
        "SELECT EXISTS(SELECT 1 FROM events WHERE game_id = ? AND seq > ? AND device IS NOT ?)",
        [game_id, seq, device]).fetchone()[0] == 1


def merge_records(db: sqlite_utils.Database, game_id: str
                  ) -> list[tuple[int, str, dict, str | None, int | None]]:
    """Every record of the game's log in the fold's order: (seq, action,
    payload, device, undone_by), for the rule of two phones."""
    return [(row[0], row[1], json.loads(row[2]), row[3], row[4]) for row in db.execute(
        "SELECT seq, action, payload, device, undone_by FROM events WHERE game_id = ?"
        f" ORDER BY {FOLD_ORDER}", [game_id]).fetchall()]


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
    """The game's log's last record that changed it: (action, payload,
    created_at), or None. Not a `same` record (another phone's tap that was
    that record): the game's last tap is still the one it matched."""
    row = db.execute(
        "SELECT action, payload, created_at FROM events WHERE game_id = ? AND action != 'same'"
        " ORDER BY seq DESC LIMIT 1",
        [game_id],
    ).fetchone()
    return None if row is None else (row[0], json.loads(row[1]), row[2])


def records_since(db: sqlite_utils.Database, game_id: str, seq: int
                  ) -> list[tuple[int, str, dict, str | None, str]]:
    """The records after `seq`, undone or not, in order: (seq, action,
    payload, idempotency_key, created_at) each."""
    return [(row[0], row[1], json.loads(row[2]), row[3], row[4]) for row in db.execute(
        "SELECT seq, action, payload, idempotency_key, created_at FROM events"
        " WHERE game_id = ? AND seq > ? ORDER BY seq", [game_id, seq]).fetchall()]


def first_recorded(db: sqlite_utils.Database, game_id: str, seq: int) -> dict | None:
    """The event record `seq` as it was first recorded, or None."""
    row = db.execute(
        "SELECT payload FROM events WHERE game_id = ? AND seq = ? AND action = 'event'",
        [game_id, seq],
    ).fetchone()
    return None if row is None else json.loads(row[0])


def standing_records(db: sqlite_utils.Database, game_id: str, after: int = 0,
                     through: int | None = None, limit: int | None = None,
                     ) -> Iterator[tuple[int, str, dict]]:
    """The game's event and correction records that are not undone, oldest
    first: (seq, action, payload); those after seq `after` (and up to seq
    `through`, at most `limit` of them) when given. What they add up to is
    the engine's fold (engine/log.py)."""
    # After and through a record by the fold's order (a placed record is
    # folded before records older than it). A record's place in that order
    # is never after its seq, so those after a key have a seq above it: the
    # seq bounds what the primary key's index reads, where the fold's order
    # alone read every record of the game (a snapshot's fold, every 16 events).
    where, params = "game_id = ?", [game_id]
    if after:
        where, params = where + f" AND seq > {_KEY_OF} AND {FOLD_ORDER} > {_KEY_OF}", \
            params + [game_id, after, after] * 2
    if through is not None:
        where, params = where + f" AND {FOLD_ORDER} <= {_KEY_OF}", params + [game_id, through,
                                                                           through]
    cursor = db.execute(
        f"SELECT seq, action, payload FROM events WHERE {where}"
        f" AND action IN ('event', 'correction') AND undone_by IS NULL ORDER BY {FOLD_ORDER}"
        + ("" if limit is None else " LIMIT ?"),
        params + ([] if limit is None else [limit]),
    )
    for seq, action, payload in cursor:
        yield seq, action, json.loads(payload)


def corrections_after(db: sqlite_utils.Database, game_id: str, seq: int
                      ) -> Iterator[tuple[int, str, dict]]:
    """The game's correction records after `seq` that are not undone, oldest
    first: (seq, "correction", payload)."""
    cursor = db.execute(
        "SELECT seq, action, payload FROM events WHERE game_id = ? AND seq > ?"
        " AND action = 'correction' AND undone_by IS NULL ORDER BY seq", [game_id, seq])
    for seq_, action, payload in cursor:
        yield seq_, action, json.loads(payload)


def event_records(db: sqlite_utils.Database, game_id: str, offset: int, limit: int
                  ) -> list[dict]:
    """The game's event records (undone ones too) from the `offset`-th,
    `limit` of them, oldest first, each as `log` gives it."""
    cursor = db.execute(
        "SELECT seq, action, payload, idempotency_key, undone_by, created_at FROM events"
        " WHERE game_id = ? AND action = 'event' ORDER BY seq LIMIT ? OFFSET ?",
        [game_id, limit, offset])
    return [{"seq": seq, "action": action, "payload": json.loads(payload),
             "idempotency_key": key, "undone_by": undone_by, "created_at": created_at}
            for seq, action, payload, key, undone_by, created_at in cursor]


# SQLite's INTEGER is 64 bits, signed: a larger number cannot even be asked for.
SQLITE_INTEGERS = 2 ** 63


def event_record(db: sqlite_utils.Database, game_id: str, seq: int) -> dict | None:
    """The game's event record `seq` (undone or not), as `log` gives it, or None."""
    if not 0 <= seq < SQLITE_INTEGERS:  # an address's number past SQLite's is no record
        return None
    row = db.execute(
        "SELECT seq, action, payload, idempotency_key, undone_by, created_at FROM events"
        " WHERE game_id = ? AND seq = ? AND action = 'event'", [game_id, seq]).fetchone()
    if row is None:
        return None
    seq, action, payload, key, undone_by, created_at = row
    return {"seq": seq, "action": action, "payload": json.loads(payload),
            "idempotency_key": key, "undone_by": undone_by, "created_at": created_at}


def event_record_count(db: sqlite_utils.Database, game_id: str) -> int:
    return db.execute("SELECT count(*) FROM events WHERE game_id = ? AND action = 'event'",
                      [game_id]).fetchone()[0]


def record_times(db: sqlite_utils.Database, game_id: str) -> dict[int, str]:
    """When each record of the game's log was written, by seq."""
    return dict(db.execute("SELECT seq, created_at FROM events WHERE game_id = ?",
                           [game_id]).fetchall())


# -- snapshots: the state after every so many standing events (service/snapshots.py) ---------

def insert_snapshot(db: sqlite_utils.Database, game_id: str, events: int, seq: int,
                    state: dict, trail: list) -> None:
    db.execute("INSERT OR REPLACE INTO snapshots (game_id, events, seq, state, trail)"
               " VALUES (?, ?, ?, ?, ?)", [game_id, events, seq, dumps(state), dumps(trail)])


def drop_snapshots_from(db: sqlite_utils.Database, game_id: str, seq: int) -> None:
    """Every snapshot of the game whose events reach record `seq`, by the
    fold's order (0: all)."""
    if not seq:
        db.execute("DELETE FROM snapshots WHERE game_id = ?", [game_id])
        return
    # Bounded by seq as standing_records is: a place is never after its seq.
    db.execute(f"DELETE FROM snapshots WHERE game_id = ? AND seq IN (SELECT seq FROM events"
               f" WHERE game_id = ? AND seq >= {_KEY_OF} AND {FOLD_ORDER} >= {_KEY_OF})",
               [game_id, game_id, *[game_id, seq, seq] * 2])


def snapshot_at_most(db: sqlite_utils.Database, game_id: str, events: int | None = None,
                     before_seq: int | None = None) -> tuple[int, int, dict] | None:
    """The game's latest snapshot of at most `events` standing events (or
    of records before `before_seq`): (events, seq, state), or None."""
    where, params = "game_id = ?", [game_id]
    if events is not None:
        where, params = where + " AND events <= ?", params + [events]
    if before_seq is not None:
        where, params = where + " AND seq < ?", params + [before_seq]
    row = db.execute(f"SELECT events, seq, state FROM snapshots WHERE {where}"
                     " ORDER BY events DESC LIMIT 1", params).fetchone()
    return None if row is None else (row[0], row[1], json.loads(row[2]))


def snapshot_trails(db: sqlite_utils.Database, game_id: str) -> list[tuple[int, int, list]]:
    """Every snapshot of the game, oldest first: (events, seq, trail)."""
    return [(row[0], row[1], json.loads(row[2])) for row in db.execute(
        "SELECT events, seq, trail FROM snapshots WHERE game_id = ? ORDER BY events",
        [game_id]).fetchall()]


def log(db: sqlite_utils.Database, game_id: str) -> Iterator[dict]:
    """Every record of a game's log, undone ones included, oldest first;
    a placed record with its `place` (docs/BOARD.md, "Two phones")."""
    cursor = db.execute(
        "SELECT seq, action, payload, idempotency_key, undone_by, created_at, place FROM events"
        " WHERE game_id = ? ORDER BY seq",
        [game_id],
    )
    for row in cursor:
        yield record_of(*row)


def record_of(seq: int, action: str, payload: str, key: str | None, undone_by: int | None,
              created_at: str, place: int | None) -> dict:
    """A log's record as `log` gives it."""
    record = {"seq": seq, "action": action, "payload": json.loads(payload),
              "idempotency_key": key, "undone_by": undone_by, "created_at": created_at}
    if place is not None:
        record["place"] = place
    return record


def running_game_ids(db: sqlite_utils.Database, limit: int) -> list[str]:
    """The running games (unfinished, outside the bin), added last first:
    insertion order, never a stored clock."""
    return [row[0] for row in db.execute(
        "SELECT id FROM games WHERE finished = 0 AND deleted_at IS NULL "
        "ORDER BY rowid DESC LIMIT ?", [limit])]


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
