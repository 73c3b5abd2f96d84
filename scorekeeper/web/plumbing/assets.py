"""Static files under versioned addresses, so browsers may cache them for a year.

A bundle is a static file made of several (BUNDLES): the board's script is
one file per thing it does for its readers and one request for a phone. It
is joined in its fixed order when first asked for, and again when one of its
parts changes (no build step to remember), and served as a static file is:
the same caching headers, the same policy, its address versioned by what it
holds.
"""

import hashlib
import io
from functools import lru_cache, wraps
from pathlib import Path

from flask import Flask, current_app, request, send_file, url_for

ONE_YEAR = 365 * 24 * 3600

# The board's script in the order it runs: the board first (it sets up
# window.Ronda, the hooks through which the others meet it), then the outbox
# of taps waiting for the server, the screen kept awake, and the service
# worker's registration.
BUNDLES = {
    "board.js": ("board/board.js", "board/outbox.js", "board/awake.js", "board/worker.js"),
}


def _stamps(folder: str, filename: str) -> tuple:
    """What changes when a part of a bundle does: a few stat calls a page."""
    return tuple((stat.st_mtime_ns, stat.st_size) for stat in
                 ((Path(folder) / part).stat() for part in BUNDLES[filename]))


@lru_cache(maxsize=8)
def _joined(folder: str, filename: str, stamps: tuple) -> tuple[bytes, str, float]:
    """The bundle's bytes, its version, and when its newest part changed."""
    parts = [(Path(folder) / part).read_bytes() for part in BUNDLES[filename]]
    data = b"".join(part if part.endswith(b"\n") else part + b"\n" for part in parts)
    newest = max(stamp for stamp, _size in stamps) / 1e9
    return data, hashlib.sha256(data).hexdigest()[:10], newest


def bundle(folder: str, filename: str) -> tuple[bytes, str, float]:
    return _joined(folder, filename, _stamps(folder, filename))


@lru_cache(maxsize=None)
def _file_version(folder: str, filename: str) -> str:
    return hashlib.sha256((Path(folder) / filename).read_bytes()).hexdigest()[:10]


def _version(folder: str, filename: str) -> str:
    if filename in BUNDLES:
        return bundle(folder, filename)[1]
    return _file_version(folder, filename)


def asset(filename: str) -> str:
    """The address of a static file, changed whenever its content changes (a
    template global: template_helpers.py)."""
    return url_for("static", filename=filename, v=_version(current_app.static_folder, filename))


def _send_bundle(filename: str):
    data, version, modified = bundle(current_app.static_folder, filename)
    # As the static view sends a file: its max age, conditional answers
    # (304, ranges), the inline name its type is guessed from.
    return send_file(io.BytesIO(data), download_name=filename, etag=version,
                     last_modified=modified, conditional=True)


def init_app(app: Flask) -> None:
    # Every page names static files through asset(), so a new version is a new
    # address and a long cache lifetime never serves a stale file.
    app.config["SEND_FILE_MAX_AGE_DEFAULT"] = ONE_YEAR
    # A bundle is answered by the static view itself, so that what wraps that
    # view (slim.py: without comments) and every after-request hook (gzip,
    # the headers of every answer) treat it as the file it stands for.
    serve = app.view_functions["static"]

    @wraps(serve)
    def static(filename: str, **kwargs):
        response = _send_bundle(filename) if filename in BUNDLES else serve(
            filename=filename, **kwargs)
        if request.args.get("v") and response.status_code == 200:
            # A versioned address never holds anything else: no revalidation,
            # even on a reload (the engine's runtime is half a megabyte).
            response.cache_control.immutable = True
        return response

    app.view_functions["static"] = static
