"""/stats: per name across finished games, a name's gains, head-to-head."""

from flask import Blueprint, render_template, request

from ...engine import tally
from ...service import history, ratings, stats
from ..pages.template_helpers import percent
from ..plumbing.db import get_db
from .shared import bars, gains_bars, name_filter, no_such_page, page_number

bp = Blueprint("stats", __name__)

@bp.get("/stats")
def index():
    db = get_db()
    number = page_number(request.args)
    name = name_filter(request.args)
    first, second = name_filter(request.args, "a"), name_filter(request.args, "b")
    leaderboard = stats.leaderboard(db, number)
    if number > leaderboard.pages:
        return no_such_page(leaderboard.pages)
    player = stats.name_stats(db, name) if name else None
    pair = stats.head_to_head(db, first, second) if first and second else None
    wins_chart, wins_desc = bars(
        [(r.name, r.win_rate, percent(r.win_rate)) for r in leaderboard.rows], scale=1.0)
    gains_chart = gains_desc = None
    if player is not None:
        gains_chart, gains_desc = gains_bars(player)
    return render_template(
        "stats/index.html", leaderboard=leaderboard, name=name, player=player, first=first,
        second=second, pair=pair, names=history.known_names(db), COUNTS=tally.COUNTS,
        wins_chart=wins_chart, wins_desc=wins_desc, gains_chart=gains_chart,
        gains_desc=gains_desc, ranking=ratings.ranking(db), rating_start=ratings.CENTRE,
    )
