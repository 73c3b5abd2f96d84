"""Questions a scoreboard asks the engine before the scorer taps.

Each answer comes from `apply` itself, so a button is disabled for exactly
the reason the engine would refuse the event, and a preview shows exactly
the points the event would give: no rule is decided twice.
"""

from dataclasses import dataclass
from typing import Iterable

from .engine import apply, new_game
from .errors import ScoringError
from .events import Event
from .state import Gain, Setup, State


def outcome(state: State, event: Event) -> tuple[State | None, ScoringError | None]:
    """The state `event` would lead to, or why the engine would refuse it."""
    try:
        return apply(state, event), None
    except ScoringError as error:
        return None, error


def refusal(state: State, event: Event) -> ScoringError | None:
    """Why the engine would refuse `event` now, or None if it would take it."""
    return outcome(state, event)[1]


def preview(state: State, event: Event) -> State | None:
    """The state `event` would lead to, or None if it would be refused."""
    return outcome(state, event)[0]


def points_of(gains: Iterable[Gain], sides: int) -> tuple[int, ...]:
    """What a list of gains gives each side, summed."""
    totals = [0] * sides
    for gain in gains:
        for side, points in enumerate(gain.points):
            totals[side] += points
    return tuple(totals)


@dataclass(frozen=True, slots=True)
class Step:
    """One event of a game's history, with what it gave and where it left the game."""

    event: Event
    gains: tuple[Gain, ...]
    scores: tuple[int, ...]
    hand: int  # the hand and deal the event was recorded in
    deal: int


def timeline(setup: Setup, events: Iterable[Event]) -> list[Step]:
    """Every event of a game in order, with its gains and the running score."""
    state = new_game(setup)
    steps = []
    for event in events:
        hand, deal = state.hand, state.deal
        state = apply(state, event)
        steps.append(Step(event, state.gains, state.scores, hand, deal))
    return steps
