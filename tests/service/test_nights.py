"""Club nights: a night's tables (one at a time or a round of its
round robin), its standings with the ties explained, the big screen and its
read-only link, export and import, and its place in the history."""

import html as markup
import itertools
import json
import re
import sqlite3

import pytest

from scorekeeper import create_app
from scorekeeper.service import nights
from scorekeeper.web.guard import access
from support.nights import night_games, start_night
from support.page_forms import forms_of, press, submit
from support.passes import let_in

AWAY = {"REMOTE_ADDR": "192.168.1.20"}  # a device on the club's network, without the key


def text(html):
    words = re.sub(r"<[^>]+>", " ", html).translate(dict.fromkeys(range(0x2066, 0x206A)))
    return " ".join(markup.unescape(words).split())


def finish(api, game_id, side, points=40):
    assert api.event(game_id, type="adjust", side=side, points=points).status_code == 200


@pytest.mark.parametrize("count", range(2, 9))
def test_the_round_robin_meets_everyone_once(count):
    met = []
    rounds = count - 1 + count % 2
    for number in range(1, rounds + 1):
        pairs, bye = nights.round_robin(count, number)
        seated = [e for pair in pairs for e in pair] + ([bye] if bye is not None else [])
        assert sorted(seated) == list(range(count))  # everyone once a round
        met += [frozenset(pair) for pair in pairs]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in itertools.combinations(range(count), 2)), key=sorted)


def test_a_round_opens_every_table_at_once_and_only_once(english, app, api):
    night = start_night(english, "4", [("Karim", "Salma"), ("Ali", "Omar"), ("Nadia", "Leila"),
                                       ("Sara", "Mehdi")])
    page = text(english.get(f"/nights/{night}").get_data(as_text=True))
    assert "Next round (1 of 3)" in page
    # Every entrant is in the standings before playing, new players included.
    standings = page[page.index("Standings"):page.index("Tables")]
    for team in ("Karim & Salma", "Ali & Omar", "Nadia & Leila", "Sara & Mehdi"):
        assert f"1 {team} 0 0 0" in standings, standings
    proposal = english.get(f"/nights/{night}/round").get_data(as_text=True)
    form = next(f for f in forms_of(proposal) if f.method == "post")
    assert submit(english, form).status_code == 303
    assert submit(english, form).status_code == 303  # sent twice: opened once
    tables = night_games(app, night)
    assert len(tables) == 2
    state = api.state(tables[0])
    assert state["players"] == 4 and state["rules"]["preset"] == "appli"
    assert " & " in state["sides"][0]
    page = text(english.get(f"/nights/{night}").get_data(as_text=True))
    assert "Next round (2 of 3)" not in page  # not before round 1's tables are over
    assert "Round 1 is still being played at tables 1, 2" in page


def test_a_table_of_free_choice_joins_the_night_from_the_new_game_page(english, app):
    night = start_night(english, preset="classique")
    html = english.get(f"/games/new?night={night}").get_data(as_text=True)
    assert "A new table of the night Friday club." in text(html)
    form = next(f for f in forms_of(html) if f.method == "post")
    assert dict(form.fields)["preset"] == "classique" and dict(form.fields)["night"] == night
    for names in (("Karim", "Ali"), ("Omar", "Nadia")):
        response = submit(english, form, extra={"name0": names[0], "name1": names[1],
                                                "token": names[0]})
        assert response.status_code == 303
    assert len(night_games(app, night)) == 2
    page = text(english.get(f"/nights/{night}").get_data(as_text=True))
    assert "Table 1 Karim deals 0 Ali 0" in page and "Table 2" in page


