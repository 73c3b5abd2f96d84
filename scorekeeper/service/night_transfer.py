"""Club nights in export documents (format version 2, transfer.py): each
night with its entrants and tables (the games by id, which the same
document carries). The screen link's key is never exported.
"""

import json
from datetime import date, datetime
from typing import Any

import sqlite_utils

from . import nights
from ..engine.errors import N_, InvalidInput, RuleViolation
from ..engine.names import clean_name

NIGHT_FIELDS = ("id", "name", "date", "preset", "players", "created_at", "entrants", "tables")
TABLE_FIELDS = ("game", "number", "round", "created_at")
MAX_ROUND = 99  # as the round's form: far more than 8 entrants' round robin needs


def export_nights(db: sqlite_utils.Database) -> list[dict[str, Any]]:
    documents = []
    for night, _ in reversed(nights.every_night(db, limit=1_000_000)):
        full = nights.get(db, night.id)
        documents.append({
            "id": full.id, "name": full.name, "date": full.date, "preset": full.preset,
            "players": full.players, "created_at": full.created_at, "entrants": full.entrants,
            "tables": [{"game": g, "number": n, "round": r, "created_at": t}
                       for g, n, r, t in db.execute(
                           "SELECT game_id, number, round, created_at FROM night_tables"
                           " WHERE night_id = ? ORDER BY number", [full.id])],
        })
    return documents


def _fail(message: str, **params) -> None:
    raise InvalidInput(message, **params)


def _moment(value: Any) -> bool:
    """A date and time with its time zone (ISO 8601), as the app stores them."""
    try:
        return isinstance(value, str) and datetime.fromisoformat(value).tzinfo is not None
    except ValueError:
        return False


def _check_night(night: Any, game_ids: set[str]) -> dict:
    if not isinstance(night, dict) or set(night) != set(NIGHT_FIELDS):
        _fail(N_("A night must be an object with exactly the fields: %(fields)s."),
              fields=", ".join(NIGHT_FIELDS))
    if not isinstance(night["id"], str) or not nights.NIGHT_ID.fullmatch(night["id"]):
        _fail(N_("A night's id must be 8 to 40 lowercase letters and digits."))
    try:
        date.fromisoformat(night["date"])
    except (TypeError, ValueError):
        _fail(N_("A night's date and time are not valid."))
    if not _moment(night["created_at"]):
        _fail(N_("A night's date and time are not valid."))
    preset = night["preset"]
    if not isinstance(preset, str) or not 1 <= len(preset) <= 40 or clean_name(preset) != preset:
        _fail(N_("A night's preset must be a name of 1 to 40 characters."))
    # The rest as a new night's (the preset aside: another table's may be unknown here).
    checked = nights.parse_night(dict(night, preset=preset), {preset: None})
    if checked["name"] != night["name"] or checked["entrants"] != night["entrants"]:
        _fail(N_("A night's names must be stored trimmed."))
    tables = night["tables"]
    if not isinstance(tables, list):
        _fail(N_("A night's tables must be a list."))
    for number, table in enumerate(tables, 1):
        if not isinstance(table, dict) or set(table) != set(TABLE_FIELDS):
            _fail(N_("A night's table must be an object with exactly the fields: %(fields)s."),
                  fields=", ".join(TABLE_FIELDS))
        if not isinstance(table["game"], str) or table["game"] not in game_ids:
            _fail(N_("A night's table names a game the export does not hold."))
        if type(table["number"]) is not int or table["number"] != number or not (
                table["round"] is None
                or (type(table["round"]) is int and 1 <= table["round"] <= MAX_ROUND)):
            _fail(N_("A night's tables must be numbered 1, 2, 3… (round: a number or null)."))
        if not _moment(table["created_at"]):
            _fail(N_("A night's date and time are not valid."))
    return night


def check_nights(data: Any, game_ids: set[str]) -> list[dict]:
    """The document's nights, checked; raises InvalidInput."""
    if not isinstance(data, list):
        _fail(N_("nights must be a list."))
    seen, tabled = set(), set()
    for night in data:
        _check_night(night, game_ids)
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
        db.execute("INSERT INTO nights (id, name, date, preset, players, created_at)"
                   " VALUES (?, ?, ?, ?, ?, ?)",
                   [night["id"], night["name"], night["date"], night["preset"],
                    night["players"], night["created_at"]])
        db.conn.executemany(
            "INSERT INTO night_entrants (night_id, position, names) VALUES (?, ?, ?)",
            [(night["id"], i, json.dumps(n, ensure_ascii=False))
             for i, n in enumerate(night["entrants"])])
        db.conn.executemany(
            "INSERT INTO night_tables (game_id, night_id, number, round, created_at)"
            " VALUES (?, ?, ?, ?, ?)",
            [(t["game"], night["id"], t["number"], t["round"], t["created_at"])
             for t in night["tables"]])
