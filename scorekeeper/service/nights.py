"""Club nights: an evening of games on several tables.

A night has a name, a date, the rules preset its tables start with, and
whether its games are two players or teams of two. Tables are added as
games start: one at a time (the new-game page), or a whole round of the
round robin of its entrants (up to 8 players or teams). Its standings are
read from the per-side summaries of its finished games (wins, then
margin), never a replay, and no tap writes anything here. A night may
instead be a knockout or a Swiss evening of up to 128 entrants, seeded by
rating or drawn when it is made (tournaments.py plays them).

No Flask; callers hold the write transaction where they write.
"""

import datetime
import json
import random
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

import sqlite_utils

from .. import engine
from ..engine import tournament
from ..engine.errors import N_, InvalidInput, RuleViolation
from ..engine.limits import NAME_LENGTH
from ..engine.names import visible_name
from ..storage.db import write_transaction
from . import games, ids, players, ratings
from .side_names import PARTNERS_JOINER

MAX_ENTRANTS = 8  # a round robin's
MAX_TOURNAMENT = 128  # a knockout's or a Swiss evening's
FORMATS = ("round_robin", "knockout", "swiss")
SEEDINGS = ("rating", "draw")
SCREEN_KEY_LENGTH = 20  # about 99 bits: read-only, and out of reach of guessing
NIGHT_ID = re.compile(r"[a-z0-9]{8,40}")


@dataclass(frozen=True, slots=True)
class Night:
    id: str
    name: str
    date: str
    preset: str
    players: int
    created_at: str
    screen_key: str | None
    format: str = "round_robin"
    match_games: int = 1  # a knockout's or a Swiss match: one game, or the best of three
    seeding: str | None = None  # "rating" or "draw": how the entrants' order was made
    rounds: int | None = None  # a Swiss evening's
    entrants: list[list[str]] = field(default_factory=list)  # in seed order
    joined: list[int] = field(default_factory=list)  # each entrant's first round
    withdrawn: list[int | None] = field(default_factory=list)  # the round it no longer plays

    @property
    def teams(self) -> bool:
        return self.players == 4

    @property
    def tournament(self) -> bool:
        """A knockout or a Swiss evening (not a round robin, nor free choice)."""
        return self.format != "round_robin"

    def label(self, entrant: int) -> str:
        return _label(self.entrants[entrant])


@dataclass(frozen=True, slots=True)
class Table:
    number: int
    round: int | None
    game: games.Game
    deleted: bool
    slot: int | None = None  # a tournament's match: its place in the round
    entrants: tuple[int, int] | None = None  # and the entrants of its two sides


@dataclass(frozen=True, slots=True)
class Standing:
    place: int
    label: str
    played: int
    won: int
    margin: int


@dataclass(frozen=True, slots=True)
class Tie:
    """Places the wins alone did not decide: by margin, or shared."""

    kind: str  # "margin": the margin decided; "shared": wins and margin equal
    labels: list[str]
    wins: int
    margins: list[int]
    place: int


# -- reading ---------------------------------------------------------------------------------

def _night(row, entrants=(), joined=(), withdrawn=()) -> Night:
    return Night(*row, entrants=list(entrants), joined=list(joined), withdrawn=list(withdrawn))


NIGHT_COLUMNS = ("id, name, date, preset, players, created_at, screen_key, format, match_games,"
                 " seeding, rounds")


def get(db: sqlite_utils.Database, night_id: str) -> Night | None:
    if not isinstance(night_id, str) or not NIGHT_ID.fullmatch(night_id):
        return None
    row = db.execute(f"SELECT {NIGHT_COLUMNS} FROM nights WHERE id = ?", [night_id]).fetchone()
    if row is None:
        return None
    found = db.execute("SELECT names, joined_round, withdrawn_round FROM night_entrants"
                       " WHERE night_id = ? ORDER BY position", [night_id]).fetchall()
    return _night(row, [json.loads(names) for names, _, _ in found], [j for _, j, _ in found],
                  [w for _, _, w in found])


