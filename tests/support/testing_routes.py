"""Test-only routes registered on a test app, for what the real pages do not
show alone: a bare Flask-WTF form (the session cookie and CSRF, nothing
else), an HTML page that writes to the store on a plain GET (no page to read
a token from first), and a view that fails unexpectedly."""

from flask import Blueprint, Flask, render_template_string
from flask_wtf import FlaskForm

from scorekeeper.service import games
from scorekeeper.service.clock import utc_now
from scorekeeper.web.plumbing.db import get_db

FORM_PAGE = '<form method="post">{{ form.csrf_token }}<button>Go</button></form>'


def add_testing_routes(app: Flask) -> Flask:
    bp = Blueprint("testing", __name__, url_prefix="/_test")

    @bp.route("/form", methods=["GET", "POST"])
    def form():
        form = FlaskForm()
        if form.validate_on_submit():
            return "accepted"
        return render_template_string(FORM_PAGE, form=form)

    @bp.get("/adjust/<game_id>")
    def adjust(game_id):
        """An HTML page that records an event, as the scoreboard's taps do."""
        event = {"type": "adjust", "side": 0, "points": 1}
        game, _ = games.record(get_db(), game_id, event, None, utc_now())
        return render_template_string("<p>version {{ v }}</p>", v=game.version)

    @bp.get("/boom")
    def boom():
        raise RuntimeError("an unexpected failure")

    app.register_blueprint(bp)
    return app
