"""The read-only screen link of a club night: a key of its own
that lets a TV or a laptop without the table's access key read one night's
big screen and its data, and nothing else: no other page, no write.

The access guard (access.py) asks `allows()` once, before it refuses a
device; everything else about the link is here.
"""

import hmac

from flask import Request

from ...service import nights
from ..plumbing.db import get_db

# What the link opens: the night's big screen and the data it follows.
SCREEN_ENDPOINTS = frozenset({"nights.screen", "nights.screen_data"})
QUERY = "screen"


def allows(request: Request) -> bool:
    """Whether this request reads a night's screen with that night's key."""
    if request.method not in ("GET", "HEAD") or request.endpoint not in SCREEN_ENDPOINTS:
        return False
    offered = request.args.get(QUERY, "")
    night_id = (request.view_args or {}).get("night_id", "")
    if not offered or len(offered) > 64:
        return False
    night = nights.get(get_db(), night_id)
    key = night.screen_key if night is not None else None
    return key is not None and hmac.compare_digest(offered.encode(), key.encode())
