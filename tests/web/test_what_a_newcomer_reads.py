"""What a newcomer read at a tournament and after three whole games: a
match's game says on its board which match of the bracket it is, its
result leads back to the bracket before any rematch (a rematch of a decided
knockout match is no part of it); the players page says of people whose
only game is still being played that it is in play, not that they never
played."""

import random
import re

import pytest

from scorekeeper import engine
from scorekeeper.service import games, nights, tournaments
from scorekeeper.storage.db import connect

NOW = "2026-12-04T20:00:00+00:00"


@pytest.fixture
def store(app):
    connection = connect(app.config["DATABASE"])
    yield connection
    connection.close()


def knockout(store, match_games=1):
    data = {"name": "Tournoi du vendredi", "date": "2026-12-04", "preset": "appli",
            "players": 2, "format": "knockout", "match_games": match_games,
            "entrants": [["Ali"], ["Driss"], ["Karim"], ["Omar"]]}
    return nights.create(store, data, NOW, engine.BUILT_IN_PRESETS, draw=random.Random(4))


def start(store, night, slot=1):
    return tournaments.start_match(store, night, 1, slot, f"k{slot}.{random.random()}", NOW,
                                   engine.BUILT_IN_PRESETS)


def finish(store, game_id, side=0):
    games.record(store, game_id, {"type": "adjust", "side": side, "points": 40}, None, NOW)


def text(html: str) -> str:
    inline = re.sub(r"</?(bdi|a)\b[^>]*>", "", html)  # within a sentence
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", inline)).replace("&#39;", "'")


def test_a_match_game_says_on_its_board_which_match_of_the_bracket_it_is(client, store):
    night = knockout(store)
    game = start(store, night, slot=2)
    board = client.get(f"/games/{game.id}?lang=en").get_data(as_text=True)
    assert "A match of the bracket of Tournoi du vendredi: round 1, match 2." in text(board)
    assert f'href="/nights/{night.id}"' in board
    friendly, _ = games.create(store, {"sides": ["Ali", "Driss"]}, None, NOW)
    assert "match of the bracket" not in client.get(f"/games/{friendly.id}?lang=en").get_data(
        as_text=True)


def test_a_decided_matchs_result_leads_to_the_bracket_before_a_friendly_rematch(client, store):
    night = knockout(store)
    game = start(store, night)
    finish(store, game.id)
    page = client.get(f"/games/{game.id}?lang=en").get_data(as_text=True)
    over = page[page.index('<section class="over"'):]
    back = over.index(f'href="/nights/{night.id}"')
    rematch = over.index('value="rematch"')
    assert back < rematch  # the bracket first
    assert 'class="button primary big" href="/nights/' in over
    assert '<button class="primary big" name="move" value="rematch">' not in over
    assert "A rematch is a friendly game: no part of the bracket." in text(over)
    assert "Back to the bracket" in text(over)


def test_a_best_of_three_going_on_says_its_rematch_is_the_next_game(client, store):
    night = knockout(store, match_games=3)
    game = start(store, night)
    finish(store, game.id)
    over = text(client.get(f"/games/{game.id}?lang=en").get_data(as_text=True))
    assert "The rematch is this match's next game." in over
    assert "no part of the bracket" not in over


def test_the_players_page_says_a_game_in_play_not_zero_games(client, api):
    running = api.new_game(sides=["Nadia", "Youssef"])["id"]
    api.event(running, type="missa", side=0)
    over = api.new_game(sides=["Nadia", "Ali"])["id"]
    api.event(over, type="adjust", side=0, points=40)
    page = client.get("/players?lang=en").get_data(as_text=True)
    rows = {re.search(r'href="/players/\d+">(?:<bdi>)?([^<]+)', row).group(1): text(row)
            for row in re.findall(r"<tr>.*?</tr>", page, re.S) if "/players/" in row}
    assert "1 game in play" in rows["Youssef"] and "0 %" not in rows["Youssef"] \
        and "0%" not in rows["Youssef"]
    assert "1 game in play" in rows["Nadia"]  # one over, one being played
    assert "in play" not in rows["Ali"] and "0%" in rows["Ali"]
