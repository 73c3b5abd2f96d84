"""The game-over sentence: the default names are pronouns,
so "Nous gagnons !", not "Nous gagne !"; a name of its own keeps "Karim gagne !"."""

import html

import pytest

from support.pages import start_game, text


def _over(client, names, winner, language):
    client.set_cookie("lang", language)
    board = start_game(client, names=names)
    client.post("/api" + board + "/events", json={"type": "adjust", "side": winner, "points": 33})
    return html.unescape(text(client.get(board).get_data(as_text=True)))


@pytest.mark.parametrize("language, names, winner, sentence", [
    ("fr", ("Nous", "Eux", ""), 0, "Nous gagnons !"),
    ("fr", ("Nous", "Eux", ""), 1, "Ils gagnent !"),
    ("en", ("Us", "Them", ""), 1, "They win!"),
    ("en", ("Nous", "Eux", ""), 0, "We win!"),  # a French game read in English
    ("ar", ("نحن", "هم", ""), 0, "فزنا!"),
    ("fr", ("Karim", "Samira", ""), 0, "Karim gagne !"),
])
def test_the_winner_is_said_as_a_pronoun_when_the_side_is_one(client, language, names,
                                                               winner, sentence):
    page = _over(client, names, winner, language)
    assert sentence in page
    assert "Nous gagne !" not in page and "Us wins!" not in page and "Them wins!" not in page


def test_a_name_in_another_script_stays_whole_in_the_sentence(client):
    """Seen at the table: "Omar & Leila" in the Arabic sentence was split and
    reordered around the verb; isolated (<bdi>), it stays one name: a team's,
    its partners each isolated within it, in the page's direction."""
    client.set_cookie("lang", "ar")
    board = start_game(client, names=("Omar & Leila", "Hamza", ""))
    client.post("/api" + board + "/events", json={"type": "adjust", "side": 0, "points": 33})
    page = client.get(board).get_data(as_text=True)
    assert '<bdi dir="rtl"><bdi>Omar</bdi> &amp; <bdi>Leila</bdi></bdi>' in page.split(
        'id="winner"')[1].split("</h1>")[0]


@pytest.mark.parametrize("language, sentence", [
    ("fr", "Omar & Leila gagnent !"), ("en", "Omar & Leila win!"), ("ar", "فاز Omar & Leila"),
])
def test_a_team_wins_in_the_plural(client, language, sentence):
    """Seen at the table: "Omar & Leila gagne !" for a team of two partners."""
    client.set_cookie("lang", language)
    game = client.post("/api/games", json={"sides": ["Omar & Leila", "Hamza & Sanaa"],
                                           "players": 4}).get_json()["id"]
    client.post(f"/api/games/{game}/events", json={"type": "adjust", "side": 0, "points": 33})
    page = html.unescape(text(client.get(f"/games/{game}").get_data(as_text=True)))
    assert sentence in page
