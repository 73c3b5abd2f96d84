"""`make run`'s start-up message, and what makes the app installable."""

import json
import re

import pytest
from flask_babel import force_locale

from scorekeeper import serve
from scorekeeper.web.wording.i18n import LANGUAGES, RIGHT_TO_LEFT
from scorekeeper.web.wording.translate import gettext
from support.headers import check_security_headers
from support.passes import let_in


def test_make_run_prints_the_address_a_qr_code_and_the_access_key(monkeypatch, tmp_path, capsys):
    served = {}
    monkeypatch.setattr(serve.server, "serve",
                        lambda app, **options: served.update(options, app=app))
    monkeypatch.setattr(serve, "lan_address", lambda: "192.168.1.50")
    monkeypatch.setenv("FLASK_DATABASE", str(tmp_path / "run.sqlite3"))
    monkeypatch.setenv("FLASK_ACCESS_KEY", "abcdefghjkmn")
    monkeypatch.setenv("HOST", "0.0.0.0")
    monkeypatch.setenv("PORT", "5123")
    serve.main()
    out = capsys.readouterr().out
    assert "http://127.0.0.1:5123/" in out
    assert "█" in out  # the QR code, drawn in the terminal
    # The QR code carries a pairing code, the key is only printed, to be typed.
    code = re.search(r"http://192\.168\.1\.50:5123/pair/([\w-]+)", out).group(1)
    assert "?key=" not in out and "type the access key abcdefghjkmn" in out
    assert serve.PLAIN_HTTP_NOTE.format(port=5123) in out  # what the phone can and cannot do over plain http
    app = served.pop("app")
    assert served == {"host": "0.0.0.0", "port": 5123}
    phone = app.test_client()
    where = {"headers": {"Host": "192.168.1.50:5123"},
             "environ_base": {"REMOTE_ADDR": "192.168.1.23"}}
    assert phone.post(f"/pair/{code}", **where).status_code == 303
    assert phone.get("/", **where).status_code == 200


def test_a_local_only_host_prints_no_network_address(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(serve.server, "serve", lambda app, **options: None)
    monkeypatch.setenv("FLASK_DATABASE", str(tmp_path / "run.sqlite3"))
    monkeypatch.setenv("HOST", "127.0.0.1")
    serve.main()
    out = capsys.readouterr().out
    assert "http://127.0.0.1:5000/" in out and "/pair/" not in out
    assert "plain http" not in out  # loopback is a secure context


@pytest.fixture
def manifest(client):
    page = client.get("/").get_data(as_text=True)
    href = page.split('rel="manifest" href="')[1].split('"')[0]
    return client.get(href)


def test_the_web_app_manifest_makes_it_installable(client, manifest):
    assert manifest.status_code == 200
    data = json.loads(manifest.get_data())
    assert data["display"] == "standalone" and data["start_url"] == "/"
    assert data["theme_color"]
    sizes = {icon["sizes"] for icon in data["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        assert client.get(icon["src"]).status_code == 200


DESCRIPTION = ("The score of Ronda, the Moroccan card game, kept at the table: one tap for "
               "each thing that scores.")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_phone_installs_the_app_under_its_languages_name(app, client, language):
    client.set_cookie("lang", language)
    page = client.get("/").get_data(as_text=True)
    href = page.split('rel="manifest" href="')[1].split('"')[0]
    manifest = client.get(href)
    assert manifest.status_code == 200 and "?v=" in href
    data = json.loads(manifest.get_data())
    with app.test_request_context(), force_locale(language):
        words = {"name": gettext("Ronda scorekeeper"), "short_name": gettext("Ronda"),
                 "description": gettext(DESCRIPTION)}
    direction = "rtl" if language in RIGHT_TO_LEFT else "ltr"
    assert {key: data[key] for key in words} == words
    assert (data["lang"], data["dir"]) == (language, direction)
    # The same app whatever its language: one id, one start, the same icons.
    plain = json.loads(client.get("/static/manifest.webmanifest").get_data())
    assert {k: v for k, v in data.items() if k not in (*words, "lang", "dir")} == {
        k: v for k, v in plain.items() if k not in (*words, "lang", "dir")}


def test_pages_name_the_theme_colour_and_a_touch_icon(client):
    page = client.get("/").get_data(as_text=True)
    assert '<meta name="theme-color"' in page and 'rel="apple-touch-icon"' in page


def test_static_files_have_versioned_names_and_long_cache_lifetimes(client):
    page = client.get("/").get_data(as_text=True)
    href = page.split('rel="stylesheet" href="')[1].split('"')[0]
    assert "?v=" in href
    response = client.get(href)
    assert response.status_code == 200
    assert "max-age=31536000" in response.headers["Cache-Control"]


def test_the_service_worker_is_served_at_the_root_and_checked_at_every_visit(client):
    """Its scope is the whole site (the board's pages included) only from
    there; `no-cache`: a new version of the app brings its worker at once,
    where the static files keep theirs for a year."""
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    assert "Service-Worker-Allowed" not in response.headers
    check_security_headers(response)
    script = response.get_data(as_text=True)
    assert 'addEventListener("fetch"' in script and "\n// " not in script  # slimmed, as board.js


def test_a_phone_gets_the_worker_with_its_pass_like_any_page(app, client):
    phone = {"environ_base": {"REMOTE_ADDR": "192.168.1.23"}}
    assert client.get("/sw.js", **phone).status_code == 403
    let_in(client, app)
    assert client.get("/sw.js", **phone).status_code == 200