def test_the_standings_are_wins_then_margin_and_the_ties_are_explained(english, app, api):
    night = start_night(english, entrants=[("Karim",), ("Ali",), ("Omar",), ("Nadia",)])
    html = english.get(f"/nights/{night}/round").get_data(as_text=True)
    submit(english, next(f for f in forms_of(html) if f.method == "post"))
    first, second = night_games(app, night)
    sides = {g: api.state(g)["sides"] for g in (first, second)}
    finish(api, first, 0, 40)   # one side wins by 40
    finish(api, second, 0, 34)  # the other table's winner by 34
    page = text(english.get(f"/nights/{night}").get_data(as_text=True))
    one, two = sides[first][0], sides[second][0]
    assert re.search(rf"1 {one} 1 1 \+40 2 {two} 1 1 \+34", page), page
    assert f"{one}, {two} have 1 win each: the margin decides ({one} +40, {two} +34)." in page
    # The losers are level on wins and margin? No: −40 and −34. A shared place needs both equal.
    db = sqlite3.connect(app.config["DATABASE"])
    places, ties = nights.standings(_store(app), nights.get(_store(app), night))
    assert [p.place for p in places] == [1, 2, 3, 4]
    assert [t.kind for t in ties] == ["margin", "margin"]
    db.close()


def _store(app):
    from scorekeeper.storage import db as stores

    return stores.connect(app.config["DATABASE"])


def test_equal_wins_and_margin_share_a_place(app, api, english):
    night = start_night(english)
    night_row = nights.get(_store(app), night)
    for names in (("Karim", "Ali"), ("Omar", "Nadia")):
        game = nights.start_table(_store(app), night_row, {"sides": list(names)}, None,
                                  "2026-12-04T20:00:00+00:00")
        finish(api, game.id, 0, 40)
    places, ties = nights.standings(_store(app), night_row)
    assert [(p.place, p.label) for p in places] == [(1, "Karim"), (1, "Omar"), (3, "Ali"),
                                                    (3, "Nadia")]
    assert [(t.kind, t.labels) for t in ties] == [("shared", ["Karim", "Omar"]),
                                                  ("shared", ["Ali", "Nadia"])]
    page = text(english.get(f"/nights/{night}").get_data(as_text=True))
    assert "Karim, Omar share place 1: 1 win each and the same margin (+40)." in page


def test_the_big_screen_needs_the_owners_screen_link_and_can_read_only(client, app, api):
    night = start_night(client)
    other = start_night(client, name="Other night")
    assert client.get(f"/nights/{night}/screen", environ_base=AWAY).status_code == 403
    press(client, f"/nights/{night}", "")  # the owner turns the link on
    key = nights.get(_store(app), night).screen_key
    assert key and len(key) >= 20
    allowed = [f"/nights/{night}/screen?screen={key}", f"/nights/{night}/screen.json?screen={key}"]
    for address in allowed:
        assert client.get(address, environ_base=AWAY).status_code == 200, address
    refused = [f"/nights/{night}?screen={key}", f"/games?screen={key}", f"/?screen={key}",
               f"/nights/{other}/screen?screen={key}", f"/nights/{night}/screen?screen=wrong",
               f"/api/games?screen={key}"]
    for address in refused:
        assert client.get(address, environ_base=AWAY).status_code == 403, address
    response = client.post(f"/nights/{night}/screen-link?screen={key}",
                           data={"action": "off"}, environ_base=AWAY)
    assert response.status_code == 403  # the screen link writes nothing
    response = client.post(f"/api/games?screen={key}", json={"sides": ["A", "B"]},
                           environ_base=AWAY)
    assert response.status_code == 403
    press(client, f"/nights/{night}", "")  # off again
    assert client.get(allowed[0], environ_base=AWAY).status_code == 403


def test_the_host_shows_the_screen_link_at_the_address_the_network_reaches(client, app):
    """Seen at the table: on the host (127.0.0.1) the link read http://127.0.0.1:PORT/...,
    which the club's TV cannot open. The loopback one only when nothing else is served."""
    night = start_night(client)
    press(client, f"/nights/{night}", "")  # the owner turns the link on
    key = nights.get(_store(app), night).screen_key
    path = f"/nights/{night}/screen?screen={key}"
    shown = client.get(f"/nights/{night}", headers={"Host": "127.0.0.1:5188"})
    assert f'href="http://127.0.0.1:5188{path}"' in shown.get_data(as_text=True)
    access.allow_host(app, "192.168.1.50")  # what `make run` serves on
    page = client.get(f"/nights/{night}", headers={"Host": "127.0.0.1:5188"}).get_data(
        as_text=True)
    assert f'href="http://192.168.1.50:5188{path}"' in page and "127.0.0.1" not in page
    # A phone of the table sees the address it came by.
    access.allow_host(app, "table.lan")
    let_in(client, app, "table.lan")
    phone = client.get(f"/nights/{night}", headers={"Host": "table.lan:5188"},
                       environ_base=AWAY).get_data(as_text=True)
    assert f'href="http://table.lan:5188{path}"' in phone


