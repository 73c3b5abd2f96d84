"""A game looked back on: every event of its log grouped by hand and deal,
with what it gave and the running score; corrected, removed and undone
events shown as such; the score's progression for the chart."""

from dataclasses import dataclass, field
from typing import Any, Iterable

from . import charts, rules, store
from .rules.moves import Step, timeline

STANDING, CORRECTED, REMOVED, UNDONE = "standing", "corrected", "removed", "undone"


@dataclass(frozen=True, slots=True)
class Entry:
    seq: int
    number: int | None  # its place among the standing events, from 1; None if not standing
    event: rules.Event  # as it stands (as it was, when removed or undone)
    status: str
    original: rules.Event | None  # as first recorded, when corrected
    step: Step | None  # what it gave and the score after it, when standing
    recorded_at: str

    @property
    def standing(self) -> bool:
        return self.status in (STANDING, CORRECTED)


@dataclass
class Deal:
    number: int
    entries: list[Entry] = field(default_factory=list)


@dataclass
class Hand:
    number: int
    deals: list[Deal] = field(default_factory=list)
    scores: tuple[int, ...] | None = None  # after the hand's last standing event


@dataclass(frozen=True, slots=True)
class Review:
    setup: rules.Setup
    hands: list[Hand]
    steps: list[Step]
    chart: charts.LineChart

    @property
    def entries(self) -> list[Entry]:
        return [e for hand in self.hands for deal in hand.deals for e in deal.entries]


def build(setup: rules.Setup, log: Iterable[dict[str, Any]], state: rules.State) -> Review:
    """The review of a game from its whole log (store.log) and current state."""
    log = list(log)
    effective = store.effective(
        (r["seq"], r["action"], r["payload"]) for r in log if r["undone_by"] is None
    )
    standing = [(seq, rules.recorded_event(e, setup)) for seq, e in effective.items() if e]
    steps = timeline(setup, [event for _, event in standing])
    step_of = {seq: (number, step) for number, ((seq, _), step)
               in enumerate(zip(standing, steps), 1)}

    entries = []
    for record in log:
        if record["action"] != "event":
            continue
        seq, first = record["seq"], rules.recorded_event(record["payload"], setup)
        if seq in step_of:
            number, step = step_of[seq]
            corrected = effective[seq] != record["payload"]
            entries.append(Entry(seq, number, step.event, CORRECTED if corrected else STANDING,
                                 first if corrected else None, step, record["created_at"]))
        else:
            status = UNDONE if record["undone_by"] is not None else REMOVED
            entries.append(Entry(seq, None, first, status, None, None, record["created_at"]))
    return Review(setup, _group(entries, state), steps, _chart(setup, steps))


def _group(entries: list[Entry], state: rules.State) -> list[Hand]:
    """By hand and deal. An event that is not standing goes where the game
    stood when it was recorded: with the next standing event (or the end)."""
    hands: list[Hand] = []
    place = (state.hand, state.deal)
    placed = []
    for entry in reversed(entries):
        if entry.step is not None:
            place = (entry.step.hand, entry.step.deal)
        placed.append((place, entry))
    for (hand_number, deal_number), entry in reversed(placed):
        if not hands or hands[-1].number != hand_number:
            hands.append(Hand(hand_number))
        hand = hands[-1]
        if not hand.deals or hand.deals[-1].number != deal_number:
            hand.deals.append(Deal(deal_number))
        hand.deals[-1].entries.append(entry)
        if entry.step is not None:
            hand.scores = entry.step.scores
    return hands


def _chart(setup: rules.Setup, steps: list[Step]) -> charts.LineChart:
    scores = [(0,) * setup.side_count] + [step.scores for step in steps]
    starts, hand = [(0, 1)], 1
    for index, step in enumerate(steps):
        if step.hand != hand:
            hand = step.hand
            starts.append((index, hand))
    return charts.score_chart(scores, setup.rules.target, starts)
