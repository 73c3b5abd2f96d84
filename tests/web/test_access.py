"""Nobody else in: the names the app answers to, who needs the access key,
the key page, pairing codes: a stranger on the café's Wi-Fi gets nothing."""

import html
import re

import pytest

from scorekeeper.web.guard import access
from scorekeeper.web.guard.access import COOKIE, Attempts, is_local
from support.passes import let_in

PHONE = {"REMOTE_ADDR": "192.168.1.23"}
REBIND = {"Host": "rebind.attacker.example:5050"}


@pytest.fixture
def key(app):
    return app.config["ACCESS_KEY"]


def test_the_host_itself_needs_no_key(client):
    assert client.get("/").status_code == 200
    assert client.get("/", environ_base={"REMOTE_ADDR": "::1"}).status_code == 200
    for host in ("127.0.0.1:5000", "[::1]:5000", "127.1.2.3", "LOCALHOST:80", "localhost."):
        assert client.get("/", headers={"Host": host}).status_code == 200, host


def test_another_device_without_the_key_gets_the_key_page_and_nothing_else(client, api):
    game = api.new_game(sides=["Samira", "Youssef"])
    response = client.get("/", environ_base=PHONE)
    assert response.status_code == 403
    assert 'name="key"' in response.get_data(as_text=True)
    page = client.get(f"/games/{game['id']}", environ_base=PHONE)
    assert page.status_code == 403 and "Samira" not in page.get_data(as_text=True)
    refused = client.get(f"/api/games/{game['id']}", environ_base=PHONE)
    assert refused.status_code == 403 and refused.get_json()["error"]
    tap = client.post(f"/api/games/{game['id']}/events", json={"type": "missa", "side": 0},
                      environ_base=PHONE)
    assert tap.status_code == 403
    assert client.get("/pair", environ_base=PHONE).status_code == 403
    assert api.state(game["id"])["version"] == 0


def test_the_typed_key_lets_the_device_in_and_is_kept(client, key):
    page = client.get("/games/new", environ_base=PHONE).get_data(as_text=True)
    assert re.search(r'<form method="post" action="/key"', page)  # never a GET: no key in an address
    assert 'name="next" value="/games/new"' in page
    response = client.post("/key", data={"key": key.upper() + " ", "next": "/games/new"},
                           environ_base=PHONE)
    assert response.status_code == 303 and response.headers["Location"] == "/games/new"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert key not in cookie  # the cookie proves the key without holding it
    assert client.get("/games/new", environ_base=PHONE).status_code == 200


@pytest.mark.parametrize("grouped", [" ", "-", "  "])
def test_the_key_typed_in_groups_lets_the_device_in(client, key, grouped):
    typed = grouped.join(key[i:i + 4] for i in range(0, len(key), 4))
    response = client.post("/key", data={"key": typed, "next": "/"}, environ_base=PHONE)
    assert response.status_code == 303 and response.headers["Location"] == "/"
    assert client.get("/", environ_base=PHONE).status_code == 200


def test_a_key_in_an_address_opens_nothing(client, key):
    """The key used to ride in `/?key=…`, and stayed in the browser's history."""
    response = client.get(f"/?key={key}", environ_base=PHONE)
    assert response.status_code == 403 and "Set-Cookie" not in response.headers
    assert client.get("/", environ_base=PHONE).status_code == 403


def test_a_wrong_key_is_refused(client, key):
    response = client.post("/key", data={"key": "not-the-key"}, environ_base=PHONE)
    assert response.status_code == 403
    assert "Ce n'est pas la clé." in html.unescape(response.get_data(as_text=True))
    assert client.get("/", environ_base=PHONE).status_code == 403


def test_guessing_is_rate_limited_even_for_the_right_key(client, key):
    for _ in range(5):
        assert client.post("/key", data={"key": "wrong"}, environ_base=PHONE).status_code == 403
    assert client.post("/key", data={"key": key}, environ_base=PHONE).status_code == 429
    # Another device is not blocked by this one's attempts.
    other = {"REMOTE_ADDR": "192.168.1.24"}
    assert client.post("/key", data={"key": key}, environ_base=other).status_code == 303