def test_the_screen_data_follows_every_tap(client, app, api):
    night = start_night(client)
    game = nights.start_table(_store(app), nights.get(_store(app), night),
                              {"sides": ["Karim", "Ali"]}, None, "2026-12-04T20:00:00+00:00")
    before = client.get(f"/nights/{night}/screen.json").get_json()
    assert api.event(game.id, type="missa", side=1).status_code == 200
    after = client.get(f"/nights/{night}/screen.json").get_json()
    assert after["stamp"] != before["stamp"]
    table = after["tables"][0]
    assert table["scores"] == [0, 1] and table["sides"] == ["Karim", "Ali"]
    assert table["dealer"] == 0 and not table["finished"]
    html = client.get(f"/nights/{night}/screen", headers={"X-Screen": "1"}).get_data(as_text=True)
    assert html.lstrip().startswith('<div id="screen"') and after["stamp"] in html


def test_a_night_survives_a_restart_and_is_in_the_history(english, app, api):
    night = start_night(english)
    game = nights.start_table(_store(app), nights.get(_store(app), night),
                              {"sides": ["Karim", "Ali"]}, None, "2026-12-04T20:00:00+00:00")
    again = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"]}).test_client()
    again.set_cookie("lang", "en")
    assert "Friday club" in text(again.get("/nights").get_data(as_text=True))
    listed = text(again.get("/games").get_data(as_text=True))
    assert "night: Friday club" in listed
    assert game.id in again.get(f"/nights/{night}").get_data(as_text=True)


def test_a_night_is_exported_with_its_games_and_imported(english, app, api, tmp_path):
    night = start_night(english, "4", [("Karim", "Salma"), ("Ali", "Omar")])
    html = english.get(f"/nights/{night}/round").get_data(as_text=True)
    submit(english, next(f for f in forms_of(html) if f.method == "post"))
    (game_id,) = night_games(app, night)
    finish(api, game_id, 1)
    document = english.get("/games/export.json").get_json()
    assert document["format_version"] == 2 and document["nights"][0]["id"] == night
    assert "screen_key" not in json.dumps(document)
    assert document["games"][0]["seats"] in ([["Karim", "Salma"], ["Ali", "Omar"]],
                                             [["Ali", "Omar"], ["Karim", "Salma"]])
    fresh = create_app({"TESTING": True, "DATABASE": str(tmp_path / "b.sqlite3")}).test_client()
    fresh.set_cookie("lang", "en")
    response = fresh.post("/api/games/import", json=document)
    assert response.status_code == 200, response.get_json()
    assert fresh.post("/api/games/import", json=document).get_json()["skipped"] == [game_id]
    page = text(fresh.get(f"/nights/{night}").get_data(as_text=True))
    assert "Friday club" in page and re.search(r"1 Ali & Omar 1 1 \+40", page)


def test_an_old_export_still_imports_its_sides_seated_by_name(client, api, tmp_path):
    game = api.new_game(sides=["Karim", "Ali"])
    finish(api, game["id"], 0)
    document = client.get("/games/export.json").get_json()
    document["format_version"] = 1
    for item in document["games"]:
        del item["seats"]
    path = tmp_path / "old.sqlite3"
    fresh = create_app({"TESTING": True, "DATABASE": str(path)}).test_client()
    assert fresh.post("/api/games/import", json=document).status_code == 200
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT p.name FROM seats s JOIN players p ON p.id = s.player_id"
                            " ORDER BY s.side").fetchall() == [("Karim",), ("Ali",)]
    document["nights"] = []
    assert fresh.post("/api/games/import", json=document).status_code == 400  # not in v1


