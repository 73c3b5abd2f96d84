"""A game folded event by event, in the plain data both Pythons print alike.

This file runs as it is on CPython and on the phone's MicroPython (through
phone_engine.mjs), so it uses only what both have.
"""

import json

from scorekeeper.engine import ScoringError, Setup, apply, new_game, parse_event, rules_from_spec


def fold(game):
    """The rules, then the state after each event of `game` (its snapshot), or
    the refusal when the engine refuses it (its kind, template and parameters)."""
    setup = Setup(tuple(game["sides"]), game["players"], rules_from_spec(game["rules"]),
                  game["first_dealer"])
    state = new_game(setup)
    after = [setup.rules.to_dict(), state.snapshot()]
    for event in game["events"]:
        try:
            state = apply(state, parse_event(event, setup))
        except ScoringError as refusal:
            after.append({"refused": type(refusal).__name__, "message": refusal.message,
                          "params": refusal.params})
        else:
            after.append(state.snapshot())
    return after


def main(path):
    """Print each game of the JSON list at `path` folded, one line a game."""
    with open(path) as source:
        games = json.load(source)
    for game in games:
        print(json.dumps(fold(game)))
