"""Who gets in: the table, and nobody else.

Every request first names a host the app answers to (`Host`): the loopback
names and addresses, the network address `make run` serves on, and the
names of ALLOWED_HOSTS (`FLASK_ALLOWED_HOSTS=table.lan,...`). Any other name
is refused: it is how a page visited by the host's own browser would reach
the app after pointing its own name at this machine (DNS rebinding).

Then a request needs no key only when this machine asks itself: its peer is
loopback, its Host a loopback name, and no proxy stands between (no
Forwarded, X-Forwarded-* or Via header; TRUSTED_PROXY=n trusts n same-host
proxies, whose X-Forwarded-For and X-Forwarded-Host then say who asks).
Everything else, a phone on the network or a name like table.lan even from
loopback, must show the access cookie. A device gets it once, from a
pairing code (the QR code, pairing.py) or by typing the access key on the
key page (a POST: the key never goes into an address). The cookie holds
`cookie_value(key, secret_key)`, a proof of the key, not the key. Attempts
are rate-limited per address; keys and codes are compared in constant time.
"""

import hashlib
import hmac
import ipaddress
import threading
import time
from collections import defaultdict, deque
from functools import lru_cache
from typing import Iterable

from flask import Flask, current_app, jsonify, redirect, render_template, request
from flask_babel import gettext
from werkzeug.http import parse_cookie

from . import pairing, screen_access
from .errors import error_answer
from .local_paths import local_path
from ..engine.errors import N_
from ..service import ids
from .secret import SecretError, load_or_create_secret

COOKIE = "ronda_access"
COOKIE_AGE = 365 * 24 * 3600
KEY_LENGTH = 12  # about 59 bits: with the rate limit, out of reach of guessing
MAX_FAILURES = 5
WINDOW_SECONDS = 60
KEY_PATH = "/key"
LOOPBACK_NAMES = {"localhost"}
PROXY_HEADERS = {"forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto",
                 "x-forwarded-port", "x-forwarded-prefix", "x-real-ip", "x-client-ip",
                 "true-client-ip", "via"}

NEEDS_KEY = N_("This device needs the table's access key.")
UNKNOWN_HOST = N_("This scorekeeper does not answer to this address. Open the address printed "
                  "where it runs.")


def make_key() -> str:
    return ids.random_id(KEY_LENGTH)


def valid_key(key: str) -> bool:
    """Made ones are KEY_LENGTH symbols of ids.ALPHABET; a configured one
    (FLASK_ACCESS_KEY) may be any 12 or more lowercase letters and digits."""
    return len(key) >= KEY_LENGTH and key.isascii() and key.isalnum() and key == key.lower()


def cookie_value(key: str, secret_key: str) -> str:
    """What the cookie holds: proof of the key, not the key itself."""
    return hmac.new(secret_key.encode(), key.encode(), hashlib.sha256).hexdigest()


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


# -- names and addresses -----------------------------------------------------------------------

@lru_cache(maxsize=256)  # every request asks it of its peer: parsing cost a tap 2 to 3 %
def is_local(address: str | None) -> bool:
    """A loopback address (IPv4, IPv6, or IPv4 mapped into IPv6)."""
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return (mapped or ip).is_loopback


def host_name(host: str | None) -> str:
    """The name of a Host header, without its port, lowercase: "[::1]:5000" -> "::1"."""
    host = (host or "").strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else ""
    name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    return name[:-1] if name.endswith(".") else name


def port_of(host: str) -> str:
    """The port of a Host header, or "": "[::1]:5000" -> "5000", "::1" -> ""."""
    if host.startswith("["):
        rest = host[host.find("]") + 1:] if "]" in host else ""
        return rest[1:] if rest.startswith(":") else ""
    return host.rsplit(":", 1)[1] if host.count(":") == 1 else ""


def is_loopback_name(name: str) -> bool:
    return name in LOOPBACK_NAMES or is_local(name)


def _names(value: str | Iterable[str] | None) -> set[str]:
    items = value.split(",") if isinstance(value, str) else (value or ())
    return {host_name(item) for item in items if item.strip()}


class Gate:
    """What the access check knows: the key, the cookie that proves it, the
    names served, the failed attempts."""

    def __init__(self, app: Flask):
        self.key = app.config["ACCESS_KEY"]
        self.cookie = cookie_value(self.key, app.config["SECRET_KEY"])
        self.hosts = _names(app.config.get("ALLOWED_HOSTS"))
        self.network_hosts: list[str] = []  # what `make run` serves on, in its order
        self.trusted_proxies = int(app.config.get("TRUSTED_PROXY") or 0)
        self.attempts = Attempts()

    def answers_to(self, name: str) -> bool:
        return is_loopback_name(name) or name in self.hosts

    def client(self, peer: str | None, header) -> tuple[str, str, bool]:
        """(who asks, the host asked for, whether a proxy stands between):
        a trusted same-host proxy's forwarded values replace its own."""
        host = header.get("host")
        proxied = not PROXY_HEADERS.isdisjoint(header)  # `header`'s names are lowercase
        if self.trusted_proxies and proxied and is_local(peer):
            hops = [hop.strip() for hop in (header.get("x-forwarded-for") or "").split(",")]
            if len(hops) >= self.trusted_proxies and hops[-self.trusted_proxies]:
                peer = hops[-self.trusted_proxies]
                host = (header.get("x-forwarded-host") or host or "").split(",")[-1]
                proxied = False
        return peer or "?", host_name(host), proxied

    def admits(self, peer: str | None, header, cookies: dict,
               asker: tuple[str, str, bool] | None = None) -> bool:
        """Whether a request may go on without the key page. `header` maps
        lowercase header names to values; used by the server too (server.py),
        before it reads a body. `asker`: `client(peer, header)`, when known."""
        asker = asker or self.client(peer, header)
        if not self.answers_to(asker[1]):
            return False
        return self.is_this_machine(asker) or self.has_key(cookies)

    @staticmethod
    def is_this_machine(asker: tuple[str, str, bool]) -> bool:
        """This machine asking itself (`client`'s answer): no key needed."""
        peer, host, proxied = asker
        return is_local(peer) and is_loopback_name(host) and not proxied

    def has_key(self, cookies: dict) -> bool:
        return hmac.compare_digest(cookies.get(COOKIE, ""), self.cookie)


