"""Club nights: start one, add its tables (one game at a time, or a round of
its round robin), its standings, and the big screen for a TV at the club.
Thin: service/nights.py decides and writes."""

from datetime import date

from flask import (
    Blueprint, Response, abort, flash, jsonify, redirect, render_template, request, url_for,
)
from flask_babel import gettext
from wtforms.fields.choices import SelectChoice

from ...service import nights, presets
from ...service.clock import utc_now
from .. import rule_texts
from ..errors import sentence_of
from ..db import get_db
from ..forms import NightForm, RoundForm, ScreenForm, one_time_token
from ...engine.errors import ScoringError
from .. import screen_access
from .shared import INCOMPLETE_FORM
from ..access import network_base

bp = Blueprint("nights", __name__)

SCREEN_POLL_MS = 1000  # the big screen follows a tap within two seconds


def night_or_404(night_id: str) -> nights.Night:
    found = nights.get(get_db(), night_id)
    if found is None:
        abort(404)
    return found


@bp.get("/nights")
def index():
    return render_template("nights/index.html", nights=nights.every_night(get_db()))


def _entrants(form: NightForm) -> list[list[str]]:
    teams = form.players.data == "4"
    found = []
    for number in range(nights.MAX_ENTRANTS):
        names = [(form[f"e{number}{p}"].data or "").strip() for p in ("ab" if teams else "a")]
        if any(names):
            found.append([n for n in names if n] if not teams else names)
    return found


@bp.route("/nights/new", methods=["GET", "POST"])
def new():
    db = get_db()
    available = presets.all_presets(db)
    form = NightForm(formdata=request.form if request.method == "POST" else None)
    form.preset.choices = [SelectChoice(name, rule_texts.preset_name(name)) for name in available]
    if request.method == "GET":
        form.date.data = date.today().isoformat()
        form.preset.data = presets.default_preset(db)
        form.token.data = one_time_token()
    elif form.validate():
        data = {"name": form.name.data, "date": form.date.data, "preset": form.preset.data,
                "players": int(form.players.data), "entrants": _entrants(form)}
        try:
            night = nights.create(db, data, utc_now(), available)
        except ScoringError as error:
            form.form_errors.append(sentence_of(error))
        else:
            return redirect(url_for("nights.show", night_id=night.id), 303)
    status = 400 if form.errors or form.form_errors else 200
    return render_template("nights/new.html", form=form, count=nights.MAX_ENTRANTS), status


@bp.get("/nights/<night_id>")
def show(night_id: str):
    db = get_db()
    night = night_or_404(night_id)
    places, ties = nights.standings(db, night)
    return render_template(
        "nights/show.html", night=night, tables=nights.tables(db, night.id), places=places,
        ties=ties, proposed=nights.next_round(db, night), rounds=nights.rounds_in_all(night),
        screen_form=ScreenForm(formdata=None, token=one_time_token()),
        screen_url=_screen_url(night, external=True) if night.screen_key else None,
    )


def _screen_url(night: nights.Night, external: bool = False) -> str:
    """The big screen's address; `external`: whole, as the club's TV reaches
    it: the network address served (on the host, not its own loopback one,
    which opens nothing on another device), else this request's."""
    args = {screen_access.QUERY: night.screen_key} if night.screen_key else {}
    path = url_for("nights.screen", night_id=night.id, **args)
    if not external:
        return path
    base = network_base()  # None: nothing else is served
    return base + path if base else request.host_url.rstrip("/") + path


@bp.route("/nights/<night_id>/round", methods=["GET", "POST"])
def next_round(night_id: str):
    """The next round's pairings (a GET), then all its tables at once (a POST)."""
    db = get_db()
    night = night_or_404(night_id)
    if request.method == "POST":
        form = RoundForm()
        if not form.validate():
            flash(gettext(INCOMPLETE_FORM), "error")
            return redirect(url_for("nights.show", night_id=night.id), 303)
        try:
            started = nights.start_round(db, night, form.round.data,
                                         f"round:{form.token.data}", utc_now(),
                                         presets.all_presets(db))
        except ScoringError as error:
            flash(sentence_of(error), "error")
        else:
            flash(gettext("Round %(number)s: its tables are open.", number=form.round.data))
            if len(started) == 1:
                return redirect(url_for("games.show", game_id=started[0].id), 303)
        return redirect(url_for("nights.show", night_id=night.id), 303)
    proposed = nights.next_round(db, night)
    if proposed is None:
        abort(404)
    form = RoundForm(formdata=None, token=one_time_token(), round=proposed[0])
    return render_template("nights/round.html", night=night, proposed=proposed, form=form)


@bp.post("/nights/<night_id>/screen-link")
def screen_link(night_id: str):
    """The owner turns the read-only screen link on (a new key) or off."""
    night = night_or_404(night_id)
    form = ScreenForm()
    if not form.validate() or form.action.data not in ("on", "off"):
        flash(gettext(INCOMPLETE_FORM), "error")
    elif form.action.data == "on":
        nights.screen_on(get_db(), night.id)
        flash(gettext("The screen link is on: it shows this night's screen, and nothing else."))
    else:
        nights.screen_off(get_db(), night.id)
        flash(gettext("The screen link is off: it no longer opens anything."))
    return redirect(url_for("nights.show", night_id=night.id) + "#screen-title", 303)


def _screen_context(night: nights.Night) -> dict:
    db = get_db()
    places, ties = nights.standings(db, night)
    return {"night": night, "tables": nights.tables(db, night.id), "places": places,
            "ties": ties, "stamp": nights.stamp(db, night.id)}


@bp.get("/nights/<night_id>/screen")
def screen(night_id: str):
    """The big screen: every table's live score, who deals, the standings.
    With the header X-Screen, only its content (the page's script swaps it in)."""
    night = night_or_404(night_id)
    context = _screen_context(night)
    template = "nights/_screen.html" if request.headers.get("X-Screen") == "1" \
        else "nights/screen.html"
    data_url = url_for("nights.screen_data", night_id=night.id,
                       **({screen_access.QUERY: request.args[screen_access.QUERY]}
                          if screen_access.QUERY in request.args else {}))
    html = render_template(template, data_url=data_url, poll_ms=SCREEN_POLL_MS, **context)
    return Response(html, headers={"Cache-Control": "no-store"})


@bp.get("/nights/<night_id>/screen.json")
def screen_data(night_id: str):
    """The night's tables and standings as data; `stamp` changes with any of them."""
    night = night_or_404(night_id)
    context = _screen_context(night)
    response = jsonify({
        "night": {"id": night.id, "name": night.name, "date": night.date},
        "stamp": context["stamp"],
        "tables": [{
            "number": t.number, "round": t.round, "game": t.game.id, "sides": list(t.game.setup.sides),
            "scores": list(t.game.state.scores), "dealer": t.game.state.dealer,
            "hand": t.game.state.hand, "deal": t.game.state.deal,
            "finished": t.game.state.finished, "winner": t.game.state.winner,
            "in_bin": t.deleted,
        } for t in context["tables"]],
        "standings": [{"place": s.place, "label": s.label, "played": s.played, "won": s.won,
                       "margin": s.margin} for s in context["places"]],
    })
    response.headers["Cache-Control"] = "no-store"
    return response
