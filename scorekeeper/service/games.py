"""The one place that loads a game, applies an event to it and stores it.

The engine decides; this module only reads the store, calls the engine and
writes the result back, inside one write transaction per accepted request,
committed before the caller answers.
"""

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any, Mapping

import sqlite_utils

from .. import engine
from ..engine.errors import N_, InvalidInput, NotFound, RuleViolation, ScoringError
from ..engine.log import fold_corrections, standing_of
from ..storage import store
from ..storage.db import write_transaction
from . import ids, players, ratings, snapshots, summaries
from .recent import Recent

# Game ids: short, but not a counter and not guessable (10 of 31 symbols,
# about 50 bits), read aloud across the table (ids.py).
ID_LENGTH = 10


class GameNotFound(NotFound):
    """No game has this id."""


@dataclass(frozen=True, slots=True)
class Game:
    id: str
    version: int
    state: engine.State
    created_at: str
    updated_at: str

    @property
    def setup(self) -> engine.Setup:
        return self.state.setup


def new_game_id() -> str:
    return ids.random_id(ID_LENGTH)


def _setup_from_row(row: Mapping[str, Any]) -> engine.Setup:
    return _setup(row["sides"], row["players"], row["rules"], row["first_dealer"])


@lru_cache(maxsize=256)
def _setup(sides: str, players: int, house_rules: str, first_dealer: int) -> engine.Setup:
    """A game's set-up from its stored columns, which never change: read once
    per process, not at every tap (a Setup is frozen, so sharing it is safe)."""
    return engine.Setup(tuple(json.loads(sides)), players,
                        engine.rules_from_dict(json.loads(house_rules)), first_dealer)


# The last snapshot this process wrote for a few games, and the state it was
# written from: the next tap, finding that very text in its row, folds on
# from that state instead of parsing the text again (a snapshot reads back as
# the state it was made of: tests/engine). Right whatever became of the
# write; another writer's text is parsed. {game id: (text, state)}
WRITTEN: Recent[str, tuple[str, engine.State]] = Recent(64)


def _game_from_row(db: sqlite_utils.Database, row: Mapping[str, Any]) -> Game:
    setup = _setup_from_row(row)
    known = WRITTEN.get(row["id"])
    if known is not None and known[0] == row["state"] and known[1].setup is setup:
        state = known[1]
    else:
        data = json.loads(row["state"])
        if engine.State.snapshot_is_whole(data):
            state = engine.State.from_snapshot(data, setup)
        else:  # stored before the state held all it holds now: its log tells
            state = _replay(db, row["id"], setup)
    return Game(row["id"], row["version"], state, row["created_at"], row["updated_at"])


def _replay(db: sqlite_utils.Database, game_id: str, setup: engine.Setup) -> engine.State:
    return engine.replay(setup, [engine.recorded_event(e, setup)
                                 for _, e in standing_events(db, game_id)])


def effective_events(db: sqlite_utils.Database, game_id: str) -> dict[int, dict | None]:
    """Every event of the game that is not undone, by seq, oldest first: as
    its latest correction left it, or None when a correction removed it."""
    return fold_corrections(store.standing_records(db, game_id))


def standing_events(db: sqlite_utils.Database, game_id: str) -> list[tuple[int, dict]]:
    """The game's events that are not undone nor removed, oldest first, each
    in its latest corrected form: (seq, event)."""
    return standing_of(effective_events(db, game_id))


def record_times(db: sqlite_utils.Database, game_id: str) -> dict[int, str]:
    """When each record of the game's log was written, by seq."""
    return store.record_times(db, game_id)


def exists(db: sqlite_utils.Database, game_id: str) -> bool:
    return store.game_exists(db, game_id)


def load(db: sqlite_utils.Database, game_id: str) -> Game:
    row = store.game_row(db, game_id)
    if row is None:
        raise GameNotFound(N_("No game has this id."))
    return _game_from_row(db, row)


def create(
    db: sqlite_utils.Database, body: Any, key: str | None, now: str,
    presets: Mapping[str, engine.HouseRules] = engine.BUILT_IN_PRESETS,
) -> tuple[Game, bool]:
    """Start a game; (game, True), or (the game this key already made, False).
    Beyond the contract, `partners` names each side's players (players.py)."""
    if isinstance(body, dict) and "partners" in body:
        body = dict(body)
        partners = body.pop("partners")
    else:
        partners = None
    if rematch_of_key(key) is not None:  # else a phone could plant another game's rematch
        raise InvalidInput(N_("This Idempotency-Key is the app's own: choose another."))
    setup = engine.parse_new_game(body, presets)
    return _start(db, setup, players.parse_partners(partners, setup), key, now)


