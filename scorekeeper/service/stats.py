"""Statistics per name across games: SQL aggregates over the per-side
summary rows (summaries.py), with indexes; no game is replayed.

Only games that are over and not in the bin count: a game in progress has
no winner and no final margin yet.
"""

from dataclasses import dataclass
from typing import Any

import sqlite_utils

from .history import GameLine, line_from_row, list_columns
from ..engine.names import name_key
from .unnamed import DEFAULT_KEY
from ..engine.tally import COUNTS

PER_PAGE = 25
# A side counts once its game is over, while the game is not in the bin
# (game_sides.counted, kept by summaries.py).
COUNTED = "FROM game_sides s WHERE s.counted = 1"


@dataclass(frozen=True, slots=True)
class Results:
    """A name's games: played, won, and the average final margin."""

    name: str
    played: int
    won: int
    margin: float

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """A page of the names, most games played first."""

    rows: list[Results]
    number: int
    count: int  # names in all
    per_page: int = PER_PAGE

    @property
    def pages(self) -> int:
        return max(1, -(-self.count // self.per_page))


@dataclass(frozen=True, slots=True)
class NameStats:
    """A name's results and gains over its finished games."""

    results: Results
    counts: dict[str, int]  # each kind of gain: how often it came, over all games

    def per_game(self, kind: str) -> float:
        return self.counts[kind] / self.results.played if self.results.played else 0.0


@dataclass(frozen=True, slots=True)
class HeadToHead:
    names: tuple[str, str]
    played: int
    wins: tuple[int, int]
    margin: float  # the first name's average lead over the second
    recent: list[GameLine]

    @property
    def others(self) -> int:
        """Games between the two won by a third side."""
        return self.played - sum(self.wins)


def _results(row: tuple[Any, ...]) -> Results:
    name, played, won, margin = row
    return Results(name, played, won or 0, margin or 0.0)


def leaderboard(db: sqlite_utils.Database, number: int = 1) -> Leaderboard:
    """Page `number` of the names, most games played first; not the sides'
    default names, which are nobody's (unnamed.py)."""
    named = f"{COUNTED} AND s.name_key NOT {DEFAULT_KEY}"
    count = db.execute(f"SELECT count(DISTINCT s.name_key) {named}").fetchone()[0]
    cursor = db.execute(
        f"SELECT min(s.name), count(*), sum(s.won), avg(s.margin) {named}"
        " GROUP BY s.name_key ORDER BY count(*) DESC, sum(s.won) DESC, s.name_key"
        " LIMIT ? OFFSET ?",
        [PER_PAGE, (number - 1) * PER_PAGE],
    )
    return Leaderboard([_results(row) for row in cursor], number, count)


def name_stats(db: sqlite_utils.Database, name: str) -> NameStats | None:
    """A name's results and gains over its finished games; None if it has none."""
    sums = ", ".join(f"sum(s.{kind})" for kind in COUNTS)
    row = db.execute(
        f"SELECT min(s.name), count(*), sum(s.won), avg(s.margin), {sums} {COUNTED}"
        " AND s.name_key = ?",
        [name_key(name)],
    ).fetchone()
    if not row[1]:
        return None
    return NameStats(_results(row[:4]), dict(zip(COUNTS, row[4:])))


def head_to_head(db: sqlite_utils.Database, first: str, second: str,
                 recent: int = 5) -> HeadToHead | None:
    """The finished games where both names were sides; None if none."""
    keys = [name_key(second), name_key(first)]
    joined = ("FROM game_sides a JOIN game_sides b ON b.game_id = a.game_id AND b.name_key = ?"
              " JOIN games g ON g.id = a.game_id WHERE a.name_key = ? AND a.counted = 1")
    row = db.execute(
        f"SELECT min(a.name), min(b.name), count(*), sum(a.won), sum(b.won),"
        f" avg(a.score - b.score) {joined}", keys,
    ).fetchone()
    if not row[2]:
        return None
    cursor = db.execute(
        f"SELECT {list_columns('g')} {joined} ORDER BY g.created_at DESC, g.id LIMIT ?", keys + [recent]
    )
    return HeadToHead((row[0], row[1]), row[2], (row[3], row[4]), row[5],
                      [line_from_row(r) for r in cursor])
