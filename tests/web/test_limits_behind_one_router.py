"""Limits that a table behind one router survives, and a default side name
that is nobody. Before: after 5 wrong codes from one address even a valid
pairing code and the right key got 429 for a minute (phones behind one
NAT locked each other out); failed keys were counted per address only (200
wrong keys from 40 addresses in 0.7 s, none blocked; an IPv6 phone rotated
inside its /64); the failures were never forgotten; a crafted merge into
"Nous" was written and the person disappeared from /players."""

import html
import sqlite3

import pytest

from scorekeeper.web.guard import access, pairing
from scorekeeper.web.guard.access import Attempts, address_group
from support.page_forms import forms_of, submit

ROUTER = {"REMOTE_ADDR": "192.168.1.1"}


def new_code(app) -> str:
    with app.app_context():
        return pairing.codes().new()


def test_a_valid_pairing_code_works_whatever_failed_before_from_its_address(app):
    stranger = app.test_client()
    for number in range(access.MAX_CODE_FAILURES + 3):
        assert stranger.post(f"/pair/wrong-code-{number}", environ_base=ROUTER
                             ).status_code in (403, 429)
    for number in range(access.MAX_FAILURES):
        assert stranger.post("/key", data={"key": f"wrongkey{number:04d}"},
                             environ_base=ROUTER).status_code == 403
    phone = app.test_client()  # another phone behind the same router
    code = new_code(app)
    assert phone.get(f"/pair/{code}", environ_base=ROUTER).status_code == 200
    assert phone.post(f"/pair/{code}", environ_base=ROUTER).status_code == 303
    assert phone.get("/", environ_base=ROUTER).status_code == 200


def test_wrong_codes_do_not_lock_the_key_out(app):
    client = app.test_client()
    for number in range(access.MAX_FAILURES + 2):
        client.post(f"/pair/wrong-code-{number}", environ_base=ROUTER)
    assert client.post("/key", data={"key": app.config["ACCESS_KEY"]},
                       environ_base=ROUTER).status_code == 303


def test_wrong_keys_are_limited_over_every_address_too(app):
    """40 addresses, 5 tries each: past MAX_FAILURES_IN_ALL a minute, every key
    attempt waits, even the right one (else the limit would tell it apart)."""
    answers = []
    for number in range(200):
        address = {"REMOTE_ADDR": f"10.0.{number // 5}.{1 + number % 5 * 40}"}
        answers.append(app.test_client().post("/key", data={"key": f"guess{number:07d}"},
                                              environ_base=address).status_code)
    assert answers.count(403) == access.MAX_FAILURES_IN_ALL
    assert answers.count(429) == 200 - access.MAX_FAILURES_IN_ALL
    fresh = {"REMOTE_ADDR": "10.9.9.9"}
    assert app.test_client().post("/key", data={"key": app.config["ACCESS_KEY"]},
                                  environ_base=fresh).status_code == 429
    # A pairing code still lets a phone in meanwhile.
    code = new_code(app)
    assert app.test_client().post(f"/pair/{code}", environ_base=fresh).status_code == 303


def test_an_ipv6_phone_is_counted_by_its_64(app):
    for number in range(access.MAX_FAILURES):
        address = {"REMOTE_ADDR": f"2001:db8:1:2::{number + 1:x}"}
        assert app.test_client().post("/key", data={"key": "wrongkey2345"},
                                      environ_base=address).status_code == 403
    rotated = {"REMOTE_ADDR": "2001:db8:1:2:ffff:eeee:dddd:cccc"}
    assert app.test_client().post("/key", data={"key": "wrongkey2345"},
                                  environ_base=rotated).status_code == 429
    elsewhere = {"REMOTE_ADDR": "2001:db8:1:3::1"}
    assert app.test_client().post("/key", data={"key": app.config["ACCESS_KEY"]},
                                  environ_base=elsewhere).status_code == 303


def test_address_groups():
    assert address_group("2001:db8:1:2::1") == address_group("2001:0db8:0001:0002:ffff::9")
    assert address_group("2001:db8:1:2::1") != address_group("2001:db8:1:3::1")
    assert address_group("::ffff:192.168.1.5") == address_group("192.168.1.5") == "192.168.1.5"
    assert address_group("fe80::1%eth0") == address_group("fe80::2")
    assert address_group("not an address") == "not an address"


def test_the_failures_are_forgotten_and_bounded():
    now = [0.0]
    attempts = Attempts(limit=2, window=60, clock=lambda: now[0], overall=None, most=100)
    for number in range(1000):
        attempts.fail(f"10.1.{number // 250}.{number % 250}")
    assert len(attempts.failures) <= 100  # an address-rotating stranger fills nothing
    now[0] = 61
    attempts.fail("10.2.0.1")
    assert list(attempts.failures) == ["10.2.0.1"] and len(attempts.every) == 1


@pytest.fixture
def english_client(client):
    client.set_cookie("lang", "en")
    return client


def test_a_default_side_name_is_nobody_to_merge_with(english_client, api, app):
    api.new_game(sides=["Karim", "Nous"])
    api.new_game(sides=["Ali", "Eux"])
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        ids = dict(conn.execute("SELECT name, id FROM players"))
    conn.close()
    karim, nobody, ali = ids["Karim"], ids["Nous"], ids["Ali"]
    assert english_client.get(f"/players/{karim}/merge?into={nobody}").status_code == 404
    # The form crafted by hand: the page offers a merge into Ali, sent into "Nous".
    page = english_client.get(f"/players/{karim}/merge?into={ali}").get_data(as_text=True)
    form = next(f for f in forms_of(page) if f.method == "post")
    response = submit(english_client, form, extra={"into": str(nobody)}, follow_redirects=True)
    assert "Nous is a side's default name, nobody's" in html.unescape(
        response.get_data(as_text=True))
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        assert conn.execute("SELECT count(*) FROM player_changes").fetchone()[0] == 0
        assert conn.execute("SELECT merged_into FROM players WHERE id = ?",
                            [karim]).fetchone()[0] is None
    conn.close()
    assert "Karim" in english_client.get("/players").get_data(as_text=True)
