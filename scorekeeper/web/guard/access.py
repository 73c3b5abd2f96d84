# Not Flask's TRUSTED_HOSTS (werkzeug 3.1 cannot name [::1], 127.x or LOCALHOST) nor ProxyFix (server.py reads the
# proxy's headers before the body, for its limits): tests/web/test_host_and_proxy_libraries.py.
"""Who gets in: the table, and nobody else.

Every request first names a host the app answers to (`Host`): the loopback
names and addresses, the network address `make run` serves on, and the
names of ALLOWED_HOSTS (`FLASK_ALLOWED_HOSTS=table.lan,...`). Any other name
is refused: it is how a page visited by the host's own browser would reach
the app after pointing its own name at this machine (DNS rebinding).

Then a request needs no key only when this machine asks itself: its peer is
loopback, its Host a loopback name, and no proxy stands between. A request
carrying any proxy header (Forwarded, X-Forwarded-*, X-Real-IP, Via…) is
never this machine, and neither is anything that comes from the proxy named
by TRUSTED_PROXY (its addresses: `FLASK_TRUSTED_PROXY=127.0.0.1`), whose
X-Forwarded-For, X-Forwarded-Host and X-Forwarded-Proto then say who asks:
the phone's address, the name it asked for, and whether it came over https.
The server reads those headers before waitress clears them (server.py);
`ProxyAware` hands its reading to the app, or makes it under a test client.

Everything else, a phone on the network or a name like table.lan even from
loopback, must show a pass: a cookie of its own, given when it spent a
pairing code (the QR code, pairing.py) or typed the access key on the key
page (a POST: the key never goes into an address), and kept in the store as
a hash (service/phones.py), so that one phone can be turned away. Turning
other phones away and showing pairing codes belong to this machine and to
the phones marked as hosts (`hosts_the_table`); any phone may turn itself away. Failed
keys are limited per address (an IPv6 one by its /64) and over all
addresses; a valid pairing code always works. Keys and codes are compared
in constant time.
"""

import hmac
import ipaddress
import threading
import time
from collections import OrderedDict, deque
from functools import lru_cache
from typing import Iterable, NamedTuple

from flask import Flask, current_app, g, jsonify, redirect, render_template, request
from flask_babel import gettext
from werkzeug.http import parse_cookie

from ...engine.errors import N_
from ...service import ids, phones
from ...service.clock import utc_now
from ..plumbing.db import get_db
from ..plumbing.errors import error_answer
from ..plumbing.local_paths import local_path
from . import pairing, screen_access
from .secret import SecretError, load_or_create_secret

COOKIE = "ronda_access"
COOKIE_AGE = 365 * 24 * 3600
KEY_LENGTH = 12  # about 59 bits: with the rate limit, out of reach of guessing
MAX_FAILURES = 5  # wrong keys a minute from one address (an IPv6 /64)
MAX_FAILURES_IN_ALL = 30  # wrong keys a minute from every address together
MAX_CODE_FAILURES = 30  # wrong pairing codes a minute from one address: never a valid one
WINDOW_SECONDS = 60
MAX_ADDRESSES = 10_000  # addresses whose failures are remembered; the oldest forgotten first
KEY_PATH = "/key"
LOOPBACK_NAMES = {"localhost"}
PROXY_HEADERS = {"forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto",
                 "x-forwarded-port", "x-forwarded-prefix", "x-forwarded-by", "x-forwarded-server",
                 "x-forwarded-ssl", "x-real-ip", "x-client-ip", "true-client-ip",
                 "x-original-forwarded-for", "via"}
ASKER = "scorekeeper.asker"  # the WSGI environ's key of who asks (Asker)

NEEDS_KEY = N_("This device needs the table's access key.")
UNKNOWN_HOST = N_("This scorekeeper does not answer to this address. Open the address printed "
                  "where it runs.")


class Asker(NamedTuple):
    """Who asks, as the access check sees it."""

    address: str  # the phone's address (behind a trusted proxy: the one it forwarded)
    host: str  # the name asked for, lowercase, without its port
    proxied: bool  # a proxy stands between: never this machine
    secure: bool  # over https (to the trusted proxy)
    forwarded_host: str | None = None  # the Host the trusted proxy was asked, whole


def make_key() -> str:
    return ids.random_id(KEY_LENGTH)


def valid_key(key: str) -> bool:
    """Made ones are KEY_LENGTH symbols of ids.ALPHABET; a configured one
    (FLASK_ACCESS_KEY) may be any 12 or more lowercase letters and digits."""
    return len(key) >= KEY_LENGTH and key.isascii() and key.isalnum() and key == key.lower()