def every_night(db: sqlite_utils.Database, limit: int = 100) -> list[tuple[Night, int]]:
    """The nights, latest first, with their number of tables."""
    cursor = db.execute(
        f"SELECT {NIGHT_COLUMNS}, (SELECT count(*) FROM night_tables t WHERE t.night_id = n.id)"
        " FROM nights n ORDER BY date DESC, created_at DESC LIMIT ?", [limit])
    return [(_night(row[:-1], []), row[-1]) for row in cursor]


def tables(db: sqlite_utils.Database, night_id: str, playing: bool = False) -> list[Table]:
    """The night's tables by number; `playing`: only those being played (a
    tournament's others are in its bracket or its rounds)."""
    found = []
    only = " AND g.finished = 0 AND g.deleted_at IS NULL" if playing else ""
    for number, round_, game_id, deleted, slot, entrants in db.execute(
            "SELECT t.number, t.round, t.game_id, g.deleted_at IS NOT NULL, t.slot, t.entrants"
            f" FROM night_tables t JOIN games g ON g.id = t.game_id WHERE t.night_id = ?{only}"
            " ORDER BY t.number", [night_id]):
        found.append(Table(number, round_, games.load(db, game_id), bool(deleted), slot,
                           tuple(json.loads(entrants)) if entrants else None))
    return found


def night_of_games(db: sqlite_utils.Database, game_ids: list[str]) -> dict[str, Night]:
    """The night each of these games was a table of (for the history's lines)."""
    if not game_ids:
        return {}
    marks = ", ".join("?" for _ in game_ids)
    cursor = db.execute(
        f"SELECT t.game_id, {', '.join('n.' + c.strip() for c in NIGHT_COLUMNS.split(','))}"
        f" FROM night_tables t JOIN nights n ON n.id = t.night_id WHERE t.game_id IN ({marks})",
        game_ids)
    return {row[0]: _night(row[1:], []) for row in cursor}


def rematch_counts(db: sqlite_utils.Database, night: Night, game_id: str) -> bool:
    """Whether the rematch of a finished table of `night` (read whole, with
    its entrants) is a table of the night too: not at a round robin's round,
    where each pair meets once; its rematch there is a friendly game, out of
    the standings (counted, it handed a night to the pair that played twice)."""
    if night.tournament or not night.entrants:
        return True
    row = db.execute("SELECT round FROM night_tables WHERE game_id = ?", [game_id]).fetchone()
    return row is None or row[0] is None


def _label(names: list[str]) -> str:
    return PARTNERS_JOINER.join(names)


def standings(db: sqlite_utils.Database, night: Night) -> tuple[list[Standing], list[Tie]]:
    """Who is ahead: wins, then the sum of the margins; a side is its people
    (a team's two partners), whatever its label; the entrants that have not
    played yet are listed too. Returns the places and the ties explained."""
    totals = _played(db, night)
    names = {}
    for entrant in night.entrants:  # an entrant is known by its people, labelled by its names
        found = [players.by_name(db, n) for n in entrant]
        key = tuple(sorted(p.person for p in found)) if all(found) else (
            ("not yet seated",) + tuple(players.name_key(n) for n in entrant))
        names[key] = _label(entrant)
        totals.setdefault(key, [names[key], 0, 0, 0])
    ordered = sorted(((names.get(k, v[0]), *v[1:]) for k, v in totals.items()),
                     key=lambda r: (-r[2], -r[3], r[0].casefold()))
    places = []
    for index, (label, played, won, margin) in enumerate(ordered):
        same = places and places[-1].won == won and places[-1].margin == margin
        places.append(Standing(places[-1].place if same else index + 1, label, played, won,
                               margin))
    return places, _ties(places)


