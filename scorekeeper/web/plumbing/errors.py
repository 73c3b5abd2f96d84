"""Every error answers a sentence: JSON ({"error": ...}) on the API, a page elsewhere.

No input may produce a 5xx: the engine's and the shell's refusals are mapped
here to 400, 404 and 409, and an unexpected failure still gets a page (or
JSON), never a traceback.
"""

import sqlite3
from typing import Callable

from flask import Flask, Response, current_app, jsonify, render_template, request
from flask_babel import gettext
from werkzeug.exceptions import HTTPException

from ...engine.errors import N_, NotFound, RuleViolation, ScoringError

HTTP_SENTENCES = {
    400: N_("The request is malformed."),
    403: N_("This device may not do that."),
    404: N_("There is nothing at this address."),
    405: N_("This address does not take that method."),
    413: N_("The request is too large: at most 64 KiB."),
    415: N_("Send the body as JSON, with Content-Type: application/json."),
    429: N_("Too many attempts: wait a minute, then try again."),
}
UNAVAILABLE = N_("The score store cannot be reached right now (%(reason)s). Nothing was "
                 "changed: try again in a moment.")
UNEXPECTED = N_("Something went wrong on our side. Nothing was changed.")


def wants_json() -> bool:
    return request.path.startswith("/api/")


def error_answer(sentence: str, status: int, headers: dict | None = None):
    if wants_json():
        return jsonify({"error": sentence}), status, headers or {}
    try:
        page = render_template("error.html", sentence=sentence, status=status)
    except Exception:  # the error page failed too: still the sentence, not a traceback
        current_app.logger.exception("the error page failed")
        return Response(sentence + "\n", status, headers, mimetype="text/plain")
    return page, status, headers or {}


def status_of(error: ScoringError) -> int:
    if isinstance(error, NotFound):
        return 404
    if isinstance(error, RuleViolation):
        return 409
    return 400


def register_error_handlers(app: Flask, sentence_of: Callable[[ScoringError], str]) -> None:
    """Every error's answer; a refusal's sentence worded by `sentence_of`
    (the wording's, web/wording/describe.py: plumbing words no sentence itself)."""

    @app.errorhandler(ScoringError)
    def scoring_error(error: ScoringError):
        return error_answer(sentence_of(error), status_of(error))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        status = error.code or 500
        sentence = HTTP_SENTENCES.get(status)
        sentence = gettext(sentence) if sentence else error.description
        return error_answer(sentence, status)

    @app.errorhandler(sqlite3.Error)
    def store_error(error: sqlite3.Error):
        app.logger.exception("store error")
        reason = str(error).split("\n")[0][:80]
        return error_answer(gettext(UNAVAILABLE, reason=reason), 503)

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        app.logger.exception("unexpected error")
        return error_answer(gettext(UNEXPECTED), 500)

