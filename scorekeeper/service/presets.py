"""The table's house-rule presets and the preset new games start with.

Built-in presets (`appli`, `classique`) live in the engine and are read-only;
the table's own are stored here, each a full set of rule values.
"""

import json
import secrets
from typing import Any, Mapping

import sqlite_utils

from .. import engine
from ..engine.errors import N_, InvalidInput
from ..engine.houserules import PRESET_NAMES
from ..engine.names import name_key, visible_name
from ..engine.newgame import NAME_LENGTH
from ..storage.db import write_transaction

DEFAULT_KEY = "default_preset"

# A table preset may take none of the built-in presets' names
# (engine/houserules.py), else "classic" would be two presets.
BUILT_IN_NAMES = tuple(name for names in PRESET_NAMES.values() for name in names.values())


def _row_rules(row: Mapping[str, Any]) -> engine.HouseRules:
    values = json.loads(row["rules"])
    values["preset"] = row["name"]
    return engine.rules_from_dict(values)


def table_presets(db: sqlite_utils.Database) -> list[dict]:
    """The table's presets, by name: {"id", "name", "rules": HouseRules}."""
    cursor = db.execute("SELECT id, name, rules FROM presets ORDER BY name_key")
    return [
        {"id": row[0], "name": row[1], "rules": _row_rules({"name": row[1], "rules": row[2]})}
        for row in cursor
    ]


def table_preset(db: sqlite_utils.Database, preset_id: str) -> dict | None:
    for preset in table_presets(db):
        if preset["id"] == preset_id:
            return preset
    return None


def all_presets(db: sqlite_utils.Database) -> dict[str, engine.HouseRules]:
    """Every preset a new game may start from, by name: built-in ones first."""
    presets = dict(engine.BUILT_IN_PRESETS)
    for preset in table_presets(db):
        presets[preset["name"]] = preset["rules"]
    return presets


def default_preset(db: sqlite_utils.Database) -> str:
    """The preset new games start with (appli until the table chooses)."""
    row = db.execute("SELECT value FROM settings WHERE key = ?", [DEFAULT_KEY]).fetchone()
    name = row[0] if row else "appli"
    return name if name in all_presets(db) else "appli"


def set_default(db: sqlite_utils.Database, name: str) -> None:
    if name not in all_presets(db):
        raise InvalidInput(N_("Unknown rules preset: %(name)s."), name=name[:40])
    with write_transaction(db):
        db.execute(
            "INSERT INTO settings (key, value) VALUES (?, ?)"
            " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [DEFAULT_KEY, name],
        )


def _checked_name(db: sqlite_utils.Database, name: str, preset_id: str | None) -> str:
    name = visible_name(name or "", N_("A preset's name must show something: this one holds "
                                       "only invisible characters."))
    if not 1 <= len(name) <= NAME_LENGTH:
        raise InvalidInput(N_("A preset's name takes 1 to %(length)s characters."),
                           length=NAME_LENGTH)
    built_in = {name_key(key) for key in (*engine.BUILT_IN_PRESETS, *BUILT_IN_NAMES)}
    if name_key(name) in built_in:
        raise InvalidInput(N_("“%(name)s” is the name of a built-in preset: choose another name."),
                           name=name)
    taken = {name_key(p["name"]) for p in table_presets(db) if p["id"] != preset_id}
    if name_key(name) in taken:
        raise InvalidInput(N_("Another preset already has this name."))
    return name


def save(
    db: sqlite_utils.Database, name: str, values: Mapping[str, Any], now: str,
    preset_id: str | None = None,
) -> str:
    """Create a preset (no id) or replace one's name and rules; returns its id.
    Every value goes through the engine's own checks."""
    checked = engine.rules_from_spec({**values, "preset": "appli"})
    stored = checked.to_dict()
    del stored["preset"]
    with write_transaction(db):
        name = _checked_name(db, name, preset_id)
        if preset_id is None:
            preset_id = secrets.token_hex(6)
            db.execute(
                "INSERT INTO presets (id, name, name_key, rules, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [preset_id, name, name_key(name), json.dumps(stored), now, now],
            )
        else:
            old = table_preset(db, preset_id)
            cursor = db.execute(
                "UPDATE presets SET name = ?, name_key = ?, rules = ?, updated_at = ?"
                " WHERE id = ?",
                [name, name_key(name), json.dumps(stored), now, preset_id],
            )
            if cursor.rowcount == 0:
                raise InvalidInput(N_("This preset does not exist any more."))
            # A renamed default stays the default.
            db.execute("UPDATE settings SET value = ? WHERE key = ? AND value = ?",
                       [name, DEFAULT_KEY, old["name"]])
    return preset_id


def delete(db: sqlite_utils.Database, preset_id: str) -> None:
    """Remove a table preset; games played with it keep their own copy."""
    with write_transaction(db):
        preset = table_preset(db, preset_id)
        if preset is None:
            return
        db.execute("DELETE FROM presets WHERE id = ?", [preset_id])
        db.execute("DELETE FROM settings WHERE key = ? AND value = ?",
                   [DEFAULT_KEY, preset["name"]])