# How recent a change makes a game the one an identical Start means.
SAME_START_WINDOW = timedelta(minutes=10)


def same_start(db: sqlite_utils.Database, body: Any, game_id: str | None, now: str,
               presets: Mapping[str, engine.HouseRules] = engine.BUILT_IN_PRESETS) -> Game | None:
    """The game `body` would start again, if it is `game_id` (the one this
    device used last), still running, with the same sides, players, rules,
    first dealer and seats, and changed within SAME_START_WINDOW: the scorer
    came back to the new-game form (the phone's Back, as scorers at the
    table did) and means that game, not a second one. Any difference, an
    idle or finished game: None, a real new game. A bad body is create's to refuse: None."""
    if game_id is None or not isinstance(body, dict):
        return None
    body = dict(body)
    partners = body.pop("partners", None)
    try:
        setup = engine.parse_new_game(body, presets)
        seated = players.parse_partners(partners, setup)
    except ScoringError:
        return None
    if store.running_game_id(db, game_id) != game_id:  # over, or in the bin
        return None
    game = load(db, game_id)
    if game.setup != setup:
        return None
    try:
        since = datetime.fromisoformat(now) - datetime.fromisoformat(game.updated_at)
    except (TypeError, ValueError):  # an imported game's time without its time zone
        return None
    if not timedelta(0) <= since <= SAME_START_WINDOW:  # a clock set back says nothing
        return None
    def keys(sides: list[list[str]]) -> list[list[str]]:  # a person by name, as seats find them
        return [[players.name_key(name) for name in names] for names in sides]
    wanted = [names or [setup.sides[side]] for side, names in enumerate(seated)]
    same = keys(players.seat_names(db, game_id, setup.side_count)) == keys(wanted)
    return game if same else None


def rematch(db: sqlite_utils.Database, game_id: str, now: str) -> tuple[Game, bool]:
    """The rematch of a game (engine.rematch), its players on the same seats:
    made once, whoever asks and however often; every later ask gets the same
    game, (game, False)."""
    game = load(db, game_id)
    seated = players.seat_names(db, game_id, game.setup.side_count)
    return _start(db, engine.rematch(game.state), seated, rematch_key(game_id), now)


REMATCH_KEY = "rematch:"  # the creation key of a game's rematch: this prefix, then its id


def rematch_key(game_id: str) -> str:
    return f"{REMATCH_KEY}{game_id}"


def rematch_of_key(key: str | None) -> str | None:
    """The id of the game whose rematch a creation key makes, or None: the
    app makes such keys for the rematches it starts, and nobody else may."""
    return key.removeprefix(REMATCH_KEY) if key and key.startswith(REMATCH_KEY) else None


def rematch_of(db: sqlite_utils.Database, game_id: str) -> str | None:
    """The id of the game's rematch, once one was started."""
    return store.game_id_for_creation_key(db, rematch_key(game_id))


def _start(db: sqlite_utils.Database, setup: engine.Setup, seated: list[list[str]],
           key: str | None, now: str) -> tuple[Game, bool]:
    with write_transaction(db):
        if key is not None:
            existing = store.game_id_for_creation_key(db, key)
            if existing is not None:
                return load(db, existing), False
        game_id = new_game_id()
        while store.game_exists(db, game_id):
            game_id = new_game_id()
        state = engine.new_game(setup)
        store.insert_game(db, {
            "id": game_id,
            "created_at": now,
            "updated_at": now,
            "sides": store.dumps(list(setup.sides)),
            "players": setup.players,
            "first_dealer": setup.first_dealer,
            "rules": store.dumps(setup.rules.to_dict()),
            "version": 0,
            "state": store.dumps(state.snapshot()),
            "creation_key": key,
        })
        summaries.create_sides(db, game_id, setup)
        players.link_game(db, game_id, setup, seated, now)
    return Game(game_id, 0, state, now, now), True


def _expected_version(body: dict) -> int | None:
    value = body.pop("expected_version", None)
    if value is not None and (type(value) is not int or value < 0):
        raise InvalidInput(N_("expected_version must be a whole number."),
                           field="expected_version")
    return value


