"""A game's state after every EVERY standing events, kept beside its log, so
that what needs the game at some point of it folds a few events from the
nearest snapshot instead of the whole log: an undo (the state before the
last event), a board (its last events, with what each gave), a page of a
review (its events, numbered, and the score after each for the chart).

A cache of the log, which stays the truth. A game's snapshots are always
those of its first k multiples of EVERY standing events, k ≥ 0 (a game
stored before they existed has none, and gets them as it goes on): an event
that reaches a multiple writes its snapshot (and any missing before it); an
undo drops the ones that folded the event it takes back; a correction drops
them all and writes them again from its replay. So a snapshot at record
`seq` is never reached by a later correction or undo of a record before it,
and the standing events after it are the log's records after `seq`, folded.
Each snapshot also keeps its trail: for each of its EVERY events, the hand
it was recorded in and the scores after it (the review's chart).

Callers hold the write transaction for the writes (`db.write_transaction`).
"""

import sqlite_utils

from .. import engine
from ..engine.log import fold_corrections, standing_of
from ..storage import store

EVERY = 16


def events_after(db: sqlite_utils.Database, game_id: str, setup: engine.Setup, seq: int,
                 through: int | None = None) -> list[tuple[int, engine.Event]]:
    """The standing events after record `seq` (a snapshot's, or 0), up to
    record `through` when given, as corrected: (seq, event)."""
    records = store.standing_records(db, game_id, after=seq, through=through)
    if through is not None:  # a correction after `through` may name an event before it
        records = [*records, *store.corrections_after(db, game_id, through)]
    return [(s, engine.recorded_event(event, setup))
            for s, event in standing_of(fold_corrections(records))]


def nearest(db: sqlite_utils.Database, game_id: str, setup: engine.Setup,
            events: int | None = None, before_seq: int | None = None
            ) -> tuple[int, int, engine.State]:
    """The latest snapshot folding at most `events` standing events (or
    only records before `before_seq`): (events, seq, state); the game's
    start, (0, 0, new game), when there is none."""
    row = store.snapshot_at_most(db, game_id, events, before_seq)
    if row is None:
        return 0, 0, engine.new_game(setup)
    return row[0], row[1], engine.State.from_snapshot(row[2], setup)


def tail(db: sqlite_utils.Database, game_id: str, setup: engine.Setup, standing: int,
         count: int) -> tuple[int, int, engine.State, list[tuple[int, engine.Event]]]:
    """The last `count` (or more) of the game's `standing` events, from the
    nearest snapshot before them: (how many events come before them, the
    record of the last of those (0: none), the state after them, and the
    events: (seq, event))."""
    before, seq, state = nearest(db, game_id, setup, events=max(0, standing - count))
    return before, seq, state, events_after(db, game_id, setup, seq)


def after_event(db: sqlite_utils.Database, game_id: str, setup: engine.Setup,
                state: engine.State) -> None:
    """A standing event was appended, leaving `state`: its snapshot when it
    reaches a multiple of EVERY, with any missing before it."""
    if state.events and state.events % EVERY == 0:
        catch_up(db, game_id, setup, state.events)


def after_undo(db: sqlite_utils.Database, game_id: str, undone_seq: int) -> None:
    """The event of record `undone_seq` was taken back."""
    store.drop_snapshots_from(db, game_id, undone_seq)


def after_correction(db: sqlite_utils.Database, game_id: str, setup: engine.Setup,
                     standing: int) -> None:
    """The log was corrected and now holds `standing` standing events."""
    store.drop_snapshots_from(db, game_id, 0)
    catch_up(db, game_id, setup, standing // EVERY * EVERY)


def catch_up(db: sqlite_utils.Database, game_id: str, setup: engine.Setup, upto: int) -> None:
    """Write the game's missing snapshots up to `upto` standing events,
    folding from the latest one there is."""
    have, seq, state = nearest(db, game_id, setup, events=upto)
    if have >= upto:
        return
    trail: list = []
    for event_seq, event in events_after(db, game_id, setup, seq):
        hand = state.hand
        state = engine.apply(state, event)
        trail.append([hand, list(state.scores)])
        if state.events % EVERY == 0:
            store.insert_snapshot(db, game_id, state.events, event_seq, state.snapshot(), trail)
            trail = []
            if state.events >= upto:
                return


def score_trail(db: sqlite_utils.Database, game_id: str, setup: engine.Setup
                ) -> list[tuple[int, tuple[int, ...]]]:
    """For each standing event of the game, oldest first, the hand it was
    recorded in and the scores after it: from the snapshots' trails and the
    few events after the last one."""
    rows = store.snapshot_trails(db, game_id)
    if any(events != EVERY * (index + 1) for index, (events, _, _) in enumerate(rows)):
        rows = []  # not as they are always written: fold the whole log
    trail = [(hand, tuple(scores)) for _, _, kept in rows for hand, scores in kept]
    _, seq, state = nearest(db, game_id, setup, events=rows[-1][0]) if rows else (
        0, 0, engine.new_game(setup))
    for _, event in events_after(db, game_id, setup, seq):
        hand = state.hand
        state = engine.apply(state, event)
        trail.append((hand, state.scores))
    return trail
