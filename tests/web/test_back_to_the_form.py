"""The phone's Back, which scorers at the table reach for, leads from the board to the new-game
form. That form says this phone's game is in progress, with the way back to
it, and its Start, the same as that game's a moment ago, leads back to that
game instead of making a second one. A real second game is still made: with
any difference, from another phone, or once the first one is idle or over."""

import re
import sqlite3
from datetime import datetime, timedelta, timezone

import pytest

from scorekeeper.web.views import games as games_view
from support.page_forms import forms_of, press, submit

NAMES = {"name0": "Nadia", "name1": "Samir"}


@pytest.fixture(autouse=True)
def english(client):
    client.set_cookie("lang", "en")


@pytest.fixture
def clock(monkeypatch):
    """The new-game form's clock, moved on by the test (the taps keep theirs)."""
    later = [timedelta(0)]
    real = games_view.utc_now

    def now():
        moved = datetime.fromisoformat(real()) + later[0]
        return moved.astimezone(timezone.utc).isoformat(timespec="milliseconds")

    monkeypatch.setattr(games_view, "utc_now", now)
    return later


def start(client, **names):
    """Fill in the new-game form (a fresh one, as after Back) and Start."""
    form = forms_of(client.get("/games/new").get_data(as_text=True))[0]
    return submit(client, form, extra=names or NAMES)


def running(app) -> list[str]:
    with sqlite3.connect(app.config["DATABASE"]) as db:
        return [row[0] for row in db.execute("SELECT id FROM games WHERE finished = 0")]


def played(client) -> str:
    """A game started with the form and a Missa tapped on its board: 1-0."""
    location = start(client).headers["Location"]
    assert press(client, location, "missa.0").status_code == 303
    return location.rsplit("/", 1)[1]


def test_back_then_start_leads_to_the_game_already_made(app, client):
    game = played(client)
    page = client.get("/games/new").get_data(as_text=True)
    # At the top, before the form: this phone's game, its score, one tap back to it.
    banner = page.index("A game is in progress on this phone")
    resume = re.search(rf'<a class="big-button resume" href="/games/{game}">', page)
    assert resume and banner < resume.start() < page.index('<h1 class="page-title">New game')
    assert "<bdi>Nadia</bdi> <bdi dir=\"ltr\">1</bdi>" in page
    again = start(client)
    assert again.status_code == 303 and again.headers["Location"] == f"/games/{game}"
    board = client.get(again.headers["Location"]).get_data(as_text=True)
    assert "This game had already started: here it is again, no second game was made." in board
    assert running(app) == [game]
    assert client.get(f"/api/games/{game}").get_json()["scores"] == [1, 0]


def test_a_start_that_differs_is_a_second_game(app, client):
    game = played(client)
    other = start(client, name0="Nadia", name1="Yasmine").headers["Location"]
    assert other != f"/games/{game}" and len(running(app)) == 2


def test_another_phone_starting_the_same_names_makes_its_own_game(app, client):
    game = played(client)
    elsewhere = app.test_client()
    elsewhere.set_cookie("lang", "en")
    page = elsewhere.get("/games/new").get_data(as_text=True)
    assert "A game is in progress on this phone" not in page
    assert start(elsewhere).headers["Location"] != f"/games/{game}"


def test_a_game_idle_past_the_window_does_not_hold_a_new_one_back(app, client, clock):
    game = played(client)
    clock[0] = timedelta(minutes=11)
    second = start(client).headers["Location"]
    assert second != f"/games/{game}" and len(running(app)) == 2


def test_a_game_over_does_not_hold_a_new_one_back(client):
    game = played(client)
    client.post(f"/api/games/{game}/events", json={"type": "adjust", "side": 0, "points": 40})
    assert "A game is in progress on this phone" not in client.get("/games/new").get_data(
        as_text=True)
    assert start(client).headers["Location"] != f"/games/{game}"


def test_four_players_the_same_seats_are_the_same_game_other_seats_another(app, client):
    seats = {"players": "4", "name0": "", "name1": "", "p0a": "Karim", "p0b": "Salma",
             "p1a": "Ali", "p1b": "Omar"}
    first = start(client, **seats).headers["Location"]
    assert press(client, first, "missa.0").status_code == 303
    assert start(client, **seats).headers["Location"] == first
    swapped = dict(seats, p0b="Omar", p1b="Salma")
    assert start(client, **swapped).headers["Location"] != first
    assert len(running(app)) == 2


def test_a_game_whose_last_change_has_no_time_zone_is_not_taken_for_the_same_start(app, client):
    """An imported game's times may lack their time zone: such a time says
    nothing of how recent the game is, so Start makes a new game (no 500)."""
    game = played(client)
    with sqlite3.connect(app.config["DATABASE"]) as db:
        db.execute("UPDATE games SET updated_at = '2026-12-01T10:00:00' WHERE id = ?", [game])
    response = start(client)
    assert response.status_code == 303
    assert response.headers["Location"].rsplit("/", 1)[1] != game
    assert len(running(app)) == 2