def check_version(game: Game, expected: int | None) -> None:
    """Refuse anything made on another version than the game's (the API's rule)."""
    if expected is not None and expected != game.version:
        raise RuleViolation(
            N_("The game changed on another phone since this screen was shown, so nothing "
               "was done: check the score, then tap again if it is still needed.")
        )


def event_body(body: Any) -> tuple[dict, int | None]:
    """An event's plain data, less its expected_version, and that version."""
    if not isinstance(body, dict):
        raise InvalidInput(N_("An event must be a JSON object."))
    body = dict(body)
    return body, _expected_version(body)


def game_and_key(db: sqlite_utils.Database, game_id: str, key: str | None
                 ) -> tuple[Game, str | None]:
    """Inside a write: the game, and the action of the record `key` made on
    it already, None if unused (one statement: a tap's first read)."""
    row, key_used = store.game_row_and_key(db, game_id, key)
    if row is None:
        raise GameNotFound(N_("No game has this id."))
    return _game_from_row(db, row), key_used


def read_event(db: sqlite_utils.Database, game_id: str, body: dict, key: str | None
               ) -> tuple[Game, engine.Event, str | None]:
    """Inside a write: the game, its event read from `body`, and the action
    of the record `key` made on it already, None if unused (one statement:
    a tap's first read)."""
    game, key_used = game_and_key(db, game_id, key)
    return game, engine.parse_event(body, game.setup), key_used


def append_event(db: sqlite_utils.Database, game: Game, event: engine.Event,
                 state: engine.State, key: str | None, now: str, device: str | None = None,
                 seen: int | None = None) -> Game:
    """Inside a write: `event`, which leads `game` to `state`, stored (made
    by `device` on the board of version `seen`, when a board's tap)."""
    version = game.version + 1
    store.append(db, game.id, version, "event", engine.to_dict(event), key, now, device, seen)
    text = store.save_state(db, game.id, version, state.snapshot(), now,
                            also=summaries.game_columns(state, now))
    summaries.after_event(db, game.id, game.state, state)
    snapshots.after_event(db, game.id, game.setup, state)
    if state.finished != game.state.finished:  # only the event that ends a game
        ratings.game_changed(db, game.id, now)
    WRITTEN.put(game.id, (text, state))
    return Game(game.id, version, state, game.created_at, now)


def record(
    db: sqlite_utils.Database, game_id: str, body: Any, key: str | None, now: str,
) -> tuple[Game, bool]:
    """Apply one event; (game, True), or (game unchanged, False) for a key
    already used on this game. With an expected_version, the game must be
    at that version (the JSON API's rule; a scoreboard's taps are judged
    by what they meant: scoreboard.tap). Raises ScoringError subclasses."""
    body, expected = event_body(body)
    with write_transaction(db):
        game, event, key_used = read_event(db, game_id, body, key)
        if key_used:
            return game, False
        # Apply first: an event the engine finds malformed is refused as such
        # before an old version is (API.md's order of refusals).
        state = engine.apply(game.state, event)
        check_version(game, expected)
        return append_event(db, game, event, state, key, now), True


def _undo_body(body: Any) -> int | None:
    """An undo's expected_version, its one field."""
    if not isinstance(body, dict):
        raise InvalidInput(N_("An undo must be a JSON object."))
    body = dict(body)
    expected = _expected_version(body)
    if body:
        raise InvalidInput(N_("An undo takes no field but expected_version."))
    return expected


def undo(
    db: sqlite_utils.Database, game_id: str, body: Any, key: str | None, now: str
) -> tuple[Game, bool]:
    """Take back the last standing event, whole: the state is the replay of
    the events before it. The undone event stays in the log, marked."""
    expected = _undo_body(body)
    with write_transaction(db):
        game = load(db, game_id)
        if key is not None and store.key_used(db, game_id, key):
            return game, False
        check_version(game, expected)
        return take_back(db, game, key, now), True


def append_same(db: sqlite_utils.Database, game: Game, seq: int, key: str | None, now: str,
                device: str | None = None, seen: int | None = None) -> Game:
    """Inside a write: a tap that is the record `seq` another phone made
    (docs/BOARD.md, "Two phones"): a record of its own, {"same": seq},
    which keeps its key and matches `seq` once; the game is unchanged."""
    version = game.version + 1
    store.append(db, game.id, version, "same", {"same": seq}, key, now, device, seen)
    store.save_state(db, game.id, version, game.state.snapshot(), now)
    return Game(game.id, version, game.state, game.created_at, now)


