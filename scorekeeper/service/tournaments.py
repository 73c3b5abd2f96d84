"""Knockout and Swiss nights (docs/PLAYERS.md, "Tournaments").

What is stored are facts: the entrants in seed order (made by rating or
drawn when the night was made, nights.py), each entrant's round of joining
and of withdrawing, the pairings each Swiss round was given, and each
table's match (its round, its slot, the entrants of its two sides). A
bracket and a Swiss standing are read from them and from the games'
results through the engine's rules (engine/tournament.py), never stored:
a corrected result moves them at once, and nothing can drift from the games.

Writes: a match's next game (one tap from the bracket or the round), a Swiss
round's tables opened together, a withdrawal and a late entrant. No Flask;
each write is one transaction.
"""

import json
from dataclasses import dataclass
from typing import Mapping

import sqlite_utils

from .. import engine
from ..engine import tournament
from ..engine.errors import N_, InvalidInput, RuleViolation
from ..storage import store
from ..storage.db import write_transaction
from . import games, nights, players


@dataclass(frozen=True, slots=True)
class TableLine:
    """A table of a match, as the bracket shows it (read from the game's
    summary columns: no replay)."""

    number: int
    game_id: str
    entrants: tuple[int, int]
    scores: tuple[int, ...]
    finished: bool
    deleted: bool


@dataclass(frozen=True, slots=True)
class MatchLine:
    match: tournament.Match
    tables: tuple[TableLine, ...]  # the match's tables between these two entrants
    playing: TableLine | None  # the one being played


@dataclass(frozen=True, slots=True)
class Bracket:
    """A knockout as the pages draw it."""

    rounds: list[list[MatchLine]]
    champion: int | None
    stale: list[TableLine]  # tables of a pairing a corrected result undid


@dataclass(frozen=True, slots=True)
class SwissLine:
    standing: tournament.EntrantStanding
    withdrawn: bool
    joined: int


@dataclass(frozen=True, slots=True)
class Swiss:
    """A Swiss evening as the pages show it."""

    standings: list[SwissLine]
    rounds: list[list[MatchLine]]  # every round given so far, the first first
    planned: int  # the rounds it plays
    next: tuple[int, list[tuple[int, int]], int | None] | None  # the next round, once proposed
    pending: list[MatchLine]  # the last round's matches not decided yet

    @property
    def started(self) -> int:
        return len(self.rounds)


# -- reading -----------------------------------------------------------------------------------

def _tables(db: sqlite_utils.Database, night_id: str) -> list[tuple[int, int, TableLine, int | None,
                                                                  int]]:
    """The night's match tables: (round, slot, line, winner's entrant, margin).
    A match's game has two sides: their summary rows give the scores and the
    margin, without reading the game's state (a Swiss evening of 128 has 448)."""
    found = []
    for number, game_id, round_, slot, entrants, finished, winner, deleted, *sides in (
            db.execute(
                "SELECT t.number, t.game_id, t.round, t.slot, t.entrants, g.finished, g.winner,"
                " g.deleted_at IS NOT NULL, a.score, b.score, a.margin, b.margin"
                " FROM night_tables t JOIN games g ON g.id = t.game_id"
                " JOIN game_sides a ON a.game_id = t.game_id AND a.side = 0"
                " JOIN game_sides b ON b.game_id = t.game_id AND b.side = 1"
                " WHERE t.night_id = ? AND t.slot IS NOT NULL ORDER BY t.number", [night_id])):
        first, second = entrants.strip("[]").split(",")  # stored as "[a, b]"
        pair = (int(first), int(second))
        line = TableLine(number, game_id, pair, (sides[0], sides[1]), bool(finished),
                         bool(deleted))
        won = pair[winner] if finished and winner is not None else None
        found.append((round_, slot, line, won, sides[2 + winner] if won is not None else 0))
    return found


def _played(tables) -> list[tournament.MatchGame]:
    """The games the engine reads: a game in the bin is no game of its match."""
    return [tournament.MatchGame(round_, slot, line.entrants, won, margin)
            for round_, slot, line, won, margin in tables if not line.deleted]


