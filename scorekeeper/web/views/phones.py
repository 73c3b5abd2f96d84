"""/phones: the phones let in to the table, each with its own pass, and the
button that turns one away (service/phones.py decides and writes)."""

from flask import Blueprint, abort, flash, redirect, render_template, url_for

from ...engine.errors import ScoringError
from ...service import phones
from ...service.clock import utc_now
from ..guard.access import gate, this_phone
from ..pages.forms import ConfirmForm, one_time_token
from ..plumbing.db import get_db
from ..wording.describe import sentence_of
from ..wording.translate import gettext
from .shared import INCOMPLETE_FORM

bp = Blueprint("phones", __name__)


@bp.get("/phones")
def index():
    mine = this_phone()
    return render_template(
        "phones/index.html", phones=phones.listed(get_db(), gate().mark),
        mine=mine.id if mine else None, form=ConfirmForm(formdata=None, token=one_time_token()),
    ), 200, {"Cache-Control": "no-store"}


@bp.post("/phones/<int:phone_id>/away")
def turn_away(phone_id: int):
    if not ConfirmForm().validate():
        flash(gettext(INCOMPLETE_FORM), "error")
        return redirect(url_for("phones.index"), 303)
    try:
        phones.turn_away(get_db(), phone_id, gate().mark, utc_now())
    except ScoringError as error:
        flash(sentence_of(error), "error")
    else:
        flash(gettext("Turned away: that phone's next request gets the key page."))
    if this_phone() is not None and this_phone().id == phone_id:
        abort(403)  # it turned itself away: nothing more for it here
    return redirect(url_for("phones.index"), 303)
