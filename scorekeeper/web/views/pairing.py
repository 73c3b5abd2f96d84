"""/pair: the page where this machine, or a host's phone, opens the table to the next one."""

from flask import Blueprint, render_template

from ..guard.access import hosts_the_table, key_for_this_machine, network_base, this_phone
from ..guard.pairing import CODE_SECONDS, codes, pairing_url
from ..pages.charts import qr_code
from ..plumbing.errors import error_answer
from ..wording.translate import gettext
from .phones import HOSTS_ONLY

bp = Blueprint("pairing", __name__)


@bp.get("/pair")
def show():
    """A new pairing code, shown by this machine or a host's phone only: a
    guest let in keeps no way to let another in, nor back in itself."""
    if not hosts_the_table():
        return error_answer(gettext(HOSTS_ONLY), 403)
    base = network_base()
    phone = this_phone()
    url = pairing_url(base, codes().new(phone.id if phone else None)) if base else None
    qr, size = qr_code(url) if url else (None, 0)
    # The host's own screen also shows the key, for a phone that cannot scan
    # (the terminal of `make run` prints it too); a phone never sees it.
    key = key_for_this_machine() if base else None
    return render_template("access/pair.html", url=url, qr=qr, size=size, base=base, key=key,
                           minutes=CODE_SECONDS // 60), 200, {"Cache-Control": "no-store"}
