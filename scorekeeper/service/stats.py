"""Statistics across games: SQL aggregates over the per-side summary rows
(summaries.py) and the seats (players.py), with indexes; no game is replayed.

Counted by person, as every page counts a person's games: a team game is
each partner's, whatever its side was called ("Ali & Omar" is Ali's game and
Omar's), so a player's games here are their games on /players and on their
page. A name typed that is nobody's (a side "Nous", a team's own name) is
counted as the sides that bore it.

Only games that are over and not in the bin count: a game in progress has
no winner and no final margin yet.
"""

from dataclasses import dataclass
from typing import Any

import sqlite_utils

from ..engine.names import name_key
from ..engine.tally import COUNTS
from . import players
from .history import GameLine, line_from_row, list_columns
from .unnamed import NOBODY, is_default

PER_PAGE = 25
# A side counts once its game is over, while the game is not in the bin
# (game_sides.counted, kept by summaries.py).
COUNTED = "FROM game_sides s WHERE s.counted = 1"


@dataclass(frozen=True, slots=True)
class Results:
    """A person's (or a name's) games: played, won, and the average final margin."""

    name: str
    played: int
    won: int
    margin: float
    person: int | None = None  # None: the sides of a name that is nobody's

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


@dataclass(frozen=True, slots=True)
class Leaderboard:
    rows: list[Results]
    number: int
    count: int  # names in all
    per_page: int = PER_PAGE

    @property
    def pages(self) -> int:
        return max(1, -(-self.count // self.per_page))


@dataclass(frozen=True, slots=True)
class NameStats:
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


def _results(row: tuple[Any, ...], person: int | None = None) -> Results:
    name, played, won, margin = row
    return Results(name, played, won or 0, margin or 0.0, person)


def person_of(db: sqlite_utils.Database, name: str) -> players.Player | None:
    """The person a typed name is (a merged entry's person), if anybody's."""
    found = players.by_name(db, name)
    if found is None or is_default(found.name):
        return None
    return found if not found.merged else players.get(db, found.person)


NAMED = f"p.merged_into IS NULL AND p.id NOT IN {NOBODY} AND r.games > 0"


def leaderboard(db: sqlite_utils.Database, number: int = 1) -> Leaderboard:
    """Page `number` of the people, most games played first: each one's
    finished games outside the bin, team games included. Games and wins are
    the ratings' (ratings.py keeps them at write time), as on the roster."""
    count = db.execute("SELECT count(*) FROM person_ratings r JOIN players p ON p.id = r.person"
                       f" WHERE {NAMED}").fetchone()[0]
    rows = db.execute(
        "SELECT p.id, p.name, r.games, r.wins FROM person_ratings r"
        f" JOIN players p ON p.id = r.person WHERE {NAMED}"
        " ORDER BY r.games DESC, r.wins DESC, p.name_key LIMIT ? OFFSET ?",
        [PER_PAGE, (number - 1) * PER_PAGE]).fetchall()
    margins: dict[int, float] = {}
    if rows:
        marks = ", ".join("?" for _ in rows)
        margins = dict(db.execute(
            "SELECT st.person, avg(gs.margin) FROM seats st JOIN game_sides gs"
            " ON gs.game_id = st.game_id AND gs.side = st.side"
            f" WHERE st.person IN ({marks}) AND +gs.counted = 1 GROUP BY st.person",
            [row[0] for row in rows]))
    return Leaderboard([Results(name, games, wins, margins.get(person, 0.0), person)
                  for person, name, games, wins in rows], number, count)


def name_stats(db: sqlite_utils.Database, name: str) -> NameStats | None:
    """A person's record and gains over their finished games (a name that is
    nobody's: its sides'); None if none."""
    person = person_of(db, name)
    if person is not None:
        sums = ", ".join(f"sum(gs.{kind})" for kind in COUNTS)
        row = db.execute(
            f"SELECT ?, count(*), sum(gs.won), avg(gs.margin), {sums} FROM seats st"
            " JOIN game_sides gs ON gs.game_id = st.game_id AND gs.side = st.side"
            " WHERE st.person = ? AND +gs.counted = 1", [person.name, person.id]).fetchone()
        if not row[1]:
            return None
        return NameStats(_results(row[:4], person.id), dict(zip(COUNTS, row[4:])))
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
    """The finished games where the two met, on opposite sides: two people
    (team games included), else two names as their sides bore them; None if none."""
    people = person_of(db, first), person_of(db, second)
    if None not in people and people[0].id != people[1].id:
        found = _people_head_to_head(db, people[0], people[1], recent)
        if found is not None:
            return found
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


def _people_head_to_head(db: sqlite_utils.Database, first: players.Player,
                         second: players.Player, recent: int) -> HeadToHead | None:
    joined = ("FROM seats x JOIN seats y ON y.game_id = x.game_id AND y.person = ?"
              " AND y.side != x.side"
              " JOIN game_sides a ON a.game_id = x.game_id AND a.side = x.side"
              " JOIN game_sides b ON b.game_id = y.game_id AND b.side = y.side"
              " JOIN games g ON g.id = x.game_id WHERE x.person = ? AND +a.counted = 1")
    keys = [second.id, first.id]
    row = db.execute(f"SELECT count(*), sum(a.won), sum(b.won), avg(a.score - b.score) {joined}",
                     keys).fetchone()
    if not row[0]:
        return None
    cursor = db.execute(f"SELECT {list_columns('g')} {joined} ORDER BY g.created_at DESC, g.id"
                        " LIMIT ?", keys + [recent])
    return HeadToHead((first.name, second.name), row[0], (row[1], row[2]), row[3],
                      [line_from_row(r) for r in cursor])
