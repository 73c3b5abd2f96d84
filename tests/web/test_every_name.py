"""One rule for every name (engine/names.py): every form and API field that
takes a name, and the import, cleans it the same way (NFC, no control,
format or bidi character, blanks one space), refuses one of only invisible
characters, and refuses one that equals another person's once cleaned.
Before: a player's rename and nickname, a night's name and its entrants
stored `Hind\\u200b` (beside `Hind`: two look-alike people), a name of only
`\\u200b`, `\\u202eReda` (reversing what follows), `Hi\\u00adnd`, `Hind\\0`.

The fields, found with `grep -rn "name" scorekeeper/web/pages/forms.py` and the
API: the new game's name0–2 and p0a–p1b (form), sides and partners (API);
a player's name and nickname; a night's name and e0a–e7b; a preset's name;
an import's sides, seats, rules' preset, nights' names and entrants."""

import copy
import html
import json
import sqlite3

import pytest

from support.nights import start_night
from support.page_forms import forms_of, submit
from support.pages import start_game, text

HIDDEN = "\u200b\u200c\u200d\u2060\ufeff\u00ad\u202a\u202b\u202c\u202d\u202e\u2066\u2067" \
         "\u2068\u2069\u200e\u200f\u061c\x00\x1b\x7f"
# What a person types or pastes, and what the app must keep.
LOOK_ALIKES = [("Hind\u200b", "Hind"), ("\u202eReda", "Reda"), ("Hi\u00adnd", "Hind"),
               ("Hind\x00", "Hind"), ("  Sa\u200dmi   ra ", "Sami ra"),
               ("Jose\u0301", "Jos\u00e9"), ("\u2066Nadia\u2069", "Nadia")]
INVISIBLE = ["\u200b", "\u202e", "\u00ad\u200b", "\x00", "\u2066\u2069"]


def store_text(app) -> str:
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        dump = "\n".join(conn.iterdump())
    conn.close()
    return dump


def assert_nothing_hidden(app):
    dump = store_text(app)
    found = sorted({f"U+{ord(c):04X}" for c in dump if c in HIDDEN})
    assert not found, found


def rows(app, sql, *params):
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        found = conn.execute(sql, params).fetchall()
    conn.close()
    return found


def player_id(app, name):
    return rows(app, "SELECT id FROM players WHERE name = ?", name)[0][0]


def post_form(client, page, extra, **kwargs):
    form = next(f for f in forms_of(client.get(page).get_data(as_text=True))
                if f.method == "post")
    return submit(client, form, extra=extra, **kwargs)


# -- the forms -------------------------------------------------------------------------------

@pytest.mark.parametrize("typed, kept", LOOK_ALIKES)
def test_the_new_game_form_keeps_names_as_seen(french, app, typed, kept):
    start_game(french, players="4", names=(typed, "Eux", ""))
    start_game(french, players="2", names=("Nous", typed, ""))
    page = french.get("/games/new").get_data(as_text=True)
    form = next(f for f in forms_of(page) if f.method == "post")
    response = submit(french, form, extra={"players": "4", "name0": "", "name1": "",
                                           "p0a": typed, "p0b": "Ali", "p1a": "Omar",
                                           "p1b": "Salma"})
    assert response.status_code == 303
    names = {n for (n,) in rows(app, "SELECT name FROM players")}
    assert kept in names
    assert_nothing_hidden(app)


@pytest.mark.parametrize("invisible", INVISIBLE)
def test_the_new_game_form_refuses_a_name_of_nothing_visible(french, app, invisible):
    for extra in ({"players": "2", "name0": invisible, "name1": "Eux"},
                  {"players": "4", "name0": "", "name1": "Eux", "p0a": invisible,
                   "p0b": "Ali"}):
        response = post_form(french, "/games/new", extra)
        assert response.status_code == 400
        assert "invisibles" in html.unescape(text(response.get_data(as_text=True)))
    assert rows(app, "SELECT count(*) FROM games") == [(0,)]


@pytest.mark.parametrize("typed, kept", LOOK_ALIKES)
def test_a_rename_and_a_nickname_keep_names_as_seen(english, api, app, typed, kept):
    api.new_game(sides=["Karim", "Ali"])
    karim = player_id(app, "Karim")
    response = post_form(english, f"/players/{karim}/edit", {"name": typed,
                                                              "nickname": typed[:12]})
    assert response.status_code == 303, html.unescape(text(response.get_data(as_text=True)))
    assert rows(app, "SELECT name FROM players WHERE id = ?", karim) == [(kept,)]
    assert_nothing_hidden(app)


def test_a_rename_or_nickname_of_nothing_visible_or_of_another_person_is_refused(
        english, api, app):
    api.new_game(sides=["Hind", "Karim"])
    karim = player_id(app, "Karim")
    refusals = [
        ({"name": "\u200b", "nickname": ""}, "only invisible characters"),
        ({"name": "Karim", "nickname": "\u202e"}, "only invisible characters"),
        ({"name": "Hind\u200b", "nickname": ""}, "Hind is already a player"),
        ({"name": "hi\u00adnd", "nickname": ""}, "Hind is already a player"),
        ({"name": "Karim", "nickname": "Hind\u200b"}, "Hind is another player's name"),
    ]
    for fields, sentence in refusals:
        response = post_form(english, f"/players/{karim}/edit", fields)
        assert response.status_code == 400, fields
        assert sentence in html.unescape(text(response.get_data(as_text=True))), fields
    assert rows(app, "SELECT name, nickname FROM players WHERE id = ?", karim) == [("Karim", None)]
    assert rows(app, "SELECT count(*) FROM player_changes") == [(0,)]


