"""Static files under versioned addresses, so browsers may cache them for a year."""

import hashlib
from functools import lru_cache
from pathlib import Path

from flask import Flask, url_for

ONE_YEAR = 365 * 24 * 3600


def init_app(app: Flask) -> None:
    folder = Path(app.static_folder)

    @lru_cache(maxsize=None)
    def version(filename: str) -> str:
        return hashlib.sha256((folder / filename).read_bytes()).hexdigest()[:10]

    def asset(filename: str) -> str:
        """The address of a static file, changed whenever its content changes."""
        return url_for("static", filename=filename, v=version(filename))

    app.jinja_env.globals["asset"] = asset
    # Every page names static files through asset(), so a new version is a new
    # address and a long cache lifetime never serves a stale file.
    app.config["SEND_FILE_MAX_AGE_DEFAULT"] = ONE_YEAR
