"""Players: the roster beside the games, seats with partners,
renames and merges as records of their own (a merge undoable), and the
statistics per person and per pair. No game's log is ever changed."""

import json
import sqlite3

import pytest

from scorekeeper.engine.errors import RuleViolation
from scorekeeper.service import players
from scorekeeper.storage import db as stores
from scorekeeper.storage import migrations
from support.page_forms import forms_of, press, submit
from support.pages import spaced_text as text


def seats(path, game_id):
    with sqlite3.connect(path) as conn:
        return conn.execute(
            "SELECT s.side, s.seat, p.name FROM seats s JOIN players p ON p.id = s.player_id"
            " WHERE s.game_id = ? ORDER BY s.side, s.seat", [game_id]).fetchall()


def finish(api, game_id, winner=0, points=40):
    assert api.event(game_id, type="adjust", side=winner, points=points).status_code == 200


def test_the_migration_links_every_side_by_its_normalised_name(tmp_path):
    """Up to the step before, games as they were; then the step links them."""
    path = tmp_path / "store.sqlite3"
    store = stores.connect(str(path))
    migrations.migrations.apply(store, stop_before="0004_players")
    for number, sides in enumerate([["Karim", "Ali"], ["karim ", "ALI"], ["Karim B.", "Ali"]]):
        store.execute("INSERT INTO games (id, created_at, updated_at, sides, players, rules,"
                      " version, state) VALUES (?, ?, ?, ?, 2, '{}', 0, '{}')",
                      [f"game{number}xx", f"2025-01-0{number + 1}T20:00:00+00:00",
                       f"2025-01-0{number + 1}T20:00:00+00:00", json.dumps(sides)])
    store.conn.commit()
    before = store.execute("SELECT * FROM games ORDER BY id").fetchall()
    migrations.migrate(store)
    assert store.execute("SELECT * FROM games ORDER BY id").fetchall() == before
    assert store.execute("SELECT name FROM players ORDER BY id").fetchall() == [
        ("Karim",), ("Ali",), ("Karim B.",)]  # "Karim B." is not guessed to be Karim
    store.close()
    assert seats(path, "game1xx") == [(0, 0, "Karim"), (1, 0, "Ali")]
    assert seats(path, "game2xx") == [(0, 0, "Karim B."), (1, 0, "Ali")]


def test_a_four_player_game_seats_two_partners_per_side(api, app):
    game = api.new_game(sides=["Karim & Salma", "Nous"], players=4,
                        partners=[["Karim", "Salma"], []])
    assert seats(app.config["DATABASE"], game["id"]) == [
        (0, 0, "Karim"), (0, 1, "Salma"), (1, 0, "Nous")]
    assert game["sides"] == ["Karim & Salma", "Nous"]  # the contract's view is unchanged


@pytest.mark.parametrize("body, sentence", [
    ({"sides": ["A", "B"], "partners": [["A", "X"], []]}, "two partners with four players"),
    ({"sides": ["A", "B"], "players": 4, "partners": [["Z", "Z "], []]}, "one seat"),
    ({"sides": ["A", "B"], "partners": [["A"]]}, "one list per side"),
    ({"sides": ["A", "B"], "partners": [[""], []]}, "1 to 40 characters"),
])
def test_bad_partners_are_refused_and_nothing_is_written(api, app, body, sentence):
    response = api.post("/api/games", body, headers={"Accept-Language": "en"})
    assert response.status_code == 400 and sentence in response.get_json()["error"]
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM players").fetchone() == (0,)


def test_the_new_game_page_names_a_team_after_its_partners(english, app):
    html = english.get("/games/new").get_data(as_text=True)
    form = next(f for f in forms_of(html) if f.method == "post")
    given = dict(form.fields)
    # Side 1: partners and the name the page offered, so "Karim & Salma"; side 2:
    # a name of its own typed, no partners.
    response = submit(english, form, extra={
        "players": "4", "name0": given["given0"], "name1": "Les As", "p0a": "Karim",
        "p0b": "Salma", "p1a": "", "p1b": ""})
    assert response.status_code == 303
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    state = english.get(f"/api/games/{game_id}").get_json()
    assert state["sides"] == ["Karim & Salma", "Les As"] and state["players"] == 4
    assert seats(app.config["DATABASE"], game_id) == [
        (0, 0, "Karim"), (0, 1, "Salma"), (1, 0, "Les As")]