def append_placed(db: sqlite_utils.Database, game: Game, event: dict, before: int,
                  key: str | None, now: str, device: str | None = None,
                  seen: int | None = None) -> Game:
    """Inside a write: a tap of a deal another phone closed, folded at the
    end of its deal, before the record `before` that closed it."""
    version = game.version + 1
    store.append(db, game.id, version, "event", event, key, now, device, seen, place=before)
    return _refolded(db, game, version, before, now)


def append_joined(db: sqlite_utils.Database, game: Game, seq: int, event: dict,
                  key: str | None, now: str, device: str | None = None,
                  seen: int | None = None) -> Game:
    """Inside a write: a deal's announcements, confirmed on two phones, as
    one: a correction of the record `seq` holding both (the tap's record,
    with its key), the game folded again from there."""
    version = game.version + 1
    store.append(db, game.id, version, "correction", {"corrects": seq, "event": event}, key,
                 now, device, seen)
    return _refolded(db, game, version, seq, now)


def take_out(db: sqlite_utils.Database, game: Game, seq: int, key: str | None, now: str,
             device: str | None = None, seen: int | None = None) -> Game:
    """Inside a write: the event of record `seq`, not the last, undone (an
    Undo that named it); the caller has checked that the game folds
    without it."""
    version = game.version + 1
    store.append(db, game.id, version, "undo", {"undoes": seq}, key, now, device, seen)
    store.mark_undone(db, game.id, seq, version)
    return _refolded(db, game, version, seq, now)


