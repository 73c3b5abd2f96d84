"""The real server behind a real Caddy with TLS (testing/caddy.py), as a
club serves https. Before: waitress cleared Caddy's X-Forwarded-* headers
before the access check saw them, so a phone coming through a proxy on the
same host, which asks the app for 127.0.0.1:PORT as nginx's default
`proxy_pass` does, was "this machine": `/games/export.json` gave every game
and `/pair` the access key."""

import json
import re
from contextlib import contextmanager

import pytest

from scorekeeper.testing.caddy import Caddy
from scorekeeper.testing.live_server import LiveServer, free_ports
from scorekeeper.web.guard import access
from support.passes import host_by_command

pytestmark = pytest.mark.xdist_group("behind_a_proxy")  # its module fixture, built once a run

KEY, SECRET = "proxykey2345", "a secret for the proxy tests only"


def serve(folder, name, **env):
    live = LiveServer(folder, folder / f"{name}.sqlite3", FLASK_ALLOWED_HOSTS="table.lan",
                      FLASK_ACCESS_KEY=KEY, FLASK_SECRET_KEY=SECRET, **env)
    live.start()
    live.get("/")
    return live


@contextmanager
def behind_caddy(folder, name, host_of_upstream=False, **env):
    live = serve(folder, name, **env)
    caddy = Caddy(folder, live.port, host_of_upstream=host_of_upstream)
    try:
        caddy.start()
        yield live, caddy
    finally:
        caddy.stop()
        live.kill()


@pytest.fixture(scope="module")
def untold(tmp_path_factory):
    """No TRUSTED_PROXY: the app is not told a proxy stands in front; the
    proxy asks it for its own loopback address."""
    with behind_caddy(tmp_path_factory.mktemp("untold"), "untold", host_of_upstream=True) as both:
        yield both


@pytest.fixture(scope="module")
def told(tmp_path_factory):
    """TRUSTED_PROXY=127.0.0.1: the app knows who asks through it."""
    with behind_caddy(tmp_path_factory.mktemp("told"), "told",
                      FLASK_TRUSTED_PROXY="127.0.0.1") as both:
        yield both


def new_game(live) -> str:
    status, body = live.call("POST", "/api/games", {"sides": ["Samira", "Youssef"]})
    assert status == 201
    return json.loads(body)["id"]


def pass_in(headers) -> str:
    found = re.search(rf"{access.COOKIE}=([^;]+)", headers.get("Set-Cookie", ""))
    return found.group(1) if found else ""


def test_ports_asked_for_together_are_never_the_same():
    """Ports asked for one by one came back twice in a few hundred, and Caddy
    given the same port for http and https refuses to start."""
    assert len(set(free_ports(500))) == 500


def test_caddy_never_listens_for_https_on_its_http_port(tmp_path):
    caddy = Caddy(tmp_path, upstream=9)
    http_port = int(re.search(r"http_port (\d+)", caddy.config.read_text()).group(1))
    assert http_port != caddy.port


def test_through_a_proxy_the_app_was_not_told_of_nothing_is_this_machines(untold):
    live, caddy = untold
    new_game(live)  # from this machine itself: no key needed
    assert live.get("/games/export.json")[0] == 200
    status, _, body = caddy.request("GET", "/games/export.json")
    assert status == 403 and b"Samira" not in body
    status, _, body = caddy.request("GET", "/pair")
    assert status == 403 and KEY.encode() not in body
    status, _, _ = caddy.request("POST", "/api/games", json.dumps({"sides": ["A", "B"]}).encode(),
                                 {"Content-Type": "application/json"})
    assert status == 403