def _by_slot(tables) -> dict[tuple[int, int], list[TableLine]]:
    found: dict[tuple[int, int], list[TableLine]] = {}
    for round_, slot, line, _, _ in tables:
        if not line.deleted:
            found.setdefault((round_, slot), []).append(line)
    return found


def _line(match: tournament.Match, tables: dict[tuple[int, int], list[TableLine]]) -> MatchLine:
    """A match and its tables between its two entrants (`tables`: _by_slot's)."""
    pair = set(match.entrants)
    mine = tuple(line for line in tables.get((match.round, match.slot), ())
                 if set(line.entrants) == pair)
    playing = next((t for t in mine if not t.finished), None) if match.running else None
    return MatchLine(match, mine, playing)


def bracket(db: sqlite_utils.Database, night: nights.Night) -> Bracket:
    """A knockout night's bracket after its games as they stand."""
    tables = _tables(db, night.id)
    found = tournament.knockout(len(night.entrants), _played(tables), night.match_games)
    stale = set(found.stale)
    slots = _by_slot(tables)
    return Bracket([[_line(m, slots) for m in round_] for round_ in found.rounds],
                   found.champion,
                   [line for round_, slot, line, won, margin in tables
                    if tournament.MatchGame(round_, slot, line.entrants, won, margin) in stale
                    and not line.deleted])


def _pairings(db: sqlite_utils.Database, night_id: str) -> list[tournament.Pairing]:
    return [tournament.Pairing(round_, slot, (first, second)) for round_, slot, first, second
            in db.execute("SELECT round, slot, first, second FROM night_pairings"
                          " WHERE night_id = ? ORDER BY round, slot", [night_id])]


def _active(night: nights.Night, number: int) -> set[int]:
    """Who plays round `number`: joined by then, not withdrawn."""
    return {e for e in range(len(night.entrants)) if night.joined[e] <= number
            and (night.withdrawn[e] is None or night.withdrawn[e] > number)}


def swiss(db: sqlite_utils.Database, night: nights.Night) -> Swiss:
    """A Swiss night's standings, its rounds so far and the next one's pairing
    (None once every round is given)."""
    tables = _tables(db, night.id)
    pairings = _pairings(db, night.id)
    matches = tournament.swiss_matches(pairings, _played(tables), night.match_games)
    standings = tournament.swiss_standings(len(night.entrants), matches)
    started = max((p.round for p in pairings), default=0)
    slots = _by_slot(tables)
    rounds: list[list[MatchLine]] = [[] for _ in range(started)]
    for match in matches:
        rounds[match.round - 1].append(_line(match, slots))
    proposed = None
    if started < (night.rounds or 0):
        proposed = _next_swiss_round(night, started + 1, standings, pairings)
    pending = [m for m in (rounds[-1] if rounds else []) if m.match.winner is None]
    lines = [SwissLine(s, night.withdrawn[s.entrant] is not None, night.joined[s.entrant])
             for s in standings]
    return Swiss(lines, rounds, night.rounds or 0, proposed, pending)


def _next_swiss_round(night: nights.Night, number: int,
                      standings: list[tournament.EntrantStanding],
                      pairings: list[tournament.Pairing]
                      ) -> tuple[int, list[tuple[int, int]], int | None] | None:
    """Round `number`'s pairing and bye, for who plays it in the order of the
    standings, with no rematch while one can be avoided (engine's
    swiss_pairing); None when fewer than two play it."""
    active = _active(night, number)
    ranked = [s.entrant for s in standings if s.entrant in active]
    if len(ranked) < 2:
        return None
    met = {frozenset(p.entrants) for p in pairings if p.entrants[1] is not None}
    had_bye = {p.entrants[0] for p in pairings if p.entrants[1] is None}
    pairs, bye = tournament.swiss_pairing(ranked, met, had_bye, first_round=number == 1)
    return number, pairs, bye


def matches(db: sqlite_utils.Database, night: nights.Night) -> list[MatchLine]:
    """Every match of a tournament night, knockout or Swiss."""
    found = bracket(db, night).rounds if night.format == "knockout" else swiss(db, night).rounds
    return [line for round_ in found for line in round_]


