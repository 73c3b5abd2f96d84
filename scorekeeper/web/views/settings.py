"""House rules: the presets (built-in ones read-only, the table's own
editable), the preset new games start with, and /rules, how scoring works
under a preset, in plain words made from its values."""

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from ... import engine
from ...engine.errors import ScoringError
from ...engine.limits import NAME_LENGTH
from ...service import presets, ratings
from ...service.clock import utc_now
from ..pages.forms import (
    CsrfForm,
    PresetForm,
    ProvisionalForm,
    fill_rules,
    rule_field_list,
    rule_values,
)
from ..plumbing.db import get_db
from ..wording import rule_texts
from ..wording.describe import sentence_of
from ..wording.translate import gettext, ngettext

bp = Blueprint("settings", __name__)


@bp.get("/settings")
def index():
    db = get_db()
    return render_template(
        "settings/index.html",
        built_in=engine.BUILT_IN_PRESETS,
        table=presets.table_presets(db),
        default=presets.default_preset(db),
        form=CsrfForm(),
        provisional_form=ProvisionalForm(formdata=None, games=ratings.provisional_games(db)),
    )


@bp.post("/settings/ratings")
def provisional():
    """How many finished games a rating stays provisional (the ranking lists it apart)."""
    form = ProvisionalForm()
    if not form.validate():
        flash(" ".join(str(e) for e in form.games.errors) or gettext(
            "This form is incomplete: reload the page and try again."), "error")
    else:
        try:
            ratings.set_provisional_games(get_db(), form.games.data)
        except ScoringError as error:
            flash(sentence_of(error), "error")
        else:
            flash(ngettext("Saved: a rating is provisional for its first finished game.",
                           "Saved: a rating is provisional for its first %(num)s finished "
                           "games.", form.games.data), "info")
    return redirect(url_for("settings.index") + "#ratings-title", 303)


@bp.post("/settings/default")
def choose_default():
    form = CsrfForm()
    if not form.validate():
        abort(400)
    try:
        presets.set_default(get_db(), request.form.get("preset", ""))
    except ScoringError as error:
        flash(sentence_of(error), "error")
    else:
        flash(gettext("New games now start with this preset."), "info")
    return redirect(url_for("settings.index"), 303)


def _edit(form, preset_id: str | None, status_ok: int = 200):
    """Validate and save a preset form; the engine's checks are the last word."""
    if form.validate_on_submit():
        try:
            presets.save(get_db(), form.name.data, rule_values(form), utc_now(), preset_id)
        except ScoringError as error:
            form.name.errors = [*form.name.errors, sentence_of(error)]
        else:
            flash(gettext("Preset saved."), "info")
            return redirect(url_for("settings.index"), 303)
    status = 400 if form.errors or form.name.errors else status_ok
    return render_template("settings/preset.html", form=form, fields=rule_field_list(form),
                           preset_id=preset_id), status


@bp.route("/settings/presets/new", methods=["GET", "POST"])
def new_preset():
    form = PresetForm()
    if request.method == "GET":
        source = request.args.get("from", "appli")
        available = presets.all_presets(get_db())
        rules = available.get(source, engine.BUILT_IN_PRESETS["appli"])
        fill_rules(form, rules)
        if source in available:
            copied = rule_texts.preset_name(source)
            form.name.data = gettext("Copy of %(name)s", name=copied)[:NAME_LENGTH]
    return _edit(form, None)


def _preset_or_404(preset_id: str) -> dict:
    """The table's own preset of that id; a built-in one or none is a 404."""
    preset = presets.table_preset(get_db(), preset_id)
    if preset is None:
        abort(404)
    return preset


@bp.route("/settings/presets/<preset_id>", methods=["GET", "POST"])
def edit_preset(preset_id: str):
    preset = _preset_or_404(preset_id)
    form = PresetForm()
    if request.method == "GET":
        form.name.data = preset["name"]
        fill_rules(form, preset["rules"])
    return _edit(form, preset_id)


@bp.route("/settings/presets/<preset_id>/delete", methods=["GET", "POST"])
def delete_preset(preset_id: str):
    preset = _preset_or_404(preset_id)
    form = CsrfForm()
    if request.method == "POST" and form.validate():
        presets.delete(get_db(), preset_id)
        flash(gettext("Preset deleted. Games played with it keep their rules."), "info")
        return redirect(url_for("settings.index"), 303)
    return render_template("settings/delete.html", preset=preset, form=form)


@bp.get("/rules")
def explain():
    db = get_db()
    available = presets.all_presets(db)
    name = request.args.get("preset") or presets.default_preset(db)
    if name not in available:
        abort(404)
    chosen = available[name]
    return render_template("settings/rules.html", name=name, rules=chosen,
                           sections=rule_texts.explain(chosen), names=list(available))