def _played(db: sqlite_utils.Database, night: Night) -> dict[tuple[int, ...], list]:
    """What each side of the night's counted games did, by its people: [its
    first label, games played, won, margin]."""
    rows = db.execute(
        "SELECT gs.game_id, gs.side, gs.won, gs.margin, gs.name,"
        " group_concat(st.person, ',') FROM night_tables t"
        " JOIN game_sides gs ON gs.game_id = t.game_id"
        " JOIN seats st ON st.game_id = gs.game_id AND st.side = gs.side"
        " WHERE t.night_id = ? AND +gs.counted = 1 GROUP BY gs.game_id, gs.side", [night.id])
    totals: dict[tuple[int, ...], list] = {}
    for _, _, won, margin, name, people in rows:
        key = tuple(sorted(int(p) for p in people.split(",")))
        entry = totals.setdefault(key, [name, 0, 0, 0])
        entry[1] += 1
        entry[2] += won
        entry[3] += margin
    return totals


def _ties(places: list[Standing]) -> list[Tie]:
    """The ties the standings explain, at each count of wins that two or more
    sides share."""
    ties = []
    for wins in dict.fromkeys(s.won for s in places):
        # Who has not played yet ties with nobody: nothing to explain there.
        group = [s for s in places if s.won == wins and s.played]
        if len(group) > 1:
            ties += _ties_at(wins, group)
    return ties


def _ties_at(wins: int, group: list[Standing]) -> list[Tie]:
    """The ties of the sides of `group`, all at `wins`: a place shared by
    those of the same margin too, and the margins that set the others apart."""
    ties = []
    for margin in dict.fromkeys(s.margin for s in group):
        shared = [s for s in group if s.margin == margin]
        if len(shared) > 1:
            ties.append(Tie("shared", [s.label for s in shared], wins, [margin],
                            shared[0].place))
    if len({s.margin for s in group}) > 1:
        ties.append(Tie("margin", [s.label for s in group], wins, [s.margin for s in group],
                        group[0].place))
    return ties


# -- the round robin -------------------------------------------------------------------------

