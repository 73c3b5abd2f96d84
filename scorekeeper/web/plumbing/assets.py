"""Static files under versioned addresses, so browsers may cache them for a year."""

import hashlib
from functools import lru_cache
from pathlib import Path

from flask import Flask, current_app, url_for

ONE_YEAR = 365 * 24 * 3600


@lru_cache(maxsize=None)
def _version(folder: str, filename: str) -> str:
    return hashlib.sha256((Path(folder) / filename).read_bytes()).hexdigest()[:10]


def asset(filename: str) -> str:
    """The address of a static file, changed whenever its content changes (a
    template global: template_helpers.py)."""
    return url_for("static", filename=filename, v=_version(current_app.static_folder, filename))


def init_app(app: Flask) -> None:
    # Every page names static files through asset(), so a new version is a new
    # address and a long cache lifetime never serves a stale file.
    app.config["SEND_FILE_MAX_AGE_DEFAULT"] = ONE_YEAR
