"""A person is the same on every page: their games counted by person (a team
game is each partner's) on /players, /stats and their own page; and the
history's name filter finds a person's games under any of their names
(now, before a rename, a nickname, a team's), and sides by name as typed."""

import re

import pytest

from support.page_forms import forms_of, submit
from support.pages import text


def play(api, sides, winner, partners=None):
    body = {"sides": sides}
    if partners:
        body.update(players=4, partners=partners)
    game = api.new_game(**body)
    assert api.event(game["id"], type="adjust", side=winner, points=40).status_code == 200
    return game["id"]


@pytest.fixture
def club(api):
    """Omar loses all 3 of his games, one of them in a team with Ali; Karim
    wins his 2, one with Salma; Nadia plays one game."""
    play(api, ["Karim", "Omar"], 0)
    play(api, ["Karim & Salma", "Ali & Omar"], 0, [["Karim", "Salma"], ["Ali", "Omar"]])
    play(api, ["Nadia", "Omar"], 0)


def person_id(client, name):
    html = client.get("/players").get_data(as_text=True)
    return re.search(rf'href="/players/(\d+)"><bdi>{name}</bdi>', html).group(1)


def test_a_persons_games_are_the_same_count_on_every_page(english, club):
    roster = text(english.get("/players").get_data(as_text=True))
    assert "Omar 3 0 0%" in roster
    stats = english.get("/stats").get_data(as_text=True)
    every = text(stats.split('id="names-title"')[1])
    assert "Omar 3 0 0%" in every and "Karim 2 2 100%" in every
    assert "Ali & Omar" not in every  # a team's games are its partners'
    assert "team games included" in text(stats)
    page = text(english.get(f"/players/{person_id(english, 'Omar')}").get_data(as_text=True))
    assert "3 games, 0 won" in page
    one = text(english.get("/stats?name=omar").get_data(as_text=True))
    assert "Omar : 3 games, 0 won" in one
    pair = text(english.get("/stats?a=Karim&b=Omar").get_data(as_text=True))
    assert "Karim and Omar met in 2 finished games." in pair  # the team game too


def test_the_ranking_says_how_it_ranks_and_lists_the_provisional_apart(english, club):
    stats = english.get("/stats").get_data(as_text=True)
    ranking = text(stats.split('id="ranking-title"')[1].split('id="names-title"')[0])
    assert "How it ranks: by rating, the players with 5 finished games at least." in ranking
    assert "Nobody has played enough games to be ranked yet." in ranking
    provisional = ranking[ranking.index("Provisional"):]
    assert provisional.index("Omar") < provisional.index("Karim")  # most games first
    assert re.search(r"Karim 1,\d{3} ± \d{3} 2 2", provisional)  # two wins: above 1,000
    assert "Niveau" not in stats and "−" not in ranking


def filtered(client, name):
    html = client.get("/games", query_string={"name": name}).get_data(as_text=True)
    return int(re.search(r'id="count">\s*(\d+)', html).group(1))


def test_the_history_finds_a_person_under_any_of_their_names(english, api, club):
    assert filtered(english, "karim") == 2  # "Karim" and "Karim & Salma"
    assert filtered(english, "omar") == 3
    assert filtered(english, "Karim & Salma") == 1  # a side, by name as typed
    nadia = person_id(english, "Nadia")
    html = english.get(f"/players/{nadia}/edit").get_data(as_text=True)
    form = next(f for f in forms_of(html) if f.method == "post")
    response = submit(english, form, extra={"name": "Nadia B.", "nickname": "Nana"})
    assert response.status_code == 303
    assert filtered(english, "Nadia B.") == 1
    assert filtered(english, "nadia") == 1  # her name before the rename
    assert filtered(english, "Nana") == 1  # her nickname
    assert filtered(english, "Samir") == 0
