"""French elides "de" before a name that begins with a vowel
("Meilleure Ronda d'Eux", "2 parties d'Ali"), whichever sentence of the
catalog puts a name after "de"; "de Karim", "de Yasmine", "de Hamid" stay;
Arabic and English are untouched. One helper: scorekeeper/web/wording/elision.py."""

import re

import pytest
from flask_babel import force_locale

from scorekeeper.service import players
from scorekeeper.storage import db as stores
from scorekeeper.web.wording.elision import elide, say
from support.pages import text


@pytest.mark.parametrize("template, values, expected", [
    ("Meilleure %(kind)s de %(side)s", {"kind": "Ronda", "side": "Eux"}, "Meilleure Ronda d'Eux"),
    ("Meilleure %(kind)s de %(side)s", {"kind": "Ronda", "side": "Karim"},
     "Meilleure Ronda de Karim"),
    ("%(num)s parties de %(name)s", {"num": 2, "name": "Ali"}, "2 parties d'Ali"),
    ("De %(name)s à %(other)s", {"name": "Émile", "other": "Omar"}, "D'Émile à Omar"),
    ("la page de %(name)s", {"name": "\u2068Imane\u2069"}, "la page d'\u2068Imane\u2069"),
    ("plus que %(name)s", {"name": "Omar"}, "plus qu'Omar"),
    ("la page de %(name)s", {"name": "Yasmine"}, "la page de Yasmine"),
    ("la page de %(name)s", {"name": "Hamid"}, "la page de Hamid"),
    ("coup de %(value)s", {"value": 5}, "coup de 5"),
    ("lorsque %(name)s joue", {"name": "Ali"}, "lorsque Ali joue"),
])
def test_de_before_a_vowel_is_elided_in_french(app, template, values, expected):
    with app.test_request_context(), force_locale("fr"):
        assert elide(template, values) % values == expected


def test_other_languages_are_untouched(app):
    with app.test_request_context(), force_locale("en"):
        assert say("Best %(kind)s of %(side)s", kind="Ronda", side="Eux") == "Best Ronda of Eux"
    with app.test_request_context(), force_locale("fr"):
        assert say("Best %(kind)s of %(side)s", kind="Ronda", side="Eux") == (
            "Meilleure Ronda d'Eux")


def test_the_ranks_sheet_says_d_eux(french, api):
    game = api.new_game(sides=["Karim", "Eux"])["id"]
    assert api.event(game, type="announce", announcements=[
        {"side": 0, "kind": "ronda"}, {"side": 1, "kind": "ronda"}]).status_code == 200
    page = text(french.get(f"/games/{game}?sheet=ranks").get_data(as_text=True))
    assert "Meilleure Ronda d'Eux" in page and "Meilleure Ronda de Karim" in page
    assert "de Eux" not in page
    # A refusal that names the side, on the API in French.
    answer = api.post(f"/api/games/{game}/events", {"type": "reveal", "ranks": [3, None]},
                      headers={"Accept-Language": "fr"})
    assert answer.status_code == 400
    assert answer.get_json()["error"] == "Donnez le rang de la meilleure annonce d'Eux."


def test_a_persons_history_says_d_ali(french, api, app):
    api.new_game(sides=["Ali", "Karim"])
    api.new_game(sides=["Omar", "Ali"])
    ali = players.by_name(stores.connect(app.config["DATABASE"]), "Ali")
    page = text(french.get(f"/games?player={ali.id}").get_data(as_text=True))
    assert "2 parties d'Ali" in page
    assert re.search(r"\bde Ali\b", page) is None
