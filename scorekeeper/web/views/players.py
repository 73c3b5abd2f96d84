"""The roster and a person's page: statistics, partners and opponents, a
pair, and the changes (rename, merge and its undoing). Thin:
service/players.py writes, service/person_stats.py reads."""

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from ...engine import tally
from ...engine.errors import N_, ScoringError
from ...service import person_stats, players, ratings, unnamed
from ...service.clock import utc_now
from ..pages import charts
from ..pages.forms import ConfirmForm, MergeForm, PlayerForm, one_time_token
from ..plumbing.db import get_db
from ..wording.describe import sentence_of
from ..wording.elision import say
from ..wording.translate import gettext
from .shared import INCOMPLETE_FORM, gains_bars, no_such_page, page_number

bp = Blueprint("players", __name__)



def _player(player_id: int) -> players.Player:
    """The entry, or the 404 page; a side nobody named is nobody (service/unnamed.py)."""
    found = players.get(get_db(), player_id)
    if found is None or unnamed.is_default(found.name):
        abort(404)
    return found


def _root(player_id: int) -> players.Player:
    """The person an entry is (a merged entry's page is its person's)."""
    found = _player(player_id)
    return found if not found.merged else _player(found.person)


@bp.get("/players")
def index():
    number = page_number(request.args)
    roster = person_stats.roster(get_db(), number)
    if number > roster.pages:
        return no_such_page(roster.pages)
    return render_template("players/index.html", roster=roster)


@bp.get("/players/<int:player_id>")
def show(player_id: int):
    db = get_db()
    entry = _player(player_id)
    if entry.merged:
        return redirect(url_for("players.show", player_id=entry.person), 303)
    found = person_stats.person(db, entry)
    gains_chart, gains_desc = gains_bars(found)
    others = [p for p in players.people(db) if p.id != entry.id]
    return render_template(
        "players/show.html", entry=entry, found=found, COUNTS=tally.COUNTS,
        aliases=players.aliases(db, entry.id), gains_chart=gains_chart, gains_desc=gains_desc,
        others=others, form=ConfirmForm(formdata=None, token=one_time_token()),
        **person_context(db, entry),
    )


def person_context(db, entry: players.Player) -> dict:
    """The person's rating in points, its ± and its history (a chart)."""
    rating = ratings.of_person(db, entry.person)
    if rating is None:
        return {"rating": None}
    start = ratings.Rating(ratings.MODEL.mu, ratings.MODEL.sigma, 0)
    chart = charts.band_chart([(r.points, r.spread)
                               for r in [start, *ratings.history(db, entry.person)]])
    return {"rating": rating, "rating_chart": chart, "rating_start": start.points,
            "provisional_games": ratings.provisional_games(db)}


def _chosen(field: str) -> int:
    value = request.args.get(field, "")
    if not (value.isascii() and value.isdigit() and len(value) < 10):
        abort(404)
    return int(value)


@bp.get("/players/<int:player_id>/pair")
def pair(player_id: int):
    """Two people: as partners and against each other (`?with=` the other)."""
    first, second = _root(player_id), _root(_chosen("with"))
    if first.id == second.id:
        return redirect(url_for("players.show", player_id=first.id), 303)
    return render_template("players/pair.html", first=first, second=second,
                           pair=person_stats.pair(get_db(), first, second))


@bp.route("/players/<int:player_id>/edit", methods=["GET", "POST"])
def edit(player_id: int):
    entry = _player(player_id)
    form = PlayerForm(formdata=request.form if request.method == "POST" else None)
    if request.method == "GET":
        form.name.data, form.nickname.data = entry.name, entry.nickname or ""
        form.token.data = one_time_token()
    elif form.validate():
        db = get_db()
        try:
            players.rename(db, entry.id, form.name.data, form.nickname.data, utc_now())
        except ScoringError as error:
            form.form_errors.append(sentence_of(error))
        else:
            flash(gettext("Saved: every game of this player follows the new name."))
            return redirect(url_for("players.show", player_id=entry.person), 303)
    status = 400 if form.errors or form.form_errors else 200
    return render_template("players/edit.html", entry=entry, form=form), status


@bp.route("/players/<int:player_id>/merge", methods=["GET", "POST"])
def merge(player_id: int):
    """Two steps: pick the other entry (a GET), then confirm (a POST)."""
    db = get_db()
    source = _player(player_id)
    if request.method == "POST":
        form = MergeForm()
        if not form.validate():
            flash(gettext(INCOMPLETE_FORM), "error")
            return redirect(url_for("players.show", player_id=source.person), 303)
        try:
            players.merge(db, source.id, form.into.data, utc_now())
        except ScoringError as error:
            flash(sentence_of(error), "error")
            return redirect(url_for("players.show", player_id=source.person), 303)
        flash(say(N_("Merged: %(name)s's games now count for %(other)s. This can be undone "
                     "on %(other)s's page."), name=source.name,
                  other=_player(form.into.data).name))
        return redirect(url_for("players.show", player_id=form.into.data), 303)
    target = players.get(db, _chosen("into"))
    if target is None or unnamed.is_default(target.name) or target.merged or source.merged or target.id == source.id:
        abort(404)
    refusal = players.merge_refusal(db, source, target)
    if refusal is not None:  # said before the question, not after its answer
        flash(sentence_of(refusal), "error")
        return redirect(url_for("players.show", player_id=source.person), 303)
    form = MergeForm(formdata=None, token=one_time_token(), into=target.id)
    return render_template(
        "players/merge.html", source=source, target=target, form=form,
        source_games=person_stats.person(db, source).results.played,
        target_games=person_stats.person(db, target).results.played)


@bp.post("/players/<int:player_id>/unmerge")
def unmerge(player_id: int):
    db = get_db()
    entry = _player(player_id)
    person = entry.person
    if not ConfirmForm().validate():
        flash(gettext(INCOMPLETE_FORM), "error")
        return redirect(url_for("players.show", player_id=person), 303)
    try:
        players.unmerge(db, entry.id, utc_now())
    except ScoringError as error:
        flash(sentence_of(error), "error")
    else:
        flash(gettext("%(name)s is a player of their own again.", name=entry.name))
    return redirect(url_for("players.show", player_id=person), 303)
