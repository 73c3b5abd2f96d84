"""/games (the list, its filter and pages), the bin, a game's review and its
exports, through the test client as a browser without JavaScript (CSRF on)."""

import csv
import io
import re

import pytest

from scorekeeper.storage.db import connect
from scorekeeper.testing.sample_history import fill
from support.page_forms import forms_of, press, submit
from support.pages import spaced_text as text


@pytest.fixture
def stored(app):
    """45 games written straight to the store, 53 minutes apart, none in the bin."""
    db = connect(app.config["DATABASE"])
    try:
        return fill(db, 45, deleted_every=0)
    finally:
        db.close()


def game_links(html):
    """The ids of the games a list page shows, in order."""
    return re.findall(r'class="game-title" href="/games/(\w+)"', html)


def played(api, sides, *events):
    game_id = api.new_game(sides=list(sides))["id"]
    for event in events:
        assert api.event(game_id, **event).status_code == 200
    return game_id


WIN = {"type": "adjust", "side": 1, "points": 33}


# -- the list -----------------------------------------------------------------------------------

def test_the_list_shows_the_newest_games_first_twenty_a_page(french, stored):
    newest = [g.id for g in reversed(stored)]
    first = french.get("/games").get_data(as_text=True)
    assert game_links(first) == newest[:20]
    assert "45 parties" in text(first) and "Page 1 sur 3" in text(first)
    assert game_links(french.get("/games?page=3").get_data(as_text=True)) == newest[40:]


def test_each_line_says_score_winner_state_duration_and_hands(french, api):
    over = played(api, ("Ali", "Karim"), {"type": "missa", "side": 0},
                  {"type": "end_hand", "cards": [30, None]}, WIN)
    running = played(api, ("Omar", "Nadia"), {"type": "hit", "side": 0, "value": 1})
    page = text(french.get("/games").get_data(as_text=True))
    assert "Ali 11 – Karim 33" in page and "Karim a gagné" in page and "2 manches" in page
    assert "Omar 0 – Nadia 0" in page and "en cours" in page and "0 min" in page
    html = french.get("/games").get_data(as_text=True)
    # An unfinished game resumes in one tap; a finished one's Review opens its review,
    # where nothing reopens it (its title still leads to its result).
    assert re.search(rf'class="button primary" href="/games/{running}">Reprendre', html)
    assert f'href="/games/{over}/review">Récapitulatif' in html


def test_the_list_filters_by_a_name_ignoring_case(french, api):
    ali = [played(api, ("Ali", "Karim")), played(api, ("Omar", "ali"))]
    played(api, ("Omar", "Nadia"))
    html = french.get("/games?name=ALI").get_data(as_text=True)
    assert sorted(game_links(html)) == sorted(ali)
    assert "2 parties avec ALI" in text(html)
    assert game_links(french.get("/games?name=nobody").get_data(as_text=True)) == []


@pytest.mark.parametrize("query, status", [
    ("page=0", 400), ("page=-1", 400), ("page=abc", 400), ("page=1.5", 400),
    ("page=99999999", 400), ("page=", 400), ("page=4", 404), ("name=" + "x" * 41, 400),
])
def test_bad_list_addresses_get_a_clear_4xx_page(french, stored, query, status):
    response = french.get("/games?" + query)
    assert response.status_code == status
    assert '<p role="alert">' in response.get_data(as_text=True)


def test_home_and_the_result_link_to_the_history(french, api):
    assert 'href="/games"' in french.get("/").get_data(as_text=True)
    assert 'href="/stats"' in french.get("/").get_data(as_text=True)
    over = played(api, ("Ali", "Karim"), WIN)
    page = french.get(f"/games/{over}").get_data(as_text=True)
    assert 'href="/games">Historique' in page


# -- the bin ------------------------------------------------------------------------------------

