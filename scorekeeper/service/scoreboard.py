"""What a scoreboard shows, and its taps: the one call a board page makes
(`shown`), and the one each of its taps and Undos makes (`tap`, `undo`).

A board's tap differs from an event posted to the JSON API in two ways
(docs/BOARD.md): made on a board that another phone has changed since, it is
judged by what it meant there (engine/stale.py), where the API refuses any
version but the current one (API.md); and the hand's last-card Missa counts
once a hand (engine/moves.py, last_card_again), which the API does not ask.
"""

from dataclasses import dataclass
from datetime import datetime

import sqlite_utils

from .. import engine
from ..engine.moves import Step, last_card_again, timeline
from ..engine.stale import UNDO, Record, stale_count, stale_tap
from ..storage import store
from ..storage.db import read_transaction, write_transaction
from . import games, nights, snapshots, tournaments

# The last events a board lists, newest first.
RECENT_STEPS = 6
# A page's own records are the scorer's own taps for this long: without
# JavaScript a second tap made before the first one's page is back (a Bount,
# then a Missa 60 ms later) comes from the same page, with the version
# before the first. The board drawn this soon after a record was just
# tapped (it settles: web/pages/board.py).
OWN_SECONDS = 3


@dataclass(frozen=True, slots=True)
class LastRecord:
    """The log's last record, undone or not (an undo is one too)."""

    action: str  # "event", "undo", "correction"
    payload: dict
    created_at: str


@dataclass(frozen=True, slots=True)
class Shown:
    """All a board shows of its game, read at one moment."""

    game: games.Game
    recent: tuple[Step, ...]  # the last RECENT_STEPS events, newest first
    last_step: Step | None  # the event Undo takes back
    last_record: LastRecord | None
    rematch: str | None  # once over: the id of its rematch, when one was started
    night: nights.Night | None  # once over: the club night it was a table of
    # Once over, at a round robin's round: its rematch is a friendly game,
    # not a table of the night (nights.rematch_counts).
    friendly_rematch: bool = False
    match: tournaments.MatchOf | None = None  # a knockout's or a Swiss night's match


def shown(db: sqlite_utils.Database, game_id: str) -> Shown:
    """The game as its board shows it; raises games.GameNotFound. Its last
    events are folded from the nearest snapshot (snapshots.py): the cost
    does not grow with the game."""
    with read_transaction(db):
        game = games.load(db, game_id)
        _, _, start, tail = snapshots.tail(db, game.id, game.setup, game.state.events,
                                           RECENT_STEPS)
        steps = timeline(game.setup, [event for _, event in tail], start)
        last = store.last_record(db, game_id)
        over = game.state.finished
        night = nights.night_of_games(db, [game_id]).get(game_id) if over else None
        return Shown(
            game, tuple(steps[::-1][:RECENT_STEPS]), steps[-1] if steps else None,
            None if last is None else LastRecord(*last),
            games.rematch_of(db, game_id) if over else None, night,
            night is not None and not nights.rematch_counts(db, nights.get(db, night.id), game_id),
            tournaments.match_of(db, game_id, over),
        )


def tap(db: sqlite_utils.Database, game_id: str, body: dict, key: str, now: str,
        seen: int | None, page: str | None = None, glanced: int | None = None,
        hand: int | None = None, after: tuple[str, ...] = (),
        known: frozenset[int] = frozenset()) -> games.Game:
    """Record a board's tap (`body`, an event's plain data), made on the
    board of version `seen`, from the page whose keys begin with `page`; a
    key already used answers the game as it is. `glanced`: the version that
    board showed a moment before the finger came down, when it had just
    followed another phone's taps (too soon to have seen them). `hand`: for
    a count, the hand its sheet showed. `after`: the pages (as `page`) of
    the phone's own taps that waited before this one, made after the board
    of version `seen` and so known to the finger, however long ago the
    server got them; `known`: the records its taps refused as already in
    the game stood as (StaleTap.stands), as much its own. Raises
    ScoringError subclasses: the engine's refusals, engine.stale.StaleTap,
    and the last card's Missa a second time in a hand."""
    with write_transaction(db):
        game, event, key_used = games.read_event(db, game_id, body, key)
        if key_used:
            return game
        refusal = last_card_again(game.state, event)
        if refusal is not None:
            raise refusal
        tap_data = engine.to_dict(event)
        if hand is not None and hand != game.state.hand:
            seq, counted = _count_of(db, game, hand)
            refusal = stale_count(tap_data, hand, game.state.hand, counted, seq)
            if refusal is not None:
                raise refusal
        _judge(db, game, tap_data, seen, page, now, glanced, after, known)
        state = engine.apply(game.state, event)
        return games.append_event(db, game, event, state, key, now)


