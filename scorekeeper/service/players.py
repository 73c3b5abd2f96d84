"""The roster: people beside the games, so that the history follows a person
from game to game.

A game's log is the truth and keeps the name each side was played under;
people are a layer on top: which player sat on which side (`seats`, two
partners per side with four players). A rename or a nickname changes the
player's row and is kept as a record of `player_changes`; a merge makes one
entry another's alias (`merged_into`), undoable, and nothing of any game
changes. `person` is who a player is in the end (itself, or the root of its
merges): the statistics and the ratings count by it.

No Flask here; callers hold the write transaction where they write.
"""

import json
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from .. import engine
from ..engine.errors import N_, InvalidInput, RuleViolation
from ..engine.names import clean_name, name_key, visible_name
from ..engine.newgame import NAME_LENGTH
from ..storage.db import write_transaction
from . import ratings
from .unnamed import NOBODY, is_default

NICKNAME_LENGTH = 12
RECENT = 6  # players offered first on the new-game page


@dataclass(frozen=True, slots=True)
class Player:
    id: int
    name: str
    nickname: str | None
    person: int
    merged_into: int | None
    created_at: str

    @property
    def merged(self) -> bool:
        return self.merged_into is not None


COLUMNS = "id, name, nickname, person, merged_into, created_at"


def clean(name: str) -> str:
    """A name as the roster keeps it: the one rule of every name (engine/names.py)."""
    return clean_name(name)


def _player(row) -> Player:
    return Player(*row)


def get(db: sqlite_utils.Database, player_id: int) -> Player | None:
    if not 0 < player_id < 2**63:  # past SQLite's integers: no such player, not an error
        return None
    row = db.execute(f"SELECT {COLUMNS} FROM players WHERE id = ?", [player_id]).fetchone()
    return None if row is None else _player(row)


def by_name(db: sqlite_utils.Database, name: str) -> Player | None:
    row = db.execute(f"SELECT {COLUMNS} FROM players WHERE name_key = ?",
                     [name_key(name)]).fetchone()
    return None if row is None else _player(row)


def known_as(db: sqlite_utils.Database, name: str) -> set[int]:
    """The people a typed name is: by any of their entries' names now, a
    nickname, or a name an entry bore before a rename (case and blanks
    aside); a side nobody named is nobody."""
    key = name_key(name)
    found = {person for (person,) in db.execute(
        f"SELECT person FROM players WHERE name_key = ? AND id NOT IN {NOBODY}", [key])}
    found |= {person for person, nickname in db.execute(
        f"SELECT person, nickname FROM players WHERE nickname IS NOT NULL AND id NOT IN {NOBODY}")
        if name_key(nickname) == key}
    for person, payload in db.execute(
            "SELECT p.person, c.payload FROM player_changes c JOIN players p ON p.id = c.player_id"
            f" WHERE c.action = 'rename' AND p.id NOT IN {NOBODY}"):
        before = json.loads(payload)["name"][0]
        if isinstance(before, str) and name_key(before) == key:
            found.add(person)
    return found


def check_name(name: Any, field: str = "name") -> str:
    if not isinstance(name, str):
        raise InvalidInput(N_("A player's name must be text."))
    name = visible_name(name, N_("A player's name must show something: this one holds only "
                                 "invisible characters."))
    if not 1 <= len(name) <= NAME_LENGTH:
        raise InvalidInput(N_("A player's name takes 1 to %(length)s characters."),
                           length=NAME_LENGTH)
    return name


def find_or_create(db: sqlite_utils.Database, name: str, now: str) -> Player:
    found = by_name(db, name)
    if found is not None:
        return found
    cursor = db.execute(
        "INSERT INTO players (name, name_key, created_at, person) VALUES (?, ?, ?, 0)",
        [clean(name), name_key(name), now])
    db.execute("UPDATE players SET person = id WHERE id = ?", [cursor.lastrowid])
    return get(db, cursor.lastrowid)


# -- who sat on a side ----------------------------------------------------------------------

def parse_partners(value: Any, setup: engine.Setup) -> list[list[str]]:
    """Each side's players by name: `[["Karim", "Salma"], ["Ali", "Omar"]]`,
    two per side at most and only with four players; a side left empty (or
    the whole field left out) is the player of the side's own name."""
    sides = setup.side_count
    if value is None:
        return [[] for _ in range(sides)]
    if not isinstance(value, list) or len(value) != sides:
        raise InvalidInput(N_("partners must list each side's players (one list per side)."),
                           field="partners")
    most = 2 if setup.players == 4 else 1
    parsed = []
    for names in value:
        if not isinstance(names, list) or len(names) > most:
            raise InvalidInput(N_("A side has two partners with four players, else one "
                                  "player."))
        parsed.append([check_name(name) for name in names])
    keys = [name_key(n) for names in parsed for n in names]
    if len(set(keys)) != len(keys):
        raise InvalidInput(N_("A player sits on one seat of a game only."))
    return parsed


