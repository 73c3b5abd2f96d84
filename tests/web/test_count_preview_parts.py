"""The end-of-hand preview says what a side's points hold: with three
players, 15 cards over 13 showed "+3" with nothing saying the open chain's
hit (the Bount the count closes) was in it; the scorer checking 15 − 13 = 2
saw 3. The parts come from the engine's gains."""

import pytest

from support.pages import start_game, text


@pytest.mark.parametrize("language, said", [
    ("fr", "Ali : 2 pour les cartes + 1 pour la chaîne ouverte (Bount)"),
    ("en", "Ali: 2 for the cards + 1 for the open Bount"),
    ("ar", "Ali: 2 للأوراق + 1 للسلسلة المفتوحة (بونت)"),
])
def test_the_preview_says_each_part_of_a_sides_points(client, language, said):
    client.set_cookie("lang", language)
    board = start_game(client, players="3", names=("Ali", "Badr", "Chama"))
    client.post("/api" + board + "/events", json={"type": "hit", "side": 0, "value": 1})
    page = text(client.get(board + "?sheet=end&cards0=15&cards1=12").get_data(as_text=True))
    assert "+3" in page and said in page


def test_cards_alone_need_no_parts(french):
    board = start_game(french, players="3", names=("Ali", "Badr", "Chama"))
    page = french.get(board + "?sheet=end&cards0=15&cards1=12").get_data(as_text=True)
    assert '<p class="parts"></p>' in page and "pour les cartes" not in page


def test_a_side_with_only_the_chains_hit_is_said_so(french):
    board = start_game(french, players="3", names=("Ali", "Badr", "Chama"))
    french.post("/api" + board + "/events", json={"type": "hit", "side": 2, "value": 1})
    page = text(french.get(board + "?sheet=end&cards0=15&cards1=12").get_data(as_text=True))
    assert "Chama : 1 pour la chaîne ouverte (Bount)" in page
