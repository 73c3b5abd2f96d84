"""Per-game summaries, kept up to date at write time so that the history and
the statistics are plain SQL over a few rows per game, never a replay.

`games` carries finished, winner, hands, event_count, last_event_at (and
deleted_at, the bin); `game_sides` one row per side: its name, casefolded
name key, score, won, margin and how often each kind of gain came to it.
Callers hold the write transaction (`db.write_transaction`).
"""

from typing import Iterable

import sqlite_utils

from .. import engine
from ..engine import tally

# Whether a game's sides count in the statistics: over, and not in the bin.
COUNTED = "SELECT finished = 1 AND deleted_at IS NULL FROM games WHERE id = ?"


def name_key(name: str) -> str:
    """The key names are compared by: case and surrounding blanks ignored."""
    return name.strip().casefold()


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


def _save_side(db, game_id: str, side: int, line: tally.SideLine,
               counts: dict[str, int], absolute: bool) -> None:
    """One side's row; `counts` replace the stored ones when `absolute`, else add to them."""
    names = [name for name in counts if name in tally.COUNTS]
    assignments = ["score = ?", "won = ?", "margin = ?", f"counted = ({COUNTED})"] + [
        f"{name} = ?" if absolute else f"{name} = {name} + ?" for name in names
    ]
    db.execute(
        f"UPDATE game_sides SET {', '.join(assignments)} WHERE game_id = ? AND side = ?",
        [line.score, int(line.won), line.margin, game_id] + [counts[n] for n in names]
        + [game_id, side],
    )


def after_event(db: sqlite_utils.Database, game_id: str, before: engine.State,
                after: engine.State) -> None:
    """A plain event was recorded: add what it scored. O(sides), no replay.
    The game's own row (`game_columns`) is saved with its state by the caller."""
    if not after.gains and after.finished == before.finished:
        return  # nothing scored: the side rows stand as they are
    counts = tally.counts_of(after.gains, after.setup.rules, after.setup.side_count)
    for side, line in enumerate(tally.side_lines(after)):
        _save_side(db, game_id, side, line, counts[side], absolute=False)


def after_undo(db: sqlite_utils.Database, game_id: str, undone: engine.State,
               after: engine.State, last_event_at: str | None) -> None:
    """The last event was taken back: take its gains (`undone.gains`) off."""
    _save_game(db, game_id, after, last_event_at)
    counts = tally.counts_of(undone.gains, after.setup.rules, after.setup.side_count)
    for side, line in enumerate(tally.side_lines(after)):
        negative = {name: -count for name, count in counts[side].items()}
        _save_side(db, game_id, side, line, negative, absolute=False)


def rebuild(db: sqlite_utils.Database, game_id: str, setup: engine.Setup,
            events: Iterable[engine.Event], last_event_at: str | None,
            replayed: tuple[engine.State, list[dict[str, int]]] | None = None) -> engine.State:
    """The whole summary again from the game's standing events (after a
    correction, an import, the migration); returns the replayed state.
    `replayed`: tally.replay_counts(setup, events) when the caller has it
    already (an import replays outside the write lock)."""
    state, totals = replayed or tally.replay_counts(setup, events)
    _save_game(db, game_id, state, last_event_at)
    for side, line in enumerate(tally.side_lines(state)):
        _save_side(db, game_id, side, line, totals[side], absolute=True)
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
