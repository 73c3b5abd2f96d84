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

from flask import Flask, Response, abort, current_app, url_for

from ...phone import board_files
from .assets import ONE_YEAR

IMMUTABLE = f"public, max-age={ONE_YEAR}, immutable"
WORKER = "board/engine-worker.js"
# The page's side of the count, which starts the worker: a static file
# (asset()), loaded by the outbox after the first paint, not in the board's bundle.
COUNT_SCRIPT = "board/count.js"


def _hashed(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:10]


@lru_cache(maxsize=1)
def _files() -> tuple[bytes, str]:
    """The engine's files as one JSON object (path -> source), and its version."""
    data = json.dumps(board_files(), sort_keys=True, ensure_ascii=False).encode()
    return data, _hashed(data)


@lru_cache(maxsize=4)
def _worker(folder: str) -> tuple[bytes, str]:
    data = (Path(folder) / WORKER).read_bytes()
    return data, _hashed(data)


def files_url() -> str:
    return url_for("phone_engine_files", version=_files()[1])


def worker_url() -> str:
    return url_for("phone_engine_worker", version=_worker(current_app.static_folder)[1])


def _answer(data: bytes, mimetype: str) -> Response:
    response = Response(data, mimetype=mimetype)
    response.headers["Cache-Control"] = IMMUTABLE
    return response


def files(version: str) -> Response:
    data, current = _files()
    if version != current:
        abort(404)  # an older version of the app's engine: the page that named it is gone
    return _answer(data, "application/json")


def worker(version: str) -> Response:
    data, current = _worker(current_app.static_folder)
    if version != current:
        abort(404)
    return _answer(data, "text/javascript")


def init_app(app: Flask) -> None:
    app.add_url_rule("/phone/engine.<version>.json", "phone_engine_files", files)
    # Its policy (guard/security.py) lets it compile the phone's Python.
    app.add_url_rule("/phone/engine-worker.<version>.js", "phone_engine_worker", worker)