def undo(db: sqlite_utils.Database, game_id: str, key: str, now: str, seen: int | None,
         page: str | None = None, glanced: int | None = None, after: tuple[str, ...] = (),
         known: frozenset[int] = frozenset()) -> games.Game:
    """A board's Undo, made on the board of version `seen`: takes back the
    last event that board showed, or nothing (nor when that board had
    followed the other phone's taps since version `glanced` too shortly
    before the touch to have been seen). `after`, `known`: as a tap's, for
    an Undo that waited behind the phone's own taps: the last of them is
    what it takes back."""
    with write_transaction(db):
        game = games.load(db, game_id)
        if store.key_used(db, game_id, key):
            return game
        _judge(db, game, UNDO, seen, page, now, glanced, after, known)
        return games.take_back(db, game, key, now)


def _count_of(db: sqlite_utils.Database, game: games.Game, hand: int
              ) -> tuple[int | None, dict | None]:
    """The count that ended hand `hand` (each count ends one hand), as
    stored, and its record; (None, None) when that hand has not ended."""
    counts = [(seq, event) for seq, event in games.standing_events(db, game.id)
              if event.get("type") == "end_hand"]
    return counts[hand - 1] if 0 < hand <= len(counts) else (None, None)


def _judge(db: sqlite_utils.Database, game: games.Game, tap_data: dict, seen: int | None,
           page: str | None, now: str, glanced: int | None = None,
           after: tuple[str, ...] = (), known: frozenset[int] = frozenset()) -> None:
    """Refuse a tap made on the board of version `seen` whose meaning the
    records since changed (engine/stale.py), leaving out the tapping
    phone's own: the page's records of the last moments, those of the pages
    its waiting taps were made on (`after`) and the records those taps
    stood as (`known`); the records between `glanced` and `seen` were on
    that board, but not yet seen."""
    if seen is None or (seen == game.version and glanced is None):
        return
    if seen > game.version:  # no board ever showed it
        games.check_version(game, seen)
    start = seen if glanced is None or not 0 <= glanced < seen else glanced
    records, mine = [], None
    for seq, action, payload, key, created_at in store.records_since(db, game.id, start):
        if seq not in known and not _own(key, created_at, page, now, after):
            records.append(Record(seq, action, payload))
        elif seq > seen:
            mine = seq
    since = [record for record in records if record.seq > seen]
    unseen = [record for record in records if record.seq <= seen]
    shown = None
    if since and tap_data is not UNDO:  # the game as the finger saw it, its own taps with it
        shown = _state_at(db, game, seen if mine is None else mine)
    refusal = stale_tap(game.setup, tap_data, since, unseen, shown, mine)
    if refusal is not None:
        raise refusal


def _state_at(db: sqlite_utils.Database, game: games.Game, seq: int) -> engine.State:
    """The game as its log stood at record `seq`: folded from the nearest
    snapshot before it (the records since change nothing before it, or the
    tap is refused for them first)."""
    _, start, state = snapshots.nearest(db, game.id, game.setup, before_seq=seq + 1)
    events = snapshots.events_after(db, game.id, game.setup, start, through=seq)
    return engine.replay(game.setup, [event for _, event in events], state)


def _own(key: str | None, created_at: str, page: str | None, now: str,
         after: tuple[str, ...] = ()) -> bool:
    """Whether a record was made from the page `page` within OWN_SECONDS,
    or from one of the pages `after` (a waiting tap's own taps before it)."""
    if key is None:
        return False
    if any(key.startswith(before) for before in after):
        return True
    return page is not None and key.startswith(page) and within(created_at, now, OWN_SECONDS)


def within(then: str, now: str, seconds: float) -> bool:
    """Whether the stored time `then` is at most `seconds` before `now`; a
    time that cannot be read (an imported game's) is not."""
    try:
        return (datetime.fromisoformat(now) - datetime.fromisoformat(then)).total_seconds() \
            <= seconds
    except (TypeError, ValueError):  # unreadable, or without its time zone
        return False
