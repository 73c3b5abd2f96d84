"""Club nights: start one, add its tables (one game at a time, a round of its
round robin or of its Swiss evening, a knockout's match), its standings or
bracket, and the big screen for a TV at the club. Thin: service/nights.py
and service/tournaments.py decide and write."""

from datetime import date

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from wtforms.fields.choices import SelectChoice

from ...engine.errors import ScoringError
from ...service import nights, players, presets, tournaments
from ...service.clock import utc_now
from ..guard import screen_access
from ..guard.access import network_base
from ..pages.forms import (
    ConfirmForm,
    EntrantForm,
    NightForm,
    RoundForm,
    ScreenForm,
    WithdrawForm,
    one_time_token,
)
from ..plumbing.db import get_db
from ..wording import rule_texts
from ..wording.describe import sentence_of
from ..wording.elision import about
from ..wording.translate import gettext
from .shared import INCOMPLETE_FORM

bp = Blueprint("nights", __name__)

SCREEN_POLL_MS = 1000  # the big screen follows a tap within two seconds (config SCREEN_POLL_MS)


def night_or_404(night_id: str) -> nights.Night:
    found = nights.get(get_db(), night_id)
    if found is None:
        abort(404)
    return found


@bp.get("/nights")
def index():
    return render_template("nights/index.html", nights=nights.every_night(get_db()))


def _entrants(form: NightForm) -> list[list[str]]:
    """The fields' entrants, then the players ticked (one player each), then
    the lines typed ("Karim & Salma": a team's two)."""
    teams = form.players.data == "4"
    found = _entrants_in_fields(form, teams)
    if not teams:
        found += [[name] for name in request.form.getlist("people")[:nights.MAX_TOURNAMENT + 1]]
    return found + _entrants_in_lines(form.more.data, teams)


def _entrants_in_fields(form: NightForm, teams: bool) -> list[list[str]]:
    """The entrants typed one to a field (a team's two fields side by side):
    a team keeps an empty half, so that a team of one is refused, not taken
    for a player alone."""
    found = []
    for number in range(nights.MAX_ENTRANTS):
        names = [(form[f"e{number}{p}"].data or "").strip() for p in ("ab" if teams else "a")]
        if any(names):
            found.append(names if teams else [n for n in names if n])
    return found


def _entrants_in_lines(text: str | None, teams: bool) -> list[list[str]]:
    """The entrants typed one to a line ("Karim & Salma": a team's two)."""
    found = []
    for line in (text or "").splitlines():
        names = [n.strip() for n in line.split("&")] if teams else [line.strip()]
        if any(names):
            found.append(names)
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
                "players": int(form.players.data), "entrants": _entrants(form),
                "format": form.format.data, "match_games": int(form.match_games.data),
                "seeding": form.seeding.data, "rounds": form.rounds.data}
        try:
            night = nights.create(db, data, utc_now(), available)
        except ScoringError as error:
            form.form_errors.append(sentence_of(error))
        else:
            return redirect(url_for("nights.show", night_id=night.id), 303)
    status = 400 if form.errors or form.form_errors else 200
    return render_template("nights/new.html", form=form, count=nights.MAX_ENTRANTS,
                           people=players.people(db),
                           ticked=set(request.form.getlist("people"))), status


def _progress(night: nights.Night) -> dict:
    """What a night's page and its screen show of its progress: a round
    robin's standings and its next round, a knockout's bracket, a Swiss
    evening's standings and rounds."""
    db = get_db()
    if night.format == "knockout":
        return {"bracket": tournaments.bracket(db, night), "labels": tournaments.labels(night)}
    if night.format == "swiss":
        return {"swiss": tournaments.swiss(db, night), "labels": tournaments.labels(night)}
    places, ties = nights.standings(db, night)
    proposed = nights.next_round(db, night)
    rounds = nights.rounds_in_all(night)
    # Every round started and its last one played: the night says who won
    # (it said only that every round had started, to the end).
    over = bool(rounds) and not proposed and not nights.unfinished(db, night.id, rounds)
    return {"places": places, "ties": ties, "proposed": proposed, "rounds": rounds,
            "playing": nights.unfinished(db, night.id, proposed[0] - 1) if proposed else [],
            "winners": [s.label for s in places if s.place == 1 and s.played] if over else []}


