"""Pairing codes: what the QR code carries instead of the access key.

A code opens the table to one device, once, within a few minutes; a URL
found later in a browser's history opens nothing. Opening the code's page
only shows a button: the code is spent by that button's POST, so a QR
scanner or a link preview that fetches the address does not spend it.

Codes live in the server's memory: a restart forgets them (`make run`
prints a fresh one). This machine, or a phone it marked as a host, shows a
new one on /pair (its page: views/pairing.py), for the next phone at the
table. Each code remembers who showed it (a phone's id; None: this
machine), and each keeps its own few live codes: showing more forgets only
its own oldest, never another's. A code of a phone turned away lets nobody
in (access.py asks the store at spending).
"""

import hmac
import secrets
import threading
import time
from collections import OrderedDict
from typing import NamedTuple

from flask import current_app

CODE_SECONDS = 15 * 60
MAX_CODES_EACH = 4  # live codes of one phone (or of this machine); its own oldest forgotten first
PREFIX = "/pair/"


class Minted(NamedTuple):
    """A live code's expiry and who showed it (a phone's id; None: this machine)."""

    expiry: float
    by: int | None


class Codes:
    """One-time codes with an expiry, safe across threads."""

    def __init__(self, lifetime: float = CODE_SECONDS, clock=time.monotonic):
        self.lifetime, self.clock = lifetime, clock
        self._codes: OrderedDict[str, Minted] = OrderedDict()  # the oldest first
        self._lock = threading.Lock()

    def new(self, by: int | None = None) -> str:
        """A new code shown by `by` (a phone's id; None: this machine)."""
        code = secrets.token_urlsafe(18)
        with self._lock:
            self._forget_expired()
            self._codes[code] = Minted(self.clock() + self.lifetime, by)
            own = [c for c, minted in self._codes.items() if minted.by == by]
            for oldest in own[:-MAX_CODES_EACH]:
                del self._codes[oldest]
        return code

    def _forget_expired(self) -> None:
        now = self.clock()
        for code in [c for c, minted in self._codes.items() if minted.expiry <= now]:
            del self._codes[code]

    def forget_shown_by(self, phones: set[int]) -> None:
        """Every live code those phones showed (they were turned away)."""
        with self._lock:
            for code in [c for c, minted in self._codes.items() if minted.by in phones]:
                del self._codes[code]

    def _find(self, offered: str) -> str | None:
        found = None
        for code in self._codes:  # every one compared, in constant time each
            if hmac.compare_digest(code.encode(), offered.encode()):
                found = code
        return found

    def valid(self, offered: str) -> Minted | None:
        """The live code's Minted, or None."""
        with self._lock:
            self._forget_expired()
            found = self._find(offered)
            return None if found is None else self._codes[found]

    def spend(self, offered: str) -> Minted | None:
        """A valid code's Minted, once; the code is then gone. None: no such live code."""
        with self._lock:
            self._forget_expired()
            found = self._find(offered)
            if found is None:
                return None
            return self._codes.pop(found)


def codes() -> Codes:
    return current_app.extensions["scorekeeper.pairing"]


def pairing_url(base: str, code: str) -> str:
    return f"{base.rstrip('/')}{PREFIX}{code}"


def init_app(app) -> None:
    app.extensions["scorekeeper.pairing"] = Codes()