def test_a_game_is_deleted_only_after_a_confirmation_and_can_be_restored(french, api):
    game_id = played(api, ("Ali", "Karim"), {"type": "missa", "side": 0})
    confirm = french.get(f"/games/{game_id}/delete")
    assert confirm.status_code == 200 and "Supprimer cette partie ?" in text(confirm.get_data(
        as_text=True))
    assert game_links(french.get("/games").get_data(as_text=True)) == [game_id]  # not yet

    response = press(french, f"/games/{game_id}/delete", "")
    assert response.status_code == 303 and response.headers["Location"] == "/games"
    listing = french.get("/games").get_data(as_text=True)
    assert game_links(listing) == [] and "La partie est dans la corbeille" in listing
    assert game_links(french.get("/games/bin").get_data(as_text=True)) == [game_id]
    assert api.state(game_id)["scores"] == [1, 0]  # in the bin, not gone
    assert 'href="/games/' + game_id not in french.get("/").get_data(as_text=True)

    bin_page = french.get("/games/bin").get_data(as_text=True)
    restore = [f for f in forms_of(bin_page) if f.action == f"/games/{game_id}/restore"][0]
    assert submit(french, restore).status_code == 303
    assert game_links(french.get("/games").get_data(as_text=True)) == [game_id]
    assert game_links(french.get("/games/bin").get_data(as_text=True)) == []


def test_emptying_the_bin_deletes_its_games_for_good_after_a_confirmation(french, api, app):
    kept = played(api, ("Ali", "Karim"))
    thrown = played(api, ("Omar", "Nadia"), {"type": "missa", "side": 1})
    press(french, f"/games/{thrown}/delete", "")
    page = text(french.get("/games/bin/empty").get_data(as_text=True))
    assert "1 partie sera supprimée définitivement" in page
    assert api.state(thrown)["version"] == 1  # the confirmation page changed nothing
    response = press(french, "/games/bin/empty", "")
    assert response.status_code == 303
    assert api.get(f"/api/games/{thrown}").status_code == 404
    assert api.state(kept)["version"] == 0
    db = connect(app.config["DATABASE"])
    try:
        for table in ("events", "game_sides"):
            assert db.execute(f"SELECT count(*) FROM {table} WHERE game_id = ?",
                              [thrown]).fetchone()[0] == 0
    finally:
        db.close()


def test_the_bin_pages_refuse_bad_ids_and_forged_posts(french, api):
    game_id = played(api, ("Ali", "Karim"))
    assert french.get("/games/nosuchgame/delete").status_code == 404
    assert french.post("/games/nosuchgame/restore").status_code in (400, 404)
    assert french.post(f"/games/{game_id}/delete").status_code == 400  # no CSRF token
    assert french.post("/games/bin/empty").status_code == 400
    assert api.state(game_id)["version"] == 0
    assert game_links(french.get("/games").get_data(as_text=True)) == [game_id]


# -- a game's review ------------------------------------------------------------------------------

