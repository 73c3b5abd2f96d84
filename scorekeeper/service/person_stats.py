"""Statistics per person and per pair, fast for a club of thousands of
games: SQL aggregates over the seats (players.py) and the per-side summaries
(summaries.py), with indexes; no game is replayed.

A side's figures are its player's, and both partners' with four players: a
team wins, scores its margin and its gains together. Only games that are
over and not in the bin count (game_sides.counted).
"""

from dataclasses import dataclass, field

import sqlite_utils

from ..engine.tally import COUNTS
from .history import GameLine, line_from_row, list_columns
from .players import COLUMNS, Player
from .unnamed import NOBODY

ROSTER_PAGE = 50
# A person's counted sides: their seat, and their side's summary row.
SIDES = ("FROM seats st JOIN game_sides gs ON gs.game_id = st.game_id AND gs.side = st.side"
         " WHERE st.person = ? AND +gs.counted = 1")


@dataclass(frozen=True, slots=True)
class PersonResults:
    """A person's (or a partner's, an opponent's) games and wins."""

    person: int
    name: str
    played: int
    won: int
    margin: float = 0.0

    @property
    def lost(self) -> int:
        return self.played - self.won

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


@dataclass(frozen=True, slots=True)
class Roster:
    people: list[tuple[Player, PersonResults]]
    number: int
    count: int
    per_page: int = ROSTER_PAGE
    # Each person's games still being played (out of the bin): they count
    # once over, and until then a newcomer shows "in play", not "never played".
    in_play: dict[int, int] = field(default_factory=dict)

    @property
    def pages(self) -> int:
        return max(1, -(-self.count // self.per_page))


@dataclass(frozen=True, slots=True)
class Person:
    player: Player
    results: PersonResults
    counts: dict[str, int]
    partners: list[PersonResults]  # with whom they won most first
    opponents: list[PersonResults]  # against whom they lost most first

    def per_game(self, kind: str) -> float:
        return self.counts[kind] / self.results.played if self.results.played else 0.0


@dataclass(frozen=True, slots=True)
class Pair:
    names: tuple[str, str]
    together: PersonResults  # as partners: their side's games and wins
    against: int  # games on opposite sides
    wins: tuple[int, int]  # of those, won by the first, by the second
    recent: list[GameLine]


def _names(db) -> dict[int, str]:
    return dict(db.execute("SELECT id, name FROM players WHERE merged_into IS NULL"))


def roster(db: sqlite_utils.Database, number: int = 1) -> Roster:
    """Page `number` of the people (merged entries are their person's), most
    games first. The games and wins are the ratings' (ratings.py keeps them
    at write time): every finished game outside the bin is rated. A side
    nobody named is no one (unnamed.py)."""
    named = f"p.merged_into IS NULL AND p.id NOT IN {NOBODY}"
    count = db.execute(f"SELECT count(*) FROM players p WHERE {named}").fetchone()[0]
    cursor = db.execute(
        f"SELECT {', '.join('p.' + c.strip() for c in COLUMNS.split(','))},"
        " coalesce(r.games, 0), coalesce(r.wins, 0) FROM players p"
        f" LEFT JOIN person_ratings r ON r.person = p.id WHERE {named}"
        " ORDER BY coalesce(r.games, 0) DESC, coalesce(r.wins, 0) DESC, p.name_key"
        " LIMIT ? OFFSET ?", [ROSTER_PAGE, (number - 1) * ROSTER_PAGE])
    people = [(Player(*row[:6]), PersonResults(row[0], row[1], row[6], row[7])) for row in cursor]
    return Roster(people, number, count, in_play=_in_play(db, [p.id for p, _ in people]))


def _in_play(db: sqlite_utils.Database, persons: list[int]) -> dict[int, int]:
    """How many games still being played each of these people sits in."""
    if not persons:
        return {}
    marks = ", ".join("?" for _ in persons)
    return dict(db.execute(
        "SELECT st.person, count(DISTINCT st.game_id) FROM seats st"
        " JOIN games g ON g.id = st.game_id WHERE g.finished = 0 AND g.deleted_at IS NULL"
        f" AND st.person IN ({marks}) GROUP BY st.person", persons))


def person(db: sqlite_utils.Database, player: Player) -> Person:
    """A person's results, gains by kind, partners and opponents."""
    sums = ", ".join(f"coalesce(sum(gs.{kind}), 0)" for kind in COUNTS)
    row = db.execute(f"SELECT count(*), coalesce(sum(gs.won), 0), coalesce(avg(gs.margin), 0),"
                     f" {sums} {SIDES}", [player.person]).fetchone()
    results = PersonResults(player.person, player.name, row[0], row[1], row[2])
    names = _names(db)
    partners = [PersonResults(p, names.get(p, "?"), n, w, m) for p, n, w, m in db.execute(
        "SELECT o.person, count(*), sum(gs.won), avg(gs.margin) FROM seats st"
        " JOIN seats o ON o.game_id = st.game_id AND o.side = st.side AND o.person != st.person"
        " JOIN game_sides gs ON gs.game_id = st.game_id AND gs.side = st.side"
        f" WHERE st.person = ? AND +gs.counted = 1 AND o.person NOT IN {NOBODY}"
        " GROUP BY o.person ORDER BY sum(gs.won) DESC, count(*) DESC, o.person LIMIT 10",
        [player.person])]
    opponents = [PersonResults(p, names.get(p, "?"), n, w) for p, n, w in db.execute(
        "SELECT o.person, count(*), sum(gs.won) FROM seats st"
        " JOIN seats o ON o.game_id = st.game_id AND o.side != st.side"
        " JOIN game_sides gs ON gs.game_id = st.game_id AND gs.side = st.side"
        f" WHERE st.person = ? AND +gs.counted = 1 AND o.person NOT IN {NOBODY}"
        " GROUP BY o.person ORDER BY count(*) - sum(gs.won) DESC, count(*) DESC, o.person LIMIT 10",
        [player.person])]
    return Person(player, results, dict(zip(COUNTS, row[3:])), partners, opponents)


def pair(db: sqlite_utils.Database, first: Player, second: Player, recent: int = 5) -> Pair:
    """Two people: as partners, and against each other."""
    a, b = first.person, second.person
    joined = ("FROM seats x JOIN seats y ON y.game_id = x.game_id AND y.person = ?"
              " JOIN game_sides gs ON gs.game_id = x.game_id AND gs.side = x.side"
              " JOIN game_sides hs ON hs.game_id = y.game_id AND hs.side = y.side"
              " WHERE x.person = ? AND +gs.counted = 1")
    together = db.execute(f"SELECT count(*), coalesce(sum(gs.won), 0), coalesce(avg(gs.margin),"
                          f" 0) {joined} AND x.side = y.side", [b, a]).fetchone()
    against = db.execute(f"SELECT count(*), coalesce(sum(gs.won), 0), coalesce(sum(hs.won), 0)"
                         f" {joined} AND x.side != y.side", [b, a]).fetchone()
    cursor = db.execute(
        f"SELECT {list_columns('g')} FROM games g WHERE g.id IN (SELECT x.game_id {joined})"
        " ORDER BY g.created_at DESC, g.id LIMIT ?", [b, a, recent])
    return Pair((first.name, second.name), PersonResults(a, first.name, *together), against[0],
                (against[1], against[2]), [line_from_row(r) for r in cursor])