def test_failed_attempts_are_forgotten_after_the_window():
    now = [0.0]
    attempts = Attempts(limit=2, window=60, clock=lambda: now[0])
    attempts.fail("a")
    attempts.fail("a")
    assert attempts.blocked("a")
    now[0] = 61
    assert not attempts.blocked("a")


def test_static_files_need_no_key(client):
    assert client.get("/static/style.css", environ_base=PHONE).status_code == 200


def test_loopback_addresses_are_local_and_others_are_not():
    assert is_local("127.0.0.1") and is_local("::1") and is_local("::ffff:127.0.0.1")
    assert not is_local("192.168.1.2") and not is_local("") and not is_local(None)


def test_host_names_are_read_without_their_port():
    assert access.host_name("Table.LAN:5000") == "table.lan"
    assert access.host_name("[::1]:5000") == "::1" and access.host_name("::1") == "::1"
    assert access.host_name("localhost.") == "localhost" and access.host_name(None) == ""


def test_the_access_key_is_made_once_and_kept(tmp_path):
    from scorekeeper import create_app

    first = create_app({"TESTING": True, "DATABASE": str(tmp_path / "a.sqlite3")})
    second = create_app({"TESTING": True, "DATABASE": str(tmp_path / "a.sqlite3")})
    assert first.config["ACCESS_KEY"] == second.config["ACCESS_KEY"]
    assert access.valid_key(first.config["ACCESS_KEY"])


# -- the names the app answers to (DNS rebinding) ----------------------------------------------

def test_a_foreign_name_over_loopback_is_refused(client, api):
    """A page of another site, visited by the host's own browser, that points
    its own name at this machine: before, loopback needed no key whatever
    the Host, and it read every game and wrote new ones."""
    api.new_game(sides=["Samira", "Youssef"])
    export = client.get("/games/export.json", headers=REBIND)
    assert export.status_code == 400 and b"Samira" not in export.data
    assert export.headers["Content-Security-Policy"] and export.headers["X-Frame-Options"]
    created = client.post("/api/games", json={"sides": ["A", "B"]}, headers=REBIND)
    assert created.status_code == 400 and created.get_json()["error"]
    form = client.get("/games/new", headers=REBIND)
    assert form.status_code == 400 and b"csrf_token" not in form.data
    assert client.get("/static/style.css", headers=REBIND).status_code == 400
    assert len(client.get("/games/export.json").get_json()["games"]) == 1


def test_configured_names_are_answered_but_need_the_key(tmp_path):
    from scorekeeper import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite3"),
                      "ALLOWED_HOSTS": "table.lan, Other.Example"})
    client = app.test_client()
    for host in ("table.lan:5000", "other.example"):
        # Even from loopback: the name says the browser came through the network.
        response = client.get("/", headers={"Host": host})
        assert response.status_code == 403 and 'name="key"' in response.get_data(as_text=True)
    assert client.get("/", headers={"Host": "table.lan.evil.example"}).status_code == 400
    let_in(client, app, "table.lan")
    assert client.get("/", headers={"Host": "table.lan:5000"}).status_code == 200


def test_the_network_address_make_run_serves_on_is_answered(app, client):
    assert client.get("/", headers={"Host": "192.168.1.50:5000"}, environ_base=PHONE
                      ).status_code == 400
    access.allow_host(app, "192.168.1.50")
    assert client.get("/", headers={"Host": "192.168.1.50:5000"}, environ_base=PHONE
                      ).status_code == 403
    let_in(client, app, "192.168.1.50")
    assert client.get("/", headers={"Host": "192.168.1.50:5000"}, environ_base=PHONE
                      ).status_code == 200


@pytest.mark.parametrize("header", [
    {"X-Forwarded-For": "192.168.1.23"}, {"Forwarded": "for=192.168.1.23"},
    {"X-Real-IP": "192.168.1.23"}, {"Via": "1.1 proxy"}, {"X-Forwarded-Host": "localhost"},
])
def test_a_request_through_a_same_host_proxy_is_not_local(client, header):
    response = client.get("/", headers=header)
    assert response.status_code == 403


