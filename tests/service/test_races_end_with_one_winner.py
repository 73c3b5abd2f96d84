"""Phones racing on one write end with one winner, the others told why, and
nothing half done: two renames to one name, a knockout's match started from
four phones, four rematches of one finished table, and pages asked at the
same moment (never a 500)."""

import random

import pytest

from scorekeeper import create_app, engine
from scorekeeper.engine.errors import RuleViolation
from scorekeeper.service import games, nights, players, tournaments
from scorekeeper.service.clock import utc_now
from scorekeeper.storage import db as stores
from support.race import race

NOW = "2026-12-04T20:00:00+00:00"


@pytest.fixture
def racing(tmp_path):
    """An app of its own, and a connection per writer (each its own, as a phone's request)."""
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "race.sqlite3")})
    opened = []

    def store():
        connection = stores.connect(app.config["DATABASE"])
        opened.append(connection)
        return connection

    yield app, store
    for connection in opened:
        connection.close()


def test_two_renames_to_one_name_leave_one_person_with_it(racing):
    app, store = racing
    db = store()
    games.create(db, {"sides": ["Karim", "Karim B."]}, None, NOW)
    first, second = players.by_name(db, "Karim"), players.by_name(db, "Karim B.")
    results = race(*(lambda p=p: players.rename(store(), p.id, "Kamal", None, utc_now())
                     for p in (first, second, first, second)))
    renamed = [r for r in results if isinstance(r, players.Player)]
    refused = [r for r in results if not isinstance(r, players.Player)]
    assert len({r.id for r in renamed}) == 1, results  # one person took the name
    assert all(isinstance(r, RuleViolation) and r.sentence() for r in refused), refused
    assert [p.name for p in players.people(db)].count("Kamal") == 1


def knockout(db):
    return nights.create(db, {"name": "Tournoi", "date": "2026-12-04", "preset": "appli",
                              "players": 2, "format": "knockout",
                              "entrants": [["Ali"], ["Driss"], ["Karim"], ["Omar"]]},
                         NOW, engine.BUILT_IN_PRESETS, draw=random.Random(4))


def test_a_match_started_from_four_phones_is_one_table(racing):
    app, store = racing
    night = knockout(store())

    def start(number):
        return lambda: tournaments.start_match(store(), night, 1, 1, f"match:1:1:{number}",
                                               utc_now(), engine.BUILT_IN_PRESETS)

    results = race(*(start(n) for n in range(4)))
    started = [r for r in results if isinstance(r, games.Game)]
    refused = [r for r in results if not isinstance(r, games.Game)]
    assert len(started) == 1, results
    assert all(isinstance(r, RuleViolation) and "being played" in r.sentence()
               for r in refused), refused
    db = store()
    assert db.execute("SELECT count(*) FROM night_tables").fetchone() == (1,)
    assert db.execute("SELECT count(*) FROM games").fetchone() == (1,)


def test_four_rematches_of_one_table_are_one_game(racing):
    app, store = racing
    db = store()
    night = knockout(db)
    game = tournaments.start_match(db, night, 1, 1, "k", NOW, engine.BUILT_IN_PRESETS)
    games.record(db, game.id, {"type": "adjust", "side": 0, "points": 40}, None, NOW)
    results = race(*(lambda: tournaments.rematch(store(), game.id, utc_now())
                     for _ in range(4)))
    assert not [r for r in results if isinstance(r, Exception)], results
    assert len({made.id for made, _ in results}) == 1
    assert sum(created for _, created in results) == 1
    assert db.execute("SELECT count(*) FROM night_tables").fetchone() == (2,)


def test_pages_asked_during_racing_finishes_answer_without_a_500(racing):
    app, store = racing
    db = store()
    night = knockout(db)
    tables = [tournaments.start_match(db, night, 1, slot, f"k{slot}", NOW,
                                      engine.BUILT_IN_PRESETS) for slot in (1, 2)]

    def finishing(game_id):
        return lambda: app.test_client().post(
            f"/api/games/{game_id}/events", json={"type": "adjust", "side": 0, "points": 40}
        ).status_code

    def asking(path):
        return lambda: app.test_client().get(path).status_code

    results = race(finishing(tables[0].id), finishing(tables[1].id),
                   asking(f"/nights/{night.id}"), asking(f"/games/{tables[0].id}"),
                   asking("/games"), asking("/players"))
    assert results == [200] * 6, results
