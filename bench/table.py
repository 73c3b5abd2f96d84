"""Games as a real table scores them: the events a scorer taps, in a plausible
order, each one valid under the game's rules.

Every generated event is parsed and applied with the engine as it is made,
so a stream that the rules would refuse fails here, not in a measurement.
"""

import random
from typing import Any, Iterator

from scorekeeper import engine

# A long game must not end: it is played to this target, and a correction
# (an `adjust`) brings a side back whenever it nears it.
LONG_GAME_TARGET = 101
# More than any single event can score (a Tringa pool of four, a card count).
SAFETY_MARGIN = 25


def new_game_body(players: int = 2, long: bool = False) -> dict[str, Any]:
    sides = ["Nous", "Eux", "Vous"][: 3 if players == 3 else 2]
    body: dict[str, Any] = {"sides": sides, "players": players}
    if long:
        body["rules"] = {"target": LONG_GAME_TARGET}
    return body


def setup_of(body: dict[str, Any]) -> engine.Setup:
    return engine.parse_new_game(body)


def _announce(rng: random.Random, setup: engine.Setup) -> dict[str, Any]:
    per_side = setup.players // setup.side_count
    seats = [s for s in range(setup.side_count) for _ in range(per_side)]
    announcers = rng.sample(seats, k=rng.choice((1, 1, 1, 2, 2, 3)) if per_side > 1
                            else rng.choice((1, 1, 2)))
    announcements = []
    for side in announcers:
        entry: dict[str, Any] = {"side": side, "kind": "tringa" if rng.random() < 0.12 else "ronda"}
        if rng.random() < 0.5:
            entry["rank"] = rng.choice(engine.RANKS)
        announcements.append(entry)
    return {"type": "announce", "announcements": announcements}


def _card_count(rng: random.Random, sides: int) -> dict[str, Any]:
    if sides == 2:
        return {"type": "end_hand", "cards": [rng.randint(8, 32), None]}
    first = rng.randint(6, 20)
    return {"type": "end_hand", "cards": [first, rng.randint(6, 34 - first), None]}


def next_event(rng: random.Random, state: engine.State, long: bool = False) -> dict[str, Any]:
    """A plausible next tap of the scorer in `state` (not finished)."""
    setup = state.setup
    sides = setup.side_count
    if long:
        top = max(state.scores)
        if top >= setup.rules.target - SAFETY_MARGIN:
            side = state.scores.index(top)
            return {"type": "adjust", "side": side, "points": -min(50, top),
                    "note": "bench: keep the long game going"}
    if state.awaiting_reveal:
        pool = state.pool
        return {"type": "reveal", "ranks": [
            rng.choice(engine.RANKS) if s in pool.contenders else None for s in range(sides)
        ]}
    if not state.announced and not state.played and rng.random() < 0.35:
        return _announce(rng, setup)
    if state.played and rng.random() < 0.22:
        # The deal's cards are all played.
        return _card_count(rng, sides) if state.last_deal else {"type": "next_deal"}
    chain = state.chain
    roll = rng.random()
    if chain is not None and chain.step < 2 and roll < 0.2:
        side = rng.choice([s for s in range(sides) if s != chain.side])
        return {"type": "hit", "side": side, "value": setup.rules.hits[chain.step + 1]}
    if chain is not None and roll < 0.45:
        return {"type": "chain_end"}
    if roll < 0.65:
        event: dict[str, Any] = {"type": "missa", "side": rng.randrange(sides)}
        if state.last_deal and rng.random() < 0.15:
            event["last_card"] = True
        return event
    return {"type": "hit", "side": rng.randrange(sides), "value": setup.rules.hits[0]}


def play(
    rng: random.Random, setup: engine.Setup, limit: int | None = None, long: bool = False,
) -> Iterator[tuple[dict[str, Any], engine.State]]:
    """A game's taps, each with the state after it: until the game is
    finished, or `limit` taps. A `long` game (set up with
    `new_game_body(long=True)`) never finishes."""
    state = engine.new_game(setup)
    count = 0
    while not state.finished and (limit is None or count < limit):
        event = next_event(rng, state, long)
        state = engine.apply(state, engine.parse_event(event, setup))
        count += 1
        yield event, state


def game(rng: random.Random, setup: engine.Setup, limit: int | None = None,
         long: bool = False) -> list[dict[str, Any]]:
    return [event for event, _ in play(rng, setup, limit, long)]


# Taps valid in any state of a game that is not finished: what the
# game-length row posts (and undoes) again and again on the same state.
ALWAYS_VALID_TAPS = (
    {"type": "hit", "side": 0, "value": 1},
    {"type": "missa", "side": 1},
    {"type": "hit", "side": 1, "value": 1},
    {"type": "missa", "side": 0},
)
