"""/phones: the phones let in to the table, each with its own pass; the
buttons that turn one away and mark one as a host (service/phones.py
decides and writes). Any phone may turn itself away; turning another away
and marking hosts belong to this machine and to the hosts (access.py)."""

from flask import Blueprint, abort, flash, redirect, render_template, url_for

from ...engine.errors import N_, ScoringError
from ...service import phones
from ...service.clock import utc_now
from ..guard.access import gate, hosts_the_table, this_phone
from ..guard.pairing import codes
from ..pages.forms import ConfirmForm, one_time_token
from ..plumbing.db import get_db
from ..plumbing.errors import error_answer
from ..wording.describe import sentence_of
from ..wording.translate import gettext
from .shared import INCOMPLETE_FORM

bp = Blueprint("phones", __name__)

HOSTS_ONLY = N_("Only this table's hosts can do that: the computer where the scorekeeper "
                "runs, and the phones it marked as hosts.")


@bp.get("/phones")
def index():
    mine = this_phone()
    return render_template(
        "phones/index.html", phones=phones.listed(get_db(), gate().mark),
        mine=mine.id if mine else None, hosting=hosts_the_table(),
        form=ConfirmForm(formdata=None, token=one_time_token()),
    ), 200, {"Cache-Control": "no-store"}


def _mine(phone_id: int) -> bool:
    phone = this_phone()
    return phone is not None and phone.id == phone_id


@bp.post("/phones/<int:phone_id>/away")
def turn_away(phone_id: int):
    if not (_mine(phone_id) or hosts_the_table()):
        return error_answer(gettext(HOSTS_ONLY), 403)
    if not ConfirmForm().validate():
        flash(gettext(INCOMPLETE_FORM), "error")
        return redirect(url_for("phones.index"), 303)
    try:
        phones.turn_away(get_db(), phone_id, gate().mark, utc_now())
    except ScoringError as error:
        flash(sentence_of(error), "error")
    else:
        codes().forget_shown_by({phone_id})  # the rest of its codes, turned away with it
        flash(gettext("Turned away: that phone's next request gets the key page, and so "
                      "does every phone it let in."))
    if _mine(phone_id):
        abort(403)  # it turned itself away: nothing more for it here
    return redirect(url_for("phones.index"), 303)


@bp.post("/phones/<int:phone_id>/host")
def make_host(phone_id: int):
    if not hosts_the_table():
        return error_answer(gettext(HOSTS_ONLY), 403)
    if not ConfirmForm().validate():
        flash(gettext(INCOMPLETE_FORM), "error")
        return redirect(url_for("phones.index"), 303)
    try:
        phones.make_host(get_db(), phone_id, gate().mark)
    except ScoringError as error:
        flash(sentence_of(error), "error")
    else:
        flash(gettext("That phone is now one of the table's hosts: it can add phones and "
                      "turn them away."))
    return redirect(url_for("phones.index"), 303)
