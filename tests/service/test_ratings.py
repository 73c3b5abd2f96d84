"""Ratings: openskill's Plackett-Luce, kept at write time in the
same transaction as the result, and re-rated when a finished game is
corrected, undone, thrown in the bin or restored, or two people merged.
After every such change the ratings equal a rebuild from scratch."""

import sqlite3

import pytest

from scorekeeper.service import players, ratings
from scorekeeper.storage import db as stores
from scorekeeper.storage.db import write_transaction
from support.page_forms import press
from support.paths import FIRST_SCHEMA


def snapshot(db):
    return (db.execute("SELECT person, mu, sigma, games FROM person_ratings ORDER BY person")
            .fetchall(),
            db.execute("SELECT game_id, person, mu, sigma, games FROM rating_steps"
                          " ORDER BY rated_at, game_id, person").fetchall())


def assert_as_rebuilt(db):
    """The ratings kept at write time are those of a rebuild from scratch."""
    kept = snapshot(db)
    db.execute("BEGIN")
    ratings.rebuild(db)
    rebuilt = snapshot(db)
    db.conn.rollback()
    assert kept == rebuilt
    return kept


def person(db, name):
    return players.by_name(db, name).person


def rating(db, name):
    return ratings.of_person(db, person(db, name))


def play(api, sides, winner, players_count=None, partners=None, points=40):
    body = {"sides": sides}
    if players_count:
        body["players"] = players_count
    if partners:
        body["partners"] = partners
    game = api.new_game(**body)
    assert api.event(game["id"], type="adjust", side=winner, points=points).status_code == 200
    return game["id"]


def test_the_event_that_ends_a_game_rates_it_and_no_other_does(api, db):
    game = api.new_game(sides=["Karim", "Ali"])
    api.event(game["id"], type="missa", side=0)
    assert snapshot(db) == ([], [])  # a tap that does not end the game rates nothing
    api.event(game["id"], type="adjust", side=0, points=40)
    karim, ali = rating(db, "Karim"), rating(db, "Ali")
    assert karim.mu > ratings.MODEL.mu > ali.mu
    assert karim.sigma < ratings.MODEL.sigma and karim.games == ali.games == 1
    assert_as_rebuilt(db)


def test_teams_and_three_sides_are_rated(api, db):
    play(api, ["K & S", "A & O"], 1, 4, [["Karim", "Salma"], ["Ali", "Omar"]])
    assert rating(db, "Ali").mu == rating(db, "Omar").mu > rating(db, "Karim").mu
    game = api.new_game(sides=["Nadia", "Leila", "Zineb"])
    api.event(game["id"], type="adjust", side=2, points=10)
    api.event(game["id"], type="adjust", side=1, points=40)
    # Leila won; Zineb (10) came before Nadia (0).
    assert rating(db, "Leila").mu > rating(db, "Zineb").mu > rating(db, "Nadia").mu
    assert_as_rebuilt(db)


def test_a_correction_undo_bin_and_restore_re_rate_from_that_game_on(api, client, db):
    first = play(api, ["Karim", "Ali"], 0)
    play(api, ["Karim", "Omar"], 1)
    play(api, ["Ali", "Omar"], 0)
    before = assert_as_rebuilt(db)
    # The first game's winner corrected: Ali won it. Every later rating moves.
    response = api.post(f"/api/games/{first}/corrections",
                        {"seq": 1, "event": {"type": "adjust", "side": 1, "points": 40,
                                             "note": ""}})
    assert response.status_code == 200, response.get_json()
    after = assert_as_rebuilt(db)
    assert after != before and rating(db, "Ali").mu > rating(db, "Karim").mu
    press(client, f"/games/{first}/delete", "")
    binned = assert_as_rebuilt(db)
    assert rating(db, "Karim").games == 1 and binned != after
    games = db.execute("SELECT deleted_at FROM games WHERE id = ?", [first]).fetchone()
    assert games[0] is not None
    press(client, "/games/bin", "")  # restore
    assert assert_as_rebuilt(db) == after
    last = play(api, ["Karim", "Nadia"], 0)
    api.undo(last)  # back into play: no longer rated
    assert rating(db, "Nadia") is None and assert_as_rebuilt(db) == after


