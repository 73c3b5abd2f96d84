"""Ratings (issue 15): openskill's Plackett-Luce, kept at write time in the
same transaction as the result, and re-rated when a finished game is
corrected, undone, thrown in the bin or restored, or two people merged.
After every such change the ratings equal a rebuild from scratch."""

import sqlite3

import pytest

from support.page_forms import press
from support.paths import FIRST_SCHEMA
from scorekeeper.storage import db as stores
from scorekeeper.service import players, ratings
from scorekeeper.storage.db import write_transaction


@pytest.fixture
def store(app):
    connection = stores.connect(app.config["DATABASE"])
    yield connection
    connection.close()


def snapshot(store):
    return (store.execute("SELECT person, mu, sigma, games FROM person_ratings ORDER BY person")
            .fetchall(),
            store.execute("SELECT game_id, person, mu, sigma, games FROM rating_steps"
                          " ORDER BY rated_at, game_id, person").fetchall())


def assert_as_rebuilt(store):
    """The ratings kept at write time are those of a rebuild from scratch."""
    kept = snapshot(store)
    store.execute("BEGIN")
    ratings.rebuild(store)
    rebuilt = snapshot(store)
    store.conn.rollback()
    assert kept == rebuilt
    return kept


def person(store, name):
    return players.by_name(store, name).person


def rating(store, name):
    return ratings.of_person(store, person(store, name))


def play(api, sides, winner, players_count=None, partners=None, points=40):
    body = {"sides": sides}
    if players_count:
        body["players"] = players_count
    if partners:
        body["partners"] = partners
    game = api.new_game(**body)
    assert api.event(game["id"], type="adjust", side=winner, points=points).status_code == 200
    return game["id"]


def test_the_event_that_ends_a_game_rates_it_and_no_other_does(api, store):
    game = api.new_game(sides=["Karim", "Ali"])
    api.event(game["id"], type="missa", side=0)
    assert snapshot(store) == ([], [])  # a tap that does not end the game rates nothing
    api.event(game["id"], type="adjust", side=0, points=40)
    karim, ali = rating(store, "Karim"), rating(store, "Ali")
    assert karim.mu > ratings.MODEL.mu > ali.mu
    assert karim.sigma < ratings.MODEL.sigma and karim.games == ali.games == 1
    assert_as_rebuilt(store)


def test_teams_and_three_sides_are_rated(api, store):
    play(api, ["K & S", "A & O"], 1, 4, [["Karim", "Salma"], ["Ali", "Omar"]])
    assert rating(store, "Ali").mu == rating(store, "Omar").mu > rating(store, "Karim").mu
    game = api.new_game(sides=["Nadia", "Leila", "Zineb"])
    api.event(game["id"], type="adjust", side=2, points=10)
    api.event(game["id"], type="adjust", side=1, points=40)
    # Leila won; Zineb (10) came before Nadia (0).
    assert rating(store, "Leila").mu > rating(store, "Zineb").mu > rating(store, "Nadia").mu
    assert_as_rebuilt(store)


def test_a_correction_undo_bin_and_restore_re_rate_from_that_game_on(api, client, store):
    first = play(api, ["Karim", "Ali"], 0)
    play(api, ["Karim", "Omar"], 1)
    play(api, ["Ali", "Omar"], 0)
    before = assert_as_rebuilt(store)
    # The first game's winner corrected: Ali won it. Every later rating moves.
    response = api.post(f"/api/games/{first}/corrections",
                        {"seq": 1, "event": {"type": "adjust", "side": 1, "points": 40,
                                             "note": ""}})
    assert response.status_code == 200, response.get_json()
    after = assert_as_rebuilt(store)
    assert after != before and rating(store, "Ali").mu > rating(store, "Karim").mu
    press(client, f"/games/{first}/delete", "")
    binned = assert_as_rebuilt(store)
    assert rating(store, "Karim").games == 1 and binned != after
    games = store.execute("SELECT deleted_at FROM games WHERE id = ?", [first]).fetchone()
    assert games[0] is not None
    press(client, "/games/bin", "")  # restore
    assert assert_as_rebuilt(store) == after
    last = play(api, ["Karim", "Nadia"], 0)
    api.undo(last)  # back into play: no longer rated
    assert rating(store, "Nadia") is None and assert_as_rebuilt(store) == after