def test_the_new_game_page_offers_recent_players_one_tap_each(english, api):
    api.new_game(sides=["Karim", "Ali"])
    html = english.get("/games/new").get_data(as_text=True)
    assert 'value="name1:Karim"' in html and 'value="p0b:Ali"' in html
    # Without JavaScript the button is a GET of the form: what was typed stays.
    html = english.get("/games/new?name0=Omar&name1=Zed&pick=name1:Karim").get_data(as_text=True)
    fields = dict(next(f for f in forms_of(html) if f.method == "post").fields)
    assert fields["name0"] == "Omar" and fields["name1"] == "Karim"


def test_a_rename_is_followed_by_the_history_and_kept_as_a_record(english, api, app):
    game = api.new_game(sides=["karim", "Ali"])
    finish(api, game["id"])
    karim = players.by_name(stores.connect(app.config["DATABASE"]), "Karim")
    response = press(english, f"/players/{karim.id}/edit", "", {"name": "Karim Benali",
                                                                 "nickname": "KB"})
    assert response.status_code == 303
    page = text(english.get(f"/players/{karim.id}").get_data(as_text=True))
    assert "Karim Benali ( KB )" in page and "1 game, 1 won (100%)" in page
    assert english.get(f"/api/games/{game['id']}").get_json()["sides"] == ["karim", "Ali"]
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        change = conn.execute("SELECT action, payload FROM player_changes").fetchone()
    assert change[0] == "rename" and json.loads(change[1])["name"] == ["karim", "Karim Benali"]
    # The next game typed with the new name is the same person.
    api.new_game(sides=["karim benali ", "Omar"])
    assert "2 games of Karim Benali" in text(english.get(f"/games?player={karim.id}").get_data(
        as_text=True))


def test_a_rename_to_another_players_name_is_refused(english, api, app):
    api.new_game(sides=["Karim", "Ali"])
    karim = players.by_name(stores.connect(app.config["DATABASE"]), "Karim")
    response = press(english, f"/players/{karim.id}/edit", "", {"name": "ali"})
    assert response.status_code == 400
    assert "Ali is already a player: merge the two instead." in text(response.get_data(
        as_text=True))


def test_a_merge_is_confirmed_counts_both_and_can_be_undone(english, api, app):
    finish(api, api.new_game(sides=["Karim", "Ali"])["id"], winner=0)
    finish(api, api.new_game(sides=["Karim B.", "Ali"])["id"], winner=1)
    store = stores.connect(app.config["DATABASE"])
    karim, typo = players.by_name(store, "Karim"), players.by_name(store, "Karim B.")
    logs_before = store.execute("SELECT * FROM events ORDER BY game_id, seq").fetchall()
    confirm = english.get(f"/players/{typo.id}/merge?into={karim.id}").get_data(as_text=True)
    assert "Merge Karim B. into Karim?" in text(confirm)
    assert "can be undone" in text(confirm)
    response = press(english, f"/players/{typo.id}/merge?into={karim.id}", "")
    assert response.status_code == 303
    page = text(english.get(f"/players/{karim.id}").get_data(as_text=True))
    assert "2 games, 1 won (50%)" in page and "Merged into Karim Karim B." in page
    # The typo's page is Karim's now, and a new game typed "Karim B." is Karim's.
    assert english.get(f"/players/{typo.id}").headers["Location"].endswith(f"/players/{karim.id}")
    api.new_game(sides=["karim b.", "Omar"])
    assert "3 games of Karim" in text(english.get(f"/games?player={karim.id}").get_data(
        as_text=True))
    html = english.get(f"/players/{karim.id}").get_data(as_text=True)
    undo = next(f for f in forms_of(html) if f.action.endswith(f"/players/{typo.id}/unmerge"))
    response = submit(english, undo)
    assert response.status_code == 303
    assert "1 game, 1 won (100%)" in text(english.get(f"/players/{karim.id}").get_data(
        as_text=True))
    assert "1 game, 0 won (0%)" in text(english.get(f"/players/{typo.id}").get_data(
        as_text=True))
    assert store.execute("SELECT * FROM events ORDER BY game_id, seq").fetchall() == logs_before
    actions = [row[0] for row in store.execute("SELECT action FROM player_changes ORDER BY id")]
    assert actions == ["merge", "unmerge"]


