"""Exports (JSON documents, a game's CSV) and their import, by the API and by
a page; corrections through the API.

An import's body may be far larger than the API's 64 KiB: the limit is
raised for these two endpoints only (Flask 3.1's per-request
`max_content_length`), before anything reads the body.
"""

import csv
import io
import json
import re
import threading
from contextlib import contextmanager

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.exceptions import RequestEntityTooLarge

from ...engine import recorded_event
from ...engine.errors import N_, InvalidInput, ScoringError
from ...engine.moves import points_of, timeline
from ...service import games, transfer
from ...service.clock import utc_now
from ..api import answer, idempotency_key, json_body, known_game, parse_json
from ..pages.forms import ImportForm
from ..plumbing.app_request import MAX_IMPORT_BYTES
from ..plumbing.db import get_db
from ..plumbing.errors import error_answer
from ..wording.describe import event_kind, event_text, sentence_of
from ..wording.elision import say
from ..wording.translate import gettext, ngettext
from .shared import load_game_or_404

bp = Blueprint("transfer", __name__)
api_bp = Blueprint("transfer_api", __name__, url_prefix="/api")

TOO_LARGE = N_("The file is too large: an import takes at most %(size)s MiB.")
IMPORT_RUNNING = N_("Another import is running: try again once it is done.")


def _download(body: str, mimetype: str, filename: str) -> Response:
    return Response(body, mimetype=mimetype, headers={
        "Content-Disposition": f'attachment; filename="{filename}"',
        "Cache-Control": "no-store",
    })


def _json_download(data: dict, filename: str) -> Response:
    return _download(json.dumps(data, ensure_ascii=False, indent=1), "application/json",
                     filename)


@bp.get("/games/export.json")
def export_all():
    from ...service.night_transfer import export_nights

    games_documents = transfer.export_all(get_db())
    now = utc_now()
    return _json_download(transfer.document(games_documents, now, export_nights(get_db())),
                          f"ronda-games-{now[:10]}.json")


@bp.get("/games/<game_id>/export.json")
def export_game(game_id: str):
    found = transfer.export_game(get_db(), game_id)
    if found is None:
        abort(404)
    return _json_download(transfer.document([found], utc_now()), f"ronda-{game_id}.json")


# A spreadsheet told to split on another separator (";" in French) makes a
# new cell after each one: "a;=1+2" becomes "a" and the formula "=1+2".
AFTER_SEPARATOR = re.compile(r"([,;|\t\r\n]\s*)(?=[=+\-@])")


def _cell(text: str) -> str:
    """A text cell that no spreadsheet reads as a formula, whatever the separator."""
    text = AFTER_SEPARATOR.sub(r"\1'", text)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


# The CSV is for people: one language, the page's (docs/HISTORY.md).
CSV_HEADERS = (N_("Number"), N_("Log record"), N_("Recorded at"), N_("Hand"), N_("Deal"),
               N_("Kind of event"), N_("What happened"))
CSV_POINTS, CSV_SCORE = N_("Points: %(side)s"), N_("Score: %(side)s")


@bp.get("/games/<game_id>/export.csv")
def export_csv(game_id: str):
    """One row per standing event (as corrected), with what it gave and the
    running score, in the page's language: its headers, the kind and words
    of each event."""
    db = get_db()
    game = load_game_or_404(game_id)
    setup = game.setup
    standing = games.standing_events(db, game_id)
    times = games.record_times(db, game_id)
    events = [recorded_event(e, setup) for _, e in standing]
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([gettext(header) for header in CSV_HEADERS]
                    + [_cell(say(CSV_POINTS, side=name)) for name in setup.sides]
                    + [_cell(say(CSV_SCORE, side=name)) for name in setup.sides])
    for number, ((seq, _), step) in enumerate(zip(standing, timeline(setup, events)), 1):
        writer.writerow(
            [number, seq, times[seq], step.hand, step.deal, event_kind(step.event),
             _cell(event_text(step.event, setup.sides))]
            + list(points_of(step.gains, setup.side_count)) + list(step.scores))
    return _download(out.getvalue(), "text/csv", f"ronda-{game_id}.csv")


class ImportRunning(Exception):
    """Another import is being read or written."""


@contextmanager
def _one_import_at_a_time():
    """An import holds a thread for seconds: one at a time, so that imports
    sent together never take every thread from the taps."""
    running = current_app.extensions.setdefault("scorekeeper.import", threading.Lock())
    if not running.acquire(blocking=False):
        raise ImportRunning
    try:
        yield
    finally:
        running.release()


def _busy():
    return error_answer(gettext(IMPORT_RUNNING), 429, {"Retry-After": "5"})


def _loads(raw: bytes):
    try:
        return parse_json(raw)
    except (ValueError, RecursionError):
        raise InvalidInput(N_("The file is not valid JSON: is it a whole export?"))


def _too_large():
    return error_answer(gettext(TOO_LARGE, size=MAX_IMPORT_BYTES // 2**20), 413)


@api_bp.post("/games/import")
def api_import():
    """An export document (JSON, up to 64 MiB): 200 {"imported": [...], "skipped": [...]}."""
    request.max_content_length = MAX_IMPORT_BYTES
    if request.mimetype != "application/json":
        abort(415)
    if (request.content_length or 0) > MAX_IMPORT_BYTES:
        return _too_large()
    try:
        with _one_import_at_a_time():
            raw = request.get_data(cache=False)
            imported, skipped = transfer.import_document(get_db(), _loads(raw))
    except RequestEntityTooLarge:
        return _too_large()
    except ImportRunning:
        return _busy()
    return jsonify({"imported": imported, "skipped": skipped})


@api_bp.post("/games/<game_id>/corrections")
def api_correct(game_id: str):
    """{"seq": n, "event": {...} or null, "expected_version": v}: the game's new state."""
    known_game(game_id)
    game, _ = games.correct(get_db(), game_id, json_body(), idempotency_key(), utc_now())
    return answer(game)


@bp.route("/games/import", methods=["GET", "POST"])
def import_page():
    """The same import from a file picked on the phone (a form POST)."""
    if request.method == "GET":
        return render_template("history/import.html", form=ImportForm(formdata=None))
    request.max_content_length = MAX_IMPORT_BYTES
    try:
        form = ImportForm()
        valid = form.validate()
    except RequestEntityTooLarge:
        return _too_large()
    if not valid:
        flash(gettext("Pick an export file (.json) to import."), "error")
        return redirect(url_for("transfer.import_page"), 303)
    try:
        with _one_import_at_a_time():
            document = _loads(form.file.data.read(MAX_IMPORT_BYTES + 1))
            imported, skipped = transfer.import_document(get_db(), document)
    except ImportRunning:
        flash(gettext(IMPORT_RUNNING), "error")
        return redirect(url_for("transfer.import_page"), 303)
    except ScoringError as error:
        flash(sentence_of(error), "error")
        return redirect(url_for("transfer.import_page"), 303)
    said = ngettext("%(num)s game imported.", "%(num)s games imported.", len(imported))
    if skipped:
        said += " " + ngettext("%(num)s was already here.", "%(num)s were already here.",
                               len(skipped))
    flash(said)
    return redirect(url_for("history.index"), 303)
