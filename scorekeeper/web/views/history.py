"""Past games: the list, the bin, a game's review and its corrections.

Every change is a CSRF-protected form POST answered by a redirect; a
correction's one-time token is its Idempotency-Key.
"""

import re

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict

from ...engine import RANKS, recorded_event, to_dict
from ...engine.errors import N_, InvalidInput, ScoringError
from ...engine.events import KINDS, LAST_TRICK_OUTCOMES
from ...service import games, history
from ...service.clock import utc_now
from ...service.review import Entry, review_entry
from ..pages.forms import ConfirmForm, CorrectForm, one_time_token
from ..plumbing.db import get_db
from ..plumbing.errors import status_of
from ..wording.describe import sentence_of
from ..wording.translate import gettext, ngettext
from .shared import (
    INCOMPLETE_FORM,
    PAGE_NUMBER,
    POINTS_WORDS,
    confirm_form,
    in_page_words,
    load_game_or_404,
    name_filter,
    no_such_page,
    page_number,
    review_context,
)

bp = Blueprint("history", __name__)

# The correction form's own words for the engine's sentences about an API field (by its name).
CORRECTION_WORDS = {
    **POINTS_WORDS,
    "to": N_("The penalty goes to another side than the one that hid the Ronda: pick who gets "
             "it."),
    "cards": N_("Type the cards taken by every side asked for: the last side gets the rest."),
    "announcements": N_("Keep 1 to 4 announcements; to take them all away, remove this event."),
}


# -- the list and the bin ---------------------------------------------------------------------

@bp.get("/games")
def index():
    db = get_db()
    name = name_filter(request.args)
    person = _person_filter(request.args)
    try:
        page = history.games_page(db, page_number(request.args), name, person=person and person.id)
    except history.NoSuchPage as error:
        return no_such_page(error.pages)
    from ...service import nights

    return render_template("history/list.html", page=page, name=name, person=person,
                           names=history.known_names(db),
                           nights_of=nights.night_of_games(db, [line.id for line in page.lines]))


def _person_filter(args: MultiDict):
    """?player=<id>: that person's games (a merged entry's person)."""
    from ...service import players

    value = args.get("player", "")
    if not value:
        return None
    found = players.get(get_db(), int(value)) if PAGE_NUMBER.fullmatch(value) else None
    if found is None:
        raise InvalidInput(N_("There is no such player."))
    return found if not found.merged else players.get(get_db(), found.person)


@bp.get("/games/bin")
def show_bin():
    try:
        page = history.games_page(get_db(), page_number(request.args), binned=True)
    except history.NoSuchPage as error:
        return no_such_page(error.pages)
    return render_template("history/bin.html", page=page, form=confirm_form(),
                           binned=True)


@bp.route("/games/bin/empty", methods=["GET", "POST"])
def empty_bin():
    db = get_db()
    if request.method == "POST":
        if not ConfirmForm().validate():
            abort(400)
        count = history.empty_bin(db)
        flash(ngettext("The bin is empty: %(num)s game deleted for good.",
                       "The bin is empty: %(num)s games deleted for good.", count))
        return redirect(url_for("history.show_bin"), 303)
    page = history.games_page(db, binned=True)
    return render_template("history/empty.html", count=page.count, form=confirm_form())


@bp.route("/games/<game_id>/delete", methods=["GET", "POST"])
def delete(game_id: str):
    db = get_db()
    line = history.game_line(db, game_id)
    if line is None:
        abort(404)
    if request.method == "POST":
        if not ConfirmForm().validate():
            abort(400)
        history.throw_away(db, game_id, utc_now())
        flash(gettext("The game is in the bin: you can restore it from there."))
        return redirect(url_for("history.index"), 303)
    if line.deleted_at is not None:
        return redirect(url_for("history.show_bin"), 303)
    return render_template("history/delete.html", line=line, form=confirm_form())


@bp.post("/games/<game_id>/restore")
def restore(game_id: str):
    db = get_db()
    if history.game_line(db, game_id) is None:
        abort(404)
    if not ConfirmForm().validate():
        abort(400)
    if history.restore(db, game_id):
        flash(gettext("The game is back in the list."))
    return redirect(url_for("history.index"), 303)


# -- a game's review ---------------------------------------------------------------------------

@bp.get("/games/<game_id>/review")
def show_review(game_id: str):
    game = load_game_or_404(game_id)
    try:
        context = review_context(game)
    except history.NoSuchPage as error:
        return no_such_page(error.pages)
    return render_template("history/review.html", game=game, pages_of="history.show_review",
                           **context)


def _review_url(game: games.Game) -> str:
    if game.state.finished:
        return url_for("games.show", game_id=game.id)
    return url_for("history.show_review", game_id=game.id)


# -- corrections -------------------------------------------------------------------------------

def _whole(value: str | None):
    """A form's text as a whole number when it is one; else as it is, for the
    engine to refuse with its own sentence."""
    if value is None or value.strip() == "":
        return None
    value = value.strip()
    return int(value) if re.fullmatch(r"-?\d{1,4}", value) else value


