"""The home page: resume the game in progress, or start one, in one tap."""

from flask import Blueprint, render_template

from ...service import games
from ..pages import resume
from ..plumbing.db import get_db

bp = Blueprint("main", __name__)


@bp.get("/")
def index():
    return render_template("main/index.html", running=games.running(get_db(), resume.wanted()))
