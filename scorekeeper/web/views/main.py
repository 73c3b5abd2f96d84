"""The home page: resume the game in progress, or start one, in one tap."""

from flask import Blueprint, render_template

from ...service import games
from ...service.clock import utc_now
from ..guard.access import hosts_the_table
from ..pages import resume
from ..plumbing.db import get_db

bp = Blueprint("main", __name__)


@bp.get("/")
def index():
    """This device's game while it runs, resumed in one tap; a device
    without one is offered every game in progress by its names."""
    db = get_db()
    wanted = resume.wanted()
    own = games.running(db, wanted) if wanted else None
    if own is not None and own.id == wanted:
        return render_template("main/index.html", running=own, joinable=[],
                               hosting=hosts_the_table())
    return render_template("main/index.html", running=None, joinable=games.joinable(db),
                           now=utc_now(), hosting=hosts_the_table())
