"""The list of past games and the bin: plain SQL over the per-game summaries
(summaries.py), a page at a time, never a replay."""

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlite_utils

from ..engine.names import name_key
from ..storage.db import write_transaction
from . import players, ratings, summaries

PER_PAGE = 20


def list_columns(table: str = "") -> str:
    """The columns a GameLine is read from, of `table` (an alias) if given."""
    t = f"{table}." if table else ""
    return (f"{t}id, {t}created_at, {t}sides, json_extract({t}state, '$.scores'), {t}finished,"
            f" {t}winner, {t}hands, {t}event_count, {t}last_event_at, {t}deleted_at, {t}players")


@dataclass(frozen=True, slots=True)
class GameLine:
    """One game of the list."""

    id: str
    created_at: str
    sides: tuple[str, ...]
    scores: tuple[int, ...]
    finished: bool
    winner: int | None
    hands: int
    events: int
    last_event_at: str | None
    deleted_at: str | None
    players: int = 2  # four: the sides are teams

    @property
    def minutes(self) -> int:
        """How long it was played: from its start to its last standing event."""
        if self.last_event_at is None:
            return 0
        start = datetime.fromisoformat(self.created_at)
        return max(0, int((datetime.fromisoformat(self.last_event_at) - start).total_seconds()
                          // 60))


@dataclass(frozen=True, slots=True)
class Page:
    lines: list[GameLine]
    number: int
    count: int  # games in the whole list
    per_page: int = PER_PAGE

    @property
    def pages(self) -> int:
        return max(1, -(-self.count // self.per_page))


class NoSuchPage(Exception):
    """A page number past the end of the list."""

    def __init__(self, pages: int):
        super().__init__(pages)
        self.pages = pages


def line_from_row(row: tuple[Any, ...]) -> GameLine:
    (game_id, created_at, sides, scores, finished, winner, hands, events, last_event_at,
     deleted_at, players) = row
    return GameLine(game_id, created_at, tuple(json.loads(sides)), tuple(json.loads(scores)),
                    bool(finished), winner, hands, events, last_event_at, deleted_at, players)


def games_page(db: sqlite_utils.Database, number: int = 1, name: str | None = None,
               binned: bool = False, person: int | None = None) -> Page:
    """Page `number` (from 1) of the games, newest first: those in the bin
    when `binned` (latest thrown first), else the others; `name` given, only
    the games of the people it is (any of their names: now, before a rename,
    a nickname; team games too, players.known_as) and those where a side
    bears it (case ignored). Raises NoSuchPage."""
    where = ["deleted_at IS NOT NULL" if binned else "deleted_at IS NULL"]
    params: list[Any] = []
    if name:
        people = sorted(players.known_as(db, name))
        marks = ", ".join("?" for _ in people)
        where.append("(id IN (SELECT game_id FROM game_sides WHERE name_key = ?)"
                     + (f" OR id IN (SELECT game_id FROM seats WHERE person IN ({marks})))"
                        if people else ")"))
        params += [name_key(name), *people]
    if person is not None:  # a player's games (players.py), whatever their sides' names
        where.append("id IN (SELECT game_id FROM seats WHERE person = ?)")
        params.append(person)
    condition = " AND ".join(where)
    count = db.execute(f"SELECT count(*) FROM games WHERE {condition}", params).fetchone()[0]
    page = Page([], number, count)
    if number > page.pages:
        raise NoSuchPage(page.pages)
    order = "deleted_at DESC, id" if binned else "created_at DESC, id"
    cursor = db.execute(
        f"SELECT {list_columns()} FROM games WHERE {condition}"
        f" ORDER BY {order} LIMIT ? OFFSET ?",
        params + [PER_PAGE, (number - 1) * PER_PAGE],
    )
    return Page([line_from_row(row) for row in cursor], number, count)


def game_line(db: sqlite_utils.Database, game_id: str) -> GameLine | None:
    row = db.execute(
        f"SELECT {list_columns()} FROM games WHERE id = ?", [game_id]
    ).fetchone()
    return None if row is None else line_from_row(row)


def known_names(db: sqlite_utils.Database, limit: int = 200) -> list[str]:
    """The names sides have borne, most played first (for suggestions)."""
    cursor = db.execute(
        "SELECT min(name) FROM game_sides GROUP BY name_key ORDER BY count(*) DESC, name_key"
        " LIMIT ?",
        [limit],
    )
    return [row[0] for row in cursor]


def throw_away(db: sqlite_utils.Database, game_id: str, now: str) -> bool:
    """Put a game in the bin; False if it was not listed."""
    with write_transaction(db):
        cursor = db.execute(
            "UPDATE games SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL", [now, game_id]
        )
        summaries.recount(db, game_id)
        ratings.game_changed(db, game_id)
    return cursor.rowcount == 1


def restore(db: sqlite_utils.Database, game_id: str) -> bool:
    """Take a game out of the bin; False if it was not in it."""
    with write_transaction(db):
        cursor = db.execute(
            "UPDATE games SET deleted_at = NULL WHERE id = ? AND deleted_at IS NOT NULL",
            [game_id],
        )
        summaries.recount(db, game_id)
        ratings.game_changed(db, game_id)
    return cursor.rowcount == 1


def empty_bin(db: sqlite_utils.Database) -> int:
    """Delete the games in the bin for good, logs and all; how many."""
    with write_transaction(db):
        binned = "SELECT id FROM games WHERE deleted_at IS NOT NULL"
        db.execute(f"DELETE FROM events WHERE game_id IN ({binned})")
        db.execute(f"DELETE FROM snapshots WHERE game_id IN ({binned})")
        db.execute(f"DELETE FROM game_sides WHERE game_id IN ({binned})")
        db.execute(f"DELETE FROM seats WHERE game_id IN ({binned})")
        ratings.forget(db, binned)
        db.execute(f"DELETE FROM night_tables WHERE game_id IN ({binned})")
        cursor = db.execute("DELETE FROM games WHERE deleted_at IS NOT NULL")
    return cursor.rowcount