def gate(app: Flask | None = None) -> Gate:
    return (app or current_app).extensions["scorekeeper.access"]


def allow_host(app: Flask, name: str) -> None:
    """A network address the server listens on (scorekeeper/serve.py): answered, with the key."""
    name = host_name(name)
    gate(app).hosts.add(name)
    gate(app).network_hosts.append(name)


def network_base() -> str | None:
    """This site's address as another device on the network reaches it, or
    None when it serves this machine only."""
    _, host, _ = gate().client(request.remote_addr, _header())
    port = port_of(request.host)
    if not is_loopback_name(host):
        return f"{request.scheme}://{request.host}"
    served = gate().network_hosts
    if not served:
        return None
    name = f"[{served[0]}]" if ":" in served[0] else served[0]
    return f"{request.scheme}://{name}{':' + port if port else ''}"


def key_for_this_machine() -> str | None:
    """The access key, for a page of this machine asking itself only (the
    requests let in without a key: `Gate.is_this_machine`), to be typed on a
    phone that cannot scan; None for every other request, a phone let in by
    its cookie included."""
    the_gate = gate()
    return the_gate.key if the_gate.is_this_machine(
        the_gate.client(request.remote_addr, _header())) else None


# -- the check before every request ------------------------------------------------------------

# The headers the gate reads (the host, and whether a proxy stands between),
# by lowercase name, with their keys in the WSGI environ.
GATE_HEADERS = {name: "HTTP_" + name.upper().replace("-", "_")
                for name in sorted(PROXY_HEADERS | {"host"})}


def _header() -> dict:
    # Those of the request's headers only, read from the WSGI environ itself:
    # werkzeug's Headers view cost a tap more than the whole check, and
    # copying every HTTP_ key out of the environ, more than the rest of it
    # (issue 14). Content-Type and Content-Length are not among them.
    environ = request.environ
    return {name: environ[key] for name, key in GATE_HEADERS.items() if key in environ}


def _refuse(status: int, problem: str | None = None):
    if request.path.startswith("/api/"):
        return jsonify({"error": gettext(NEEDS_KEY)}), status
    # A refused key keeps the page it was typed for: "/key" is no page to go back to.
    back = request.form.get("next") if request.path == KEY_PATH else request.path
    return render_template("access/key.html", problem=problem, status=status,
                           back=local_path(back)), status


def _let_in(to: str):
    response = redirect(local_path(to), 303)
    response.set_cookie(COOKIE, gate().cookie, max_age=COOKIE_AGE, httponly=True,
                        samesite="Lax")
    response.headers["Cache-Control"] = "no-store"
    return response


def _typed_key(address: str):
    """The key page's form: POST /key with the key and the page to go back to."""
    the_gate = gate()
    if the_gate.attempts.blocked(address):
        return _refuse(429)
    offered = request.form.get("key", "").strip().lower()
    if not hmac.compare_digest(offered.encode(), the_gate.key.encode()):
        the_gate.attempts.fail(address)
        return _refuse(403, "wrong")
    return _let_in(request.form.get("next"))


def _pairing(address: str, code: str, admitted: bool):
    """/pair/<code>: a page with one button; its POST spends the code."""
    if admitted:
        return redirect("/", 303)
    the_gate = gate()
    if the_gate.attempts.blocked(address):
        return _refuse(429)
    codes = pairing.codes()
    if request.method == "POST" and codes.spend(code):
        return _let_in("/")
    if request.method == "GET" and codes.valid(code):
        return render_template("access/join.html"), 200, {"Cache-Control": "no-store"}
    the_gate.attempts.fail(address)
    return _refuse(403, "spent")


def guard():
    """Before every request: refuse unknown names, let the table in, show
    everybody else the key page."""
    the_gate = gate()
    header = _header()
    asker = the_gate.client(request.remote_addr, header)
    address, host, _ = asker
    if not the_gate.answers_to(host):
        return error_answer(gettext(UNKNOWN_HOST), 400)
    # The cookies only when the key is needed: parsing them cost a tap more
    # than the rest of the check (issue 14).
    admitted = the_gate.is_this_machine(asker) or the_gate.has_key(request.cookies)
    if request.path.startswith(pairing.PREFIX):
        return _pairing(address, request.path[len(pairing.PREFIX):], admitted)
    if admitted or request.endpoint == "static":
        return None
    if screen_access.allows(request):  # a club night's read-only screen link (issue 15)
        return None
    if request.path == KEY_PATH and request.method == "POST":
        return _typed_key(address)
    return _refuse(403)


def cookies_of(header_value: str | None) -> dict:
    """The cookies of a raw Cookie header, as the server sees them."""
    return parse_cookie(header_value or "")


def init_app(app: Flask) -> None:
    if not app.config.get("ACCESS_KEY"):
        app.config["ACCESS_KEY"] = load_or_create_secret(
            app.instance_path, "access_key", make_key, valid_key)
    elif not valid_key(app.config["ACCESS_KEY"]):
        raise SecretError(f"ACCESS_KEY must be at least {KEY_LENGTH} lowercase letters and "
                          f"digits.")
    app.extensions["scorekeeper.access"] = Gate(app)
    pairing.init_app(app)
    app.before_request(guard)
