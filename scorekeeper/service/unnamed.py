"""Sides nobody named: the roster, the ratings and the statistics leave them out.

The new-game page offers each side a default name ("Us", "Them", "You" in
English, "Nous", "Eux", "Vous", «نحن»، «هم»، «أنتم»): a game left with them
has no named people, and "Nous" at one table is not "Nous" at the next. The
games keep these names as they were played (nothing stored is rewritten);
this is a rule of reading: the players, the ranking, the statistics and the
recent players offered leave them out, and no rating counts such a side.

The default names are written once, in the engine (engine/names.py), as
data in each of the app's languages, since the service reads no catalog.
"""

from ..engine.names import DEFAULT_SIDE_NAMES, name_key

KEYS = frozenset(name_key(name) for name in DEFAULT_SIDE_NAMES)
_LITERALS = ", ".join("'%s'" % key.replace("'", "''") for key in sorted(KEYS))
# SQL: the ids of the people nobody named, and the condition on a name key.
NOBODY = f"(SELECT id FROM players WHERE name_key IN ({_LITERALS}))"
DEFAULT_KEY = f"IN ({_LITERALS})"


def is_default(name: str) -> bool:
    """Whether `name` is a side's default name, in any of the app's languages."""
    return name_key(name) in KEYS
