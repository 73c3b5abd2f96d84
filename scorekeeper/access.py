"""The local-network mode: only the people at the table get in.

The host itself (loopback) needs nothing. Any other device must present the
access key: the QR code printed by `make run` carries it (`/?key=...`), and
once accepted the device keeps a cookie. Attempts are rate-limited per
address, and keys are compared in constant time.
"""

import hashlib
import hmac
import ipaddress
import secrets
import threading
import time
from collections import defaultdict, deque

from flask import Flask, current_app, jsonify, redirect, render_template, request

from . import screen_access
from .secret import load_or_create_secret

COOKIE = "ronda_access"
COOKIE_AGE = 365 * 24 * 3600
KEY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
KEY_LENGTH = 12  # about 59 bits: with the rate limit, out of reach of guessing
MAX_FAILURES = 5
WINDOW_SECONDS = 60


def make_key() -> str:
    return "".join(secrets.choice(KEY_ALPHABET) for _ in range(KEY_LENGTH))


class Attempts:
    """Failed key attempts per address, over a sliding window."""

    def __init__(self, limit: int = MAX_FAILURES, window: float = WINDOW_SECONDS, clock=time.monotonic):
        self.limit, self.window, self.clock = limit, window, clock
        self.failures: dict[str, deque] = defaultdict(deque)
        self.lock = threading.Lock()

    def _recent(self, address: str) -> deque:
        times = self.failures[address]
        while times and times[0] <= self.clock() - self.window:
            times.popleft()
        return times

    def blocked(self, address: str) -> bool:
        with self.lock:
            return len(self._recent(address)) >= self.limit

    def fail(self, address: str) -> None:
        with self.lock:
            self._recent(address).append(self.clock())


def is_local(address: str | None) -> bool:
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return (mapped or ip).is_loopback


def cookie_value(key: str, secret_key: str) -> str:
    """What the cookie holds: proof of the key, not the key itself."""
    return hmac.new(secret_key.encode(), key.encode(), hashlib.sha256).hexdigest()


def access_key(app: Flask) -> str:
    return app.config["ACCESS_KEY"]


def _refuse(status: int, wrong: bool = False):
    if request.path.startswith("/api/"):
        from flask_babel import gettext

        return jsonify({"error": gettext("This device needs the table's access key.")}), status
    return render_template("access/key.html", wrong=wrong, status=status), status


def guard():
    """Before every request: let the table in, keep everybody else out."""
    if is_local(request.remote_addr) or request.endpoint == "static":
        return None
    app = current_app
    expected = cookie_value(access_key(app), app.config["SECRET_KEY"])
    if hmac.compare_digest(request.cookies.get(COOKIE, ""), expected):
        return None
    if screen_access.allows(request):  # a club night's read-only screen link (issue 15)
        return None
    offered = request.args.get("key")
    if offered is None:
        return _refuse(403)
    address = request.remote_addr or "?"
    attempts: Attempts = app.extensions["scorekeeper.access"]
    if attempts.blocked(address):
        return _refuse(429)
    if not hmac.compare_digest(offered.strip().lower().encode(), access_key(app).encode()):
        attempts.fail(address)
        return _refuse(403, wrong=True)
    response = redirect(request.path, 303)
    response.set_cookie(COOKIE, expected, max_age=COOKIE_AGE, httponly=True, samesite="Lax")
    return response


def init_app(app: Flask) -> None:
    if not app.config.get("ACCESS_KEY"):
        app.config["ACCESS_KEY"] = load_or_create_secret(app.instance_path, "access_key", make_key)
    app.extensions["scorekeeper.access"] = Attempts()
    app.before_request(guard)
