"""The engine's files for the board's engine worker (docs/OFFLINE.md, "The
board counts by itself"), at addresses versioned by what they hold.

The phone runs the project's own engine in MicroPython: the worker's script
(static/board/engine-worker.js) and the engine's Python files with their
stand-ins (scorekeeper.phone) are each served under a content hash, with
`immutable`, so that a phone fetches them once per version of the app, after
the board's first paint, never on the way to it.
"""

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from flask import Flask, Response, abort, current_app, render_template, url_for
from flask_babel import force_locale

from ...engine.names import DEFAULT_SIDE_NAMES
from ...phone import board_files
from .assets import ONE_YEAR

IMMUTABLE = f"public, max-age={ONE_YEAR}, immutable"
WORKER = "board/engine-worker.js"
# The page's side of the count, which starts the worker: a static file
# (asset()), loaded by the outbox after the first paint, not in the board's bundle.
COUNT_SCRIPT = "board/count.js"
# The words the count draws the board's announcements with, in the page's
# language: fetched by count.js after the first paint (the first page's
# weight is counted to the byte), at the engine files' address with the
# language in it ("engine.<version>.json" -> "texts.<version>.<lang>.html").
TEXTS = "games/_count_texts.html"


def _hashed(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:10]


@lru_cache(maxsize=1)
def _files(templates: str, translations: str) -> tuple[bytes, str]:
    """The engine's files as one JSON object (path -> source), and the
    version of what the count loads: those files, and its words (their
    template and every catalog), which count.js finds at an address of the
    same version."""
    data = json.dumps(board_files(), sort_keys=True, ensure_ascii=False).encode()
    words = [(Path(templates) / TEXTS).read_bytes()]
    words += [po.read_bytes() for po in sorted(Path(translations).glob("*/LC_MESSAGES/*.po"))]
    return data, _hashed(data + b"".join(words))


def _current() -> tuple[bytes, str]:
    return _files(current_app.template_folder,
                  current_app.config["BABEL_TRANSLATION_DIRECTORIES"].split(";")[0])


@lru_cache(maxsize=4)
def _worker(folder: str) -> tuple[bytes, str]:
    data = (Path(folder) / WORKER).read_bytes()
    return data, _hashed(data)


def files_url() -> str:
    return url_for("phone_engine_files", version=_current()[1])


def worker_url() -> str:
    return url_for("phone_engine_worker", version=_worker(current_app.static_folder)[1])


def _answer(data: bytes, mimetype: str) -> Response:
    response = Response(data, mimetype=mimetype)
    response.headers["Cache-Control"] = IMMUTABLE
    return response


def files(version: str) -> Response:
    data, current = _current()
    if version != current:
        abort(404)  # an older version of the app's engine: the page that named it is gone
    return _answer(data, "application/json")


def worker(version: str) -> Response:
    data, current = _worker(current_app.static_folder)
    if version != current:
        abort(404)
    return _answer(data, "text/javascript")


def texts(version: str, language: str) -> Response:
    """The count's words in `language` (one the app has a catalog of)."""
    if version != _current()[1] or language not in _languages():
        abort(404)
    with force_locale(language):
        return _answer(render_template(TEXTS, default_side_names=DEFAULT_SIDE_NAMES).encode(),
                       "text/html")


def _languages() -> list[str]:
    folder = Path(current_app.config["BABEL_TRANSLATION_DIRECTORIES"].split(";")[0])
    return [po.parent.parent.name for po in folder.glob("*/LC_MESSAGES/*.po")]


def init_app(app: Flask) -> None:
    app.add_url_rule("/phone/engine.<version>.json", "phone_engine_files", files)
    app.add_url_rule("/phone/texts.<version>.<language>.html", "phone_count_texts", texts)
    # Its policy (guard/security.py) lets it compile the phone's Python.
    app.add_url_rule("/phone/engine-worker.<version>.js", "phone_engine_worker", worker)
