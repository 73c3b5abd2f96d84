"""What a game's gains add up to, side by side: the figures the history and
the statistics show. Pure: plain data in, plain data out, no SQL."""

from dataclasses import dataclass
from typing import Iterable

from . import Event, Gain, HouseRules, Setup, State, apply, new_game

# A hit counts by its step in the chain, whatever the rules make it worth.
HIT_STEPS = ("bount", "khamsa", "aachra")
# How often each kind of gain came to a side; a hit that cleared the table
# (hit_missa) counts as its hit and as a missa.
COUNTS = ("ronda", "double_ronda", "tringa", "missa") + HIT_STEPS + (
    "cards", "adjust", "hidden_ronda", "dealer_last_trick",
)


def counts_of(gains: Iterable[Gain], rules: HouseRules, sides: int) -> list[dict[str, int]]:
    """Per side, how many gains of each kind (only the kinds that came)."""
    counts: list[dict[str, int]] = [{} for _ in range(sides)]
    for gain in gains:
        names = _names_of(gain, rules)
        for side, points in enumerate(gain.points):
            if points:
                for name in names:
                    counts[side][name] = counts[side].get(name, 0) + 1
    return counts


def _names_of(gain: Gain, rules: HouseRules) -> tuple[str, ...]:
    if gain.kind in ("hit", "hit_missa"):
        step = rules.hit_step(gain.value) if gain.value is not None else -1
        hit = (HIT_STEPS[step],) if step >= 0 else ()
        return hit + (("missa",) if gain.kind == "hit_missa" else ())
    return (gain.kind,) if gain.kind in COUNTS else ()


def margins(scores: tuple[int, ...]) -> list[int]:
    """Each side's lead over the best of the others (negative when behind)."""
    return [
        score - max(other for s, other in enumerate(scores) if s != side)
        for side, score in enumerate(scores)
    ]


def hands_played(state: State) -> int:
    """Hands counted so far, the one the game ended in included."""
    return state.hand - 1 + int(state.finished)


@dataclass(frozen=True, slots=True)
class SideLine:
    score: int
    won: bool
    margin: int


def side_lines(state: State) -> list[SideLine]:
    """Each side's score, whether it won, and its margin, from the state alone."""
    return [
        SideLine(score, state.winner == side, margin)
        for side, (score, margin) in enumerate(zip(state.scores, margins(state.scores)))
    ]


def add(into: dict[str, int], more: dict[str, int], sign: int = 1) -> None:
    for name, count in more.items():
        into[name] = into.get(name, 0) + sign * count


def totals_of(setup: Setup, states: Iterable[State]) -> list[dict[str, int]]:
    """Per side, every kind of gain counted (all of COUNTS, zeros included)
    over the states a game went through, each after one of its events."""
    totals: list[dict[str, int]] = [dict.fromkeys(COUNTS, 0) for _ in setup.sides]
    for state in states:
        for side, counts in enumerate(counts_of(state.gains, setup.rules, setup.side_count)):
            add(totals[side], counts)
    return totals


def replay_counts(setup: Setup, events: Iterable[Event]) -> tuple[State, list[dict[str, int]]]:
    """The state after `events` and its totals_of. Raises the engine's errors."""
    states = [new_game(setup)]
    for event in events:
        states.append(apply(states[-1], event))
    return states[-1], totals_of(setup, states[1:])