def changed_event(current: dict, form: MultiDict, sides: int) -> dict:
    """The event `current` (its stored form) with what the correction form changed."""
    event = dict(current)
    for field in ("side", "value", "points"):
        if field in event and field in form:
            event[field] = _whole(form.get(field))
    event.update(_changed_fields(event, form, sides))
    return event


def _changed_fields(event: dict, form: MultiDict, sides: int) -> dict:
    """The fields of the event's own kind that the correction form changed."""
    kind = event["type"]
    if kind == "missa":
        return {"last_card": form.get("last_card") == "1"}
    if kind == "hidden_ronda":
        return _changed_receiver(event, form, sides)
    if kind == "adjust" and "note" in form:
        return {"note": form.get("note", "")}
    if kind == "dealer_last_trick" and "outcome" in form:
        return {"outcome": form.get("outcome")}
    if kind == "end_hand":
        return {"cards": [_whole(form.get(f"cards{s}")) for s in range(sides - 1)] + [None]}
    if kind == "reveal":
        return {"ranks": [_whole(form.get(f"rank{s}")) for s in range(sides)]}
    if kind == "announce":
        return {"announcements": _changed_announcements(form, len(event["announcements"]))}
    return {}


def _changed_receiver(event: dict, form: MultiDict, sides: int) -> dict:
    """Who a hidden Ronda's penalty goes to: at two sides, the other side,
    whichever hid it; else the side the form names."""
    if sides == 2 and type(event["side"]) is int and event.get("to") is not None:
        return {"to": 1 - event["side"]}
    if form.get("to"):
        return {"to": _whole(form.get("to"))}
    return {}


def _changed_announcements(form: MultiDict, count: int) -> list[dict]:
    """Each row of the form, and one more to add a forgotten announcement;
    a row without a kind is no announcement."""
    return [
        {"side": _whole(form.get(f"a{i}_side")), "kind": form.get(f"a{i}_kind"),
         "rank": _whole(form.get(f"a{i}_rank"))}
        for i in range(count + 1)
        if form.get(f"a{i}_kind")
    ]


def _entry(game: games.Game, seq: int) -> Entry:
    found = review_entry(get_db(), game, seq)
    if found is None:
        abort(404)
    return found


def _correction_page(game: games.Game, entry: Entry,
                     values: dict, error: str | None = None, ends_earlier: str | None = None,
                     status: int = 200, reopens: str | None = None):
    """The correction form, filled with `values` (the event as stored, or as
    the refused correction had it: an edit is never lost)."""
    form = CorrectForm(formdata=None, token=one_time_token(), expected_version=game.version)
    hand, deal = entry.hand, entry.deal
    counts = None
    if values.get("type") == "end_hand":  # every side's count, as the engine computes it
        try:
            counts = list(recorded_event(values, game.setup).counts())
        except ScoringError:
            counts = list(values.get("cards") or [])
    return render_template(
        "history/correct.html", game=game, entry=entry, form=form, hand=hand, deal=deal,
        values=values, counts=counts, error=error, ends_earlier=ends_earlier, reopens=reopens,
        back=_review_url(game), RANKS=RANKS, KINDS=KINDS, OUTCOMES=LAST_TRICK_OUTCOMES,
    ), status


@bp.route("/games/<game_id>/events/<int:seq>/correct", methods=["GET", "POST"])
def correct(game_id: str, seq: int):
    game = load_game_or_404(game_id)
    entry = _entry(game, seq)
    here = url_for("history.correct", game_id=game_id, seq=seq)
    if request.method == "GET":
        return _correction_page(game, entry, to_dict(entry.event))
    form = CorrectForm()
    action = request.form.get("action") or ""
    # "…_and_trim": the same, with the events after the game's new end removed;
    # "…_and_reopen": the same, on a finished game that it reopens (asked first,
    # since the next tap on its board would then count).
    trim = action in ("change_and_trim", "remove_and_trim")
    reopen = action in ("change_and_reopen", "remove_and_reopen", "restore_and_reopen")
    action = action.removesuffix("_and_trim").removesuffix("_and_reopen")
    if not form.validate() or action not in ("change", "remove", "restore"):
        flash(gettext(INCOMPLETE_FORM), "error")
        return redirect(here, 303)
    if action == "remove":
        event = None
    elif action == "restore":
        event = to_dict(entry.event)
    else:
        event = changed_event(to_dict(entry.event), request.form, game.setup.side_count)
    body = {"seq": seq, "event": event, "expected_version": form.expected_version.data,
            "remove_after_end": trim}
    try:
        game, _ = games.correct(get_db(), game_id, body, f"form:{form.token.data}:correct",
                                utc_now(), ask_before_reopening=not reopen)
    except ScoringError as error:
        values = event if event is not None else to_dict(entry.event)
        ends_earlier = action if isinstance(error, games.EndsEarlier) else None
        reopens = action if isinstance(error, games.Reopens) else None
        sentence = sentence_of(in_page_words(error, CORRECTION_WORDS, INCOMPLETE_FORM))
        return _correction_page(game, entry, values, sentence, ends_earlier,
                                status_of(error), reopens)
    flash(gettext("Corrected: the score is now %(score)s.",
                  score=" – ".join(str(s) for s in game.state.scores)))
    return redirect(_review_url(game), 303)
