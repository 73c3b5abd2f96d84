"""Per-game summaries, kept up to date at write time so that the history and
the statistics are plain SQL over a few rows per game, never a replay.

`games` carries finished, winner, hands, event_count, last_event_at (and
deleted_at, the bin); `game_sides` one row per side: its name, casefolded
name key, score, won, margin and how often each kind of gain came to it.
Callers hold the write transaction (`db.write_transaction`).
"""

from functools import lru_cache
from typing import Iterable

import sqlite_utils

from .. import engine
from ..engine import tally
from ..engine.names import name_key

# Whether a game's sides count in the statistics: over, and not in the bin.
COUNTED = "SELECT finished = 1 AND deleted_at IS NULL FROM games WHERE id = ?"


def create_sides(db: sqlite_utils.Database, game_id: str, setup: engine.Setup) -> None:
    """A new game's side rows: nothing scored yet."""
    db.conn.executemany(
        "INSERT INTO game_sides (game_id, side, name, name_key) VALUES (?, ?, ?, ?)",
        [(game_id, side, name, name_key(name)) for side, name in enumerate(setup.sides)],
    )


def game_columns(state: engine.State, last_event_at: str | None) -> dict:
    """The summary columns of the game's own row."""
    return {"finished": int(state.finished), "winner": state.winner,
            "hands": tally.hands_played(state), "event_count": state.events,
            "last_event_at": last_event_at}


def _save_game(db, game_id: str, state: engine.State, last_event_at: str | None) -> None:
    columns = game_columns(state, last_event_at)
    db.execute(
        f"UPDATE games SET {', '.join(f'{name} = ?' for name in columns)} WHERE id = ?",
        [*columns.values(), game_id],
    )


def _save_sides(db, game_id: str, state: engine.State, counts: list[dict[str, int]],
                absolute: bool, recount: bool = True) -> None:
    """Every side's row, in one statement: its score, won and margin from
    `state`; `counts` replace the stored ones when `absolute`, else add to
    them; `recount`: whether the game's counting in the statistics may have
    changed (a tap that does not end the game leaves it as it was)."""
    came = set().union(*counts)
    names = tuple(name for name in tally.COUNTS if name in came)
    lines = tally.side_lines(state)
    params = ([line.score for line in lines] + [int(line.won) for line in lines]
              + [line.margin for line in lines])
    for name in names:
        params += [side.get(name, 0) for side in counts]
    if recount:
        params.append(game_id)
    params.append(game_id)
    db.execute(_sides_sql(len(lines), names, absolute, recount), params)


@lru_cache(maxsize=256)
def _sides_sql(sides: int, names: tuple[str, ...], absolute: bool, recount: bool) -> str:
    """One UPDATE for all the sides of a game: a tap ran one per side, each a
    statement it paid for beyond a bare INSERT (docs/PERFORMANCE.md)."""
    def by_side(otherwise: str) -> str:
        whens = " ".join(f"WHEN {side} THEN ?" for side in range(sides))
        return f"CASE side {whens} ELSE {otherwise} END"

    assignments = [f"{column} = {by_side(column)}" for column in ("score", "won", "margin")]
    assignments += [f"{name} = {by_side(name)}" if absolute else f"{name} = {name} + {by_side('0')}"
                    for name in names]
    if recount:
        assignments.append(f"counted = ({COUNTED})")
    return f"UPDATE game_sides SET {', '.join(assignments)} WHERE game_id = ?"


def after_event(db: sqlite_utils.Database, game_id: str, before: engine.State,
                after: engine.State) -> None:
    """A plain event was recorded: add what it scored. O(sides), no replay.
    The game's own row (`game_columns`) is saved with its state by the caller."""
    ended = after.finished != before.finished
    if not after.gains and not ended:
        return  # nothing scored: the side rows stand as they are
    counts = tally.counts_of(after.gains, after.setup.rules, after.setup.side_count)
    _save_sides(db, game_id, after, counts, absolute=False, recount=ended)


def after_undo(db: sqlite_utils.Database, game_id: str, undone: engine.State,
               after: engine.State, last_event_at: str | None) -> None:
    """The last event was taken back: take its gains (`undone.gains`) off."""
    _save_game(db, game_id, after, last_event_at)
    counts = tally.counts_of(undone.gains, after.setup.rules, after.setup.side_count)
    negative = [{name: -count for name, count in side.items()} for side in counts]
    _save_sides(db, game_id, after, negative, absolute=False)


def rebuild(db: sqlite_utils.Database, game_id: str, setup: engine.Setup,
            events: Iterable[engine.Event], last_event_at: str | None,
            replayed: tuple[engine.State, list[dict[str, int]]] | None = None) -> engine.State:
    """The whole summary again from the game's standing events (after a
    correction, an import, the migration); returns the replayed state.
    `replayed`: tally.replay_counts(setup, events) when the caller has it
    already (an import replays outside the write lock)."""
    state, totals = replayed or tally.replay_counts(setup, events)
    _save_game(db, game_id, state, last_event_at)
    _save_sides(db, game_id, state, totals, absolute=True)
    return state


def recount(db: sqlite_utils.Database, game_id: str) -> None:
    """The game went into the bin or came out: whether its sides count."""
    db.execute(f"UPDATE game_sides SET counted = ({COUNTED}) WHERE game_id = ?",
               [game_id, game_id])


def event_time(db: sqlite_utils.Database, game_id: str, seq: int | None) -> str | None:
    """When the log record `seq` was written (None for no record)."""
    if seq is None:
        return None
    row = db.execute(
        "SELECT created_at FROM events WHERE game_id = ? AND seq = ?", [game_id, seq]
    ).fetchone()
    return None if row is None else row[0]
