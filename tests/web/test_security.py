"""Security headers on every response, the session cookie, the secret key,
CSRF on forms, and JSON only on the API: nobody else in."""

import re
import stat
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.web.guard import security
from scorekeeper.web.guard.secret import load_or_create_secret
from support.headers import check_security_headers
from support.testing_routes import add_testing_routes

PACKAGE = Path(__file__).resolve().parents[2] / "scorekeeper"


@pytest.fixture
def test_app(tmp_path):
    return add_testing_routes(
        create_app({"TESTING": True, "DATABASE": str(tmp_path / "test.sqlite3")})
    )


def test_the_policy_allows_only_the_apps_own_files():
    policy = security.CONTENT_SECURITY_POLICY
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert not re.search(r"https?:|\*", policy)


@pytest.mark.parametrize("method, path, kwargs, status", [
    ("get", "/", {}, 200),
    ("get", "/nowhere", {}, 404),
    ("get", "/api/games/unknown", {}, 404),
    ("post", "/api/games", {"json": {"sides": ["A", "B"]}}, 201),
    ("post", "/api/games", {"json": {"sides": []}}, 400),
    ("post", "/api/games", {"data": "x", "content_type": "text/plain"}, 415),
    ("put", "/api/games", {}, 405),
    ("get", "/_test/boom", {}, 500),
    ("get", "/_test/form", {}, 200),
])
def test_every_kind_of_response_carries_the_security_headers(
    test_app, method, path, kwargs, status
):
    response = getattr(test_app.test_client(), method)(path, **kwargs)
    assert response.status_code == status
    check_security_headers(response)


def test_an_unexpected_failure_shows_a_page_not_a_traceback(test_app):
    response = test_app.test_client().get("/_test/boom")
    assert response.status_code == 500
    assert b"Traceback" not in response.data and b"RuntimeError" not in response.data
    assert b'role="alert"' in response.data


def test_the_session_cookie_is_httponly_and_samesite(test_app):
    response = test_app.test_client().get("/_test/form")  # the CSRF token lives in the session
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("session=")
    assert "HttpOnly" in cookie
    assert re.search(r"SameSite=(Lax|Strict)", cookie)


def test_a_form_post_without_the_csrf_token_is_refused(tmp_path):
    app = add_testing_routes(create_app({
        "TESTING": True, "WTF_CSRF_ENABLED": True, "DATABASE": str(tmp_path / "t.sqlite3"),
    }))
    client = app.test_client()
    page = client.get("/_test/form").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)

    refused = client.post("/_test/form", data={})
    assert refused.status_code == 400
    assert b"accepted" not in refused.data
    assert client.post("/_test/form", data={"csrf_token": token + "x"}).status_code == 400
    # From a fresh browser (no session), even a real token is refused.
    assert app.test_client().post("/_test/form", data={"csrf_token": token}).status_code == 400

    accepted = client.post("/_test/form", data={"csrf_token": token})
    assert accepted.status_code == 200 and accepted.data == b"accepted"
    # The JSON API is exempt: it takes only application/json, which a foreign
    # page cannot send without a preflight.
    assert client.post("/api/games", json={"sides": ["A", "B"]}).status_code == 201


def test_the_secret_key_is_made_at_first_start_owner_only(tmp_path):
    path = tmp_path / "secret_key"
    assert not path.exists()
    key = load_or_create_secret(str(tmp_path))
    assert path.read_text() == key and len(key) >= 64
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_or_create_secret(str(tmp_path)) == key  # kept across restarts
    other = tmp_path / "other"
    other.mkdir()
    assert load_or_create_secret(str(other)) != key  # each install its own


def test_the_app_uses_the_instance_secret_key(app):
    path = Path(app.instance_path) / "secret_key"
    assert app.secret_key == path.read_text().strip()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_no_secret_key_is_written_in_the_code():
    for source in PACKAGE.rglob("*.py"):
        text = source.read_text()
        assert not re.search(r"""SECRET_KEY["']?\s*[:=]\s*["']""", text), source
        assert not re.search(r"""secret_key\s*=\s*["']""", text), source


POST_ENDPOINTS = ["/api/games", "/api/games/{game}/events", "/api/games/{game}/undo"]
NOT_JSON = [
    ("text/plain", '{"sides": ["A", "B"]}'),
    ("application/x-www-form-urlencoded", "sides=A&sides=B"),
    ("multipart/form-data; boundary=x", "--x--"),
    ("text/json", "{}"),
    ("application/jsonp", "{}"),
    (None, "{}"),
]


@pytest.mark.parametrize("template", POST_ENDPOINTS)
@pytest.mark.parametrize("content_type, body", NOT_JSON)
def test_the_api_takes_only_json(client, api, template, content_type, body):
    game = api.new_game()
    api.event(game["id"], type="hit", side=0, value=1)  # something to undo
    before = api.state(game["id"])
    path = template.format(game=game["id"])
    headers = {} if content_type is None else {"Content-Type": content_type}
    response = client.post(path, data=body, headers=headers)
    assert response.status_code == 415
    assert response.is_json and response.get_json()["error"]
    assert api.state(game["id"]) == before
    # The same endpoint takes the same request sent as JSON.
    event = {"type": "hit", "side": 1, "value": 5}
    body = {"games": {"sides": ["A", "B"]}, "events": event, "undo": {}}
    json_body = body[template.rsplit("/", 1)[-1]]
    assert client.post(path, json=json_body).status_code in (200, 201)