def test_a_finished_game_shows_its_result_then_its_review(french, api):
    game_id = played(api, ("Ali", "Karim"), {"type": "hit", "side": 0, "value": 1},
                     {"type": "missa", "side": 0}, {"type": "next_deal"},
                     {"type": "adjust", "side": 1, "points": 20},
                     {"type": "end_hand", "cards": [18, None]}, {"type": "adjust", "side": 1,
                                                                 "points": 11})
    page = text(french.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Karim gagne !" in page and "Revanche" in page
    assert re.search(r"Manche 1 Donne 1 1 Bount \(1\) · Ali compté quand la chaîne s\S+est arrêtée 0 – 0 .*"
                     r"2 Missa · Ali Ali \+2 2 – 0", page)
    assert "Donne 2 4 Correction +20 · Karim Karim +20 2 – 20" in page
    assert "Manche 2 Donne 1 6 Correction +11 · Karim Karim +11 2 – 33" in page
    # The rules it used, the score's chart and its text alternative.
    assert "Les règles de cette partie Score à atteindre 33" in page
    html = french.get(f"/games/{game_id}").get_data(as_text=True)
    assert '<svg class="chart"' in html and 'role="img"' in html
    assert re.search(r'<polyline class="line side-0" points="[\d., ]+">', html)
    table = text(html[html.index('id="score-chart-table"'):])
    assert "Le score à la fin de chaque manche Manche Ali Karim 1 2 22 2 2 33" in table


def test_a_running_game_has_a_review_too(french, api):
    game_id = played(api, ("Ali", "Karim"), {"type": "missa", "side": 1})
    page = text(french.get(f"/games/{game_id}/review").get_data(as_text=True))
    assert "En cours : manche 1, donne 1." in page and "Missa · Karim Karim +1 0 – 1" in page
    # The board itself stays the board while the game runs.
    assert 'class="pads"' in french.get(f"/games/{game_id}").get_data(as_text=True)
    assert french.get("/games/nosuchgame/review").status_code == 404


def test_a_running_games_review_is_one_tap_from_the_boards_more_sheet(french, api):
    game_id = played(api, ("Ali", "Karim"), {"type": "missa", "side": 1})
    sheet = french.get(f"/games/{game_id}?sheet=more").get_data(as_text=True)
    assert f'href="/games/{game_id}/review">Revoir et corriger les coups passés' in sheet


def test_the_review_lists_the_rules_the_game_used(french, api):
    game_id = api.new_game(sides=["Ali", "Karim"], rules={"preset": "classique",
                                                            "target": 51})["id"]
    page = text(french.get(f"/games/{game_id}/review").get_data(as_text=True))
    assert "Les règles de cette partie Score à atteindre 51" in page
    assert "Tringa contre Tringa la plus basse gagne" in page


# -- the CSV export ---------------------------------------------------------------------------------

def test_the_csv_export_has_one_row_per_standing_event_with_the_running_score(french, api):
    game_id = played(api, ("Ali", "=Karim"), {"type": "hit", "side": 0, "value": 1},
                     {"type": "missa", "side": 1}, {"type": "adjust", "side": 1, "points": -2,
                                                     "note": "=1+1"})
    api.event(game_id, type="missa", side=0)
    api.undo(game_id)
    response = french.get(f"/games/{game_id}/export.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    # One language, the page's: its headers, each event's kind and words.
    assert rows[0] == ["N°", "N° au journal", "Enregistré le", "Manche", "Donne", "Type de coup",
                       "Ce qui s'est passé", "Points : Ali", "Points : =Karim", "Score : Ali",
                       "Score : =Karim"]  # no formula: the name is not a cell's start
    assert [r[:2] + r[3:6] + r[7:] for r in rows[1:]] == [
        ["1", "1", "1", "1", "Coup de la chaîne", "0", "0", "0", "0"],
        ["2", "2", "1", "1", "Missa", "1", "1", "1", "1"],
        ["3", "3", "1", "1", "Correction ou pénalité", "0", "-2", "1", "-1"],
    ]
    assert [r[6] for r in rows[1:]] == ["Bount (1) · Ali", "Missa · =Karim",
                                        "Correction -2 · =Karim (=1+1)"]
    assert french.get("/games/nosuchgame/export.csv").status_code == 404


@pytest.mark.parametrize("language, words", [
    ("en", ["Number", "Kind of event", "What happened", "Missa", "Missa · Ali"]),
    ("ar", ["الرقم", "نوع الحدث", "ما حدث", "ميسا", "ميسا · Ali"]),
])
def test_the_csv_export_speaks_the_pages_language_only(client, api, language, words):
    game_id = played(api, ("Ali", "Karim"), {"type": "missa", "side": 0})
    client.set_cookie("lang", language)
    rows = list(csv.reader(io.StringIO(
        client.get(f"/games/{game_id}/export.csv").get_data(as_text=True))))
    assert [rows[0][0], rows[0][5], rows[0][6], rows[1][5], rows[1][6]] == words
