"""What a scoreboard shows, and its taps: the one call a board page makes
(`shown`), and the one each of its taps and Undos makes (`tap`, `undo`).

A board's tap differs from an event posted to the JSON API in two ways
(docs/BOARD.md): it knows its phone, so the records it had not seen are
merged by one rule (engine/merge.py), where the API refuses any version but
the current one (API.md); and the hand's last-card Missa counts once a hand
(engine/moves.py, last_card_again), which the API does not ask.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import sqlite_utils

from .. import engine
from ..engine import merge
from ..engine.log import fold_corrections
from ..engine.moves import Step, last_card_again, timeline
from ..storage import store
from ..storage.db import read_transaction, write_transaction
from . import games, nights, snapshots, tournaments

# What a board's form means, read off the game inside the tap's write: its
# event and the version its finger saw.
Meaning = Callable[[games.Game], tuple[dict | None, int | None]]

# The last events a board lists, newest first.
RECENT_STEPS = 6


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
        return shown_of(db, games.load(db, game_id))


def shown_of(db: sqlite_utils.Database, game: games.Game) -> Shown:
    """What the board shows of `game`, as loaded (inside the caller's
    transaction: a tap's answer reads it in its own write)."""
    _, _, start, tail = snapshots.tail(db, game.id, game.setup, game.state.events,
                                       RECENT_STEPS)
    steps = timeline(game.setup, [event for _, event in tail], start)
    last = store.last_record(db, game.id)
    over = game.state.finished
    night = nights.night_of_games(db, [game.id]).get(game.id) if over else None
    return Shown(
        game, tuple(steps[::-1][:RECENT_STEPS]), steps[-1] if steps else None,
        None if last is None else LastRecord(*last),
        games.rematch_of(db, game.id) if over else None, night,
        night is not None and not nights.rematch_counts(db, nights.get(db, night.id), game.id),
        tournaments.match_of(db, game.id, over),
    )


@dataclass(frozen=True, slots=True)
class Tapped:
    """The game after a tap, what the tap did (merge.APPLY, SAME…), and
    what its board shows now, read in the tap's own transaction."""

    game: games.Game
    action: str
    shown: Shown


def tap(db: sqlite_utils.Database, game_id: str, body: dict | Meaning | None, key: str, now: str,
        seen: int | None, device: str | None = None, hand: int | None = None,
        undoes: int | None = None) -> Tapped:
    """Record a board's tap: `body`, an event's plain data, or None for an
    Undo (of record `undoes`, else of the last event its phone knew), or a
    function of the game, read in the write, that gives the event and its
    `seen` (a board's form, which needs the game to be read), made
    by `device` on the board of version `seen` (docs/BOARD.md, "Two
    phones": engine/merge.py decides, once). `hand`: for a count, the hand
    its sheet showed. A key already used answers the game as it is. Raises
    ScoringError subclasses: the engine's refusals, merge.MergeRefused, and
    the last card's Missa a second time in a hand."""
    with write_transaction(db):
        if callable(body):  # what the tap means, read off the game in this write
            game, key_used = games.game_and_key(db, game_id, key)
            body, seen = body(game)
            event = None if body is None else engine.parse_event(body, game.setup)
        else:
            game, event, key_used = _read(db, game_id, body, key)
        if key_used:  # sent again: what it did then (counted once, said again)
            return Tapped(game, merge.SAME if key_used == "same" else merge.APPLY,
                          shown_of(db, game))
        if event is not None:
            refusal = last_card_again(game.state, event)
            if refusal is not None:
                raise refusal
        if seen is not None and seen > game.version:  # no board ever showed it
            games.check_version(game, seen)
        # A count's hand is what it means only when it is not the hand now
        # played (its sheet stayed open while the other phone counted).
        named_hand = None if hand == game.state.hand else hand
        seen = game.version if seen is None else seen
        since = None if device is None else store.last_seen(db, game.id, device)
        tapped = merge.Tap(device, seen, None if event is None else engine.to_dict(event),
                           undoes, named_hand, since)
        # The rule reads the log only where it may hold a record new to the
        # tap's phone, or one the tap names.
        needed = undoes is not None or named_hand is not None or store.others_after(
            db, game.id, merge.news_after(tapped), device)
        entries = _entries(db, game.id) if needed else ()
        decided = merge.merge_tap(game.setup, entries, tapped)
        game = _record(db, game, event, decided, key, now, tapped)
        return Tapped(game, decided.action, shown_of(db, game))


def undone_by(db: sqlite_utils.Database, tapped: Tapped) -> engine.Event | None:
    """The event an Undo's tap took back (its undo record the log's last
    when it answered), as first recorded; None for any other tap."""
    last = tapped.shown.last_record
    if tapped.action != merge.UNDO or last is None or last.action != "undo":
        return None
    with read_transaction(db):
        recorded = store.first_recorded(db, tapped.game.id, last.payload["undoes"])
    return None if recorded is None else engine.recorded_event(recorded, tapped.game.setup)


def _read(db: sqlite_utils.Database, game_id: str, body: dict | None, key: str
          ) -> tuple[games.Game, engine.Event | None, str | None]:
    """Inside the write: the game, the tap's event (None: an Undo), and the
    action of the record its key made already (None: unused)."""
    if body is not None:
        return games.read_event(db, game_id, body, key)
    game = games.load(db, game_id)
    return game, None, "undo" if store.key_used(db, game_id, key) else None


def _entries(db: sqlite_utils.Database, game_id: str) -> list[merge.Record]:
    """The log's event records as the rule reads them, in the fold's order:
    each as corrected, with its device, its undo's, and the devices whose
    `same` records name it."""
    rows = store.merge_records(db, game_id)
    devices = {seq: device for seq, _, _, device, _ in rows}
    events = fold_corrections((seq, action, payload) for seq, action, payload, _, undone
                              in rows if action in ("event", "correction") and undone is None)
    matched: dict[int, tuple] = {}
    for _, action, payload, device, _ in rows:
        if action == "same":
            matched[payload["same"]] = matched.get(payload["same"], ()) + (device,)
    return [merge.Record(seq, events[seq] if seq in events else payload, device, undone,
                        devices.get(undone), matched.get(seq, ()))
            for seq, action, payload, device, undone in rows if action == "event"]


def _record(db: sqlite_utils.Database, game: games.Game, event: engine.Event | None,
            decided: merge.Merge, key: str, now: str, tapped: merge.Tap) -> games.Game:
    """Store what the rule decided, in the write: the tap's own record."""
    mark = {"device": tapped.device, "seen": tapped.seen}
    if decided.action in (merge.APPLY, merge.AFTER):
        return games.append_event(db, game, event, engine.apply(game.state, event), key, now,
                                  **mark)
    if decided.action == merge.SAME:
        return games.append_same(db, game, decided.seq, key, now, **mark)
    if decided.action == merge.JOIN:
        return games.append_joined(db, game, decided.seq, dict(decided.event), key, now, **mark)
    if decided.action == merge.PLACE:
        return games.append_placed(db, game, engine.to_dict(event), decided.seq, key, now,
                                   **mark)
    if decided.action == merge.UNDO and (decided.seq is None or decided.state is None):
        return games.take_back(db, game, key, now, **mark)
    if decided.action == merge.UNDO:
        return games.take_out(db, game, decided.seq, key, now, **mark)
    return game  # DONE: another phone's record already did it


def within(then: str, now: str, seconds: float) -> bool:
    """Whether the stored time `then` is at most `seconds` before `now`; a
    time that cannot be read (an imported game's) is not."""
    try:
        return (datetime.fromisoformat(now) - datetime.fromisoformat(then)).total_seconds() \
            <= seconds
    except (TypeError, ValueError):  # unreadable, or without its time zone
        return False
