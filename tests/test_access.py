"""The local-network mode: a device other than the host needs the access key."""

import html

import pytest

from scorekeeper.access import COOKIE, Attempts, is_local

PHONE = {"REMOTE_ADDR": "192.168.1.23"}


@pytest.fixture
def key(app):
    return app.config["ACCESS_KEY"]


def test_the_host_itself_needs_no_key(client):
    assert client.get("/").status_code == 200
    assert client.get("/", environ_base={"REMOTE_ADDR": "::1"}).status_code == 200


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
    assert api.state(game["id"])["version"] == 0


def test_the_key_from_the_qr_code_lets_the_device_in_and_is_kept(client, key):
    response = client.get(f"/games/new?key={key}", environ_base=PHONE)
    assert response.status_code == 303 and response.headers["Location"] == "/games/new"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert key not in cookie  # the cookie proves the key without holding it
    assert client.get("/games/new", environ_base=PHONE).status_code == 200


def test_a_wrong_key_is_refused(client, key):
    response = client.get("/?key=not-the-key", environ_base=PHONE)
    assert response.status_code == 403
    assert "Ce n'est pas la clé." in html.unescape(response.get_data(as_text=True))
    assert client.get("/", environ_base=PHONE).status_code == 403


def test_guessing_is_rate_limited_even_for_the_right_key(client, key):
    for _ in range(5):
        assert client.get("/?key=wrong", environ_base=PHONE).status_code == 403
    assert client.get(f"/?key={key}", environ_base=PHONE).status_code == 429
    # Another device is not blocked by this one's attempts.
    other = {"REMOTE_ADDR": "192.168.1.24"}
    assert client.get(f"/?key={key}", environ_base=other).status_code == 303


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


def test_the_access_key_is_made_once_and_kept(tmp_path):
    from scorekeeper import create_app

    first = create_app({"TESTING": True, "DATABASE": str(tmp_path / "a.sqlite3")})
    second = create_app({"TESTING": True, "DATABASE": str(tmp_path / "a.sqlite3")})
    assert first.config["ACCESS_KEY"] == second.config["ACCESS_KEY"]
    assert len(first.config["ACCESS_KEY"]) >= 12