@lru_cache(maxsize=1024)
def address_group(address: str | None) -> str:
    """What the limits count by: an IPv4 address, or an IPv6 address's /64
    (a device can take any address of its /64)."""
    try:
        ip = ipaddress.ip_address((address or "").split("%")[0])
    except ValueError:
        return address or "?"
    mapped = getattr(ip, "ipv4_mapped", None)
    if mapped is not None:
        return str(mapped)
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class Attempts:
    """Failed attempts over a sliding window: per address group, and over
    every address together (`overall`, None: no such limit). The groups whose
    failures have all expired are forgotten, and at most `most` are kept."""

    def __init__(self, limit: int = MAX_FAILURES, window: float = WINDOW_SECONDS,
                 clock=time.monotonic, overall: int | None = MAX_FAILURES_IN_ALL,
                 most: int = MAX_ADDRESSES):
        self.limit, self.window, self.clock = limit, window, clock
        self.overall, self.most = overall, most
        self.failures: OrderedDict[str, deque] = OrderedDict()  # the least recent first
        self.every: deque = deque()  # every failure's time, for `overall`
        self.lock = threading.Lock()

    def _prune(self) -> None:
        since = self.clock() - self.window
        while self.every and self.every[0] <= since:
            self.every.popleft()
        while self.failures:
            group, times = next(iter(self.failures.items()))
            while times and times[0] <= since:
                times.popleft()
            if times and len(self.failures) <= self.most:
                break
            del self.failures[group]  # all expired, or one too many remembered

    def blocked(self, address: str) -> bool:
        group = address_group(address)
        with self.lock:
            self._prune()
            if self.overall is not None and len(self.every) >= self.overall:
                return True
            times = self.failures.get(group)
            if times is None:
                return False
            since = self.clock() - self.window
            while times and times[0] <= since:
                times.popleft()
            return len(times) >= self.limit

    def fail(self, address: str) -> None:
        group = address_group(address)
        with self.lock:
            now = self.clock()
            self.failures.setdefault(group, deque()).append(now)
            self.failures.move_to_end(group)
            self.every.append(now)
            self._prune()


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


class SettingError(SecretError):
    """A setting that cannot be used; the message says how to mend it."""


def trusted_networks(value) -> tuple:
    """TRUSTED_PROXY: the proxy's addresses (or networks), comma-separated."""
    if value in (None, "", 0):
        return ()
    if isinstance(value, str):
        items = value.split(",")
    else:  # FLASK_TRUSTED_PROXY=1 arrives as the number 1: no address
        items = list(value) if isinstance(value, (list, tuple, set)) else [str(value)]
    found = []
    for item in (str(i).strip() for i in items):
        try:
            found.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise SettingError(
                f"TRUSTED_PROXY must be the address of the proxy in front of the scorekeeper "
                f"(as 127.0.0.1), not {item[:40]!r}.") from None
    return tuple(found)


def _ip(address: str | None):
    try:
        ip = ipaddress.ip_address((address or "").strip().strip("[]"))
    except ValueError:
        return None
    return getattr(ip, "ipv4_mapped", None) or ip


def _last(value: str | None) -> str:
    """The last of a header's comma-separated values: the one the nearest proxy wrote."""
    return (value or "").split(",")[-1].strip()


def _forwarded(value: str | None) -> dict[str, str]:
    """The last element of a Forwarded header (RFC 7239): {"for": …, "host": …, "proto": …}."""
    found = {}
    for pair in _last(value).split(";"):
        name, _, given = pair.partition("=")
        found[name.strip().lower()] = given.strip().strip('"')
    return found