def link_game(db: sqlite_utils.Database, game_id: str, setup: engine.Setup,
              partners: list[list[str]], now: str) -> None:
    """The seats of a new game; refuses a person on two seats (after merges)."""
    rows, people = [], set()
    for side, names in enumerate(partners):
        for seat, name in enumerate(names or [setup.sides[side]]):
            player = find_or_create(db, name, now)
            if player.person in people:
                raise InvalidInput(N_("%(name)s cannot sit twice in one game."),
                                   name=player.name)
            people.add(player.person)
            rows.append((game_id, side, seat, player.id, player.person))
    db.conn.executemany(
        "INSERT INTO seats (game_id, side, seat, player_id, person) VALUES (?, ?, ?, ?, ?)", rows)


def seat_names(db: sqlite_utils.Database, game_id: str, sides: int) -> list[list[str]]:
    """Each side's players of a game, by their names now."""
    names: list[list[str]] = [[] for _ in range(sides)]
    cursor = db.execute(
        "SELECT s.side, p.name FROM seats s JOIN players p ON p.id = s.player_id"
        " WHERE s.game_id = ? ORDER BY s.side, s.seat", [game_id])
    for side, name in cursor:
        names[side].append(name)
    return names


def people(db: sqlite_utils.Database) -> list[Player]:
    """Every person (merged entries and sides nobody named left out), by name."""
    return [_player(row) for row in db.execute(
        f"SELECT {COLUMNS} FROM players WHERE merged_into IS NULL AND id NOT IN {NOBODY}"
        " ORDER BY name_key")]


def recent(db: sqlite_utils.Database, limit: int = RECENT) -> list[Player]:
    """The people of the latest games, most recent first: the new-game page's
    offers (a side left with its default name is nobody to offer)."""
    cursor = db.execute(
        f"SELECT {', '.join('p.' + c.strip() for c in COLUMNS.split(','))}"
        " FROM (SELECT id, created_at FROM games WHERE deleted_at IS NULL"
        "       ORDER BY created_at DESC LIMIT 40) g"
        " JOIN seats s ON s.game_id = g.id JOIN players p ON p.id = s.person"
        f" WHERE s.person NOT IN {NOBODY}"
        " ORDER BY g.created_at DESC, s.side, s.seat")
    found: dict[int, Player] = {}
    for row in cursor:
        found.setdefault(row[0], _player(row))
        if len(found) == limit:
            break
    return list(found.values())


# -- changes: each one a record ---------------------------------------------------------------

def _write_change(db, player_id: int, action: str, payload: dict, now: str) -> None:
    db.execute("INSERT INTO player_changes (player_id, action, payload, created_at)"
               " VALUES (?, ?, ?, ?)",
               [player_id, action, json.dumps(payload, ensure_ascii=False), now])


def _must_get(db, player_id: int) -> Player:
    player = get(db, player_id)
    if player is None:
        raise RuleViolation(N_("There is no such player."))
    return player


def rename(db: sqlite_utils.Database, player_id: int, name: Any, nickname: Any,
           now: str) -> Player:
    """A new name and nickname; the games keep the names they were played under."""
    with write_transaction(db):
        player = _must_get(db, player_id)
        name = check_name(name)
        if nickname is not None and not isinstance(nickname, str):
            raise InvalidInput(N_("A nickname must be text."))
        nickname = visible_name(nickname or "", N_(
            "A nickname must show something: this one holds only invisible characters.")) or None
        if nickname is not None and len(nickname) > NICKNAME_LENGTH:
            raise InvalidInput(N_("A nickname takes at most %(length)s characters."),
                               length=NICKNAME_LENGTH)
        other = by_name(db, name)
        if other is not None and other.id != player.id:
            raise RuleViolation(N_("%(name)s is already a player: merge the two instead."),
                                name=other.name)
        named = by_name(db, nickname) if nickname is not None else None
        if named is not None and named.person != player.person:
            raise RuleViolation(N_("%(name)s is another player's name: choose another "
                                   "nickname."), name=named.name)
        if name == player.name and nickname == player.nickname:
            raise RuleViolation(N_("This changes nothing."))
        db.execute("UPDATE players SET name = ?, name_key = ?, nickname = ? WHERE id = ?",
                   [name, name_key(name), nickname, player.id])
        _write_change(db, player.id, "rename", {"name": [player.name, name],
                                                "nickname": [player.nickname, nickname]}, now)
        return _must_get(db, player_id)


