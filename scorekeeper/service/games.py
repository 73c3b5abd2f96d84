"""The one place that loads a game, applies an event to it and stores it.

The engine decides; this module only reads the store, calls the engine and
writes the result back, inside one write transaction per accepted request,
committed before the caller answers.
"""

import json
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any, Callable, Mapping

import sqlite_utils

from . import players, ratings, summaries
from .recent import Recent
from .. import engine
from ..storage import store
from ..engine.log import fold_corrections, standing_of
from ..storage.db import write_transaction
from ..engine.errors import N_, InvalidInput, NotFound, RuleViolation, ScoringError

# Game ids: short, but not a counter and not guessable (10 of 31 symbols,
# about 50 bits); no 0/o, 1/l/i to read one aloud across the table.
ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
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
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


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


def _game_from_row(row: Mapping[str, Any]) -> Game:
    setup = _setup_from_row(row)
    known = WRITTEN.get(row["id"])
    if known is not None and known[0] == row["state"] and known[1].setup is setup:
        state = known[1]
    else:
        state = engine.State.from_snapshot(json.loads(row["state"]), setup)
    return Game(row["id"], row["version"], state, row["created_at"], row["updated_at"])


def effective_events(db: sqlite_utils.Database, game_id: str) -> dict[int, dict | None]:
    """Every event of the game that is not undone, by seq, oldest first: as
    its latest correction left it, or None when a correction removed it."""
    return fold_corrections(store.standing_records(db, game_id))


def standing_events(db: sqlite_utils.Database, game_id: str) -> list[tuple[int, dict]]:
    """The game's events that are not undone nor removed, oldest first, each
    in its latest corrected form: (seq, event)."""
    return standing_of(effective_events(db, game_id))


def last_record(db: sqlite_utils.Database, game_id: str) -> tuple[str, dict, str] | None:
    """The game's log's last record, undone or not: (action, payload,
    created_at), or None."""
    return store.last_record(db, game_id)


def keys_since(db: sqlite_utils.Database, game_id: str, version: int
               ) -> list[tuple[str | None, str]]:
    """What made each record after `version`: its key and time."""
    return store.keys_since(db, game_id, version)


def load(db: sqlite_utils.Database, game_id: str) -> Game:
    row = store.game_row(db, game_id)
    if row is None:
        raise GameNotFound(N_("No game has this id."))
    return _game_from_row(row)


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
    setup = engine.parse_new_game(body, presets)
    return _start(db, setup, players.parse_partners(partners, setup), key, now)


# How recent a change makes a game the one an identical Start means.
SAME_START_WINDOW = timedelta(minutes=10)


def same_start(db: sqlite_utils.Database, body: Any, game_id: str | None, now: str,
               presets: Mapping[str, engine.HouseRules] = engine.BUILT_IN_PRESETS) -> Game | None:
    """The game `body` would start again, if it is `game_id` (the one this
    device used last), still running, with the same sides, players, rules,
    first dealer and seats, and changed within SAME_START_WINDOW: the scorer
    came back to the new-game form (the phone's Back, playtest 4) and means
    that game, not a second one. Any difference, an idle or finished game: None,
    a real new game. A bad body is create's to refuse: None."""
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


def rematch_key(game_id: str) -> str:
    return f"rematch:{game_id}"


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
        raise InvalidInput(N_("expected_version must be a whole number."))
    return value


def _check_version(game: Game, expected: int | None) -> None:
    if expected is not None and expected != game.version:
        raise RuleViolation(
            N_("The game changed on another phone since this screen was shown, so nothing "
               "was done: check the score, then tap again if it is still needed.")
        )


