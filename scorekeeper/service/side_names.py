"""The names a new game starts from on a phone, and what each side is then called.

A phone starts from what it last played (web/pages/resume.py remembers that game),
never from another phone's: a newcomer at the next table finds the default
names, the latest players offered one tap each (players.recent). What a
side is called is one rule, for the game that starts and for the
new-game page that shows it beforehand (its first-dealer choice). No Flask:
the default names come in the caller's language.
"""

import json

import sqlite_utils

from ..engine.limits import NAME_LENGTH
from ..engine.names import PARTNERS_JOINER
from ..storage import store


def names_played(db: sqlite_utils.Database, game_id: str | None, players: int) -> list[str]:
    """The sides' names of the game `game_id` (the one this phone last
    played), if it had `players` players; else none."""
    row = store.game_row(db, game_id) if game_id else None
    if row is None or row["players"] != players:
        return []
    return json.loads(row["sides"])


def team_name(partners: list[str]) -> str:
    """A side of two partners is called after them: "Karim & Salma"."""
    name = PARTNERS_JOINER.join(partners)
    return name if len(name) <= NAME_LENGTH else name[:NAME_LENGTH - 1] + "…"


def side_names(typed: list[str], offered: list[str], partners: list[list[str]] | None,
               defaults: list[str]) -> list[str]:
    """What each side is called: its name as typed; with four players
    (`partners`, each side's, as typed), a side whose name is still the one
    the page offered, or empty, takes its partners' names; a side left
    empty, its default name (`defaults`, one per side)."""
    names = []
    for side, name in enumerate(typed):
        name = (name or "").strip()
        seated = [p.strip() for p in (partners or [[]] * len(typed))[side] if (p or "").strip()]
        changed = bool(name) and name != (offered[side] or "").strip()
        if seated and not changed:
            names.append(team_name(seated))
        else:
            names.append(name or defaults[side])
    return names