def test_a_merge_and_its_undoing_re_rate(api, db):
    play(api, ["Karim", "Ali"], 0)
    play(api, ["Karim B.", "Ali"], 0)
    play(api, ["Ali", "Omar"], 0)
    alone = assert_as_rebuilt(db)
    karim, typo = players.by_name(db, "Karim"), players.by_name(db, "Karim B.")
    with write_transaction(db):
        players.merge(db, typo.id, karim.id, "2026-01-01T00:00:00+00:00")
    assert rating(db, "Karim").games == 2 and ratings.of_person(db, typo.id) is None
    assert_as_rebuilt(db)
    with write_transaction(db):
        players.unmerge(db, typo.id, "2026-01-01T00:00:01+00:00")
    assert assert_as_rebuilt(db) == alone


def test_a_rating_reads_as_points_around_a_thousand():
    start = ratings.Rating(ratings.MODEL.mu, ratings.MODEL.sigma, 0)
    assert (start.points, start.spread) == (1000, 333)
    assert ratings.Rating(ratings.MODEL.mu + 2.5, 4.0, 7).points == 1100
    assert ratings.Rating(ratings.MODEL.mu - 1, 4.0, 7).spread == 160


def test_the_ranking_lists_the_provisional_apart_and_ranks_by_points(api, db):
    """Omar lost all 3 of his games and topped the ranking (mean − 3σ, the
    others having fewer games); Karim, 2 games and 2 wins, read "5,6"."""
    for _ in range(5):
        play(api, ["Ali", "Samir"], 0)
    play(api, ["Karim", "Omar"], 0)
    play(api, ["Karim", "Omar"], 0)
    play(api, ["Nadia", "Omar"], 0)
    found = ratings.ranking(db)
    assert found.provisional_games == 5
    assert [r.name for r in found.ranked] == ["Ali", "Samir"]  # 5 games each, Ali's won
    assert found.ranked[0].rating.points > 1000 > found.ranked[1].rating.points
    assert [r.name for r in found.provisional] == ["Omar", "Karim", "Nadia"]  # most games first
    karim = rating(db, "Karim")
    assert karim.points > 1100 and karim.games == 2  # two wins read as a rise from 1,000
    assert rating(db, "Omar").points < 1000
    ratings.set_provisional_games(db, 2)
    ranked = [r.name for r in ratings.ranking(db).ranked]
    assert ranked[:2] == ["Ali", "Karim"] and sorted(ranked[2:]) == ["Omar", "Samir"]
    with pytest.raises(ratings.InvalidInput):
        ratings.set_provisional_games(db, 0)


def test_the_statistics_and_a_persons_page_show_the_rating(api, client, db):
    client.set_cookie("lang", "en")
    for winner in (0, 0, 1):
        play(api, ["Karim", "Ali"], winner)
    stats = client.get("/stats").get_data(as_text=True)
    assert "Ranking" in stats and f'/players/{person(db, "Karim")}' in stats
    assert "How it ranks: by rating, the players with 5 finished games at least." in stats
    assert "Provisional" in stats
    page = client.get(f'/players/{person(db, "Karim")}').get_data(as_text=True)
    rated = rating(db, "Karim")
    assert f"{rated.points:,}" in page and f"points ± {rated.spread}, after 3 finished games" \
        in page and "provisional" in page
    assert '<polygon class="band"' in page and "From 1,000 to" in page


def test_the_provisional_games_are_a_setting(client, db):
    client.set_cookie("lang", "en")
    from support.page_forms import forms_of, submit

    html = client.get("/settings").get_data(as_text=True)
    form = next(f for f in forms_of(html) if f.action == "/settings/ratings")
    assert dict(form.fields)["games"] == "5"
    response = submit(client, form, extra={"games": "8"})
    assert response.status_code == 303 and ratings.provisional_games(db) == 8
    response = submit(client, form, extra={"games": "80"}, follow_redirects=True)
    assert "A whole number from 1 to 50." in response.get_data(as_text=True)
    assert ratings.provisional_games(db) == 8


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
