"""A side left with its default name ("Nous", "Eux", "Us",
«نحن»…) is nobody: not a player, not rated, not a name of the statistics,
not a recent player offered on the new-game page, in any language. The
games keep the names they were played under."""

import json
import re
import sqlite3

from scorekeeper.engine.names import DEFAULT_SIDE_NAMES
from scorekeeper.service import person_stats, players, ratings, stats
from scorekeeper.service.unnamed import is_default
from scorekeeper.storage import migrations
from support.pages import spaced_text as text


def finish(api, game_id, winner=0):
    assert api.event(game_id, type="adjust", side=winner, points=40).status_code == 200


def test_every_default_name_is_nobody_and_a_typed_name_is_someone():
    assert all(is_default(name) for name in DEFAULT_SIDE_NAMES)
    assert is_default(" nous ") and is_default("EUX")
    assert not any(is_default(name) for name in ("Karim", "Nousra", "Les Eux", "هما"))


def test_default_sides_are_not_players_ratings_nor_names_of_the_statistics(api, db):
    for _ in range(3):  # enough rated games to be ranked with min_games=3
        finish(api, api.new_game(sides=["Nous", "Eux"])["id"])
        finish(api, api.new_game(sides=["Us", "Them"])["id"], winner=1)
        finish(api, api.new_game(sides=["نحن", "هم", "أنتم"], players=3)["id"], winner=2)
        finish(api, api.new_game(sides=["Karim", "Ali"])["id"])
        finish(api, api.new_game(sides=["Karim", "Eux"])["id"])  # one named side
    roster = person_stats.roster(db)
    assert roster.count == 2
    # Karim's games against a side nobody named are his: rated against an
    # unknown newcomer each time, whose rating is kept nowhere.
    assert sorted((r.name, r.rating.games, r.rating.wins)
                  for r in ratings.ranking(db, min_games=3).ranked) == [
        ("Ali", 3, 0), ("Karim", 6, 6)]
    assert [(player.name, line.played) for player, line in roster.people] == [
        ("Karim", 6), ("Ali", 3)]
    karim = players.by_name(db, "Karim")
    found = person_stats.person(db, karim)
    assert found.results.played == 6
    assert [line.name for line in found.opponents] == ["Ali"]
    assert [results.name for results in stats.leaderboard(db).rows] == ["Karim", "Ali"]
    assert [player.name for player in players.people(db)] == ["Ali", "Karim"]
    # The games are as they were played.
    sides = [json.loads(row[0]) for row in db.execute("SELECT sides FROM games")]
    assert ["Nous", "Eux"] in sides and ["Karim", "Eux"] in sides


def test_the_new_game_page_offers_no_default_name_as_a_recent_player(client, api):
    api.new_game(sides=["Karim", "Ali"])
    api.new_game(sides=["Nous", "Eux"])
    api.new_game(sides=["نحن", "Omar"])
    for language in ("fr", "ar", "en"):
        html = client.get(f"/games/new?lang={language}").get_data(as_text=True)
        picks = set(re.findall(r'value="name1:([^"]*)"', html))
        assert picks == {"Omar", "Karim", "Ali"}, (language, picks)


def test_the_roster_and_the_ranking_list_no_default_name(client, api):
    for _ in range(3):
        finish(api, api.new_game(sides=["Nous", "Eux"])["id"])
        finish(api, api.new_game(sides=["Karim", "Ali"])["id"])
    for path in ("/players", "/stats"):
        html = client.get(f"{path}?lang=fr").get_data(as_text=True)
        people = re.findall(r'href="/players/\d+"><bdi>([^<]*)</bdi>', html)
        assert sorted(set(people)) == ["Ali", "Karim"], (path, people)


def test_ratings_kept_before_the_rule_are_rebuilt_without_the_default_sides(app, api, db):
    """A store whose ratings counted "Nous" as a person (as the app did before
    this rule): the migration marks them stale, the next start rebuilds them."""
    for _ in range(3):
        finish(api, api.new_game(sides=["Nous", "Karim"])["id"])
    db.execute("DELETE FROM _sqlite_migrations WHERE name = '0007_unnamed_sides_not_rated'")
    nous = players.by_name(db, "Nous")
    db.execute("INSERT OR REPLACE INTO person_ratings (person, mu, sigma, games, wins)"
                  " VALUES (?, 30, 2, 3, 3)", [nous.person])
    db.conn.commit()
    migrations.migrate(db)
    ratings.rebuild_if_stale(db)
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        rated = conn.execute("SELECT p.name, r.games FROM person_ratings r"
                             " JOIN players p ON p.id = r.person").fetchall()
    assert rated == [("Karim", 3)]


def test_a_default_name_has_no_page_of_its_own(client, api, db):
    """/players/<id> of "Nous" is the 404 page, as an unknown player's."""
    api.new_game(sides=["Nous", "Karim"])
    api.new_game(sides=["Us", "هم"])
    karim = players.by_name(db, "Karim")
    assert client.get(f"/players/{karim.id}").status_code == 200
    unknown = client.get("/players/999999?lang=fr")
    assert unknown.status_code == 404
    unknown_words = text(unknown.get_data(as_text=True).split("<main", 1)[1])
    for name in ("Nous", "Us", "هم"):
        nobody = players.by_name(db, name)
        for path in (f"/players/{nobody.id}", f"/players/{nobody.id}/edit",
                     f"/players/{nobody.id}/pair?with={karim.id}",
                     f"/players/{karim.id}/merge?into={nobody.id}"):
            answer = client.get(path + ("&" if "?" in path else "?") + "lang=fr")
            assert answer.status_code == 404, (name, path)
            assert text(answer.get_data(as_text=True).split("<main", 1)[1]) == unknown_words
