"""Export documents and their import: every game with its whole log (undone
events and corrections included, with their times and keys), its rules,
sides and players, so that an import recreates it exactly.

An import checks everything first (the document's shape, then every game's
log read record by record as games.py would have taken it, in one pass, and
its result against the one the document states), outside the write lock,
and then writes all its games in one short transaction, or nothing.
"""

import bisect
import json
import re
from dataclasses import dataclass
from typing import Any, Mapping

import sqlite_utils

from .. import engine
from ..engine import tally
from ..engine.errors import N_, InvalidInput, RuleViolation, ScoringError
from ..engine.houserules import HouseRules, check_rule
from ..engine.names import clean_name
from ..storage import store
from ..storage.db import write_transaction
from . import players, ratings, summaries
from .clock import check_time
from .games import rematch_of_key

FORMAT = "ronda-scorekeeper"
# Version 2, written since people were kept beside the games, adds each
# game's seats (who sat on each side, by name) and the club nights; a
# version 1 document still imports, its sides seated by their names as the
# migration seated the stored ones.
FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)
GAME_FIELDS = ("id", "created_at", "updated_at", "deleted_at", "sides", "players",
               "first_dealer", "rules", "creation_key", "version", "result", "log")
GAME_FIELDS_V2 = GAME_FIELDS + ("seats",)
RECORD_FIELDS = ("seq", "action", "payload", "idempotency_key", "undone_by", "created_at")
RESULT_FIELDS = ("scores", "finished", "winner", "hand", "deal")
# Long enough never to be a word of the site's own addresses (/games/bin, /games/new).
GAME_ID = re.compile(r"[a-z0-9]{8,40}")
KEY_LENGTH = 100
PRESET_NAME_LENGTH = 40


# -- export ---------------------------------------------------------------------------------

def _result(state: engine.State) -> dict[str, Any]:
    return {"scores": list(state.scores), "finished": state.finished, "winner": state.winner,
            "hand": state.hand, "deal": state.deal}


def _game_document(row: Mapping[str, Any], log: list[dict],
                   seats: list[list[str]]) -> dict[str, Any]:
    state = json.loads(row["state"])
    return {
        "id": row["id"],
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
        "deleted_at": row["deleted_at"],
        "sides": json.loads(row["sides"]),
        "players": row["players"],
        "first_dealer": row["first_dealer"],
        "rules": json.loads(row["rules"]),
        "creation_key": row["creation_key"],
        "version": row["version"],
        "result": {key: state[key] for key in RESULT_FIELDS},
        "log": log,
        "seats": seats,
    }


def _seats(db: sqlite_utils.Database, game_id: str | None = None) -> dict[str, list[list[str]]]:
    """Who sat on each side of each game (or of one), by their person's name now."""
    found: dict[str, dict[int, list[str]]] = {}
    cursor = db.execute(
        "SELECT s.game_id, s.side, p.name FROM seats s JOIN players p ON p.id = s.person"
        + (" WHERE s.game_id = ?" if game_id else "") + " ORDER BY s.game_id, s.side, s.seat",
        [game_id] if game_id else [])
    for game, side, name in cursor:
        found.setdefault(game, {}).setdefault(side, []).append(name)
    return {game: [sides[s] for s in sorted(sides)] for game, sides in found.items()}


_ROW_COLUMNS = ("id", "created_at", "updated_at", "deleted_at", "sides", "players",
                "first_dealer", "rules", "creation_key", "version", "state")


def export_game(db: sqlite_utils.Database, game_id: str) -> dict[str, Any] | None:
    """One game's document, or None if there is no such game."""
    row = db.execute(f"SELECT {', '.join(_ROW_COLUMNS)} FROM games WHERE id = ?",
                     [game_id]).fetchone()
    if row is None:
        return None
    return _game_document(dict(zip(_ROW_COLUMNS, row)), list(store.log(db, game_id)),
                          _seats(db, game_id).get(game_id, []))


