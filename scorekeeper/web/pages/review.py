"""A game looked back on, as its page shows it: a page of its log's events
(service/review.py) grouped by hand and deal, corrected, removed and undone
events shown as such; the score's progression for the chart."""

from dataclasses import dataclass, field

from ... import engine
from ...service.review import Entry, ReviewPage
from . import charts

__all__ = ["Deal", "Entry", "Hand", "Review", "review_of"]


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
    setup: engine.Setup
    hands: list[Hand]  # the page's
    chart: charts.LineChart | None  # None before the first standing event
    page: int = 1
    pages: int = 1

    @property
    def entries(self) -> list[Entry]:
        return [e for hand in self.hands for deal in hand.deals for e in deal.entries]


def review_of(found: ReviewPage) -> Review:
    """The review page of a page of the game's log."""
    chart = _chart(found.setup, found.trail) if found.trail else None
    return Review(found.setup, _group(found.entries), chart, found.number, found.pages)


def _group(entries: list[Entry]) -> list[Hand]:
    """By hand and deal."""
    hands: list[Hand] = []
    for entry in entries:
        if not hands or hands[-1].number != entry.hand:
            hands.append(Hand(entry.hand))
        hand = hands[-1]
        if not hand.deals or hand.deals[-1].number != entry.deal:
            hand.deals.append(Deal(entry.deal))
        hand.deals[-1].entries.append(entry)
        if entry.step is not None:
            hand.scores = entry.step.scores
    return hands


def _chart(setup: engine.Setup, trail: list[tuple[int, tuple[int, ...]]]) -> charts.LineChart:
    scores = [(0,) * setup.side_count] + [scores for _, scores in trail]
    starts, hand = [(0, 1)], 1
    for index, (recorded_in, _) in enumerate(trail):
        if recorded_in != hand:
            hand = recorded_in
            starts.append((index, hand))
    return charts.score_chart(scores, setup.rules.target, starts)
