"""A game folded event by event, in the plain data both Pythons print alike.

This file runs as it is on CPython and on the phone's MicroPython (through
phone_engine.mjs), so it uses only what both have.
"""

import json

from scorekeeper.engine import (
    ScoringError,
    Setup,
    apply,
    new_game,
    parse_event,
    rules_from_spec,
    to_dict,
)
from scorekeeper.engine.moves import timeline, to_win


def fold(game):
    """The rules, then the state after each event of `game` (its snapshot), or
    the refusal when the engine refuses it (its kind, template and parameters),
    then what a board shows of the game: its timeline (each taken event with
    its gains, running score and notes) and what each side needs to win."""
    setup = Setup(tuple(game["sides"]), game["players"], rules_from_spec(game["rules"]),
                  game["first_dealer"])
    state = new_game(setup)
    after = [setup.rules.to_dict(), state.snapshot()]
    taken = []
    for event in game["events"]:
        try:
            parsed = parse_event(event, setup)
            state = apply(state, parsed)
        except ScoringError as refusal:
            after.append({"refused": type(refusal).__name__, "message": refusal.message,
                          "params": refusal.params})
        else:
            after.append(state.snapshot())
            taken.append(parsed)
    board = {"timeline": [[to_dict(step.event), [[g.kind, g.points, g.value] for g in step.gains],
                           step.scores, step.hand, step.deal, step.notes]
                          for step in timeline(setup, taken)],
             "to_win": [] if state.finished else [[w.points, w.tied, w.at_hand_end]
                                                  for w in to_win(state)]}
    return after + [board]


def main(path):
    """Print each game of the JSON list at `path` folded, one line a game (or
    what it crashed on)."""
    with open(path) as source:
        games = json.load(source)
    for game in games:
        try:
            print(json.dumps(fold(game)))
        except Exception as error:  # said for this game, and the next games still run
            print(json.dumps({"crashed": type(error).__name__ + ": " + str(error)}))
