"""/stats: per name across finished games, a name's gains, head-to-head."""

from flask import Blueprint, render_template, request
from flask_babel import format_decimal, format_percent, gettext

from .. import charts
from ...service import history, ratings, stats
from ...engine import tally
from ..db import get_db
from ..i18n import join_list
from ...engine.errors import N_
from .history import name_filter, no_such_page, page_number

bp = Blueprint("stats", __name__)

GAIN_NAMES = {
    "ronda": N_("Ronda"),
    "double_ronda": N_("Double Ronda"),
    "tringa": N_("Tringa"),
    "missa": N_("Missa"),
    "bount": N_("Hit of 1 (Bount)"),
    "khamsa": N_("Hit of 5 (Khamsa)"),
    "aachra": N_("Hit of 10 (Âachra)"),
    "cards": N_("Card bonus"),
    "adjust": N_("Correction or penalty"),
    "hidden_ronda": N_("Hidden Ronda penalty"),
    "dealer_last_trick": N_("Dealer's last trick"),
}


@bp.app_template_filter("gain_name")
def gain_name(kind: str) -> str:
    return gettext(GAIN_NAMES[kind])


@bp.app_template_filter("percent")
def percent(rate: float) -> str:
    return format_percent(rate)


@bp.app_template_filter("decimal")
def decimal(number: float) -> str:
    return format_decimal(number, "0.0")


@bp.app_template_filter("signed")
def signed(number: float) -> str:
    text = format_decimal(abs(number), "0.0")
    return f"+{text}" if number > 0 else f"−{text}" if number < 0 else text


def _bars(rows: list[tuple[str, float, str]], scale: float | None = None):
    """A bar chart and its text alternative (every bar in words)."""
    chart = charts.bar_chart(rows, scale)
    return chart, join_list(f"{label} {text}" for label, _, text in rows)


def gains_bars(gains):
    """The chart of each kind of gain per game (a name's, a person's)."""
    return _bars([(gain_name(kind), gains.per_game(kind), decimal(gains.per_game(kind)))
                  for kind in tally.COUNTS if gains.counts[kind]])


@bp.get("/stats")
def index():
    db = get_db()
    number = page_number(request.args)
    name = name_filter(request.args)
    first, second = name_filter(request.args, "a"), name_filter(request.args, "b")
    board = stats.leaderboard(db, number)
    if number > board.pages:
        return no_such_page(board.pages)
    player = stats.player(db, name) if name else None
    pair = stats.head_to_head(db, first, second) if first and second else None
    wins_chart, wins_desc = _bars(
        [(r.name, r.win_rate, percent(r.win_rate)) for r in board.records[:10]], scale=1.0)
    gains_chart = gains_desc = None
    if player is not None:
        gains_chart, gains_desc = gains_bars(player)
    return render_template(
        "stats/index.html", board=board, name=name, player=player, first=first,
        second=second, pair=pair, names=history.known_names(db), COUNTS=tally.COUNTS,
        wins_chart=wins_chart, wins_desc=wins_desc, gains_chart=gains_chart,
        gains_desc=gains_desc, ranking=ratings.ranking(db), min_games=ratings.MIN_GAMES,
    )