def labels(night: nights.Night) -> list[str]:
    """Each entrant's name as the pages show it ("Karim & Salma" for a team)."""
    return [night.label(e) for e in range(len(night.entrants))]


# -- writing -----------------------------------------------------------------------------------

def _match(db, night: nights.Night, round_: int, slot: int) -> MatchLine:
    for line in matches(db, night):
        if (line.match.round, line.match.slot) == (round_, slot):
            return line
    raise RuleViolation(N_("There is no such match."))


def start_match(db: sqlite_utils.Database, night: nights.Night, round_: int, slot: int,
                key: str, now: str, presets: Mapping[str, engine.HouseRules]) -> games.Game:
    """The next game of a match whose two entrants are known and which is
    not decided, nor being played: a new table. A key already used gives
    the table it started."""
    with write_transaction(db):
        existing = store.game_id_for_creation_key(db, key)
        if existing is not None:
            return games.load(db, existing)
        line = _match(db, night, round_, slot)
        if line.playing is not None:
            raise RuleViolation(N_("This match is being played at table %(number)s."),
                                number=line.playing.number)
        if not line.match.ready:
            raise RuleViolation(N_("This match cannot start: its two entrants are not known "
                                   "yet, or it is decided."))
        first, second = line.match.entrants
        body = nights.table_body(night, night.entrants[first], night.entrants[second], presets,
                                 first_dealer=line.match.games % 2)
        return nights.start_table(db, night, body, key, now, presets, round_, slot,
                                  (first, second))


@dataclass(frozen=True, slots=True)
class MatchOf:
    """A game that is a table of a knockout's or a Swiss night's match."""

    night_id: str
    night_name: str
    format: str  # "knockout" or "swiss"
    round: int
    slot: int
    goes_on: bool  # once over: its rematch is the match's next game (a best of three goes on)


def match_of(db: sqlite_utils.Database, game_id: str, over: bool) -> MatchOf | None:
    """The match the game is a table of, if any; `over`: whether its rematch would go on."""
    row = db.execute(
        "SELECT t.night_id, n.name, n.format, t.round, t.slot, t.entrants FROM night_tables t"
        " JOIN nights n ON n.id = t.night_id WHERE t.game_id = ? AND t.slot IS NOT NULL"
        " AND n.format != 'round_robin'", [game_id]).fetchone()
    if row is None:
        return None
    night_id, name, format_, round_, slot, entrants = row
    goes_on = over and _goes_on(db, nights.get(db, night_id), round_, slot, entrants)
    return MatchOf(night_id, name, format_, round_, slot, goes_on)


def _goes_on(db: sqlite_utils.Database, night: nights.Night, round_: int, slot: int,
             entrants: str) -> bool:
    """Whether a finished table's rematch is its match's next game: the match
    is not decided, nothing of it is being played, and these are its entrants."""
    line = next((m for m in matches(db, night) if (m.match.round, m.match.slot) == (round_, slot)),
                None)
    return line is not None and line.match.ready and line.playing is None \
        and set(json.loads(entrants)) == set(line.match.entrants)


def add_rematch(db: sqlite_utils.Database, night: nights.Night, game_id: str, rematch_id: str,
                now: str) -> None:
    """A finished table's rematch becomes the night's next table: of the same
    match while that match is not decided (the best of three goes on), else
    a table of free choice; at a round robin's round, none (a friendly game:
    nights.rematch_counts). In the caller's transaction."""
    row = db.execute("SELECT round, slot, entrants FROM night_tables WHERE game_id = ?",
                     [game_id]).fetchone()
    night = nights.get(db, night.id)  # whole: a history's night has no entrants
    if not nights.rematch_counts(db, night, game_id):
        return
    if row is not None and row[1] is not None and night.tournament:
        round_, slot, entrants = row
        if _goes_on(db, night, round_, slot, entrants):
            nights.add_table(db, night.id, rematch_id, round_, now, slot,
                             tuple(json.loads(entrants)))
            return
    nights.add_table(db, night.id, rematch_id, None, now)