@pytest.mark.parametrize("typed, kept", LOOK_ALIKES)
def test_a_night_keeps_its_name_and_entrants_as_seen(english, app, typed, kept):
    start_night(english, name=typed, entrants=[(typed,), ("Karim",)])
    ((name, entrants),) = rows(
        app, "SELECT n.name, group_concat(e.names, '|') FROM nights n"
             " JOIN night_entrants e ON e.night_id = n.id")
    assert name == kept and entrants == f'{json.dumps([kept], ensure_ascii=False)}|["Karim"]'
    assert_nothing_hidden(app)


def test_a_night_of_nothing_visible_or_an_entrant_twice_is_refused(english, app):
    for extra, sentence in [
        ({"name": "\u200b"}, "only invisible characters"),
        ({"name": "Friday", "e0a": "\u202e", "e1a": "Karim"}, "only invisible characters"),
        ({"name": "Friday", "e0a": "Hind", "e1a": "Hind\u200b"}, "Hind is entered twice"),
        ({"name": "Friday", "players": "4", "e0a": "Hind", "e0b": "Ali", "e1a": "hi\u00adnd",
          "e1b": "Omar"}, "entered twice"),
    ]:
        extra = dict({"date": "2026-12-04", "players": "2", "preset": "appli"}, **extra)
        response = post_form(english, "/nights/new", extra)
        assert response.status_code == 400, extra
        assert sentence in html.unescape(text(response.get_data(as_text=True))), extra
    assert rows(app, "SELECT count(*) FROM nights") == [(0,)]


def test_a_preset_keeps_its_name_as_seen_and_refuses_one_of_nothing(english, app):
    response = post_form(english, "/settings/presets/new?from=appli", {"name": "\u202eMaison\u200b"})
    assert response.status_code == 303
    assert rows(app, "SELECT name FROM presets") == [("Maison",)]
    response = post_form(english, "/settings/presets/new?from=appli", {"name": "\u200b\u2066"})
    assert response.status_code == 400
    assert "only invisible characters" in html.unescape(text(response.get_data(as_text=True)))
    assert_nothing_hidden(app)


# -- the API ---------------------------------------------------------------------------------

@pytest.mark.parametrize("typed, kept", LOOK_ALIKES)
def test_the_api_keeps_sides_and_partners_as_seen(api, app, typed, kept):
    game = api.new_game(sides=[typed, "Eux"], players=4,
                        partners=[[typed, "Ali"], ["Omar", "Salma"]])
    assert game["sides"][0] == kept
    assert kept in {n for (n,) in rows(app, "SELECT name FROM players")}
    assert_nothing_hidden(app)


def test_the_api_refuses_partners_of_nothing_visible_or_twice(api, app):
    for partners in ([["\u200b", "Ali"], ["Omar", "Salma"]],
                     [["Hind", "Ali"], ["Hind\u200b", "Salma"]]):
        response = api.post("/api/games", {"sides": ["A", "B"], "players": 4,
                                           "partners": partners})
        assert response.status_code == 400 and response.get_json()["error"]
    assert rows(app, "SELECT count(*) FROM games") == [(0,)]


# -- the import ------------------------------------------------------------------------------

@pytest.fixture
def exported(client, api):
    game = api.new_game(sides=["Hind", "Karim"], players=4,
                        partners=[["Hind", "Ali"], ["Karim", "Salma"]])
    night_page = start_night(client, name="Friday", entrants=[("Hind",), ("Karim",)])
    document = client.get("/games/export.json").get_json()
    assert document["nights"][0]["id"] == night_page
    return document, game["id"]


@pytest.mark.parametrize("where", ["side", "seat", "preset", "night", "entrant"])
@pytest.mark.parametrize("hidden", ["\u200b", "\u202e", "\x00"])
def test_an_import_takes_no_hidden_character_in_a_name(tmp_path, exported, where, hidden):
    from scorekeeper import create_app

    document, _ = exported
    bad = copy.deepcopy(document)
    game, night = bad["games"][0], bad["nights"][0]
    if where == "side":
        game["sides"][0] += hidden
    elif where == "seat":
        game["seats"][0][0] += hidden
    elif where == "preset":
        game["rules"]["preset"] += hidden
    elif where == "night":
        night["name"] += hidden
    else:
        night["entrants"][0][0] += hidden
    other = create_app({"TESTING": True, "DATABASE": str(tmp_path / "other.sqlite3")})
    response = other.test_client().post("/api/games/import", json=bad)
    if response.status_code == 200:  # a seat is a person: the import cleans it
        assert where == "seat"
    else:
        assert response.status_code == 400 and response.get_json()["error"]
        assert rows(other, "SELECT count(*) FROM games") == [(0,)]
    assert_nothing_hidden(other)
