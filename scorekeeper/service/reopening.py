"""A finished game stays finished unless asked.

Undo on a finished game takes its win back and reopens it: its players'
ratings and a club night's standings follow. A page asks first, except
right after the winning tap, when a table that mis-tapped the last point
takes it back with one tap. Both are decided here from the game's log; the
pages word them. No Flask.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlite_utils

from .. import engine
from ..storage import store
from . import games, nights

# Long enough to see the result, notice the wrong last point and tap Undo;
# after that the result is what the table, its ratings and its night count on.
AT_ONCE = timedelta(seconds=60)
# The result drawn this soon after the winning tap is that tap's answer (or
# a reload of it): only such a page offers the one-tap Undo. The same game
# opened a little later from the history, a night or another phone asks
# first (a newcomer reopened a game won 40 s before, from the history).
SHOWN_AT_ONCE = timedelta(seconds=10)


def undo_at_once(db: sqlite_utils.Database, game: games.Game, seen: int | None,
                 now: str, within: timedelta = AT_ONCE) -> bool:
    """Whether an Undo of the finished `game`, tapped at `now` on a page of
    version `seen`, takes its win back without asking: the game's last
    record is the tap that won it (an event, not a correction or an import),
    made at most `within` before `now`, and the page followed that very
    record (its version; nothing was recorded since). A page drawn at `now`
    offers that Undo `within` SHOWN_AT_ONCE."""
    if not game.state.finished or seen != game.version:
        return False
    return won_just_now(store.last_record(db, game.id), now, within)


def won_just_now(record: tuple[str, dict, str] | None, now: str,
                 within: timedelta = AT_ONCE) -> bool:
    """Whether the log's last record (action, payload, created_at) is an
    event made at most `within` before `now`."""
    if record is None or record[0] != "event":
        return False
    try:
        since = datetime.fromisoformat(now) - datetime.fromisoformat(record[2])
    except (TypeError, ValueError):  # an imported game's time without its time zone
        return False
    return timedelta(0) <= since <= within


@dataclass(frozen=True, slots=True)
class Reopening:
    """What an Undo of a finished game changes, for the page that asks."""

    game: games.Game
    undone: engine.Event  # the event it takes back: the one that won
    winner: str  # the side whose win no longer counts
    night: nights.Night | None  # the club night whose standings follow, if any


def reopening(db: sqlite_utils.Database, game: games.Game) -> Reopening | None:
    """What undoing the finished `game`'s last event changes; None when the
    game is not finished (an Undo then reopens nothing)."""
    standing = games.standing_events(db, game.id)
    if not game.state.finished or not standing:
        return None
    undone = engine.recorded_event(standing[-1][1], game.setup)
    night = nights.night_of_games(db, [game.id]).get(game.id)
    return Reopening(game, undone, game.setup.sides[game.state.winner], night)