def test_a_merge_and_its_undoing_re_rate(api, store):
    play(api, ["Karim", "Ali"], 0)
    play(api, ["Karim B.", "Ali"], 0)
    play(api, ["Ali", "Omar"], 0)
    alone = assert_as_rebuilt(store)
    karim, typo = players.by_name(store, "Karim"), players.by_name(store, "Karim B.")
    with write_transaction(store):
        players.merge(store, typo.id, karim.id, "2026-01-01T00:00:00+00:00")
    assert rating(store, "Karim").games == 2 and ratings.of_person(store, typo.id) is None
    assert_as_rebuilt(store)
    with write_transaction(store):
        players.unmerge(store, typo.id, "2026-01-01T00:00:01+00:00")
    assert assert_as_rebuilt(store) == alone


def test_the_ranking_wants_a_few_games_and_orders_by_mean_minus_three_sigma(api, store):
    for _ in range(3):
        play(api, ["Karim", "Ali"], 0)
    play(api, ["Newcomer", "Ali"], 0)
    ranked = ratings.ranking(store)
    assert [r.name for r in ranked] == ["Karim", "Ali"]  # Newcomer has 1 game
    assert ranked[0].rating.conservative == pytest.approx(
        ranked[0].rating.mu - 3 * ranked[0].rating.sigma)
    assert ratings.ranking(store, min_games=1)[0].name == "Karim"


def test_the_statistics_and_a_persons_page_show_the_rating(api, client, store):
    client.set_cookie("lang", "en")
    for winner in (0, 0, 1):
        play(api, ["Karim", "Ali"], winner)
    stats = client.get("/stats").get_data(as_text=True)
    assert "Ranking" in stats and f'/players/{person(store, "Karim")}' in stats
    page = client.get(f'/players/{person(store, "Karim")}').get_data(as_text=True)
    rated = rating(store, "Karim")
    assert f"{rated.conservative:.1f}" in page and f"± {rated.sigma:.1f}" in page
    assert '<polygon class="band"' in page and "after 3 rated games" in page


def test_an_import_rates_the_imported_games(api, client, app, tmp_path):
    play(api, ["Karim", "Ali"], 0)
    play(api, ["Ali", "Karim"], 0)
    document = client.get("/games/export.json").get_json()
    other = tmp_path / "other.sqlite3"
    from scorekeeper import create_app

    second = create_app({"TESTING": True, "DATABASE": str(other)}).test_client()
    assert second.post("/api/games/import", json=document).status_code == 200
    here, there = stores.connect(app.config["DATABASE"]), stores.connect(str(other))
    assert [row[1:] for row in snapshot(here)[0]] == [row[1:] for row in snapshot(there)[0]]
    assert_as_rebuilt(there)


def test_an_upgraded_store_gets_its_ratings_at_start(tmp_path):
    import shutil

    from scorekeeper import create_app

    path = tmp_path / "store.sqlite3"
    shutil.copyfile(FIRST_SCHEMA, path)
    create_app({"TESTING": True, "DATABASE": str(path)})
    with sqlite3.connect(path) as conn:
        finished = conn.execute("SELECT count(*) FROM games WHERE finished = 1").fetchone()[0]
        rated = conn.execute("SELECT count(DISTINCT game_id) FROM rating_steps").fetchone()[0]
        stale = conn.execute("SELECT count(*) FROM settings WHERE key = 'ratings_stale'").fetchone()
    assert finished and rated == finished and stale == (0,)