def export_all(db: sqlite_utils.Database) -> list[dict[str, Any]]:
    """Every game's document, the bin's included, oldest first."""
    logs: dict[str, list[dict]] = {}
    cursor = db.execute(
        "SELECT game_id, seq, action, payload, idempotency_key, undone_by, created_at, place"
        " FROM events ORDER BY game_id, seq"
    )
    for game_id, *record in cursor:
        logs.setdefault(game_id, []).append(store.record_of(*record))
    cursor = db.execute(
        f"SELECT {', '.join(_ROW_COLUMNS)} FROM games ORDER BY created_at, id"
    )
    seats = _seats(db)
    return [_game_document(dict(zip(_ROW_COLUMNS, row)), logs.get(row[0], []),
                           seats.get(row[0], [])) for row in cursor]


def document(games: list[dict[str, Any]], now: str,
             nights: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    found = {"format": FORMAT, "format_version": FORMAT_VERSION, "exported_at": now,
             "games": games}
    if nights:
        found["nights"] = nights
    return found


# -- checking a document --------------------------------------------------------------------

class Because(InvalidInput):
    """A refusal that says where, then why: `reason` is the cause's sentence."""

    def __init__(self, message: str, cause: ScoringError, **params):
        super().__init__(message, **params)
        self.cause = cause

    def sentence(self, translate=lambda message: message, event_text=None) -> str:
        return translate(self.message) % dict(
            self.params, reason=self.cause.sentence(translate, event_text))


class ImportConflict(RuleViolation):
    """The document would overwrite a game that is here and differs."""


@dataclass(frozen=True, slots=True)
class Checked:
    """A game of the document, checked: what to write."""

    document: dict[str, Any]
    setup: engine.Setup
    state: engine.State
    events: list[engine.Event]  # the standing ones, as corrected
    last_event_at: str | None
    game_row: dict  # the games table's row
    rows: list[tuple]  # the events table's rows, as the app writes them
    totals: list[dict[str, int]]  # the summary's counts per side (tally.replay_counts)
    partners: list[list[str]]  # who sat on each side (an old export: the sides' names)


def _fail(message: str, **params) -> None:
    raise InvalidInput(message, **params)


def _key(value: Any, field: str) -> None:
    if value is not None and not (isinstance(value, str) and 1 <= len(value) <= KEY_LENGTH
                                  and all(" " <= c <= "~" for c in value)):
        _fail(N_("%(field)s takes 1 to %(length)s printable ASCII characters."),
              field=field, length=KEY_LENGTH)


def _exact_fields(data: Any, fields: tuple[str, ...], message: str) -> None:
    if not isinstance(data, dict) or set(data) != set(fields):
        _fail(message, fields=", ".join(fields))


def _rules(data: Any) -> HouseRules:
    """A game's own copy of its rules: every key checked, its preset's name
    kept as it is (a preset of another table may be unknown here)."""
    if not isinstance(data, dict):
        _fail(N_("The rules must be an object."))
    preset = data.get("preset")
    if (not isinstance(preset, str) or not 1 <= len(preset) <= PRESET_NAME_LENGTH
            or clean_name(preset) != preset):
        _fail(N_("The rules' preset must be a name of 1 to %(length)s characters."),
              length=PRESET_NAME_LENGTH)
    values = {key: check_rule(key, value) for key, value in data.items() if key != "preset"}
    return HouseRules(preset=preset, **values)


def _setup(game: dict) -> engine.Setup:
    # A new game may leave these out (null); a stored game has them, and
    # _insert writes them as the document says.
    if game["players"] is None:
        _fail(N_("players must be 2, 3 or 4."))
    if game["first_dealer"] is None:
        _fail(N_("first_dealer must be the number of a side."))
    parsed = engine.parse_new_game(
        {"sides": game["sides"], "players": game["players"],
         "first_dealer": game["first_dealer"]})
    if list(parsed.sides) != game["sides"]:
        _fail(N_("Side names must be stored trimmed."))
    setup = engine.Setup(parsed.sides, parsed.players, _rules(game["rules"]),
                         parsed.first_dealer)
    if setup.rules.to_dict() != game["rules"]:
        _fail(N_("The rules must list every rule with its value."))
    return setup


def _canonical(payload: Any, setup: engine.Setup) -> tuple[dict, engine.Event]:
    """The event as the app stores it (it must be what the document says), parsed."""
    event = engine.recorded_event(payload, setup)
    stored = engine.to_dict(event)
    if stored != payload:
        _fail(N_("An event must be stored in its full form (every field, nothing else)."))
    return stored, event


class _Log:
    """A game's log read record by record as games.py took it, in one pass.

    Until the first correction, `states` holds the state after each standing
    event: an event is applied to the last one, an undo drops it. A
    correction may change the past, so from then on the events are checked
    for their form only, and the events as they stand are replayed once at
    the end. Either way the cost is linear in the log: undos and corrections
    used to replay every standing event each (1,500 events and 1,500 undos:
    15.6 s)."""

    def __init__(self, setup: engine.Setup):
        self.setup = setup
        self.effective: dict[int, dict | None] = {}
        self.parsed: dict[int, engine.Event] = {}  # the effective events, parsed once
        self.standing: list[int] = []  # seqs of the standing events, in order
        self.undone: dict[int, int] = {}
        self.states: list[engine.State] | None = [engine.new_game(setup)]

    def read(self, action: Any, payload: Any, seq: int, place: Any = None) -> dict:
        """One record's payload as the app writes it; raises InvalidInput or RuleViolation."""
        if action == "event":
            return self._event(payload, seq, place)
        if action == "undo":
            return self._undo(payload, seq)
        if action == "correction":
            return self._correction(payload)
        if action == "same":  # another phone's tap that was the event it names
            if not isinstance(payload, dict) or set(payload) != {"same"} \
                    or payload["same"] not in self.parsed:
                _fail(N_("A same record must name a standing event: {\"same\": seq}."))
            return {"same": payload["same"]}
        _fail(N_("A log record's action is event, undo, correction or same."))

    def _event(self, payload: Any, seq: int, place: Any) -> dict:
        """An event, at the end of the fold or placed before the record
        `place` (a tap of a deal another phone had closed)."""
        event, parsed = _canonical(payload, self.setup)
        self.effective[seq], self.parsed[seq] = event, parsed
        if place is None:
            if self.states is not None:
                self.states.append(engine.apply(self.states[-1], parsed))
            self.standing.append(seq)
            return event
        if type(place) is not int or place not in self.standing:
            _fail(N_("place must name a standing event before it."))
        self.standing.insert(self.standing.index(place), seq)
        self.states = None  # the fold is replayed once at the end
        return event

    def _undo(self, payload: Any, seq: int) -> dict:
        """An undo of a standing event: the last, or one the later events
        do not need (checked by the replay at the end)."""
        target = payload.get("undoes") if isinstance(payload, dict) else None
        if not isinstance(payload, dict) or set(payload) != {"undoes"} \
                or target not in self.standing:
            _fail(N_("An undo must name a standing event: {\"undoes\": seq}."))
        if target != self.standing[-1]:
            self.states = None
        elif self.states is not None:
            self.states.pop()
        self.standing.remove(target)
        self.undone[target] = seq
        del self.effective[target], self.parsed[target]
        return {"undoes": target}

    def _correction(self, payload: Any) -> dict:
        if not isinstance(payload, dict) or set(payload) != {"corrects", "event"}:
            _fail(N_("A correction must be {\"corrects\": seq, \"event\": event or null}."))
        target = payload["corrects"]
        if type(target) is not int or target not in self.effective:
            _fail(N_("A correction must name a standing or removed event."))
        event, parsed = (None, None) if payload["event"] is None else _canonical(
            payload["event"], self.setup)
        before = self.effective[target]
        if before == event:
            _fail(N_("A correction must change something."))
        self.effective[target], self.parsed[target] = event, parsed
        if before is None:
            bisect.insort(self.standing, target)
        elif event is None:
            del self.standing[bisect.bisect_left(self.standing, target)]
        self.states = None
        return {"corrects": target, "event": event}

    def events(self) -> list[engine.Event]:
        return [self.parsed[s] for s in self.standing]

    def replayed(self, events: list[engine.Event]) -> tuple[engine.State, list[dict[str, int]]]:
        """The events as they stand, replayed once: the game's state and its
        summary's counts (tally.replay_counts). Without corrections, the
        states of the log's own reading are those: no replay at all."""
        if self.states is not None:
            return self.states[-1], tally.totals_of(self.setup, self.states[1:])
        try:
            return tally.replay_counts(self.setup, events)
        except ScoringError as error:
            seq = self.standing[getattr(error, "event_index", len(events) - 1)]
            message = (N_("Record %(seq)s could not have been accepted: %(reason)s")
                       if isinstance(error, RuleViolation) else N_("Record %(seq)s: %(reason)s"))
            raise Because(message, error, seq=seq) from None


def _check_log(game: dict, setup: engine.Setup) -> tuple[_Log, list[dict]]:
    """Every record checked in its turn, then undone_by as the undos say."""
    log = game["log"]
    if not isinstance(log, list):
        _fail(N_("log must be a list of records."))
    checked = _Log(setup)
    keys, payloads = set(), []
    for number, record in enumerate(log, 1):
        try:
            placed = isinstance(record, dict) and "place" in record
            _exact_fields(record, RECORD_FIELDS + ("place",) if placed
                          else RECORD_FIELDS, N_("A log record must be an object with "
                                                 "exactly the fields: %(fields)s."))
            if type(record["seq"]) is not int or record["seq"] != number:
                _fail(N_("The log's records must be numbered 1, 2, 3… without a gap (seq)."))
            check_time(record["created_at"], "created_at")
            _key(record["idempotency_key"], "idempotency_key")
            if record["idempotency_key"] is not None:
                if record["idempotency_key"] in keys:
                    _fail(N_("An Idempotency-Key is used twice in one game."))
                keys.add(record["idempotency_key"])
            payloads.append(checked.read(record["action"], record["payload"], number,
                                         record.get("place")))
        except RuleViolation as error:
            raise Because(N_("Record %(seq)s could not have been accepted: %(reason)s"),
                          error, seq=number) from None
        except InvalidInput as error:
            raise Because(N_("Record %(seq)s: %(reason)s"), error, seq=number) from None
    for record in log:
        if record["undone_by"] != checked.undone.get(record["seq"]):
            _fail(N_("Record %(seq)s: undone_by does not match the log's undos."),
                  seq=record["seq"])
    return checked, payloads


def _game_row(game: dict, setup: engine.Setup, state: engine.State) -> dict:
    """The games table's row, as games.py writes it."""
    return {
        "id": game["id"],
        "created_at": game["created_at"],
        "updated_at": game["updated_at"],
        "sides": store.dumps(game["sides"]),
        "players": game["players"],
        "first_dealer": game["first_dealer"],
        "rules": store.dumps(setup.rules.to_dict()),
        "version": game["version"],
        "state": store.dumps(state.snapshot()),
        "creation_key": game["creation_key"],
    }


def check_game(game: Any, version: int = FORMAT_VERSION) -> Checked:
    """One game of a document, checked whole; raises ScoringError."""
    _exact_fields(game, GAME_FIELDS_V2 if version >= 2 else GAME_FIELDS,
                  N_("A game must be an object with exactly the fields: %(fields)s."))
    if not isinstance(game["id"], str) or not GAME_ID.fullmatch(game["id"]):
        _fail(N_("id must be 8 to 40 lowercase letters and digits."))
    check_time(game["created_at"], "created_at")
    check_time(game["updated_at"], "updated_at")
    check_time(game["deleted_at"], "deleted_at", optional=True)
    _key(game["creation_key"], "creation_key")
    setup = _setup(game)
    log, payloads = _check_log(game, setup)
    events = log.events()
    state, totals = log.replayed(events)
    if game["version"] != len(game["log"]) or type(game["version"]) is not int:
        _fail(N_("version must be the seq of the log's last record."))
    _exact_fields(game["result"], RESULT_FIELDS, N_("result must be an object with exactly "
                                                    "the fields: %(fields)s."))
    if _result(state) != game["result"]:
        _fail(N_("The log does not lead to the stated result: it scores %(scores)s."),
              scores=" – ".join(str(s) for s in state.scores))
    last = game["log"][log.standing[-1] - 1]["created_at"] if log.standing else None
    rows = [(game["id"], r["seq"], r["action"], store.dumps(payload), r["idempotency_key"],
             r["undone_by"], r["created_at"], r.get("place"))
            for r, payload in zip(game["log"], payloads)]
    partners = players.parse_partners(game.get("seats"), setup)
    return Checked(game, setup, state, events, last, _game_row(game, setup, state), rows, totals,
                   partners)


def _check_envelope(data: Any) -> int:
    """The document around its games: its format, version and fields; its version."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidInput(N_("This is not a scorekeeper export (its format is not %(format)s)."),
                           format=FORMAT)
    version = data.get("format_version")
    if version not in READABLE_VERSIONS or type(version) is not int:
        raise InvalidInput(N_("This export's format version is not one this scorekeeper reads "
                              "(%(version)s)."), version=" ".join(map(str, READABLE_VERSIONS)))
    if set(data) - {"format", "format_version", "exported_at", "games"} - (
            {"nights"} if version >= 2 else set()):
        raise InvalidInput(N_("An export holds format, format_version, exported_at and games."))
    games = data.get("games")
    if not isinstance(games, list) or not games:
        raise InvalidInput(N_("The export holds no game."))
    return version


def _numbered_check(game: Any, number: int, version: int) -> Checked:
    """check_game, its refusal naming the game by its place and its id."""
    try:
        return check_game(game, version)
    except ScoringError as error:
        game_id = game.get("id") if isinstance(game, dict) else None
        raise Because(N_("Nothing was imported. Game %(number)s (%(id)s): %(reason)s"),
                      error, number=number,
                      id=game_id[:40] if isinstance(game_id, str) else "?") from None


def _check_rematches(checked: list[Checked]) -> None:
    """A creation key the app makes for a rematch (games.rematch_key) names
    a finished game of the same document, and this game is its rematch; a
    game the document does not hold is looked for in the store (import_document)."""
    by_id = {item.document["id"]: item for item in checked}
    for item in checked:
        original = by_id.get(rematch_of_key(item.document["creation_key"]))
        if original is None:
            continue
        if not original.state.finished or engine.rematch(original.state) != item.setup:
            raise InvalidInput(N_("Nothing was imported: the game %(id)s claims to be the "
                                  "rematch of %(original)s, and is not."),
                               id=item.document["id"], original=original.document["id"])


def check_document(data: Any) -> list[Checked]:
    """Every game of an export document, checked; raises InvalidInput."""
    version = _check_envelope(data)
    checked, ids, keys = [], set(), set()
    for number, game in enumerate(data["games"], 1):
        item = _numbered_check(game, number, version)
        if item.document["id"] in ids:
            raise InvalidInput(N_("The game %(id)s is twice in the export."),
                               id=item.document["id"])
        key = item.document["creation_key"]
        if key is not None and key in keys:
            raise InvalidInput(N_("Two games of the export have the same creation key."))
        ids.add(item.document["id"])
        keys.add(key)
        checked.append(item)
    _check_rematches(checked)
    return checked


def check_nights(data: Any, checked: list[Checked]) -> list[dict]:
    """The document's club nights (version 2), checked against its games."""
    from . import night_transfer

    if not isinstance(data, dict) or "nights" not in data:
        return []
    played = {item.document["id"]: night_transfer.Played(
        item.setup.sides, item.document["deleted_at"] is not None) for item in checked}
    return night_transfer.check_nights(data["nights"], played)


# -- writing --------------------------------------------------------------------------------

def _same(here: dict[str, Any], there: dict[str, Any]) -> bool:
    """The same game, wherever it is now: in the bin or not is this store's
    own, and so are the names its people go by now (renames, merges)."""
    def game(document: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in document.items() if k not in ("deleted_at", "seats")}

    return game(here) == game(there)


def _insert(db: sqlite_utils.Database, item: Checked) -> None:
    """One checked game written: only SQL here, everything was worked out
    before the write lock was taken."""
    game = item.document
    store.insert_game(db, item.game_row)
    db.conn.executemany(
        "INSERT INTO events (game_id, seq, action, payload, idempotency_key, undone_by,"
        " created_at, place) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", item.rows)
    if game["deleted_at"] is not None:  # before the summary: a binned game does not count
        db.execute("UPDATE games SET deleted_at = ? WHERE id = ?",
                   [game["deleted_at"], game["id"]])
    summaries.create_sides(db, game["id"], item.setup)
    players.link_game(db, game["id"], item.setup, item.partners, game["created_at"])
    summaries.rebuild(db, game["id"], item.setup, item.events, item.last_event_at,
                      (item.state, item.totals))


def store_checked(db: sqlite_utils.Database, checked: list[Checked]) -> None:
    """Write checked games that are not here yet, all in one transaction, and
    rate them: the import's own write, for a caller that made sure none of
    them is here (testing/sample_history.py)."""
    with write_transaction(db, long=True):
        for item in checked:
            _insert(db, item)
        ratings.games_imported(db, [item.document["id"] for item in checked])


def _check_key_here(db: sqlite_utils.Database, game: dict, held: set[str]) -> None:
    """A new game's creation key against the store: no game here has it, and
    a rematch's names no game here that the document does not hold (else
    an import would plant the rematch of a game the table is playing)."""
    key = game["creation_key"]
    if key is not None and store.game_id_for_creation_key(db, key) is not None:
        raise ImportConflict(
            N_("Nothing was imported: the game %(id)s has the creation key of a game "
               "already here."), id=game["id"])
    original = rematch_of_key(key)
    if original is not None and original not in held and store.game_exists(db, original):
        raise ImportConflict(
            N_("Nothing was imported: the game %(id)s claims to be the rematch of %(original)s, "
               "and is not."), id=game["id"], original=original[:40])


def import_document(db: sqlite_utils.Database, data: Any) -> tuple[list[str], list[str]]:
    """Import every game of an export document, all or none: (ids imported,
    ids skipped as already here, identical). Raises InvalidInput for a
    bad document, ImportConflict for a game here that differs."""
    checked = check_document(data)
    night_documents = check_nights(data, checked)
    held = {item.document["id"] for item in checked}
    imported, skipped = [], []
    with write_transaction(db, long=True):  # taps wait their turn (db.WriteLock)
        for item in checked:
            game = item.document
            if store.game_exists(db, game["id"]):
                if not _same(export_game(db, game["id"]), game):
                    raise ImportConflict(
                        N_("Nothing was imported: a different game with the id %(id)s is "
                           "already here."), id=game["id"])
                skipped.append(game["id"])
                continue
            _check_key_here(db, game, held)
            _insert(db, item)
            imported.append(game["id"])
        ratings.games_imported(db, imported)
        if night_documents:
            from .night_transfer import import_nights

            import_nights(db, night_documents)
    return imported, skipped