def record(
    db: sqlite_utils.Database, game_id: str, body: Any, key: str | None, now: str,
    refuse: Callable[[Game], ScoringError | None] | None = None,
    seen: Callable[[Game, int], int] | None = None,
) -> tuple[Game, bool]:
    """Apply one event; (game, True), or (game unchanged, False) for a key
    already used on this game. Raises ScoringError subclasses. `refuse`: a
    scoreboard's own refusal of a tap the engine would take (asked of the
    game as it is, after a used key, which answers as before). `seen`: the
    version a scoreboard's tap is of, given the game as it is and the
    expected_version it was sent with (board.version_seen)."""
    if not isinstance(body, dict):
        raise InvalidInput(N_("An event must be a JSON object."))
    body = dict(body)
    expected = _expected_version(body)
    with write_transaction(db):
        row, key_used = store.game_row_and_key(db, game_id, key)
        if row is None:
            raise GameNotFound(N_("No game has this id."))
        game = _game_from_row(row)
        event = engine.parse_event(body, game.setup)
        if key_used:
            return game, False
        refusal = refuse(game) if refuse is not None else None
        if refusal is not None:
            raise refusal
        if seen is not None and expected is not None:
            expected = seen(game, expected)
        # Apply first: a reveal missing a rank is a 400, which the contract
        # answers before a version conflict's 409.
        state = engine.apply(game.state, event)
        _check_version(game, expected)
        version = game.version + 1
        store.append(db, game_id, version, "event", engine.to_dict(event), key, now)
        text = store.save_state(db, game_id, version, state.snapshot(), now,
                                also=summaries.game_columns(state, now))
        summaries.after_event(db, game_id, game.state, state)
        if state.finished != game.state.finished:  # only the event that ends a game
            ratings.game_changed(db, game_id, now)
    WRITTEN.put(game_id, (text, state))
    return Game(game_id, version, state, game.created_at, now), True


def undo(
    db: sqlite_utils.Database, game_id: str, body: Any, key: str | None, now: str
) -> tuple[Game, bool]:
    """Take back the last standing event, whole: the state is the replay of
    the events before it. The undone event stays in the log, marked."""
    if not isinstance(body, dict):
        raise InvalidInput(N_("An undo must be a JSON object."))
    body = dict(body)
    expected = _expected_version(body)
    if body:
        raise InvalidInput(N_("An undo takes no field but expected_version."))
    with write_transaction(db):
        game = load(db, game_id)
        if key is not None and store.key_used(db, game_id, key):
            return game, False
        _check_version(game, expected)
        standing = standing_events(db, game_id)
        if not standing:
            raise RuleViolation(N_("There is nothing to undo."))
        undone_seq = standing[-1][0]
        state = engine.replay(
            game.setup, [engine.recorded_event(event, game.setup) for _, event in standing[:-1]]
        )
        version = game.version + 1
        store.append(db, game_id, version, "undo", {"undoes": undone_seq}, key, now)
        store.mark_undone(db, game_id, undone_seq, version)
        store.save_state(db, game_id, version, state.snapshot(), now)
        previous = standing[-2][0] if len(standing) > 1 else None
        summaries.after_undo(db, game_id, game.state, state,
                             summaries.event_time(db, game_id, previous))
        if state.finished != game.state.finished:
            ratings.game_changed(db, game_id, now)
    return Game(game_id, version, state, game.created_at, now), True


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


