"""Small builders so that engine tests read like the barème.

Events are written in the JSON API's plain shapes (API.md "Events") and go
through `parse_event` before `apply`, as they do in the app. No fixtures: a
test builds a game with `game(...)`, plays events with `play(...)`.
"""

import pytest

from scorekeeper.engine import (
    InvalidInput,
    RuleViolation,
    Setup,
    State,
    apply,
    new_game,
    parse_event,
    rules_from_spec,
)

SIDE_NAMES = {2: ("A", "B"), 3: ("A", "B", "C"), 4: ("A", "B")}
A, B, C = 0, 1, 2


def setup(players: int = 2, first_dealer: int = 0, **rules) -> Setup:
    """The set-up of a game of `players` players; `rules` as in the API's `rules` object."""
    return Setup(SIDE_NAMES[players], players, rules_from_spec(rules), first_dealer)


def game(players: int = 2, first_dealer: int = 0, **rules) -> State:
    """A new game's state."""
    return new_game(setup(players, first_dealer, **rules))


def play(state: State, *events: dict) -> State:
    """The state after each event in turn; a refused event raises."""
    for event in events:
        state = apply(state, parse_event(event, state.setup))
    return state


def scores_after(*events: dict, players: int = 2, **rules) -> list[int]:
    return list(play(game(players, **rules), *events).scores)


def refused(state: State, event: dict) -> str:
    """Assert the rules refuse `event` (a 409); the refusal's sentence."""
    with pytest.raises(RuleViolation) as caught:
        play(state, event)
    return str(caught.value)


def invalid(state: State, event: dict) -> str:
    """Assert `event` is malformed input (a 400); the sentence."""
    with pytest.raises(InvalidInput) as caught:
        play(state, event)
    return str(caught.value)


def gains(state: State) -> list[tuple[str, list[int]]]:
    """What the last event scored, gain by gain: (kind, points per side)."""
    return [(g.kind, list(g.points)) for g in state.gains]


def chain(state: State) -> tuple[int, int] | None:
    """The open chain as (side, value), or None."""
    return None if state.chain is None else (state.chain.side, state.chain_value())


# -- events, in the API's words -----------------------------------------------

def hit(side: int, value: int) -> dict:
    return {"type": "hit", "side": side, "value": value}


def chain_end() -> dict:
    return {"type": "chain_end"}


def missa(side: int, last_card: bool = False) -> dict:
    return {"type": "missa", "side": side, "last_card": last_card}


def ronda(side: int, rank: int | None = None) -> dict:
    return {"side": side, "kind": "ronda", "rank": rank}


def double_ronda(side: int, rank: int | None = None) -> dict:
    return {"side": side, "kind": "double_ronda", "rank": rank}


def tringa(side: int, rank: int | None = None) -> dict:
    return {"side": side, "kind": "tringa", "rank": rank}


def announce(*announcements: dict) -> dict:
    return {"type": "announce", "announcements": list(announcements)}


def reveal(*ranks: int | None) -> dict:
    return {"type": "reveal", "ranks": list(ranks)}


def next_deal() -> dict:
    return {"type": "next_deal"}


def end_hand(*cards: int | None) -> dict:
    return {"type": "end_hand", "cards": list(cards)}


def adjust(side: int, points: int, note: str = "") -> dict:
    return {"type": "adjust", "side": side, "points": points, "note": note}


def hidden_ronda(side: int, to: int | None = None) -> dict:
    return {"type": "hidden_ronda", "side": side, "to": to}


def dealer_last_trick(outcome: str) -> dict:
    return {"type": "dealer_last_trick", "outcome": outcome}


def next_deals(count: int) -> list[dict]:
    return [next_deal()] * count


def at_last_deal(state: State) -> State:
    """The state once the current hand's last deal is dealt (where the
    dealer's last trick is played)."""
    return play(state, *next_deals(state.setup.deals_per_hand - state.deal))