def rematch(db: sqlite_utils.Database, game_id: str, now: str) -> tuple[games.Game, bool]:
    """The game's rematch (games.rematch), in one transaction with its table
    when the game was a club night's: there the rematch is its next table,
    of the same match while a best of three goes on (add_rematch)."""
    with write_transaction(db):
        night = nights.night_of_games(db, [game_id]).get(game_id)
        game, created = games.rematch(db, game_id, now)
        if night is not None and created:
            add_rematch(db, night, game_id, game.id, now)
    return game, created


def start_swiss_round(db: sqlite_utils.Database, night: nights.Night, number: int, key: str,
                      now: str, presets: Mapping[str, engine.HouseRules],
                      force: bool = False) -> list[games.Game]:
    """Round `number` of a Swiss night: its pairing stored as given, and every
    match's first game at once; a key already used starts nothing twice.
    While tables of the round before are being played, only `force`d
    (nights.RoundNotDone names them)."""
    with write_transaction(db):
        given = _pairings(db, night.id)
        if any(p.round == number for p in given):
            return [games.load(db, game_id) for (game_id,) in db.execute(
                "SELECT game_id FROM night_tables WHERE night_id = ? AND round = ? AND"
                " slot IS NOT NULL ORDER BY number", [night.id, number])]
        found = swiss(db, night)
        if found.next is None or found.next[0] != number:
            raise RuleViolation(N_("This round cannot start: every round has started, or "
                                   "another one is next."))
        if found.pending and not force:
            raise nights.RoundNotDone([m.playing.number for m in found.pending if m.playing])
        _, pairs, bye = found.next
        rows = [(night.id, number, slot, a, b) for slot, (a, b) in enumerate(pairs, 1)]
        if bye is not None:
            rows.append((night.id, number, len(pairs) + 1, bye, None))
        db.conn.executemany("INSERT INTO night_pairings (night_id, round, slot, first, second)"
                            " VALUES (?, ?, ?, ?, ?)", rows)
        started = []
        for slot, (first, second) in enumerate(pairs, 1):
            body = nights.table_body(night, night.entrants[first], night.entrants[second],
                                     presets)
            started.append(nights.start_table(db, night, body, f"{key}:{slot}", now, presets,
                                              number, slot, (first, second)))
    return started


def _rounds_given(db, night_id: str) -> int:
    return db.execute("SELECT coalesce(max(round), 0) FROM night_pairings WHERE night_id = ?",
                      [night_id]).fetchone()[0]


def _swiss_only(night: nights.Night) -> None:
    if night.format != "swiss":
        raise RuleViolation(N_("Only a Swiss evening takes a late entrant or a withdrawal."))


def withdraw(db: sqlite_utils.Database, night: nights.Night, entrant: int,
             back: bool = False) -> None:
    """A Swiss entrant withdraws (plays no round from the next one on; the
    rounds it played stay), or, `back`, comes back from the next round on."""
    _swiss_only(night)
    if not 0 <= entrant < len(night.entrants):
        raise RuleViolation(N_("There is no such entrant."))
    with write_transaction(db):
        number = _rounds_given(db, night.id) + 1
        db.execute("UPDATE night_entrants SET withdrawn_round = ? WHERE night_id = ?"
                   " AND position = ?", [None if back else number, night.id, entrant])


def add_entrant(db: sqlite_utils.Database, night: nights.Night, names: list) -> int:
    """A late entrant of a Swiss evening: it plays from the next round on,
    with no win yet. Its number (the last seed)."""
    _swiss_only(night)
    if len(night.entrants) >= nights.MAX_TOURNAMENT:
        raise InvalidInput(N_("A knockout or a Swiss evening takes at most %(count)s players "
                              "or teams."), count=nights.MAX_TOURNAMENT)
    taken = {players.name_key(n) for entrant in night.entrants for n in entrant}
    (checked,) = nights.check_entrants([names], night.players, taken)
    with write_transaction(db):
        number = _rounds_given(db, night.id) + 1
        position = len(night.entrants)
        db.execute("INSERT INTO night_entrants (night_id, position, names, joined_round)"
                   " VALUES (?, ?, ?, ?)",
                   [night.id, position, json.dumps(checked, ensure_ascii=False), number])
    return position
