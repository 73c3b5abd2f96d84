"""A game looked back on: every event of its log grouped by hand and deal,
with what it gave and the running score; corrected, removed and undone
events shown as such; the score's progression for the chart."""

from dataclasses import dataclass, field
from typing import Any, Iterable

from . import charts
from .. import engine
from ..engine.log import fold_corrections
from ..engine.moves import Step, timeline

STANDING, CORRECTED, REMOVED, UNDONE = "standing", "corrected", "removed", "undone"


@dataclass(frozen=True, slots=True)
class Entry:
    seq: int
    number: int | None  # its place among the standing events, from 1; None if not standing
    event: engine.Event  # as it stands (as it was, when removed or undone)
    status: str
    original: engine.Event | None  # as first recorded, when corrected
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


# A game's events by pages of this many (a normal game fits on one): a game of
# 20,000 events made one page of 9.8 MB.
PAGE_ENTRIES = 300


class NoSuchPage(Exception):
    def __init__(self, pages: int):
        super().__init__(pages)
        self.pages = pages


@dataclass(frozen=True, slots=True)
class Review:
    setup: engine.Setup
    hands: list[Hand]  # the page's (every hand when not paged)
    steps: list[Step]
    chart: charts.LineChart
    page: int = 1
    pages: int = 1

    @property
    def entries(self) -> list[Entry]:
        return [e for hand in self.hands for deal in hand.deals for e in deal.entries]


def build(setup: engine.Setup, log: Iterable[dict[str, Any]], state: engine.State,
          page: int | None = None) -> Review:
    """The review of a game from its whole log (store.log) and current state;
    with `page` (from 1), only that page's entries, PAGE_ENTRIES of them
    (NoSuchPage past the last)."""
    log = list(log)
    effective = fold_corrections(
        (r["seq"], r["action"], r["payload"]) for r in log if r["undone_by"] is None
    )
    standing = [(seq, engine.recorded_event(e, setup)) for seq, e in effective.items() if e]
    steps = timeline(setup, [event for _, event in standing])
    step_of = {seq: (number, step) for number, ((seq, _), step)
               in enumerate(zip(standing, steps), 1)}

    entries = []
    for record in log:
        if record["action"] != "event":
            continue
        seq = record["seq"]
        if seq in step_of:
            number, step = step_of[seq]
            corrected = effective[seq] != record["payload"]
            first = engine.recorded_event(record["payload"], setup) if corrected else None
            entries.append(Entry(seq, number, step.event, CORRECTED if corrected else STANDING,
                                 first, step, record["created_at"]))
        else:
            first = engine.recorded_event(record["payload"], setup)
            status = UNDONE if record["undone_by"] is not None else REMOVED
            entries.append(Entry(seq, None, first, status, None, None, record["created_at"]))
    placed = _places(entries, state)
    if page is None:
        return Review(setup, _group(placed), steps, _chart(setup, steps))
    pages = max(1, -(-len(placed) // PAGE_ENTRIES))
    if page > pages:
        raise NoSuchPage(pages)
    shown = placed[(page - 1) * PAGE_ENTRIES:page * PAGE_ENTRIES]
    return Review(setup, _group(shown), steps, _chart(setup, steps), page, pages)


def _places(entries: list[Entry], state: engine.State) -> list[tuple[tuple[int, int], Entry]]:
    """Each entry with its (hand, deal). An event that is not standing goes
    where the game stood when it was recorded: with the next standing event
    (or the end)."""
    place = (state.hand, state.deal)
    placed = []
    for entry in reversed(entries):
        if entry.step is not None:
            place = (entry.step.hand, entry.step.deal)
        placed.append((place, entry))
    return placed[::-1]


def _group(placed: list[tuple[tuple[int, int], Entry]]) -> list[Hand]:
    """By hand and deal."""
    hands: list[Hand] = []
    for (hand_number, deal_number), entry in placed:
        if not hands or hands[-1].number != hand_number:
            hands.append(Hand(hand_number))
        hand = hands[-1]
        if not hand.deals or hand.deals[-1].number != deal_number:
            hand.deals.append(Deal(deal_number))
        hand.deals[-1].entries.append(entry)
        if entry.step is not None:
            hand.scores = entry.step.scores
    return hands


def _chart(setup: engine.Setup, steps: list[Step]) -> charts.LineChart:
    scores = [(0,) * setup.side_count] + [step.scores for step in steps]
    starts, hand = [(0, 1)], 1
    for index, step in enumerate(steps):
        if step.hand != hand:
            hand = step.hand
            starts.append((index, hand))
    return charts.score_chart(scores, setup.rules.target, starts)