def merge_refusal(db: sqlite_utils.Database, source: Player, target: Player) -> RuleViolation | None:
    """Why `source` cannot become an alias of `target`, or None: the one
    rule, asked by the confirmation page before it asks, and by the merge."""
    if source.merged or target.merged:
        return RuleViolation(N_("Only two entries that are not merged already can be merged."))
    if source.id == target.id:
        return RuleViolation(N_("A player cannot be merged with itself."))
    for entry in (target, source):
        if is_default(entry.name):  # "Nous" at one table is not "Nous" at the next
            return RuleViolation(N_("%(name)s is a side's default name, nobody's: no one "
                                    "can be merged with it."), name=entry.name)
    shared = db.execute(
        "SELECT 1 FROM seats a JOIN seats b ON b.game_id = a.game_id"
        " WHERE a.person = ? AND b.person = ? LIMIT 1",
        [source.person, target.person]).fetchone()
    if shared:
        return RuleViolation(N_("%(first)s and %(second)s played in the same game: they "
                                "are two people."), first=source.name, second=target.name)
    return None


def merge(db: sqlite_utils.Database, source_id: int, target_id: int, now: str) -> None:
    """`source` becomes an alias of `target`: its games count as target's."""
    with write_transaction(db):
        source, target = _must_get(db, source_id), _must_get(db, target_id)
        refusal = merge_refusal(db, source, target)
        if refusal is not None:
            raise refusal
        db.execute("UPDATE players SET merged_into = ? WHERE id = ?", [target.id, source.id])
        _write_change(db, source.id, "merge", {"into": target.id}, now)
        _resolve_people(db)
        ratings.people_changed(db, {source.person, target.person})


def unmerge(db: sqlite_utils.Database, player_id: int, now: str) -> None:
    """Undo a merge: the entry is its own person again, with its own games."""
    with write_transaction(db):
        player = _must_get(db, player_id)
        if not player.merged:
            raise RuleViolation(N_("This entry is not merged."))
        db.execute("UPDATE players SET merged_into = NULL WHERE id = ?", [player.id])
        _write_change(db, player.id, "unmerge", {"from": player.merged_into}, now)
        _resolve_people(db)
        ratings.people_changed(db, {player.person, player.id})


def _resolve_people(db) -> None:
    """Every player's person again from the merges, and their seats with it
    (a roster of hundreds: cheap, and never on a tap's path)."""
    parents = dict(db.execute("SELECT id, merged_into FROM players").fetchall())
    current = dict(db.execute("SELECT id, person FROM players").fetchall())

    def root(player_id: int) -> int:
        seen = set()
        while parents[player_id] is not None and player_id not in seen:
            seen.add(player_id)
            player_id = parents[player_id]
        return player_id

    for player_id in parents:
        person = root(player_id)
        if current[player_id] != person:
            db.execute("UPDATE players SET person = ? WHERE id = ?", [person, player_id])
            db.execute("UPDATE seats SET person = ? WHERE player_id = ?", [person, player_id])


def aliases(db: sqlite_utils.Database, person: int) -> list[Player]:
    """The entries merged into a person, directly or not."""
    cursor = db.execute(f"SELECT {COLUMNS} FROM players WHERE person = ? AND id != ?"
                        " ORDER BY name_key", [person, person])
    return [_player(row) for row in cursor]


def changes(db: sqlite_utils.Database, person: int) -> list[dict]:
    """The records of a person's entries, newest first."""
    cursor = db.execute(
        "SELECT c.id, c.player_id, p.name, c.action, c.payload, c.created_at"
        " FROM player_changes c JOIN players p ON p.id = c.player_id"
        " WHERE p.person = ? OR c.player_id IN (SELECT id FROM players WHERE person = ?)"
        " OR (c.action IN ('merge', 'unmerge') AND (json_extract(c.payload, '$.into') = ?"
        "     OR json_extract(c.payload, '$.from') = ?))"
        " ORDER BY c.id DESC LIMIT 50", [person, person, person, person])
    return [{"id": i, "player_id": p, "name": n, "action": a, "payload": json.loads(d),
             "created_at": t} for i, p, n, a, d, t in cursor]
