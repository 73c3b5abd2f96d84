"""Pairing codes: what the QR code carries instead of the access key.

A code opens the table to one device, once, within a few minutes; a URL
found later in a browser's history opens nothing. Opening the code's page
only shows a button: the code is spent by that button's POST, so a QR
scanner or a link preview that fetches the address does not spend it.

Codes live in the server's memory: a restart forgets them (`make run`
prints a fresh one). A device already in shows a new one on /pair (its page:
views/pairing.py), for the next phone at the table.
"""

import hmac
import secrets
import threading
import time
from collections import OrderedDict

from flask import current_app

CODE_SECONDS = 15 * 60
MAX_CODES = 32  # codes not yet used; the oldest is forgotten first
PREFIX = "/pair/"


class Codes:
    """One-time codes with an expiry, safe across threads."""

    def __init__(self, lifetime: float = CODE_SECONDS, clock=time.monotonic):
        self.lifetime, self.clock = lifetime, clock
        self._codes: OrderedDict[str, float] = OrderedDict()  # code -> expiry
        self._lock = threading.Lock()

    def new(self) -> str:
        code = secrets.token_urlsafe(18)
        with self._lock:
            self._forget_expired()
            self._codes[code] = self.clock() + self.lifetime
            while len(self._codes) > MAX_CODES:
                self._codes.popitem(last=False)
        return code

    def _forget_expired(self) -> None:
        now = self.clock()
        for code in [c for c, expiry in self._codes.items() if expiry <= now]:
            del self._codes[code]

    def _find(self, offered: str) -> str | None:
        found = None
        for code in self._codes:  # every one compared, in constant time each
            if hmac.compare_digest(code.encode(), offered.encode()):
                found = code
        return found

    def valid(self, offered: str) -> bool:
        with self._lock:
            self._forget_expired()
            return self._find(offered) is not None

    def spend(self, offered: str) -> bool:
        """True once for a valid code; the code is then gone."""
        with self._lock:
            self._forget_expired()
            found = self._find(offered)
            if found is None:
                return False
            del self._codes[found]
            return True


def codes() -> Codes:
    return current_app.extensions["scorekeeper.pairing"]


def pairing_url(base: str, code: str) -> str:
    return f"{base.rstrip('/')}{PREFIX}{code}"


def init_app(app) -> None:
    app.extensions["scorekeeper.pairing"] = Codes()