def test_two_people_of_one_game_cannot_be_merged(english, api, app):
    api.new_game(sides=["Karim", "Karim B."])
    store = stores.connect(app.config["DATABASE"])
    karim, other = players.by_name(store, "Karim"), players.by_name(store, "Karim B.")
    # Said at once, before the confirmation asks them to merge.
    asked = english.get(f"/players/{other.id}/merge?into={karim.id}")
    assert asked.status_code == 303
    html = english.get(asked.headers["Location"]).get_data(as_text=True)
    assert "Karim B. and Karim played in the same game: they are two people." in text(html)
    assert "Merge them" not in html
    # A merge asked all the same (a page opened before their game) is refused by the same rule.
    with pytest.raises(RuleViolation, match="two people"):
        players.merge(store, other.id, karim.id, "2026-01-01T00:00:00+00:00")
    assert players.get(store, other.id).merged_into is None


def test_partners_opponents_and_a_pair(english, api, app):
    """Karim & Salma beat Ali & Omar twice; Karim & Ali beat Salma & Omar once;
    Karim lost a two-player game to Ali."""
    def team_game(first, second, winner):
        game = api.new_game(sides=[" & ".join(first), " & ".join(second)], players=4,
                            partners=[list(first), list(second)])
        finish(api, game["id"], winner)

    team_game(("Karim", "Salma"), ("Ali", "Omar"), 0)
    team_game(("Karim", "Salma"), ("Ali", "Omar"), 0)
    team_game(("Karim", "Ali"), ("Salma", "Omar"), 0)
    finish(api, api.new_game(sides=["Karim", "Ali"])["id"], winner=1)
    store = stores.connect(app.config["DATABASE"])
    karim, ali = players.by_name(store, "Karim"), players.by_name(store, "Ali")
    page = text(english.get(f"/players/{karim.id}").get_data(as_text=True))
    assert "4 games, 3 won (75%)" in page
    partners = page[page.index("With whom Karim wins most"):page.index("Opponents")]
    assert "Salma 2 2" in partners and "Ali 1 1" in partners
    assert partners.index("Salma") < partners.index("Ali")
    opponents = page[page.index("Against whom Karim loses most"):]
    assert opponents.index("Ali 3 1") < opponents.index("Omar 3 0")
    pair = text(english.get(f"/players/{karim.id}/pair?with={ali.id}").get_data(as_text=True))
    assert "1 finished game together, won 1 (100%)." in pair
    assert "3 finished games against each other. Karim won 2, Ali won 1." in pair


def test_the_roster_lists_people_most_games_first(english, api):
    finish(api, api.new_game(sides=["Karim", "Ali"])["id"])
    finish(api, api.new_game(sides=["Karim", "Omar"])["id"])
    page = text(english.get("/players").get_data(as_text=True))
    assert page.index("Karim 2 2") < page.index("Ali 1 0")


@pytest.mark.parametrize("address, status", [
    ("/players/999", 404), ("/players/1/merge?into=x", 404), ("/players/1/pair?with=", 404),
    ("/players?page=0", 400), ("/games?player=x", 400), ("/games?player=999", 400),
    ("/players/" + "9" * 30, 404), ("/players/" + "9" * 30 + "/edit", 404),
    ("/players/1/pair?with=" + "9" * 9, 404),
])
def test_bad_player_addresses_get_a_clear_4xx(english, api, address, status):
    api.new_game(sides=["Karim", "Ali"])
    assert english.get(address).status_code == status
