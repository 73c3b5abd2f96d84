"""The JSON API of ../shared/contract/API.md: every client drives games through it."""

import json
import re
from contextlib import contextmanager
from typing import Any, Iterator

from flask import Blueprint, abort, current_app, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from ..engine.errors import N_, InvalidInput, ScoringError
from ..service import games, presets, scoreboard
from ..service.clock import utc_now
from ..service.recent import Recent
from .plumbing.db import get_db

bp = Blueprint("api", __name__, url_prefix="/api")

MAX_BODY_BYTES = 64 * 1024
KEY_LENGTH = 100


class NoSessionOnTheApi(SecureCookieSessionInterface):
    """The cookie session (the forms' CSRF token) is the pages' own: the API
    takes JSON and no form, so its requests do not read, verify nor write it."""

    def open_session(self, app, request):
        if request.path.startswith(bp.url_prefix + "/"):
            return self.make_null_session(app)
        return super().open_session(app, request)


# JSON spells a lone surrogate only as an escape once the bytes are strict UTF-8.
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _reject_constant(name: str):
    raise ValueError(name)


def parse_json(raw: bytes) -> Any:
    """A JSON document as the app takes it, else ValueError (RecursionError
    for a nesting too deep): UTF-8 only, no NaN or Infinity, and no lone
    surrogate ("\\ud800" is no character: it could not be stored or shown)."""
    text = raw.decode("utf-8")
    data = json.loads(text, parse_constant=_reject_constant)
    if SURROGATE_ESCAPE.search(text):  # rare: then look at every string
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    return data


def json_body() -> dict:
    """The request's JSON object, checked in the contract's order: 415, 413, 400."""
    if request.mimetype != "application/json":
        abort(415)
    if (request.content_length or 0) > MAX_BODY_BYTES:
        abort(413)
    try:
        raw = request.get_data(cache=True)
    except RequestEntityTooLarge:
        abort(413)
    if len(raw) > MAX_BODY_BYTES:
        abort(413)
    try:
        body = parse_json(raw)
    except (ValueError, RecursionError):
        raise InvalidInput(N_("The body is not valid JSON."))
    if not isinstance(body, dict):
        raise InvalidInput(N_("The body must be a JSON object."))
    return body


def idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    # Printable ASCII: " " to "~" (isprintable alone would let other scripts in).
    if not 1 <= len(key) <= KEY_LENGTH or not (key.isascii() and key.isprintable()):
        raise InvalidInput(
            N_("Idempotency-Key takes 1 to %(length)s printable ASCII characters."),
            length=KEY_LENGTH,
        )
    return key


def known_game(game_id: str) -> None:
    """404 comes before every other error, so look the game up first."""
    if not games.exists(get_db(), game_id):
        raise games.GameNotFound(N_("No game has this id."))


@contextmanager
def game_first(game_id: str) -> Iterator[None]:
    """404 comes before every other error: when a request on a game fails
    for another reason, look the game up then. A tap that succeeds finds its
    game once, in its write transaction: a second look-up would cost
    every tap."""
    try:
        yield
    except games.GameNotFound:
        raise
    except (ScoringError, HTTPException):
        known_game(game_id)
        raise


@bp.post("/games")
def create_game():
    body = json_body()
    db = get_db()
    key = idempotency_key()
    game, created = games.create(db, body, key, utc_now(), presets.all_presets(db))
    return answer(game), 201 if created else 200


def view(game: games.Game, rematch: str | None = None) -> dict[str, Any]:
    """The game's state as the JSON API shows it (API.md "Game state"), with
    the id of its rematch once one is started (`games.rematch_of`)."""
    return {**fixed_view(game), **moving_view(game, rematch)}


def fixed_view(game: games.Game) -> dict[str, Any]:
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


def moving_view(game: games.Game, rematch: str | None = None) -> dict[str, Any]:
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


# The answers' JSON as jsonify writes it (compact, ASCII), its fields in the
# view's order rather than sorted, with an encoder made once: a tap's answer
# cost more than its INSERT.
STATE_ENCODER = json.JSONEncoder(separators=(",", ":"))
# A game's fixed fields (fixed_view) encoded once, for a few games:
# {game id: (set-up, created_at, text)}, used for that very set-up only.
FIXED_TEXTS: Recent[str, tuple[Any, str, str]] = Recent(64)


def _fixed_text(game: games.Game) -> str:
    known = FIXED_TEXTS.get(game.id)
    if known is not None and known[0] is game.setup and known[1] == game.created_at:
        return known[2]
    text = STATE_ENCODER.encode(fixed_view(game))[1:-1]
    FIXED_TEXTS.put(game.id, (game.setup, game.created_at, text))
    return text


def state_json(game: games.Game, rematch: str | None = None) -> str:
    """`view(game, rematch)` as JSON text."""
    moving = STATE_ENCODER.encode(moving_view(game, rematch))
    return "{" + _fixed_text(game) + "," + moving[1:]


def answer(game: games.Game):
    """The game state of every success answer (API.md), and beyond the
    contract its rematch once one is started, for the other phones to follow."""
    rematch = games.rematch_of(get_db(), game.id) if game.state.finished else None
    return current_app.response_class(state_json(game, rematch) + "\n",
                                      mimetype="application/json")


@bp.get("/games/<game_id>")
def get_game(game_id: str):
    return answer(games.load(get_db(), game_id))


@bp.post("/games/<game_id>/events")
def post_event(game_id: str):
    with game_first(game_id):
        body, key = json_body(), idempotency_key()
        tap = _phones_tap(body, key)
        if tap is not None:
            game = scoreboard.tap(get_db(), game_id, tap[0], key, utc_now(), *tap[1:]).game
        else:
            game, _ = games.record(get_db(), game_id, body, key, utc_now())
    return answer(game)


@bp.post("/games/<game_id>/undo")
def post_undo(game_id: str):
    with game_first(game_id):
        body, key = json_body(), idempotency_key()
        tap = _phones_tap(body, key, undo=True)
        if tap is not None:
            game = scoreboard.tap(get_db(), game_id, None, key, utc_now(), *tap[1:]).game
        else:
            game, _ = games.undo(get_db(), game_id, body, key, utc_now())
    return answer(game)


DEVICE = re.compile(r"[A-Za-z0-9_-]{1,40}")


def _phones_tap(body: dict, key: str | None, undo: bool = False
                ) -> tuple[dict | None, int | None, str] | None:
    """A tap of a client that names its phone (`device`) and its tap id
    (the Idempotency-Key): merged by the rule of two phones, as a board's
    (docs/BOARD.md): (its event, the version it saw, its device). None:
    the contract's strict rule (expected_version must be the game's)."""
    if key is None or "device" not in body:
        return None
    body = dict(body)
    device = body.pop("device")
    if not isinstance(device, str) or not DEVICE.fullmatch(device):
        raise InvalidInput(N_("device takes 1 to 40 letters, digits, - and _."), field="device")
    event, seen = games.event_body(body)
    if undo and event:
        raise InvalidInput(N_("An undo takes no field but expected_version."))
    return (None if undo else event), seen, device
