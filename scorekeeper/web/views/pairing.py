"""/pair: the page where a device already in opens the table to the next one."""

from flask import Blueprint, render_template

from ..guard.access import key_for_this_machine, network_base
from ..guard.pairing import CODE_SECONDS, codes, pairing_url
from ..pages.charts import qr_code

bp = Blueprint("pairing", __name__)


@bp.get("/pair")
def show():
    """The page where a device already in opens the table to the next one."""
    base = network_base()
    url = pairing_url(base, codes().new()) if base else None
    qr, size = qr_code(url) if url else (None, 0)
    # The host's own screen also shows the key, for a phone that cannot scan
    # (the terminal of `make run` prints it too); a phone never sees it.
    key = key_for_this_machine() if base else None
    return render_template("access/pair.html", url=url, qr=qr, size=size, base=base, key=key,
                           minutes=CODE_SECONDS // 60), 200, {"Cache-Control": "no-store"}