@pytest.mark.parametrize("fields, says", [
    ({"name": ""}, "This field is required."),
    ({"date": "2026-13-40"}, "The date must be a day"),
    ({"e0a": "Karim"}, "two entrants at least"),
    ({"e0a": "Karim", "e1a": "karim "}, "karim is entered twice."),
    ({"players": "4", "e0a": "Karim", "e1a": "Ali"}, "Each team has two players"),
])
def test_a_bad_night_gets_a_sentence_and_writes_nothing(english, app, fields, says):
    html = english.get("/nights/new").get_data(as_text=True)
    form = next(f for f in forms_of(html) if f.method == "post")
    response = submit(english, form, extra={"name": "Night", "date": "2026-12-04", **fields})
    assert response.status_code == 400 and says in text(response.get_data(as_text=True))
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        assert conn.execute("SELECT count(*) FROM nights").fetchone() == (0,)


@pytest.mark.parametrize("address", ["/nights/nope", "/nights/abcdefghjk", "/nights/x/screen",
                                     "/nights/abcdefghjk/round", "/nights/abcdefghjk/screen.json"])
def test_unknown_nights_are_404(client, address):
    assert client.get(address).status_code == 404


def test_a_rematch_at_a_night_is_its_next_table(english, app, api):
    night = start_night(english)
    game = nights.start_table(_store(app), nights.get(_store(app), night),
                              {"sides": ["Karim", "Ali"]}, None, "2026-12-04T20:00:00+00:00")
    finish(api, game.id, 0)
    over = english.get(f"/games/{game.id}").get_data(as_text=True)
    assert f'href="/nights/{night}">Back to the night' in over
    response = press(english, f"/games/{game.id}", "rematch")
    assert response.status_code == 303
    assert len(night_games(app, night)) == 2
    assert response.headers["Location"].endswith(night_games(app, night)[1])


def test_a_rematch_at_a_round_robin_round_is_a_friendly_game_out_of_the_standings(
        english, app, api):
    """Seen at a club: a round's table finished, its two players played the
    rematch, which became the night's next table and counted: the round
    robin had them meet twice, and it handed the night to one of them. Its
    result page now says the rematch is a friendly game, which stays out."""
    night = start_night(english, entrants=(("Karim",), ("Salma",)))
    proposal = english.get(f"/nights/{night}/round").get_data(as_text=True)
    assert submit(english, next(f for f in forms_of(proposal) if f.method == "post")) \
        .status_code == 303
    (table,) = night_games(app, night)
    finish(api, table, 0)
    over = text(english.get(f"/games/{table}").get_data(as_text=True))
    assert "A friendly game: the round robin counts each pair once." in over
    response = press(english, f"/games/{table}", "rematch")
    rematch = response.headers["Location"].rsplit("/", 1)[1]
    assert rematch != table and night_games(app, night) == [table]
    finish(api, rematch, 1)
    page = text(english.get(f"/nights/{night}").get_data(as_text=True))
    standings = page[page.index("Standings"):page.index("Tables")]
    assert "1 Karim 1 1 " in standings and "2 Salma 1 0 " in standings, standings
    # A table of free choice keeps its rematch at the night, as before.
    free = text(english.get(f"/games/{rematch}").get_data(as_text=True))
    assert "A friendly game" not in free


def test_a_round_robin_played_to_its_end_says_who_won(english, app, api):
    """Seen at a club: every table of the last round over, the night's page
    still said only that every round had started; nothing named a winner."""
    night = start_night(english, entrants=(("Karim",), ("Salma",)))
    proposal = english.get(f"/nights/{night}/round").get_data(as_text=True)
    submit(english, next(f for f in forms_of(proposal) if f.method == "post"))
    (table,) = night_games(app, night)
    page = text(english.get(f"/nights/{night}").get_data(as_text=True))
    assert "is over" not in page  # its one round is still being played
    finish(api, table, 1)
    page = text(english.get(f"/nights/{night}").get_data(as_text=True))
    assert "The round robin is over: Salma wins." in page
    assert "Every round of the round robin has started." not in page
