"""Club nights in export documents (format version 2, transfer.py): each
night with its entrants and tables (the games by id, which the same
document carries); a knockout or a Swiss night also with its `tournament`:
its settings, its entrants' rounds of joining and withdrawing, the pairings
its Swiss rounds were given and each table's match, from which its bracket
and standings are read again. The screen link's key is never exported.
"""

import json
from datetime import date
from typing import Any, Mapping, NamedTuple

import sqlite_utils

from ..engine.errors import N_, InvalidInput, RuleViolation
from ..engine.names import clean_name
from . import nights
from .clock import check_time

NIGHT_FIELDS = ("id", "name", "date", "preset", "players", "created_at", "entrants", "tables")
TABLE_FIELDS = ("game", "number", "round", "created_at")
TOURNAMENT_FIELDS = ("format", "match_games", "seeding", "rounds", "joined", "withdrawn",
                     "pairings", "matches")
MAX_ROUND = 99  # as the round's form: far more than 8 entrants' round robin needs


def export_nights(db: sqlite_utils.Database) -> list[dict[str, Any]]:
    documents = []
    for night, _ in reversed(nights.every_night(db, limit=1_000_000)):
        full = nights.get(db, night.id)
        rows = db.execute("SELECT game_id, number, round, created_at, slot, entrants"
                          " FROM night_tables WHERE night_id = ? ORDER BY number",
                          [full.id]).fetchall()
        document = {
            "id": full.id, "name": full.name, "date": full.date, "preset": full.preset,
            "players": full.players, "created_at": full.created_at, "entrants": full.entrants,
            "tables": [{"game": g, "number": n, "round": r, "created_at": t}
                       for g, n, r, t, _, _ in rows],
        }
        if full.tournament:
            document["tournament"] = {
                "format": full.format, "match_games": full.match_games,
                "seeding": full.seeding, "rounds": full.rounds, "joined": full.joined,
                "withdrawn": full.withdrawn,
                "pairings": [{"round": r, "slot": s, "entrants": [a, b]} for r, s, a, b in
                             db.execute("SELECT round, slot, first, second FROM night_pairings"
                                        " WHERE night_id = ? ORDER BY round, slot", [full.id])],
                "matches": [{"game": g, "slot": s, "entrants": json.loads(e)}
                            for g, _, _, _, s, e in rows if s is not None],
            }
        documents.append(document)
    return documents


class Played(NamedTuple):
    """What a night's check reads of one of the document's games."""

    sides: tuple[str, ...]
    binned: bool


def _fail(message: str, **params) -> None:
    raise InvalidInput(message, **params)