def round_robin(count: int, number: int) -> tuple[list[tuple[int, int]], int | None]:
    """Round `number` (from 1) of a round robin of `count` entrants, by the
    circle method: the pairs (entrant indexes) and who sits out (odd count)."""
    seats = list(range(count)) + ([None] if count % 2 else [])
    size = len(seats)
    rounds = size - 1
    turn = (number - 1) % rounds
    rotated = [seats[0]] + (seats[1:][-turn:] + seats[1:][:-turn] if turn else seats[1:])
    pairs, bye = [], None
    for i in range(size // 2):
        a, b = rotated[i], rotated[size - 1 - i]
        if a is None or b is None:
            bye = b if a is None else a
        else:
            pairs.append((a, b) if (i + number) % 2 else (b, a))  # who starts alternates
    return pairs, bye


def rounds_in_all(night: Night) -> int:
    """A round robin's rounds (a tournament's are its own: tournaments.py)."""
    if night.tournament:
        return 0
    count = len(night.entrants)
    return 0 if count < 2 else count - 1 + count % 2


def rounds_started(db: sqlite_utils.Database, night_id: str) -> int:
    row = db.execute("SELECT coalesce(max(round), 0) FROM night_tables WHERE night_id = ?",
                     [night_id]).fetchone()
    return row[0]


def unfinished(db: sqlite_utils.Database, night_id: str, round_: int) -> list[int]:
    """The tables of round `round_` still being played (not over, not in the
    bin), by number: the night moves on to its next round once there is none."""
    return [number for (number,) in db.execute(
        "SELECT t.number FROM night_tables t JOIN games g ON g.id = t.game_id"
        " WHERE t.night_id = ? AND t.round = ? AND g.finished = 0 AND g.deleted_at IS NULL"
        " ORDER BY t.number", [night_id, round_])]


class RoundNotDone(RuleViolation):
    """The round before is still being played: the director confirms
    (`force`) with the unfinished tables named."""

    def __init__(self, tables: list[int]):
        super().__init__(N_("Tables are still being played in the round before: %(tables)s. "
                            "Confirm to start the next round anyway."),
                         tables=", ".join(map(str, tables)))
        self.tables = tables


def next_round(db: sqlite_utils.Database, night: Night
               ) -> tuple[int, list[tuple[list[str], list[str]]], list[str] | None] | None:
    """The next round's number, its pairings (by names) and who sits out;
    None once every round has started."""
    number = rounds_started(db, night.id) + 1
    if number > rounds_in_all(night):
        return None
    pairs, bye = round_robin(len(night.entrants), number)
    return (number, [(night.entrants[a], night.entrants[b]) for a, b in pairs],
            None if bye is None else night.entrants[bye])


# -- writing ---------------------------------------------------------------------------------

def _text(value: Any, length: int, message: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(message, length=length)
    name = visible_name(value, N_("A night's name must show something: this one holds only "
                                  "invisible characters."))
    if not 1 <= len(name) <= length:
        raise InvalidInput(message, length=length)
    return name


def parse_night(data: Mapping[str, Any], presets: Mapping[str, engine.HouseRules]) -> dict:
    """A new night's fields, checked: name, date (YYYY-MM-DD), preset, players
    (2 or 4), format (a round robin unless told), and entrants: up to 8
    players or teams of two names for a round robin (none: free choice), 2 to
    128 for a knockout or a Swiss evening, which also take the match (1 game
    or the best of 3), the seeding (by rating, or drawn) and, for a Swiss
    evening, its rounds (enough for one unbeaten entrant unless told)."""
    name = _text(data.get("name"), NAME_LENGTH,
                 N_("A night's name takes 1 to %(length)s characters."))
    try:
        day = datetime.date.fromisoformat(data.get("date") or "").isoformat()
    except (TypeError, ValueError):
        raise InvalidInput(N_("The date must be a day, as 2026-05-21.")) from None
    preset = data.get("preset")
    if preset not in presets:
        raise InvalidInput(N_("There is no such preset."))
    count = data.get("players")
    if type(count) is not int or count not in (2, 4):
        raise InvalidInput(N_("A night's games are two players, or teams of two."))
    kind = data.get("format", "round_robin")
    if kind not in FORMATS:
        raise InvalidInput(N_("A night is a round robin, a knockout or a Swiss evening."))
    checked = _night_entrants(data.get("entrants") or [], count, kind)
    fields = {"name": name, "date": day, "preset": preset, "players": count, "format": kind,
              "match_games": 1, "seeding": None, "rounds": None, "entrants": checked}
    if kind == "round_robin":
        return fields
    return fields | _tournament_fields(data, kind, len(checked))


def _night_entrants(entrants: Any, count: int, kind: str) -> list[list[str]]:
    """A new night's entrants, checked (check_entrants) and as many as its
    format takes: a round robin's two at least, or none (free choice)."""
    most = MAX_ENTRANTS if kind == "round_robin" else MAX_TOURNAMENT
    if not isinstance(entrants, list) or len(entrants) > most:
        if kind == "round_robin":
            raise InvalidInput(N_("A round robin takes at most %(count)s players or teams."),
                               count=MAX_ENTRANTS)
        raise InvalidInput(N_("A knockout or a Swiss evening takes at most %(count)s players "
                              "or teams."), count=MAX_TOURNAMENT)
    checked = check_entrants(entrants, count)
    if kind == "round_robin" and len(checked) == 1:
        raise InvalidInput(N_("A round robin needs two entrants at least (or none: free "
                              "choice)."))
    return checked


def _tournament_fields(data: Mapping[str, Any], kind: str, entrants: int) -> dict:
    """A knockout's or a Swiss evening's own fields, checked, for `entrants`
    (two at least): its match, its seeding and a Swiss evening's rounds."""
    if entrants < 2:
        raise InvalidInput(N_("A knockout or a Swiss evening needs two entrants at least."))
    match_games = data.get("match_games", 1)
    if match_games not in (1, 3) or type(match_games) is not int:
        raise InvalidInput(N_("A match is one game, or the best of three."))
    seeding = data.get("seeding", "rating")
    if seeding not in SEEDINGS:
        raise InvalidInput(N_("The entrants are seeded by their rating, or drawn."))
    fields = {"match_games": match_games, "seeding": seeding}
    if kind == "swiss":
        most = max(1, entrants - 1)
        rounds = data.get("rounds") or tournament.swiss_rounds(entrants)
        if type(rounds) is not int or not 1 <= rounds <= most:
            raise InvalidInput(N_("A Swiss evening of %(count)s entrants plays 1 to %(most)s "
                                  "rounds."), count=entrants, most=most)
        fields["rounds"] = rounds
    return fields


def check_entrants(entrants: list, count: int, taken: set[str] = frozenset()) -> list[list[str]]:
    """Each entrant's names, cleaned: one player, or a team's two with four
    players; no name twice (nor one of `taken`, the name keys already in)."""
    checked, keys = [], set(taken)
    size = 2 if count == 4 else 1
    for names in entrants:
        if not isinstance(names, list) or len(names) != size or "" in names:
            raise InvalidInput(N_("Each team has two players; each player plays alone."))
        names = [players.check_name(n) for n in names]
        for n in names:
            if players.name_key(n) in keys:
                raise InvalidInput(N_("%(name)s is entered twice."), name=n)
            keys.add(players.name_key(n))
        checked.append(names)
    return checked


def seeded(db: sqlite_utils.Database, entrants: list[list[str]], seeding: str | None,
           draw: random.Random | None = None) -> list[list[str]]:
    """The entrants in seed order: by rating (the mean of a team's two, a
    newcomer at the start's; equal ratings keep the order typed), or drawn;
    as typed for a round robin."""
    if seeding == "draw":
        order = list(entrants)
        (draw or random.SystemRandom()).shuffle(order)
        return order
    if seeding != "rating":
        return list(entrants)

    def level(names: list[str]) -> float:
        found = [players.by_name(db, n) for n in names]
        rated = [ratings.of_person(db, p.person) if p else None for p in found]
        return sum(r.mu if r else ratings.MODEL.mu for r in rated) / len(names)

    return sorted(entrants, key=level, reverse=True)


def create(db: sqlite_utils.Database, data: Mapping[str, Any], now: str,
           presets: Mapping[str, engine.HouseRules], draw: random.Random | None = None) -> Night:
    fields = parse_night(data, presets)
    with write_transaction(db):
        night_id = games.new_game_id()
        while get(db, night_id) is not None:
            night_id = games.new_game_id()
        db.execute("INSERT INTO nights (id, name, date, preset, players, created_at, format,"
                   " match_games, seeding, rounds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   [night_id, fields["name"], fields["date"], fields["preset"],
                    fields["players"], now, fields["format"], fields["match_games"],
                    fields["seeding"], fields["rounds"]])
        entrants = seeded(db, fields["entrants"], fields["seeding"], draw)
        db.conn.executemany(
            "INSERT INTO night_entrants (night_id, position, names) VALUES (?, ?, ?)",
            [(night_id, i, json.dumps(n, ensure_ascii=False)) for i, n in enumerate(entrants)])
    return get(db, night_id)


def add_table(db: sqlite_utils.Database, night_id: str, game_id: str, round_: int | None,
              now: str, slot: int | None = None,
              entrants: tuple[int, int] | None = None) -> int:
    """The game becomes the night's next table (of a tournament's match: its
    `slot` in the round and the `entrants` of its two sides); its number. In
    the caller's transaction."""
    if db.execute("SELECT 1 FROM night_tables WHERE game_id = ?", [game_id]).fetchone():
        return db.execute("SELECT number FROM night_tables WHERE game_id = ?",
                          [game_id]).fetchone()[0]
    number = db.execute("SELECT coalesce(max(number), 0) + 1 FROM night_tables"
                        " WHERE night_id = ?", [night_id]).fetchone()[0]
    db.execute("INSERT INTO night_tables (game_id, night_id, number, round, created_at, slot,"
               " entrants) VALUES (?, ?, ?, ?, ?, ?, ?)",
               [game_id, night_id, number, round_, now, slot,
                None if entrants is None else json.dumps(list(entrants))])
    return number


def start_table(db: sqlite_utils.Database, night: Night, body: Any, key: str | None,
                now: str, presets: Mapping[str, engine.HouseRules] = engine.BUILT_IN_PRESETS,
                round_: int | None = None, slot: int | None = None,
                entrants: tuple[int, int] | None = None) -> games.Game:
    """A new game that is one of the night's tables: one transaction."""
    with write_transaction(db):
        game, _ = games.create(db, body, key, now, presets)
        add_table(db, night.id, game.id, round_, now, slot, entrants)
    return game


def side_name(names: list[str]) -> str:
    """The name of an entrant's side at its tables: its label, cut to a name's length."""
    return _label(names)[:NAME_LENGTH]


def table_body(night: Night, first: list[str], second: list[str],
               presets: Mapping[str, engine.HouseRules], first_dealer: int = 0) -> dict:
    """A new game between two entrants (their names), with the night's rules."""
    return {"sides": [side_name(first), side_name(second)],
            "players": night.players,
            "rules": {"preset": night.preset} if night.preset in presets else None,
            "first_dealer": first_dealer, "partners": [first, second]}
def start_round(db: sqlite_utils.Database, night: Night, number: int, key: str, now: str,
                presets: Mapping[str, engine.HouseRules], force: bool = False
                ) -> list[games.Game]:
    """Every game of round `number`, at once; a key already used starts nothing
    twice. While tables of the round before are being played, only `force`d
    (RoundNotDone names them)."""
    with write_transaction(db):
        proposed = next_round(db, night)
        started = []
        if proposed is None or proposed[0] != number:
            existing = db.execute("SELECT game_id FROM night_tables WHERE night_id = ? AND"
                                  " round = ? ORDER BY number", [night.id, number]).fetchall()
            if existing:  # the same round sent twice: it is there already
                return [games.load(db, game_id) for (game_id,) in existing]
            raise RuleViolation(N_("This round cannot start: every round has started, or "
                                   "another one is next."))
        playing = unfinished(db, night.id, number - 1)
        if playing and not force:
            raise RoundNotDone(playing)
        for index, (first, second) in enumerate(proposed[1]):
            started.append(start_table(db, night, table_body(night, first, second, presets),
                                       f"{key}:{index}", now, presets, number))
    return started


def screen_on(db: sqlite_utils.Database, night_id: str) -> str:
    """Turn on the read-only screen link: a new key (an old link stops working)."""
    key = ids.random_id(SCREEN_KEY_LENGTH)
    with write_transaction(db):
        db.execute("UPDATE nights SET screen_key = ? WHERE id = ?", [key, night_id])
    return key


def screen_off(db: sqlite_utils.Database, night_id: str) -> None:
    with write_transaction(db):
        db.execute("UPDATE nights SET screen_key = NULL WHERE id = ?", [night_id])


def stamp(db: sqlite_utils.Database, night_id: str) -> str:
    """Changes whenever a table is added or any of its games changes (its
    version), is thrown in the bin or restored, and with a tournament's
    entrants (one joins, withdraws) and Swiss rounds: what the big screen
    follows."""
    row = db.execute(
        "SELECT count(*) || '.' || coalesce(sum(g.version), 0) || '.'"
        " || coalesce(sum(g.deleted_at IS NULL), 0) || '.' || coalesce(max(g.updated_at), '')"
        " || '.' || (SELECT count(*) || '.'"
        "            || coalesce(group_concat(coalesce(withdrawn_round, 0), ','), '')"
        "            FROM night_entrants WHERE night_id = :night)"
        " || '.' || (SELECT count(*) FROM night_pairings WHERE night_id = :night)"
        " FROM night_tables t JOIN games g ON g.id = t.game_id WHERE t.night_id = :night",
        {"night": night_id}).fetchone()
    return row[0]