class Gate:
    """What the access check knows: the key, the mark that passes given under
    it carry, the names served, the proxy trusted, the failed attempts."""

    def __init__(self, app: Flask):
        self.key = app.config["ACCESS_KEY"]
        self.mark = phones.key_mark(self.key, app.config["SECRET_KEY"])
        self.hosts = _names(app.config.get("ALLOWED_HOSTS"))
        self.network_hosts: list[str] = []  # what `make run` serves on, in its order
        self.trusted = trusted_networks(app.config.get("TRUSTED_PROXY"))
        self.attempts = Attempts()
        self.code_attempts = Attempts(limit=MAX_CODE_FAILURES, overall=None)
        # The server's own connections to the store: it asks about a pass
        # before it reads a body (server.py), outside any request.
        self.desk = phones.PassDesk(app.config["DATABASE"],
                                    *[t for t in [app.config.get("DB_BUSY_TIMEOUT")] if t])

    def answers_to(self, name: str) -> bool:
        return is_loopback_name(name) or name in self.hosts

    def is_trusted(self, peer: str | None) -> bool:
        ip = _ip(peer)
        return ip is not None and any(ip in network for network in self.trusted)

    def client(self, peer: str | None, header, scheme: str = "http") -> Asker:
        """Who asks. `header` maps lowercase header names to values, as the
        request arrived (the server reads them before waitress clears the
        proxy headers). From the trusted proxy: the values it forwarded."""
        host = header.get("host")
        proxied = not PROXY_HEADERS.isdisjoint(header)  # `header`'s names are lowercase
        if not self.trusted or not self.is_trusted(peer):
            return Asker(peer or "?", host_name(host), proxied, scheme == "https")
        forwarded = _forwarded(header.get("forwarded"))
        phone = _ip(_last(header.get("x-forwarded-for")) or forwarded.get("for"))
        asked = (_last(header.get("x-forwarded-host")) or forwarded.get("host") or host or "")
        proto = (_last(header.get("x-forwarded-proto")) or forwarded.get("proto") or scheme)
        # Whatever it forwards, a request from the proxy came through it.
        return Asker(str(phone) if phone else peer or "?", host_name(asked), True,
                     proto.lower() == "https", asked)

    def admits(self, peer: str | None, header, cookies: dict,
               asker: Asker | None = None) -> bool:
        """Whether a request may go on without the key page; used by the
        server (server.py), before it reads a body."""
        asker = asker or self.client(peer, header)
        if not self.answers_to(asker.host):
            return False
        if self.is_this_machine(asker):
            return True
        if not cookies.get(COOKIE):  # a stranger without a pass costs no look-up
            return False
        return self.desk.holder(cookies[COOKIE], self.mark) is not None

    @staticmethod
    def is_this_machine(asker: Asker) -> bool:
        """This machine asking itself (`client`'s answer): no key needed."""
        return is_local(asker.address) and is_loopback_name(asker.host) and not asker.proxied

    def pass_holder(self, db, cookies: dict) -> phones.Phone | None:
        """The phone whose pass the cookie holds, while it opens the table."""
        token = cookies.get(COOKIE, "")
        return phones.holder(db, token, self.mark) if token else None


def gate(app: Flask | None = None) -> Gate:
    return (app or current_app).extensions["scorekeeper.access"]


def allow_host(app: Flask, name: str) -> None:
    """A network address the server listens on (scorekeeper/serve.py): answered, with the key."""
    name = host_name(name)
    gate(app).hosts.add(name)
    gate(app).network_hosts.append(name)


def asker() -> Asker:
    """Who asks this request (ProxyAware put it in the environ)."""
    return request.environ[ASKER]