def test_a_trusted_proxy_says_who_asks(tmp_path):
    from scorekeeper import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite3"),
                      "TRUSTED_PROXY": "127.0.0.1", "ALLOWED_HOSTS": "table.lan"})
    client = app.test_client()
    # Through the proxy, even from this machine's own address: never this machine.
    assert client.get("/", headers={"X-Forwarded-For": "127.0.0.1"}).status_code == 403
    phone = client.get("/", headers={"X-Forwarded-For": "10.0.0.1, 192.168.1.23",
                                     "X-Forwarded-Host": "table.lan"})
    assert phone.status_code == 403
    let_in(client, app)  # the test client's own host: the browser sent it for table.lan
    assert client.get("/", headers={"X-Forwarded-For": "192.168.1.23",
                                    "X-Forwarded-Host": "table.lan"}).status_code == 200
    # A proxy at another address is not trusted: its forwarded name is not taken.
    assert app.test_client().get("/", headers={"X-Forwarded-For": "127.0.0.1",
                                    "X-Forwarded-Host": "table.lan"}, environ_base=PHONE
                      ).status_code == 403


# -- pairing codes -----------------------------------------------------------------------------

def new_code(app) -> str:
    from scorekeeper.web.guard import pairing

    with app.app_context():
        return pairing.codes().new()


def test_a_pairing_code_lets_one_device_in_once(app, client):
    code = new_code(app)
    shown = client.get(f"/pair/{code}", environ_base=PHONE)  # a QR scanner's preview, say
    assert shown.status_code == 200 and "Set-Cookie" not in shown.headers
    assert client.get(f"/pair/{code}", environ_base=PHONE).status_code == 200
    joined = client.post(f"/pair/{code}", environ_base=PHONE)
    assert joined.status_code == 303 and joined.headers["Location"] == "/"
    assert joined.headers["Set-Cookie"].startswith(f"{COOKIE}=")
    assert client.get("/", environ_base=PHONE).status_code == 200
    # The same address, found later in a history or used by another phone: nothing.
    other = app.test_client()
    for method in (other.get, other.post):
        again = method(f"/pair/{code}", environ_base={"REMOTE_ADDR": "192.168.1.77"})
        assert again.status_code == 403
        assert "a été utilisé" in html.unescape(again.get_data(as_text=True))
    assert other.get("/", environ_base={"REMOTE_ADDR": "192.168.1.77"}).status_code == 403


def test_a_pairing_code_expires():
    from scorekeeper.web.guard import pairing

    now = [0.0]
    codes = pairing.Codes(lifetime=60, clock=lambda: now[0])
    code = codes.new()
    assert codes.valid(code)
    now[0] = 61
    assert not codes.valid(code) and not codes.spend(code)
    assert not codes.spend("made-up")


def test_a_hosts_phone_shows_a_new_code_for_the_next_phone(app, client):
    access.allow_host(app, "192.168.1.50")
    let_in(client, app, "192.168.1.50", hosting=True)
    phone = client.get("/pair", headers={"Host": "192.168.1.50:5000"}, environ_base=PHONE)
    page = phone.get_data(as_text=True)
    url = re.search(r'href="(http://192\.168\.1\.50:5000/pair/[\w-]+)"', page).group(1)
    assert 'src="data:image/svg+xml' in page and phone.headers["Cache-Control"] == "no-store"
    # The host's own screen shows the network address, not its own loopback one.
    host_page = client.get("/pair", headers={"Host": "127.0.0.1:5000"}).get_data(as_text=True)
    assert "http://192.168.1.50:5000/pair/" in host_page
    stranger = app.test_client()
    path = url.split(":5000", 1)[1]
    assert stranger.post(path, headers={"Host": "192.168.1.50:5000"},
                         environ_base={"REMOTE_ADDR": "192.168.1.9"}).status_code == 303


def test_a_host_that_serves_itself_only_says_no_phone_can_reach_it(client):
    page = client.get("/pair").get_data(as_text=True)
    assert "/pair/" not in page and 'role="alert"' in page


def shown_key(page: str) -> str:
    """The key as the host's /pair page shows it: groups of four, no space."""
    found = re.search(r'class="typed-line access-key"[^>]*>(.*?)</p>', page)
    return re.sub(r"<[^>]+>", "", found.group(1)) if found else ""


