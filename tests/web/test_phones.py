"""A pass per phone: each phone let in (by a pairing code or the typed key)
gets a credential of its own, kept in the store as a hash; the Phones page
and `flask phones` list them and turn one away; a new key turns all away.
Before, every phone got the same cookie (an HMAC of the key, for a year):
one leaked cookie opened the table, and no phone could be turned away alone."""

import hashlib
import hmac
import re
from datetime import datetime, timedelta, timezone

import pytest

from scorekeeper import create_app
from scorekeeper.service import phones
from scorekeeper.web.guard import access, pairing
from support.page_forms import forms_of, submit

PHONE = {"REMOTE_ADDR": "192.168.1.23"}
OTHER = {"REMOTE_ADDR": "192.168.1.24"}
ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/126.0.0.0 Mobile Safari/537.36")
IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
          "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1")


def pass_of(response) -> str:
    cookie = response.headers["Set-Cookie"]
    return re.match(rf"{access.COOKIE}=([^;]+)", cookie).group(1)


def with_key(app, environ, agent=ANDROID):
    client = app.test_client()
    response = client.post("/key", data={"key": app.config["ACCESS_KEY"], "next": "/"},
                           environ_base=environ, headers={"User-Agent": agent})
    assert response.status_code == 303
    return client, pass_of(response)


def with_code(app, environ, agent=IPHONE):
    client = app.test_client()
    with app.app_context():
        code = pairing.codes().new()
    response = client.post(f"/pair/{code}", environ_base=environ, headers={"User-Agent": agent})
    assert response.status_code == 303
    return client, pass_of(response)


def turn_away(client, phone_id, **kwargs):
    """Press "Turn away" on the Phones page, for that phone."""
    page = client.get("/phones", **kwargs).get_data(as_text=True)
    form = next(f for f in forms_of(page) if f.action == f"/phones/{phone_id}/away")
    return submit(client, form, **kwargs)


def dump(db) -> str:
    return "\n".join(db.conn.iterdump())


def test_each_phone_gets_a_pass_of_its_own_kept_as_a_hash(app, client, db):
    first, first_pass = with_key(app, PHONE)
    second, second_pass = with_code(app, OTHER)
    assert first_pass != second_pass and len(first_pass) >= 40
    assert first.get("/", environ_base=PHONE).status_code == 200
    assert second.get("/", environ_base=OTHER).status_code == 200
    stored = dump(db)
    for token in (first_pass, second_pass):
        assert token not in stored  # only its hash
        assert hashlib.sha256(token.encode()).hexdigest() in stored
    # The host's Phones page: both, how they came, their browsers, never a pass.
    page = client.get("/phones").get_data(as_text=True)
    assert "Chrome, Android" in page and "Safari, iPhone" in page
    assert page.count('/away"') == 2
    assert first_pass not in page and second_pass not in page
    assert "clé d'accès" in page.replace("&#39;", "'") and "code" in page


def test_a_phone_turned_away_gets_the_key_page_at_its_next_request(app, client, db):
    first, _ = with_key(app, PHONE)
    second, _ = with_code(app, OTHER)
    listed = phones.listed(db, access.gate(app).mark)
    code_phone = next(p for p in listed if p.how == "code")
    page = client.get("/phones").get_data(as_text=True)
    form = next(f for f in forms_of(page) if f.action == f"/phones/{code_phone.id}/away")
    assert submit(client, form).status_code == 303
    assert second.get("/", environ_base=OTHER).status_code == 403
    assert first.get("/", environ_base=PHONE).status_code == 200
    assert [p.how for p in phones.listed(db, access.gate(app).mark)] == ["key"]
    # Turned away twice, or a phone that never was: a sentence, nothing else changes.
    again = submit(client, form, follow_redirects=True)
    assert "Il n'y a pas de tel téléphone" in again.get_data(as_text=True).replace("&#39;", "'")
    assert first.get("/", environ_base=PHONE).status_code == 200