def correct(
    db: sqlite_utils.Database, game_id: str, body: Any, key: str | None, now: str
) -> tuple[Game, bool]:
    """Change a past event, remove it, or put a removed one back:
    `{"seq": n, "event": {...} or null}`. The correction is a new record of
    the log (the original stays); the game is the replay of its events as
    corrected, and a correction that a later event cannot survive is refused
    with a sentence that names that event. When the corrected game is over
    before its last events, `"remove_after_end": true` removes them as well
    (one removal record each, after the correction); without it, refused."""
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
        raise InvalidInput(N_("seq must be the whole number of an event of the game."))
    if remove_after_end not in (None, True, False):
        raise InvalidInput(N_("remove_after_end takes true or false."))
    with write_transaction(db):
        game = load(db, game_id)
        setup = game.setup
        # Putting back an event exactly as it was recorded reads it as recorded.
        recorded = new is not None and new == store.first_recorded(db, game_id, seq)
        replacement = None if new is None else engine.parse_event(new, setup, recorded=recorded)
        if key is not None and store.key_used(db, game_id, key):
            return game, False
        _check_version(game, expected)
        effective = effective_events(db, game_id)
        if seq not in effective:
            raise RuleViolation(N_("This game has no such event standing: it may have "
                                   "been undone."))
        payload = None if replacement is None else engine.to_dict(replacement)
        if effective[seq] == payload:
            raise RuleViolation(N_("This correction changes nothing."))
        numbers = {s: n for n, s in enumerate(
            (s for s, e in effective.items() if e is not None), 1)}
        effective[seq] = payload
        standing = standing_of(effective)
        # The others as recorded; the correction's own event as it was read
        # (a new one is held to today's rules, one put back as recorded is not).
        events = [replacement if s == seq else engine.recorded_event(e, setup)
                  for s, e in standing]
        removed: list[int] = []
        try:
            engine.replay(setup, events)
        except engine.GameOver as error:
            end = error.event_index  # the corrected game is over before this event
            if not remove_after_end:
                raise EndsEarlier(
                    N_("With this correction the game is over at event %(number)s (%(what)s): "
                       "the events recorded after it could no longer count. Save it with "
                       "those events removed, or change the correction."),
                    events[end - 1], setup.sides, number=numbers.get(standing[end - 1][0], end),
                ) from None
            removed = [s for s, _ in standing[end:]]
            standing, events = standing[:end], events[:end]
        except ScoringError as error:
            raise _correction_refused(setup, standing, events, seq, numbers, error) from None
        version = game.version + 1
        store.append(db, game_id, version, "correction", {"corrects": seq, "event": payload},
                     key, now)
        for later in removed:
            version += 1
            store.append(db, game_id, version, "correction", {"corrects": later,
                                                              "event": None}, None, now)
        last = summaries.event_time(db, game_id, standing[-1][0] if standing else None)
        state = summaries.rebuild(db, game_id, setup, events, last)
        store.save_state(db, game_id, version, state.snapshot(), now)
        if state.finished or game.state.finished:
            ratings.game_changed(db, game_id, now)
    return Game(game_id, version, state, game.created_at, now), True


def replay_log(db: sqlite_utils.Database, game_id: str) -> engine.State:
    """The state rebuilt from the stored log alone (the snapshot ignored)."""
    game = load(db, game_id)
    events = [engine.recorded_event(e, game.setup)
              for _, e in standing_events(db, game_id)]
    return engine.replay(game.setup, events)


def view(game: Game, rematch: str | None = None) -> dict[str, Any]:
    """The game's state as the JSON API shows it (API.md "Game state"), with
    the id of its rematch once one is started (`rematch_of`)."""
    return {**fixed_view(game), **moving_view(game, rematch)}


def fixed_view(game: Game) -> dict[str, Any]:
    """The part of `view` that never changes in a game's life."""
    setup = game.setup
    return {
        "id": game.id,
        "sides": list(setup.sides),
        "players": setup.players,
        "rules": setup.rules.to_dict(),
        # Beyond the contract: what a scoreboard needs to show.
        "deals_per_hand": setup.deals_per_hand,
        "first_dealer": setup.first_dealer,
        "created_at": game.created_at,
    }


def moving_view(game: Game, rematch: str | None = None) -> dict[str, Any]:
    """The rest of `view`: what an event, an undo or a correction changes."""
    state = game.state
    pool = state.pool if state.awaiting_reveal else None
    return {
        "scores": list(state.scores),
        "finished": state.finished,
        "winner": state.winner,
        "hand": state.hand,
        "deal": state.deal,
        "chain": None if state.chain is None else {
            "side": state.chain.side, "value": state.chain_value(),
        },
        "awaiting_reveal": state.awaiting_reveal,
        "version": game.version,
        # Beyond the contract: what a scoreboard needs to show.
        "last_deal": state.last_deal,
        "dealer": state.dealer,
        "announced": state.announced,
        "played": state.played,
        "pending_announcements": None if pool is None else {
            "kind": pool.kind, "total": pool.total,
            "contenders": list(pool.contenders), "ranks": list(pool.ranks),
        },
        "last_gains": [
            {"kind": g.kind, "points": list(g.points), "value": g.value} for g in state.gains
        ],
        "updated_at": game.updated_at,
        # For the other phones on a finished game: where the table went on.
        "rematch": rematch,
    }


def running(db: sqlite_utils.Database, preferred: str | None = None) -> Game | None:
    """The game in progress to resume in one tap: `preferred` (the one this
    device used last) while it runs, else the running game added last."""
    game_id = store.running_game_id(db, preferred)
    return None if game_id is None else load(db, game_id)