@bp.get("/nights/<night_id>")
def show(night_id: str):
    db = get_db()
    night = night_or_404(night_id)
    return render_template(
        "nights/show.html", night=night, tables=nights.tables(db, night.id, night.tournament),
        screen_form=ScreenForm(formdata=None, token=one_time_token()),
        action_form=ConfirmForm(formdata=None, token=one_time_token()),
        entrant_form=EntrantForm(formdata=None, token=one_time_token()),
        screen_url=_screen_url(night, external=True) if night.screen_key else None,
        every_round=request.args.get("rounds") == "all",
        **_progress(night),
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


def _proposed(night: nights.Night):
    """The next round (number, pairs of names, who sits out) and the tables
    of the round before still being played; None when there is none."""
    db = get_db()
    if night.format == "swiss":
        found = tournaments.swiss(db, night)
        if found.next is None:
            return None, []
        number, pairs, bye = found.next
        return (number, [(night.entrants[a], night.entrants[b]) for a, b in pairs],
                None if bye is None else night.entrants[bye]), found.pending
    proposed = nights.next_round(db, night)
    if proposed is None or night.format != "round_robin":
        return None, []
    return proposed, nights.unfinished(db, night.id, proposed[0] - 1)


@bp.route("/nights/<night_id>/round", methods=["GET", "POST"])
def next_round(night_id: str):
    """The next round's pairings (a GET), then all its tables at once (a POST).
    While the round before is being played, the page names its tables and
    its button confirms starting anyway."""
    db = get_db()
    night = night_or_404(night_id)
    if request.method == "POST":
        form = RoundForm()
        if not form.validate():
            flash(gettext(INCOMPLETE_FORM), "error")
            return redirect(url_for("nights.show", night_id=night.id), 303)
        start = tournaments.start_swiss_round if night.format == "swiss" else nights.start_round
        try:
            started = start(db, night, form.round.data, f"round:{form.token.data}", utc_now(),
                            presets.all_presets(db), force=form.force.data == "1")
        except nights.RoundNotDone:
            flash(gettext("The round before is still being played: confirm to start this "
                          "one anyway."), "error")
            return redirect(url_for("nights.next_round", night_id=night.id), 303)
        except ScoringError as error:
            flash(sentence_of(error), "error")
        else:
            flash(gettext("Round %(number)s: its tables are open.", number=form.round.data))
            if len(started) == 1:
                return redirect(url_for("games.show", game_id=started[0].id), 303)
        return redirect(url_for("nights.show", night_id=night.id), 303)
    proposed, waiting = _proposed(night)
    if proposed is None:
        abort(404)
    form = RoundForm(formdata=None, token=one_time_token(), round=proposed[0],
                     force="1" if waiting else "")
    return render_template("nights/round.html", night=night, proposed=proposed, form=form,
                           waiting=waiting)


@bp.post("/nights/<night_id>/matches/<int:round_>/<int:slot>")
def start_match(night_id: str, round_: int, slot: int):
    """A match's next table, from the bracket or the round: one tap, then its game."""
    db = get_db()
    night = night_or_404(night_id)
    form = ConfirmForm()
    if not form.validate():
        flash(gettext(INCOMPLETE_FORM), "error")
        return redirect(url_for("nights.show", night_id=night.id), 303)
    try:
        # The page's one token serves every match's button: the key names the match too.
        game = tournaments.start_match(db, night, round_, slot,
                                       f"match:{round_}:{slot}:{form.token.data}",
                                       utc_now(), presets.all_presets(db))
    except ScoringError as error:
        flash(sentence_of(error), "error")
        return redirect(url_for("nights.show", night_id=night.id), 303)
    return redirect(url_for("games.show", game_id=game.id), 303)


@bp.post("/nights/<night_id>/entrants/<int:entrant>/withdraw")
def withdraw(night_id: str, entrant: int):
    """A Swiss entrant withdraws from the next round on, or comes back."""
    night = night_or_404(night_id)
    form = WithdrawForm()
    if not form.validate() or form.action.data not in ("out", "in"):
        flash(gettext(INCOMPLETE_FORM), "error")
    else:
        try:
            tournaments.withdraw(get_db(), night, entrant, back=form.action.data == "in")
        except ScoringError as error:
            flash(sentence_of(error), "error")
        else:
            flash(about("%(name)s plays again from the next round." if form.action.data == "in"
                        else "%(name)s plays no more rounds; the rounds played stay.", "name",
                        night.teams, name=night.label(entrant)))
    return redirect(url_for("nights.show", night_id=night.id) + "#swiss-title", 303)


@bp.post("/nights/<night_id>/entrants")
def add_entrant(night_id: str):
    """A late entrant of a Swiss evening, from the next round on."""
    night = night_or_404(night_id)
    form = EntrantForm()
    if not form.validate():
        flash(gettext("Type the late entrant's name (a team: both names)."), "error")
    else:
        names = [form.first.data] + ([form.second.data] if night.teams else [])
        try:
            position = tournaments.add_entrant(get_db(), night, names)
        except ScoringError as error:
            flash(sentence_of(error), "error")
        else:
            flash(about("%(name)s joins from the next round.", "name", night.teams,
                        name=nights.get(get_db(), night.id).label(position)))
    return redirect(url_for("nights.show", night_id=night.id) + "#swiss-title", 303)


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
    # A tournament's screen shows the tables being played: its bracket or its
    # rounds have the others' results.
    return {"night": night, "tables": nights.tables(db, night.id, night.tournament),
            "stamp": nights.stamp(db, night.id), **_progress(night)}


@bp.get("/nights/<night_id>/screen")
def screen(night_id: str):
    """The big screen: every table's live score, who deals, the standings.
    With the header X-Screen, only its content (the page's script swaps it in)."""
    night = night_or_404(night_id)
    context = _screen_context(night)
    template = "nights/_screen.html" if request.headers.get("X-Screen") == "1" \
        else "nights/screen.html"
    # The script asks for the stamp alone every second, and for the content once it moved.
    data_url = url_for("nights.screen_data", night_id=night.id, stamp=1,
                       **({screen_access.QUERY: request.args[screen_access.QUERY]}
                          if screen_access.QUERY in request.args else {}))
    html = render_template(template, data_url=data_url,
                           poll_ms=current_app.config.get("SCREEN_POLL_MS", SCREEN_POLL_MS),
                           **context)
    return Response(html, headers={"Cache-Control": "no-store"})


@bp.get("/nights/<night_id>/screen.json")
def screen_data(night_id: str):
    """The night's tables and standings as data; `stamp` changes with any of them
    (`?stamp=1`: the stamp alone, what the big screen asks every second)."""
    night = night_or_404(night_id)
    if request.args.get("stamp") == "1":
        response = jsonify({"stamp": nights.stamp(get_db(), night.id)})
        response.headers["Cache-Control"] = "no-store"
        return response
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
                       "margin": s.margin} for s in context.get("places", [])],
        **_progress_data(context),
    })
    response.headers["Cache-Control"] = "no-store"
    return response


def _match_data(line: tournaments.MatchLine) -> dict:
    match = line.match
    return {"round": match.round, "slot": match.slot, "entrants": list(match.entrants),
            "wins": list(match.wins), "winner": match.winner, "bye": match.bye,
            "table": line.playing.number if line.playing else None}


def _progress_data(context: dict) -> dict:
    """A knockout's bracket or a Swiss evening's standings, as data."""
    if "bracket" in context:
        found = context["bracket"]
        return {"entrants": context["labels"], "champion": found.champion,
                "bracket": [[_match_data(line) for line in round_] for round_ in found.rounds]}
    if "swiss" in context:
        found = context["swiss"]
        return {"entrants": context["labels"],
                "swiss": {"standings": [{"place": s.standing.place, "entrant": s.standing.entrant,
                                         "wins": s.standing.wins, "played": s.standing.played,
                                         "margin": s.standing.margin, "byes": s.standing.byes,
                                         "withdrawn": s.withdrawn} for s in found.standings],
                          "rounds": [[_match_data(line) for line in round_]
                                     for round_ in found.rounds]}}
    return {}