def test_a_phone_sees_itself_on_the_page_and_may_turn_itself_away(app, db):
    phone, _ = with_key(app, PHONE)
    page = phone.get("/phones", environ_base=PHONE).get_data(as_text=True)
    assert "ce téléphone" in page
    (mine,) = phones.listed(db, access.gate(app).mark)
    assert turn_away(phone, mine.id, environ_base=PHONE).status_code == 403
    assert phone.get("/", environ_base=PHONE).status_code == 403


def test_a_new_access_key_turns_every_phone_away(tmp_path):
    config = {"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite3"),
              "SECRET_KEY": "a secret for this test", "ACCESS_KEY": "firstkey2345"}
    app = create_app(config)
    phone, token = with_key(app, PHONE)
    assert phone.get("/", environ_base=PHONE).status_code == 200
    changed = create_app(dict(config, ACCESS_KEY="secondkey234"))
    client = changed.test_client()
    client.set_cookie(access.COOKIE, token)
    assert client.get("/", environ_base=PHONE).status_code == 403
    assert "firstkey2345" not in client.get("/phones").get_data(as_text=True)
    assert 'action="/phones/' not in changed.test_client().get("/phones").get_data(as_text=True)


def test_the_old_shared_cookie_opens_nothing(app):
    """Before: every phone held hmac(secret, key), which opened the table for a year."""
    old = hmac.new(app.config["SECRET_KEY"].encode(), app.config["ACCESS_KEY"].encode(),
                   hashlib.sha256).hexdigest()
    client = app.test_client()
    client.set_cookie(access.COOKIE, old)
    assert client.get("/", environ_base=PHONE).status_code == 403
    assert client.get("/games/export.json", environ_base=PHONE).status_code == 403


def test_last_seen_is_written_at_most_once_a_minute(app, db):
    phone, _ = with_key(app, PHONE)
    (seen,) = [p.last_seen for p in phones.listed(db, access.gate(app).mark)]
    for _ in range(3):
        assert phone.get("/", environ_base=PHONE).status_code == 200
    assert [p.last_seen for p in phones.listed(db, access.gate(app).mark)] == [seen]
    earlier = (datetime.now(timezone.utc) - timedelta(minutes=2)).isoformat()
    db.execute("UPDATE phones SET last_seen = ?", [earlier])
    db.conn.commit()
    assert phone.get("/", environ_base=PHONE).status_code == 200
    (now,) = [p.last_seen for p in phones.listed(db, access.gate(app).mark)]
    assert now > earlier and now >= seen


def test_a_pass_given_over_https_is_a_secure_cookie(app):
    client = app.test_client()
    plain = client.post("/key", data={"key": app.config["ACCESS_KEY"]}, environ_base=PHONE)
    assert "Secure" not in plain.headers["Set-Cookie"]
    secure = app.test_client().post("/key", data={"key": app.config["ACCESS_KEY"]}, environ_base=PHONE,
                         base_url="https://localhost")
    assert "Secure" in secure.headers["Set-Cookie"]


@pytest.mark.parametrize("agent, words", [
    (ANDROID, "Chrome, Android"), (IPHONE, "Safari, iPhone"),
    ("Mozilla/5.0 (Android 14; Mobile; rv:127.0) Gecko/127.0 Firefox/127.0", "Firefox, Android"),
    ("Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) "
     "SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36", "Samsung Internet, Android"),
    ("", "?"), ("<script>" * 100, "?"),
])
def test_a_browser_in_a_few_words(agent, words):
    assert phones.browser_of(agent) == words


def test_the_flask_command_lists_the_phones_and_turns_one_away(app, db):
    phone, _ = with_key(app, PHONE)
    runner = app.test_cli_runner()
    listed = runner.invoke(args=["phones"])
    assert listed.exit_code == 0 and "Chrome, Android" in listed.output
    phone_id = int(listed.output.split("\t")[0])
    away = runner.invoke(args=["phones", "--away", str(phone_id)])
    assert away.exit_code == 0 and "Turned away" in away.output
    assert phone.get("/", environ_base=PHONE).status_code == 403
    again = runner.invoke(args=["phones", "--away", str(phone_id)])
    assert again.exit_code == 1 and "no such phone" in again.output
    assert "No phone" in runner.invoke(args=["phones"]).output
