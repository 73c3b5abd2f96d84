"""Reading a new game's set-up (sides, players, rules) from plain data."""

from typing import Any, Mapping

from .errors import N_, InvalidInput
from .houserules import BUILT_IN_PRESETS, HouseRules, is_whole, rules_from_spec
from .limits import NAME_LENGTH
from .names import clean_name, name_key
from .state import Setup, State

NEW_GAME_FIELDS = {"sides", "players", "rules", "first_dealer"}


def parse_new_game(
    data: Any, presets: Mapping[str, HouseRules] = BUILT_IN_PRESETS
) -> Setup:
    """The set-up of `{"sides": [...], "players": n, "rules": {...}}`; raises InvalidInput."""
    if not isinstance(data, Mapping):
        raise InvalidInput(N_("A new game must be a JSON object."))
    unknown = sorted(set(data) - NEW_GAME_FIELDS)
    if unknown:
        raise InvalidInput(N_("A new game has no field %(field)s."), field=str(unknown[0])[:40])
    sides = parse_sides(data.get("sides"))
    players = data.get("players")
    if players is None:
        players = len(sides)
    if not is_whole(players) or players not in (2, 3, 4):
        raise InvalidInput(N_("players must be 2, 3 or 4."), field="players")
    if (players == 3) != (len(sides) == 3):
        raise InvalidInput(
            N_("2 or 4 players play as 2 sides, 3 players as 3 sides.")
        )
    first_dealer = data.get("first_dealer")
    if first_dealer is None:
        first_dealer = 0
    if not is_whole(first_dealer) or not 0 <= first_dealer < len(sides):
        raise InvalidInput(N_("first_dealer must be the number of a side."),
                           field="first_dealer")
    return Setup(sides, players, rules_from_spec(data.get("rules"), presets), first_dealer)


def parse_sides(value: Any) -> tuple[str, ...]:
    """2 or 3 names, cleaned (names.py), 1 to 40 characters, unique ignoring case."""
    if not isinstance(value, list) or not 2 <= len(value) <= 3:
        raise InvalidInput(N_("sides must be a list of 2 or 3 names."), field="sides")
    if not all(isinstance(name, str) for name in value):
        raise InvalidInput(N_("Each side's name must be text."))
    names = tuple(clean_name(name) for name in value)
    if any(not name and raw.strip() for name, raw in zip(names, value)):
        raise InvalidInput(N_("A side's name must show something: this one holds only "
                              "invisible characters."))
    if not all(1 <= len(name) <= NAME_LENGTH for name in names):
        raise InvalidInput(
            N_("Each side's name takes 1 to %(length)s characters."), length=NAME_LENGTH
        )
    if len({name_key(name) for name in names}) != len(names):
        raise InvalidInput(N_("Each side needs its own name."))
    return names


def rematch(state: State) -> Setup:
    """The set-up of a rematch of `state`'s game: the same sides, players and
    rules (the game's own copy, whatever became of its preset); the deal
    passes on, to the side that would have dealt the next hand."""
    setup = state.setup
    return Setup(setup.sides, setup.players, setup.rules, setup.dealer(state.hand + 1))