def _whole(value: Any, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


# -- a tournament --------------------------------------------------------------------------------

def _check_settings(found: Any) -> None:
    if not isinstance(found, dict) or set(found) != set(TOURNAMENT_FIELDS):
        _fail(N_("A night's tournament must be an object with exactly the fields: "
                 "%(fields)s."), fields=", ".join(TOURNAMENT_FIELDS))
    if found["format"] not in ("knockout", "swiss"):
        _fail(N_("A night's tournament is a knockout or a Swiss evening."))


def _check_joining(found: dict, count: int) -> None:
    joined, withdrawn = found["joined"], found["withdrawn"]
    if not (isinstance(joined, list) and isinstance(withdrawn, list)
            and len(joined) == len(withdrawn) == count
            and all(_whole(j, 1, 1000) for j in joined)
            and all(w is None or _whole(w, j, 1000) for j, w in zip(joined, withdrawn))):
        _fail(N_("A tournament's rounds of joining and withdrawing are one per entrant."))
    if found["format"] == "knockout" and (any(j != 1 for j in joined) or any(
            w is not None for w in withdrawn) or found["pairings"]):
        _fail(N_("A knockout has neither late entrants, withdrawals nor Swiss pairings."))


def _two_entrants(entrants: Any, count: int, bye: bool = False) -> bool:
    """Two different entrants of the night (the second None for a `bye`)."""
    return (isinstance(entrants, list) and len(entrants) == 2
            and _whole(entrants[0], 0, count - 1)
            and (bye and entrants[1] is None or _whole(entrants[1], 0, count - 1))
            and entrants[0] != entrants[1])


def _check_pairings(pairings: Any, count: int) -> None:
    if not isinstance(pairings, list):
        _fail(N_("A tournament's pairings must be a list."))
    given = set()
    for pairing in pairings:
        if not (isinstance(pairing, dict) and set(pairing) == {"round", "slot", "entrants"}
                and _whole(pairing["round"], 1, 1000) and _whole(pairing["slot"], 1, 1000)
                and (pairing["round"], pairing["slot"]) not in given
                and _two_entrants(pairing["entrants"], count, bye=True)):
            _fail(N_("A tournament's pairing is a round, a slot and two entrants (the second "
                     "null for a bye)."))
        given.add((pairing["round"], pairing["slot"]))


def _check_matches(matches: Any, rounds: dict, count: int) -> None:
    if not isinstance(matches, list):
        _fail(N_("A tournament's matches must be a list."))
    seen = set()
    for match in matches:
        if not (isinstance(match, dict) and set(match) == {"game", "slot", "entrants"}
                and rounds.get(match["game"] if isinstance(match["game"], str) else None)
                and match["game"] not in seen and _whole(match["slot"], 1, 1000)
                and _two_entrants(match["entrants"], count)):
            _fail(N_("A tournament's match is one of the night's tables of a round, its slot "
                     "and its two entrants."))
        seen.add(match["game"])


def _check_sides(match: dict, night: dict, game: Played) -> None:
    """A match's game is played between its two entrants, each on its side:
    else its result would count for somebody else."""
    wanted = tuple(nights.side_name(night["entrants"][e]) for e in match["entrants"])
    if tuple(game.sides) != wanted:
        _fail(N_("A tournament's match must be played between its two entrants, as its "
                 "game's sides say: the game %(id)s is not."), id=match["game"][:40])


def _check_length(tables: list[dict], best_of: int) -> None:
    """A match holds no more games than its best of N (those in the bin are
    none of its games: a director may bin one and start it again)."""
    if len(tables) > best_of:
        _fail(N_("A tournament's match holds more games than its best of %(games)s "
                 "allows: the game %(id)s."), games=best_of, id=tables[best_of]["game"][:40])


def _check_against_games(night: dict, found: dict, played: Mapping[str, Played]) -> None:
    """Each match read again from its game: its entrants against the game's
    sides, and each match's length against the night's best of N."""
    order = {t["game"]: (t["round"], t["number"]) for t in night["tables"]}
    by_match: dict[tuple, list[dict]] = {}
    for match in sorted(found["matches"], key=lambda m: order[m["game"]]):
        game = played[match["game"]]
        _check_sides(match, night, game)
        pair = (order[match["game"]][0], match["slot"], frozenset(match["entrants"]))
        if not game.binned:
            by_match.setdefault(pair, []).append(match)
    for tables in by_match.values():
        _check_length(tables, found["match_games"])


def _check_tournament(found: Any, night: dict) -> dict:
    """A knockout's or a Swiss night's `tournament`, checked against its
    entrants and tables; the fields a new night takes, for parse_night."""
    _check_settings(found)
    count = len(night["entrants"]) if isinstance(night["entrants"], list) else 0
    _check_joining(found, count)
    _check_pairings(found["pairings"], count)
    rounds = {t.get("game"): t.get("round") for t in night["tables"] if isinstance(t, dict)}
    _check_matches(found["matches"], rounds, count)
    return {"format": found["format"], "match_games": found["match_games"],
            "seeding": found["seeding"], "rounds": found["rounds"]}


# -- a night -------------------------------------------------------------------------------------

def _check_heading(night: Any) -> None:
    """A night's fields, id, day, time and preset."""
    if not isinstance(night, dict) or set(night) - {"tournament"} != set(NIGHT_FIELDS):
        _fail(N_("A night must be an object with exactly the fields: %(fields)s."),
              fields=", ".join(NIGHT_FIELDS))
    if not isinstance(night["id"], str) or not nights.NIGHT_ID.fullmatch(night["id"]):
        _fail(N_("A night's id must be 8 to 40 lowercase letters and digits."))
    try:
        date.fromisoformat(night["date"])
    except (TypeError, ValueError):
        _fail(N_("A night's date and time are not valid."))
    check_time(night["created_at"], "created_at")
    preset = night["preset"]
    if not isinstance(preset, str) or not 1 <= len(preset) <= 40 or clean_name(preset) != preset:
        _fail(N_("A night's preset must be a name of 1 to 40 characters."))


def _check_tables(tables: Any, played: Mapping[str, Played]) -> None:
    if not isinstance(tables, list):
        _fail(N_("A night's tables must be a list."))
    for number, table in enumerate(tables, 1):
        if not isinstance(table, dict) or set(table) != set(TABLE_FIELDS):
            _fail(N_("A night's table must be an object with exactly the fields: %(fields)s."),
                  fields=", ".join(TABLE_FIELDS))
        if not isinstance(table["game"], str) or table["game"] not in played:
            _fail(N_("A night's table names a game the export does not hold."))
        if type(table["number"]) is not int or table["number"] != number or not (
                table["round"] is None
                or (type(table["round"]) is int and 1 <= table["round"] <= MAX_ROUND)):
            _fail(N_("A night's tables must be numbered 1, 2, 3… (round: a number or null)."))
        check_time(table["created_at"], "created_at")


def _check_night(night: Any, played: Mapping[str, Played]) -> dict:
    _check_heading(night)
    # The tables first: a tournament's matches are looked up by their games.
    _check_tables(night["tables"], played)
    settings = _check_tournament(night["tournament"], night) if "tournament" in night else {}
    # The rest as a new night's (the preset aside: another table's may be unknown here).
    preset = night["preset"]
    checked = nights.parse_night(dict(night, preset=preset, **settings), {preset: None})
    if checked["name"] != night["name"] or checked["entrants"] != night["entrants"]:
        _fail(N_("A night's names must be stored trimmed."))
    if settings and settings["rounds"] != checked["rounds"]:
        _fail(N_("A Swiss evening's rounds are a number; a knockout's are null."))
    if settings:  # the entrants and the best of N are known good only now
        _check_against_games(night, night["tournament"], played)
    return night


def check_nights(data: Any, played: Mapping[str, Played]) -> list[dict]:
    """The document's nights, checked against its games (by id); raises InvalidInput."""
    if not isinstance(data, list):
        _fail(N_("nights must be a list."))
    seen, tabled = set(), set()
    for night in data:
        _check_night(night, played)
        if night["id"] in seen:
            _fail(N_("A night is twice in the export."))
        seen.add(night["id"])
        for table in night["tables"]:
            if table["game"] in tabled:
                _fail(N_("A game is a table of two nights."))
            tabled.add(table["game"])
    return data


def import_nights(db: sqlite_utils.Database, documents: list[dict]) -> None:
    """Every night that is not here yet, in the caller's transaction; one
    here under the same id must be the same night."""
    exported = {night["id"]: night for night in export_nights(db)}
    for night in documents:
        if night["id"] in exported:
            if exported[night["id"]] != night:
                raise RuleViolation(N_("Nothing was imported: a different night with the id "
                                       "%(id)s is already here."), id=night["id"])
            continue
        for table in night["tables"]:
            if db.execute("SELECT 1 FROM night_tables WHERE game_id = ?",
                          [table["game"]]).fetchone():
                raise RuleViolation(N_("Nothing was imported: the game %(id)s is a table of "
                                       "another night here."), id=table["game"])
        found = night.get("tournament") or {
            "format": "round_robin", "match_games": 1, "seeding": None, "rounds": None,
            "joined": [1] * len(night["entrants"]), "withdrawn": [None] * len(night["entrants"]),
            "pairings": [], "matches": []}
        db.execute("INSERT INTO nights (id, name, date, preset, players, created_at, format,"
                   " match_games, seeding, rounds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   [night["id"], night["name"], night["date"], night["preset"],
                    night["players"], night["created_at"], found["format"],
                    found["match_games"], found["seeding"], found["rounds"]])
        db.conn.executemany(
            "INSERT INTO night_entrants (night_id, position, names, joined_round,"
            " withdrawn_round) VALUES (?, ?, ?, ?, ?)",
            [(night["id"], i, json.dumps(n, ensure_ascii=False), found["joined"][i],
              found["withdrawn"][i]) for i, n in enumerate(night["entrants"])])
        match = {m["game"]: m for m in found["matches"]}
        db.conn.executemany(
            "INSERT INTO night_tables (game_id, night_id, number, round, created_at, slot,"
            " entrants) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(t["game"], night["id"], t["number"], t["round"], t["created_at"],
              match[t["game"]]["slot"] if t["game"] in match else None,
              json.dumps(match[t["game"]]["entrants"]) if t["game"] in match else None)
             for t in night["tables"]])
        db.conn.executemany(
            "INSERT INTO night_pairings (night_id, round, slot, first, second)"
            " VALUES (?, ?, ?, ?, ?)",
            [(night["id"], p["round"], p["slot"], *p["entrants"]) for p in found["pairings"]])