def test_the_hosts_own_screen_shows_the_key_to_type_with_the_address(app, client, key):
    """Seen at the table: the page told a phone that cannot scan to type the key
    "shown where the scorekeeper runs", and only the terminal showed it."""
    access.allow_host(app, "192.168.1.50")
    for host in ("127.0.0.1:5000", "localhost:5000", "[::1]:5000"):
        page = client.get("/pair", headers={"Host": host}).get_data(as_text=True)
        assert shown_key(page) == key, host
        assert '<p class="typed-line" dir="ltr">http://192.168.1.50:5000/</p>' in page


def test_a_request_from_the_network_never_sees_the_key(tmp_path):
    """Only the requests the guard lets in without a key (this machine asking
    itself) see it: never a phone, even one let in by its cookie, nor a
    network name asked from loopback, nor a request through a proxy."""
    from scorekeeper import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite3"),
                      "ALLOWED_HOSTS": "table.lan"})
    key = app.config["ACCESS_KEY"]
    access.allow_host(app, "192.168.1.50")
    client = app.test_client()
    for host in ("192.168.1.50", "table.lan", "localhost", "127.0.0.1"):
        let_in(client, app, host, hosting=True)
    askers = [
        ({"Host": "192.168.1.50:5000"}, PHONE),  # a phone of the table
        ({"Host": "table.lan:5000"}, PHONE),
        ({"Host": "table.lan:5000"}, {}),  # a network name, even from loopback
        ({"Host": "localhost:5000"}, PHONE),  # a loopback name from the network
        ({"Host": "127.0.0.1:5000", "X-Forwarded-For": "192.168.1.23"}, {}),  # a proxy
        ({"Host": "127.0.0.1:5000", "Via": "1.1 proxy"}, {}),
    ]
    for headers, environ in askers:
        for path in ("/pair", "/", "/games/new", "/nights", "/settings"):
            response = client.get(path, headers=headers, environ_base=environ)
            assert key not in response.get_data(as_text=True), (headers, environ, path)
        pair = client.get("/pair", headers=headers, environ_base=environ)
        assert pair.status_code == 200  # a host's phone, by its cookie: the page, without the key
        assert "typed-key" not in pair.get_data(as_text=True), (headers, environ)
    # The host, asking itself: the key.
    assert shown_key(client.get("/pair").get_data(as_text=True)) == key


def test_a_host_serving_itself_only_shows_no_key(client, key):
    page = client.get("/pair").get_data(as_text=True)
    assert key not in page and "typed-key" not in page


# -- no way out to another site ----------------------------------------------------------------

def test_the_key_never_sends_a_device_to_another_site(app, client, key):
    """Before: `/%09/evil.example?key=KEY` answered `Location: //evil.example`."""
    response = client.get(f"/%09/evil.example?key={key}", environ_base=PHONE)
    assert not response.headers.get("Location", "/").startswith("//")
    page = response.get_data(as_text=True)
    assert 'value="/"' in page  # the form goes back home, not to "/\t/evil.example"
    assert not re.search(r'href="/[\t/\\]', page)  # the language links neither
    for bad in ("/\t/evil.example", "//evil.example", "/\\evil.example", "http://evil.example",
                ""):
        answer = app.test_client().post("/key", data={"key": key, "next": bad},
                                        environ_base=PHONE)
        assert answer.status_code == 303 and answer.headers["Location"] == "/", bad


@pytest.mark.parametrize("value", [1, "1", "two proxies", "127.0.0.1, nginx"])
def test_a_trusted_proxy_that_is_no_address_stops_the_start_with_a_sentence(tmp_path, value):
    """`TRUSTED_PROXY=1` used to trust one proxy hop, whatever its address
    said: a forged X-Forwarded-Host then opened /pair."""
    from scorekeeper import create_app
    from scorekeeper.web.guard.secret import SecretError

    with pytest.raises(SecretError, match="TRUSTED_PROXY must be the address of the proxy"):
        create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite3"),
                    "TRUSTED_PROXY": value})
