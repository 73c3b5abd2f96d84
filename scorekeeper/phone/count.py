"""The board's own count while the server is away: the taps that wait on
this phone, folded by the engine onto the game as the board last showed it.

This file runs as it is on CPython and on the phone's MicroPython (the
board's engine worker, static/board/engine-worker.js), so it uses only
what both have. Every tap is judged again by the server once it is back.
"""

import json

from scorekeeper.engine import (
    BUILT_IN_PRESETS,
    ScoringError,
    Setup,
    State,
    apply,
    new_game,
    parse_event,
    rules_from_spec,
)
from scorekeeper.engine.limits import DECK
from scorekeeper.engine.moves import card_count, even_count, outcome_of, points_of, to_win

# The event of the open chain's Over, as the board's strip posts it.
CHAIN_END = {"type": "chain_end"}


def game_data(state):
    """What the board gives its engine worker of the game it shows: the
    set-up and the state, as plain data (the inverse of `start`)."""
    setup = state.setup
    snapshot = state.snapshot()
    # What the last event scored, and why not more: nothing the events
    # after it read (the count starts a fold from here), and the page
    # carries words and nothing else of the log.
    snapshot.update(gains=[], notes=[])
    # Every board page carries it: only what differs from a new game.
    new = new_game(setup).snapshot()
    return {"sides": list(setup.sides), "players": setup.players, "rules": rules_spec(setup.rules),
            "first_dealer": setup.first_dealer,
            "state": {key: value for key, value in snapshot.items() if value != new[key]}}


def rules_spec(rules):
    """The rules in few words (every board page carries them): their preset
    and what differs from it; for a preset not built in, every rule."""
    data = rules.to_dict()
    preset = BUILT_IN_PRESETS.get(rules.preset)
    if preset is None:
        return {key: value for key, value in data.items() if key != "preset"}
    base = preset.to_dict()
    return {key: value for key, value in data.items() if key == "preset" or value != base[key]}


def start(game):
    """The game as the board shows it, from its plain data (game_data)."""
    setup = Setup(tuple(game["sides"]), game["players"], rules_from_spec(game["rules"]),
                  game["first_dealer"])
    snapshot = new_game(setup).snapshot()
    snapshot.update(game["state"])
    return State.from_snapshot(snapshot, setup)


def count(game, events, moves=(), cards=None):
    """`game` after `events` (plain data, None for a tap the board cannot
    name as an event), up to the first the engine refuses or cannot read:
    that one, and those after it, are the server's to judge. `counted` says
    how many were taken; once the game is over, `winner` is the side the
    engine says won (the one alone in the lead at the target). `moves`: the
    events of buttons the board turns on or off by this count (`moves_on`,
    judged as the server's board judges its buttons: the hits, and each
    announcement a board's draft would hold). `announced`: the deal's
    announcements are recorded; `settle`: the kind whose ranks must be
    shown before play goes on (None: none). `cards`: the counts typed in
    the end-of-hand sheet, for its `end` (end_of_hand)."""
    state, counted = fold(game, events)
    return {
        "counted": counted,
        "scores": list(state.scores),
        "hand": state.hand,
        "deal": state.deal,
        "deals": state.setup.deals_per_hand,
        "last_deal": state.last_deal,
        "dealer": state.dealer,
        "finished": state.finished,
        "winner": state.winner,
        "to_win": None if state.finished else [[w.standing, w.points] for w in to_win(state)],
        "chain": open_chain(state),
        "announced": state.announced,
        "settle": state.pool.kind if state.awaiting_reveal else None,
        "moves_on": [accepts(state, move) for move in moves],
        # Whether the hand can end now (the board's End of hand link), and
        # what the sheet's count gives.
        "end_on": accepts(state, even_count(state.setup)),
        "end": None if cards is None else end_of_hand(state, cards),
    }


# The last fold that took every one of its events: ([game, events], state).
# Taps wait in order and each asks again with one more, so the next fold
# starts from it instead of from the board's game; a question on another
# game (the server stored some taps) or on other events (one taken back)
# folds from the start. The engine's states are never changed once made.
_LAST_FOLD = []


def fold(game, events):
    """`game` (its plain data) after `events`, up to the first the engine
    refuses or cannot read: (the state, how many it took)."""
    state, counted = _folded_before(game, events)
    for event in events[counted:]:
        if event is None:
            break
        try:
            state = apply(state, parse_event(event, state.setup))
        except ScoringError:
            break
        counted += 1
    if counted == len(events):  # kept as copies: a caller may change its own
        _LAST_FOLD[:] = [json.loads(json.dumps([game, events])), state]
    return state, counted


def _folded_before(game, events):
    """The last fold's state where `events` begin with its events on the
    same game, else the game's own: (state, events already folded)."""
    if _LAST_FOLD:
        (before, folded), state = _LAST_FOLD
        if len(folded) <= len(events) and before == game and events[:len(folded)] == folded:
            return state, len(folded)
    return start(game), 0


def end_of_hand(state, cards):
    """What the end-of-hand sheet shows of `cards` (every side's count but
    the last's, None where none is typed), asked of the engine as the
    server's sheet asks it (web/pages/board.py, end_preview): the last
    side's cards, each side's points and the scores they leave, or whether
    the engine refuses the count; and the deck, and the count a stepper
    starts from (the one worth nothing), for the sheet's steppers."""
    setup = state.setup
    shown = {"computed": None, "points": None, "scores": None, "refused": False, "deck": DECK,
             "start": setup.rules.card_threshold_for(setup.side_count)}
    if None in cards:
        return shown
    try:
        counted = card_count(state, cards)
    except ScoringError:  # no deck holds it
        shown["refused"] = True
        return shown
    shown["computed"] = counted.computed
    if counted.error is not None:
        shown["refused"] = True
        return shown
    shown["points"] = list(points_of(counted.after.gains, setup.side_count))
    shown["scores"] = list(counted.after.scores)
    return shown


def open_chain(state):
    """The open chain as the board's strip shows it: whose, its value, its
    Over's event and whether the engine takes it; None when none is open."""
    if state.chain is None:
        return None
    return {"side": state.chain.side, "value": state.chain_value(), "end": CHAIN_END,
            "end_on": accepts(state, CHAIN_END)}


def accepts(state, move):
    """Whether the engine takes `move` (plain data) now: a board's button is
    on exactly then (web/pages/board.py, `_move`)."""
    return outcome_of(state, move)[1] is None


def answer(asked):
    """What the worker asks (JSON: the board's game and the waiting events)
    answered in JSON."""
    asked = json.loads(asked)
    return json.dumps(count(asked["game"], asked["events"], asked.get("moves", ()),
                            asked.get("cards")))