def network_base() -> str | None:
    """This site's address as another device on the network reaches it, or
    None when it serves this machine only."""
    port = port_of(request.host)
    if not is_loopback_name(asker().host):
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
    its pass included."""
    return gate().key if Gate.is_this_machine(asker()) else None


def this_phone() -> phones.Phone | None:
    """The phone this request came from, by its pass (None: this machine, or none)."""
    return g.get("scorekeeper_phone")


def hosts_the_table() -> bool:
    """Whether this request may turn other phones away, mark hosts and show
    pairing codes: this machine asking itself, or a phone marked as a host."""
    phone = this_phone()
    return Gate.is_this_machine(asker()) or (phone is not None and phone.host)


# -- who asks, before the app -----------------------------------------------------------------

# The headers the gate reads (the host, and whether a proxy stands between),
# by lowercase name, with their keys in the WSGI environ.
GATE_HEADERS = {name: "HTTP_" + name.upper().replace("-", "_")
                for name in sorted(PROXY_HEADERS | {"host"})}


def environ_header(environ: dict) -> dict:
    # Those of the request's headers only, read from the WSGI environ itself:
    # werkzeug's Headers view cost a tap more than the whole check, and
    # copying every HTTP_ key out of the environ, more than the rest of it.
    # Content-Type and Content-Length are not among them.
    return {name: environ[key] for name, key in GATE_HEADERS.items() if key in environ}


class ProxyAware:
    """WSGI middleware: who asks (`Asker`) goes into the environ, and from
    the trusted proxy the request is the phone's own: its address, the name
    it asked for and its scheme, so that addresses the app builds (the QR
    code's) and its cookies (Secure over https) are the phone's."""

    def __init__(self, wsgi_app, the_gate: Gate):
        self.wsgi_app, self.gate = wsgi_app, the_gate

    def __call__(self, environ, start_response):
        found = environ.get(ASKER)  # the server's reading, made before waitress cleared them
        if not isinstance(found, Asker):
            found = self.gate.client(environ.get("REMOTE_ADDR"), environ_header(environ),
                                     environ.get("wsgi.url_scheme", "http"))
            environ[ASKER] = found
        if found.forwarded_host is not None:
            environ["REMOTE_ADDR"] = found.address
            environ["HTTP_HOST"] = found.forwarded_host or environ.get("HTTP_HOST", "")
            environ["wsgi.url_scheme"] = "https" if found.secure else "http"
        return self.wsgi_app(environ, start_response)


# -- the check before every request ------------------------------------------------------------

def _refuse(status: int, problem: str | None = None):
    if request.path.startswith("/api/"):
        return jsonify({"error": gettext(NEEDS_KEY)}), status
    # A refused key keeps the page it was typed for: "/key" is no page to go back to.
    back = request.form.get("next") if request.path == KEY_PATH else request.path
    return render_template("access/key.html", problem=problem, status=status,
                           back=local_path(back)), status


def _let_in(to: str, how: str, minted_by: int | None = None):
    """A pass of its own for the phone just let in, in its cookie; none when
    the phone that showed its code was turned away meanwhile."""
    given = phones.let_in(get_db(), how, request.headers.get("User-Agent"), gate().mark,
                          utc_now(), minted_by)
    if given is None:
        return _refuse(403, "spent")
    token, _ = given
    response = redirect(local_path(to), 303)
    response.set_cookie(COOKIE, token, max_age=COOKIE_AGE, httponly=True, samesite="Lax",
                        secure=asker().secure)
    response.headers["Cache-Control"] = "no-store"
    return response


def _typed_key(address: str):
    """The key page's form: POST /key with the key and the page to go back to."""
    the_gate = gate()
    if the_gate.attempts.blocked(address):
        return _refuse(429)
    # Typed as a person reads it off a screen: in groups, with spaces or
    # dashes between them, in capitals. The key has letters and digits alone.
    offered = "".join(request.form.get("key", "").replace("-", " ").split()).lower()
    if not hmac.compare_digest(offered.encode(), the_gate.key.encode()):
        the_gate.attempts.fail(address)
        return _refuse(403, "wrong")
    return _let_in(request.form.get("next"), "key")


def _pairing(address: str, code: str, admitted: bool):
    """/pair/<code>: a page with one button; its POST spends the code. A
    valid code always works, whatever the failures from its address: phones
    behind one router share it."""
    if admitted:
        return redirect("/", 303)
    codes = pairing.codes()
    minted = codes.spend(code) if request.method == "POST" else codes.valid(code)
    if minted is not None and request.method == "POST":
        return _let_in("/", "code", minted.by)
    if minted is not None and phones.is_in(get_db(), minted.by, gate().mark):
        return render_template("access/join.html"), 200, {"Cache-Control": "no-store"}
    the_gate = gate()
    if the_gate.code_attempts.blocked(address):
        return _refuse(429)
    the_gate.code_attempts.fail(address)
    return _refuse(403, "spent")


def _holder():
    """The phone of the request's pass, its last-seen time written at most once a minute."""
    db = get_db()
    phone = gate().pass_holder(db, request.cookies)
    if phone is not None:
        phones.seen(db, phone, utc_now())
        g.scorekeeper_phone = phone
    return phone


def guard():
    """Before every request: refuse unknown names, let the table in, show
    everybody else the key page."""
    the_gate = gate()
    found = asker()
    if not the_gate.answers_to(found.host):
        return error_answer(gettext(UNKNOWN_HOST), 400)
    # The cookies and the store only when the key is needed: this machine's taps skip both.
    admitted = the_gate.is_this_machine(found) or (
        COOKIE in request.cookies and _holder() is not None)
    if request.path.startswith(pairing.PREFIX):
        return _pairing(found.address, request.path[len(pairing.PREFIX):], admitted)
    if admitted or request.endpoint == "static":
        return None
    if screen_access.allows(request):  # a club night's read-only screen link
        return None
    if request.path == KEY_PATH and request.method == "POST":
        return _typed_key(found.address)
    return _refuse(403)


def secure_cookies(response):
    """Over https every cookie the app sets is Secure."""
    if request.is_secure:
        cookies = response.headers.getlist("Set-Cookie")
        if cookies and any("; secure" not in c.lower() for c in cookies):
            response.headers.setlist("Set-Cookie", [
                c if "; secure" in c.lower() else c + "; Secure" for c in cookies])
    return response


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
    the_gate = Gate(app)
    app.extensions["scorekeeper.access"] = the_gate
    app.wsgi_app = ProxyAware(app.wsgi_app, the_gate)
    pairing.init_app(app)
    app.before_request(guard)
    app.after_request(secure_cookies)
