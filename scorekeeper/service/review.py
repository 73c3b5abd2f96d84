"""A game looked back on, a page at a time: every event of its log (undone
and removed ones too) in the order recorded, each standing one numbered,
with what it gave, the running score and where in the game it stood; and
the score after every standing event, for the chart.

A page folds its own events from the nearest snapshot before it
(snapshots.py), and the chart reads the snapshots' trails: a page costs what
its PAGE_ENTRIES entries cost, however long the game.
"""

from dataclasses import dataclass

import sqlite_utils

from .. import engine
from ..engine.log import fold_corrections
from ..engine.moves import Step, Timeline
from ..storage import store
from ..storage.db import read_transaction
from . import snapshots
from .games import Game
from .history import NoSuchPage

STANDING, CORRECTED, REMOVED, UNDONE = "standing", "corrected", "removed", "undone"

# A game's events by pages of this many (a normal game fits on one): a game of
# 20,000 events made one page of 9.8 MB.
PAGE_ENTRIES = 300
# How many records past a page are read at a time to find what its last
# events still need: whether their chain scored, where a taken-back one stood.
LOOK_AHEAD = 64


@dataclass(frozen=True, slots=True)
class Entry:
    seq: int
    number: int | None  # its place among the standing events, from 1; None if not standing
    event: engine.Event  # as it stands (as it was, when removed or undone)
    status: str
    original: engine.Event | None  # as first recorded, when corrected
    step: Step | None  # what it gave and the score after it, when standing
    recorded_at: str
    # The hand and deal it belongs to; one not standing goes where the game
    # stood when it was recorded: with the next standing event (or the end).
    hand: int
    deal: int

    @property
    def standing(self) -> bool:
        return self.status in (STANDING, CORRECTED)


@dataclass(frozen=True, slots=True)
class ReviewPage:
    setup: engine.Setup
    entries: list[Entry]  # the page's, in the order recorded
    # For every standing event of the game, oldest first: the hand it was
    # recorded in and the scores after it.
    trail: list[tuple[int, tuple[int, ...]]]
    number: int = 1
    pages: int = 1


def review_page(db: sqlite_utils.Database, game: Game, number: int = 1) -> ReviewPage:
    """Page `number` (from 1) of the game's review; NoSuchPage past the last."""
    with read_transaction(db):
        count = store.event_record_count(db, game.id)
        pages = max(1, -(-count // PAGE_ENTRIES))
        if number > pages:
            raise NoSuchPage(pages)
        records = store.event_records(db, game.id, (number - 1) * PAGE_ENTRIES, PAGE_ENTRIES)
        return ReviewPage(game.setup, _entries(db, game, records),
                    snapshots.score_trail(db, game.id, game.setup), number, pages)


def review_entry(db: sqlite_utils.Database, game: Game, seq: int) -> Entry | None:
    """The review's entry of the game's event record `seq`, or None."""
    with read_transaction(db):
        record = store.event_record(db, game.id, seq)
        return None if record is None else _entries(db, game, [record])[0]


def _entries(db: sqlite_utils.Database, game: Game, records: list[dict]) -> list[Entry]:
    """The entries of these event records (consecutive, in the order
    recorded), folded from the nearest snapshot before the first of them."""
    if not records:
        return []
    setup = game.setup
    first, last = records[0]["seq"], records[-1]["seq"]
    if store.has_placed(db, game.id):
        # A record folded before older ones (docs/BOARD.md, "Two phones"):
        # the records of a page are not one stretch of the fold, so the
        # whole log is folded (such a game is rare, and a table's length).
        return _entries_of(game, records, fold_corrections(store.standing_records(db, game.id)),
                           0, engine.new_game(setup), whole=True)
    before, since, state = snapshots.nearest(db, game.id, setup, before_seq=first)
    effective = fold_corrections([*store.standing_records(db, game.id, after=since, through=last),
                                  *store.corrections_after(db, game.id, last)])
    return _entries_of(game, records, effective, before, state, db=db)


def _entries_of(game: Game, records: list[dict], effective: dict, before: int,
                state: engine.State, db: sqlite_utils.Database | None = None,
                whole: bool = False) -> list[Entry]:
    """The entries of `records` from the standing events `effective` folded
    from `state` (after `before` events); past the last record, folded on
    from the log (`db`) unless `whole` (the whole log is in `effective`)."""
    setup, last = game.setup, records[-1]["seq"]
    folding = Timeline(state)
    numbered = {}  # seq: (number, index of its step)
    for number, (seq, payload) in enumerate(
            ((s, e) for s, e in effective.items() if e is not None), before + 1):
        numbered[seq] = (number, len(folding.steps))
        folding.add(engine.recorded_event(payload, setup))
    place = (game.state.hand, game.state.deal) if whole else _look_ahead(
        db, game, folding, last, placing=last not in numbered)

    entries = []
    for record in reversed(records):  # each taken-back one goes where the next standing one is
        seq, payload = record["seq"], record["payload"]
        if seq in numbered:
            number, index = numbered[seq]
            step = folding.steps[index]
            corrected = effective[seq] != payload
            entries.append(Entry(
                seq, number, step.event, CORRECTED if corrected else STANDING,
                engine.recorded_event(payload, setup) if corrected else None, step,
                record["created_at"], step.hand, step.deal))
            place = (step.hand, step.deal)
        else:
            status = UNDONE if record["undone_by"] is not None else REMOVED
            entries.append(Entry(seq, None, engine.recorded_event(payload, setup), status, None,
                                 None, record["created_at"], *place))
    return entries[::-1]


def _look_ahead(db: sqlite_utils.Database, game: Game, folding: Timeline, last: int,
                placing: bool) -> tuple[int, int]:
    """Fold on past record `last` while a chain the events folded opened is
    still open (their notes say whether it scored), and, when `placing`,
    until the first standing event after it: its hand and deal, or the
    game's as it is now when there is none."""
    place = (game.state.hand, game.state.deal)
    after = last
    while (folding.waiting or placing) and after < game.version:
        through = after + LOOK_AHEAD
        for _, event in snapshots.events_after(db, game.id, game.setup, after, through):
            step = folding.add(event)
            if placing:
                place, placing = (step.hand, step.deal), False
            if not folding.waiting and not placing:
                break
        after = through
    return place
