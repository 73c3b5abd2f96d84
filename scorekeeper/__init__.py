"""The Ronda scorekeeper: a web app that keeps the score of a real game.

`create_app` loads the web framework only when called, so that importing the
scoring engine (`scorekeeper.engine`) brings in no Flask and no SQLite.
"""


def create_app(test_config: dict | None = None):
    """The Flask app of scorekeeper.web.app; see its create_app."""
    from .web import app

    return app.create_app(test_config)