def _refolded(db: sqlite_utils.Database, game: Game, version: int, seq: int, now: str) -> Game:
    """The game folded again after its log changed at record `seq`: its
    state, summary and snapshots from there."""
    standing = standing_events(db, game.id)
    events = [engine.recorded_event(event, game.setup) for _, event in standing]
    last = summaries.event_time(db, game.id, standing[-1][0] if standing else None)
    state = summaries.rebuild(db, game.id, game.setup, events, last)
    store.save_state(db, game.id, version, state.snapshot(), now)
    store.drop_snapshots_from(db, game.id, seq)
    snapshots.catch_up(db, game.id, game.setup, len(events) // snapshots.EVERY * snapshots.EVERY)
    if state.finished != game.state.finished:
        ratings.game_changed(db, game.id, now)
    return Game(game.id, version, state, game.created_at, now)


def take_back(db: sqlite_utils.Database, game: Game, key: str | None, now: str,
              device: str | None = None, seen: int | None = None) -> Game:
    """Inside a write: the game's last standing event undone. The state
    before it is folded from the nearest snapshot (snapshots.py)."""
    before, before_seq, state, tail = snapshots.tail(db, game.id, game.setup,
                                                     game.state.events, 1)
    if not tail:
        raise RuleViolation(N_("There is nothing to undo."))
    undone_seq = tail[-1][0]
    state = engine.replay(game.setup, [event for _, event in tail[:-1]], start=state)
    version = game.version + 1
    store.append(db, game.id, version, "undo", {"undoes": undone_seq}, key, now, device, seen)
    store.mark_undone(db, game.id, undone_seq, version)
    store.save_state(db, game.id, version, state.snapshot(), now)
    snapshots.after_undo(db, game.id, undone_seq)
    # The standing event before it: in the tail, else the snapshot's last.
    previous = tail[-2][0] if len(tail) > 1 else (before_seq if before else None)
    summaries.after_undo(db, game.id, game.state, state,
                         summaries.event_time(db, game.id, previous))
    if state.finished != game.state.finished:
        ratings.game_changed(db, game.id, now)
    return Game(game.id, version, state, game.created_at, now)


class CorrectionRefused(RuleViolation):
    """A correction the replay refuses: the sentence names the event in the way."""

    def __init__(self, message: str, event: engine.Event, sides: tuple[str, ...],
                 cause: ScoringError, **params):
        super().__init__(message, **params)
        self.event, self.sides, self.cause = event, sides, cause

    def sentence(self, translate=lambda message: message, event_text=None) -> str:
        return translate(self.message) % dict(
            self.params, what=_what(self.event, self.sides, event_text),
            reason=self.cause.sentence(translate, event_text),
        )


def _what(event: engine.Event, sides: tuple[str, ...], event_text) -> str:
    """The event in the caller's words (the web layer's describe.event_text),
    else its type."""
    return event_text(event, sides) if event_text else engine.to_dict(event)["type"]


def _correction_refused(setup: engine.Setup, standing: list[tuple[int, dict]],
                        events: list[engine.Event], seq: int, numbers: dict[int, int],
                        error: ScoringError) -> CorrectionRefused:
    index = getattr(error, "event_index", len(events) - 1)
    before = engine.replay(setup, events[:index])
    where = {"hand": before.hand, "deal": before.deal}
    if standing[index][0] == seq:
        return CorrectionRefused(
            N_("This correction is not possible there (%(what)s, hand %(hand)s deal "
               "%(deal)s): %(reason)s"), events[index], setup.sides, error, **where)
    return CorrectionRefused(
        N_("Event %(number)s (%(what)s, hand %(hand)s deal %(deal)s) would no longer be "
           "possible: %(reason)s"),
        events[index], setup.sides, error, number=numbers[standing[index][0]], **where)


class EndsEarlier(RuleViolation):
    """A correction after which the game is over before some of its later
    events: they can stand no more. `remove_after_end` takes them out too."""

    def __init__(self, message: str, event: engine.Event, sides: tuple[str, ...], **params):
        super().__init__(message, **params)
        self.event, self.sides = event, sides

    def sentence(self, translate=lambda message: message, event_text=None) -> str:
        return translate(self.message) % dict(
            self.params, what=_what(self.event, self.sides, event_text))


class Reopens(RuleViolation):
    """A correction after which a finished game is no longer over: where a
    person corrects a game (the history's page), asked before it is saved."""


def correct(
    db: sqlite_utils.Database, game_id: str, body: Any, key: str | None, now: str,
    ask_before_reopening: bool = False,
) -> tuple[Game, bool]:
    """Change a past event, remove it, or put a removed one back:
    `{"seq": n, "event": {...} or null}`. The correction is a new record of
    the log (the original stays); the game is the replay of its events as
    corrected, and a correction that a later event cannot survive is refused
    with a sentence that names that event. When the corrected game is over
    before its last events, `"remove_after_end": true` removes them as well
    (one removal record each, after the correction); without it, refused.
    `ask_before_reopening`: a correction that leaves a finished game no longer
    over is refused (Reopens), for the caller to ask first."""
    seq, new, remove_after_end, expected = _correction_body(body)
    with write_transaction(db):
        game = load(db, game_id)
        setup = game.setup
        replacement = _replacement(db, game_id, seq, new, setup)
        if key is not None and store.key_used(db, game_id, key):
            return game, False
        check_version(game, expected)
        effective = effective_events(db, game_id)
        if seq not in effective:
            raise RuleViolation(N_("This game has no such event standing: it may have "
                                   "been undone."))
        payload = None if replacement is None else engine.to_dict(replacement)
        if effective[seq] == payload:
            raise RuleViolation(N_("This correction changes nothing."))
        standing, events, numbers = _corrected_log(effective, seq, payload, replacement, setup)
        corrected, end = _replay_corrected(setup, standing, events, seq, numbers,
                                           remove_after_end)
        removed = [s for s, _ in standing[end:]]
        standing, events = standing[:end], events[:end]
        if ask_before_reopening and game.state.finished and corrected is not None \
                and not corrected.finished:
            raise Reopens(
                N_("This game is over. With this correction it is no longer: its score "
                   "becomes %(score)s and it goes on. Reopen it, or change the correction."),
                score=" – ".join(str(points) for points in corrected.scores))
        return _save_correction(db, game, seq, payload, removed, standing, events, key,
                                now), True


def _correction_body(body: Any) -> tuple[Any, Any, Any, int | None]:
    """A correction's request, checked: the seq it corrects, its new event
    (None: a removal), whether to remove the events after a new end, and the
    version expected."""
    if not isinstance(body, dict):
        raise InvalidInput(N_("A correction must be a JSON object."))
    body = dict(body)
    expected = _expected_version(body)
    seq = body.pop("seq", None)
    new = body.pop("event", None)
    remove_after_end = body.pop("remove_after_end", None)
    if body:
        raise InvalidInput(N_("A correction takes seq, event, remove_after_end and "
                              "expected_version only."))
    if type(seq) is not int:
        raise InvalidInput(N_("seq must be the whole number of an event of the game."),
                           field="seq")
    if remove_after_end not in (None, True, False):
        raise InvalidInput(N_("remove_after_end takes true or false."), field="remove_after_end")
    return seq, new, remove_after_end, expected


def _replacement(db: sqlite_utils.Database, game_id: str, seq: int, new: Any,
                 setup: engine.Setup) -> engine.Event | None:
    """The event a correction puts at `seq`, by kind of correction: none for a
    removal; an event put back exactly as it was recorded, read as recorded;
    a changed one, held to today's rules."""
    if new is None:
        return None
    recorded = new == store.first_recorded(db, game_id, seq)
    return engine.parse_event(new, setup, recorded=recorded)


def _corrected_log(effective: dict[int, dict | None], seq: int, payload: dict | None,
                   replacement: engine.Event | None, setup: engine.Setup
                   ) -> tuple[list[tuple[int, dict]], list[engine.Event], dict[int, int]]:
    """The log as the correction at `seq` leaves it: its standing events (seq,
    stored form), the events the replay reads, and each event's number as
    the history showed it before the correction (from 1), for a refusal to
    name it."""
    numbers = {s: n for n, s in enumerate(
        (s for s, e in effective.items() if e is not None), 1)}
    standing = standing_of({**effective, seq: payload})
    # The others as recorded; the correction's own event as it was read
    # (a new one is held to today's rules, one put back as recorded is not).
    events = [replacement if s == seq else engine.recorded_event(e, setup)
              for s, e in standing]
    return standing, events, numbers


def _replay_corrected(setup: engine.Setup, standing: list[tuple[int, dict]],
                      events: list[engine.Event], seq: int, numbers: dict[int, int],
                      remove_after_end: bool | None) -> tuple[engine.State | None, int]:
    """The corrected game (None when it is over before its last events) and
    how many of its events stand: the events after its new end are removed
    with `remove_after_end` (else EndsEarlier). Raises CorrectionRefused
    when an event can no longer stand."""
    try:
        return engine.replay(setup, events), len(events)
    except engine.GameOver as error:
        end = error.event_index  # the corrected game is over before this event
        if not remove_after_end:
            raise EndsEarlier(
                N_("With this correction the game is over at event %(number)s (%(what)s): "
                   "the events recorded after it could no longer count. Save it with "
                   "those events removed, or change the correction."),
                events[end - 1], setup.sides, number=numbers.get(standing[end - 1][0], end),
            ) from None
        return None, end
    except ScoringError as error:
        raise _correction_refused(setup, standing, events, seq, numbers, error) from None


def _save_correction(db: sqlite_utils.Database, game: Game, seq: int, payload: dict | None,
                     removed: list[int], standing: list[tuple[int, dict]],
                     events: list[engine.Event], key: str | None, now: str) -> Game:
    """Inside the write: the correction's record, one removal record for each
    event after a new end, and the game's state, summary, snapshots and
    ratings after them."""
    version = game.version + 1
    store.append(db, game.id, version, "correction", {"corrects": seq, "event": payload},
                 key, now)
    for later in removed:
        version += 1
        store.append(db, game.id, version, "correction", {"corrects": later,
                                                          "event": None}, None, now)
    last = summaries.event_time(db, game.id, standing[-1][0] if standing else None)
    state = summaries.rebuild(db, game.id, game.setup, events, last)
    store.save_state(db, game.id, version, state.snapshot(), now)
    snapshots.after_correction(db, game.id, game.setup, len(events))
    if state.finished or game.state.finished:
        ratings.game_changed(db, game.id, now)
    return Game(game.id, version, state, game.created_at, now)


def replay_log(db: sqlite_utils.Database, game_id: str) -> engine.State:
    """The state rebuilt from the stored log alone (the snapshot ignored)."""
    return _replay(db, game_id, load(db, game_id).setup)


def running(db: sqlite_utils.Database, preferred: str | None = None) -> Game | None:
    """The game in progress to resume in one tap: `preferred` (the one this
    device used last) while it runs, else the running game added last."""
    game_id = store.running_game_id(db, preferred)
    return None if game_id is None else load(db, game_id)


# The games a device that has none of its own is offered to join: a club
# night's tables fit, the oldest forgotten ones do not.
JOINABLE = 6


def joinable(db: sqlite_utils.Database) -> list[Game]:
    """The games in progress, added last first, for a device to join by
    their names (never one chosen for it: at a club night that was another
    table's board)."""
    return [load(db, game_id) for game_id in store.running_game_ids(db, JOINABLE)]
