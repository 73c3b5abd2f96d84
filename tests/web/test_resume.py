"""The home page resumes the game this device used, never by a clock that
can lie (a clock set back two hours resumed the wrong game); a device with
no game of its own is offered every game in progress by its names, never
one picked for it (at a club night, that was another table's board)."""

import copy
import json
import random
import re

import pytest

from scorekeeper.web import api as api_module
from scorekeeper.web.pages import resume


def resumed(client) -> str | None:
    page = client.get("/").get_data(as_text=True)
    found = re.search(r'class="big-button resume" href="/games/(\w+)"', page)
    return found and found.group(1)


def offered(client) -> list[str]:
    """The games the home page offers to join, in its order."""
    page = client.get("/").get_data(as_text=True)
    return re.findall(r'class="button quiet join" href="/games/(\w+)"', page)


@pytest.fixture
def clock(monkeypatch):
    """The clock the API stamps records with, set by the test."""
    now = ["2025-03-01T21:00:00.000+00:00"]
    monkeypatch.setattr(api_module, "utc_now", lambda: now[0])
    return now


def test_a_clock_set_back_does_not_send_taps_to_the_old_game(app, api, clock):
    first = api.new_game(sides=["A", "B"])["id"]
    api.event(first, type="missa", side=0)
    clock[0] = "2025-03-01T19:00:00.000+00:00"  # two hours back
    second = api.new_game(sides=["C", "D"])["id"]
    api.event(second, type="missa", side=1)
    device = app.test_client()  # a new device: both, the game added last first
    assert resumed(device) is None and offered(device) == [second, first]


def test_each_device_resumes_the_game_it_used(app, api):
    first = api.new_game(sides=["A", "B"])["id"]
    second = api.new_game(sides=["C", "D"])["id"]
    phone = app.test_client()
    assert phone.get(f"/games/{first}").status_code == 200
    cookie = phone.get_cookie(resume.COOKIE)
    assert cookie.value == first and cookie.http_only
    assert resumed(phone) == first
    other = app.test_client()
    other.get(f"/games/{second}")
    assert resumed(other) == second and resumed(phone) == first
    assert offered(phone) == [] and offered(other) == []
    # Its game over, a device is offered the games in progress, none resumed for it.
    phone.post(f"/api/games/{first}/events", json={"type": "adjust", "side": 0, "points": 33})
    assert resumed(phone) is None and offered(phone) == [second]


def test_an_imported_game_dated_9998_does_not_take_over(app, api, client, tmp_path):
    mine = api.new_game(sides=["A", "B"])["id"]
    client.get(f"/games/{mine}")
    document = json.loads(client.get("/games/export.json").data)
    far = copy.deepcopy(document)
    game = far["games"][0]
    # The last year an import takes (clock.LATEST_YEAR): every page can show it.
    game.update(id="fromanothertable", creation_key=None, created_at="9998-01-01T00:00:00+00:00",
                updated_at="9998-12-31T23:59:59+00:00")
    assert client.post("/api/games/import", json=far).status_code == 200
    assert resumed(client) == mine


def test_a_cookie_naming_no_running_game_is_ignored(app, api):
    game = api.new_game(sides=["A", "B"])["id"]
    device = app.test_client()
    for value in ("nosuchgame", "<script>", "x" * 300):
        device.set_cookie(resume.COOKIE, value)
        assert resumed(device) is None and offered(device) == [game]


COOKIE_PARTS = ["ronda_game=abc", "ronda_game=xyz", "ronda_game = abc ", "ronda_game",
                "ronda_game=", "xronda_game=abc", "ronda_game=ab cd", 'ronda_game="abc"',
                'a="x;ronda_game=abc"', "lang=fr", "ronda_access=0123", "=abc", " ", ""]


def test_the_raw_cookie_check_agrees_with_werkzeugs_cookies(app):
    """The resume hook reads its cookie from the raw header (parsing
    every cookie cost a tap more than the rest of the hook): it
    must find what request.cookies finds, first cookie of the name included."""
    rng = random.Random(14)
    for _ in range(2000):
        header = rng.choice(["; ", ";", " ;"]).join(
            rng.choice(COOKIE_PARTS) for _ in range(rng.randint(0, 4)))
        with app.test_request_context("/", headers={"Cookie": header}):
            for game_id in ("abc", "xyz"):
                assert resume._sent(game_id) == (resume.wanted() == game_id), header