def test_a_proxy_header_sent_straight_to_the_real_server_is_not_this_machine(untold):
    """Whatever waitress clears: the check reads the headers as they came."""
    live, _ = untold
    for header in ("X-Forwarded-For: 127.0.0.1", "Forwarded: for=127.0.0.1",
                   "X-Forwarded-Proto: https", "X-Forwarded-Host: localhost"):
        status, body = raw(live, f"GET /games/export.json HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                 f"{header}\r\nConnection: close\r\n\r\n")
        assert status == 403 and b"Samira" not in body, header


def test_an_absolute_request_line_asks_for_its_own_host(untold):
    """Before: `GET http://evil.example/… HTTP/1.1` with Host 127.0.0.1 was served."""
    live, _ = untold
    status, body = raw(live, "GET http://evil.example/games/export.json HTTP/1.1\r\n"
                             "Host: 127.0.0.1\r\nConnection: close\r\n\r\n")
    assert status == 400 and b"Samira" not in body
    status, _ = raw(live, f"GET http://127.0.0.1:{live.port}/games/export.json HTTP/1.1\r\n"
                          "Host: 127.0.0.1\r\nConnection: close\r\n\r\n")
    assert status == 200


def raw(live, request: str) -> tuple[int, bytes]:
    import socket

    with socket.create_connection(("127.0.0.1", live.port), timeout=5) as sock:
        sock.sendall(request.encode())
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    return int(received.split(b" ", 2)[1]), received


def test_the_key_page_pairing_a_tap_and_the_export_over_https(told):
    live, caddy = told
    status, _, page = caddy.request("GET", "/")
    assert status == 403 and b'name="key"' in page
    status, headers, _ = caddy.request("POST", "/key", f"key={KEY}&next=/".encode(),
                                       {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 303
    cookie = headers["Set-Cookie"]
    assert "Secure" in cookie and "HttpOnly" in cookie and KEY not in cookie
    first = {"Cookie": f"{access.COOKIE}={pass_in(headers)}"}
    # A guest shows no pairing code; marked a host (`flask phones --host`), it does.
    assert caddy.request("GET", "/pair", headers=first)[0] == 403
    host_by_command(live)
    # The QR code of "Add a phone" is the https address the phone asked for.
    status, _, page = caddy.request("GET", "/pair", headers=first)
    assert status == 200 and KEY.encode() not in page
    url = re.search(rb'href="(https://table\.lan:%d/pair/[\w-]+)"' % caddy.port, page).group(1)
    status, headers, _ = caddy.request("POST", url.decode().split(str(caddy.port), 1)[1],
                                       source="127.0.0.3")
    assert status == 303 and "Secure" in headers["Set-Cookie"]
    second = {"Cookie": f"{access.COOKIE}={pass_in(headers)}",
              "Content-Type": "application/json"}
    assert pass_in(headers) != first["Cookie"].split("=", 1)[1]
    status, _, body = caddy.request("POST", "/api/games",
                                    json.dumps({"sides": ["Samira", "Youssef"]}).encode(),
                                    dict(first, **{"Content-Type": "application/json"}))
    assert status == 201
    game = json.loads(body)["id"]
    status, _, body = caddy.request("POST", f"/api/games/{game}/events",
                                    json.dumps({"type": "missa", "side": 0}).encode(), second,
                                    source="127.0.0.3")
    assert status == 200 and json.loads(body)["scores"] == [1, 0]
    status, _, body = caddy.request("GET", "/games/export.json", headers=first)
    assert status == 200 and b"Samira" in body
    # Through the proxy, even this machine's own browser is a phone: it needs its pass;
    # and so does a request straight from the proxy's address.
    assert caddy.request("GET", "/games/export.json")[0] == 403
    assert live.get("/games/export.json")[0] == 403
    # No pass in a log, the proxy's or the server's.
    for token in (first["Cookie"].split("=", 1)[1], second["Cookie"].split("=", 1)[1]):
        assert token not in caddy.log.read_text() + live.log.read_text()


def test_behind_the_proxy_each_phone_is_counted_by_its_own_address(told):
    live, caddy = told
    stranger, neighbour = "127.0.0.5", "127.0.0.6"
    for _ in range(access.MAX_FAILURES):
        status, _, _ = caddy.request("POST", "/key", b"key=wrongkey2345",
                                     {"Content-Type": "application/x-www-form-urlencoded"},
                                     source=stranger)
        assert status == 403
    status, _, _ = caddy.request("POST", "/key", f"key={KEY}".encode(),
                                 {"Content-Type": "application/x-www-form-urlencoded"},
                                 source=stranger)
    assert status == 429
    status, _, _ = caddy.request("POST", "/key", f"key={KEY}".encode(),
                                 {"Content-Type": "application/x-www-form-urlencoded"},
                                 source=neighbour)
    assert status == 303  # another phone, behind the same proxy, is not locked out


FORGED = [{"X-Forwarded-For": "127.0.0.1"}, {"X-Forwarded-For": "::1"},
          {"X-Forwarded-For": "127.0.0.1, 127.0.0.1"}, {"Forwarded": "for=127.0.0.1"},
          {"Forwarded": 'for="[::1]";host=localhost;proto=http'},
          {"X-Forwarded-Host": "localhost"}, {"X-Forwarded-Host": "127.0.0.1"},
          {"X-Real-IP": "127.0.0.1"}, {"X-Client-IP": "127.0.0.1"},
          {"True-Client-IP": "127.0.0.1"}, {"X-Forwarded-Proto": "http"},
          {"Via": "1.1 localhost"}, {"Host": "localhost"}, {"Host": "127.0.0.1"},
          {"X-Forwarded-For": "127.0.0.1", "X-Forwarded-Host": "localhost",
           "Forwarded": "for=127.0.0.1;host=localhost"}]


@pytest.mark.parametrize("proxy", ["told", "untold"])
def test_a_phone_forging_proxy_headers_through_caddy_is_still_a_phone(request, proxy):
    """A phone on the Wi-Fi sends what a proxy would say of this machine: it
    gets the key page, whichever proxy setting, for every one of them (a Host
    Caddy serves no site for gets Caddy's own empty answer: the app is not asked)."""
    live, caddy = request.getfixturevalue(proxy)
    for headers in FORGED:
        for path in ("/games/export.json", "/phones", "/pair"):
            status, _, body = caddy.request("GET", path, headers=headers, source="127.0.0.9")
            assert status in (400, 403) or (status == 200 and body == b""), (
                proxy, headers, path, status)
        status, _, body = caddy.request("POST", "/api/games", b'{"sides": ["A", "B"]}',
                                        dict(headers, **{"Content-Type": "application/json"}),
                                        source="127.0.0.9")
        assert status in (400, 403) or (status == 200 and body == b""), (proxy, headers)
