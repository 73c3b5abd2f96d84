"""What a list says of a game is true. A game in progress
counts the hands it has counted ("1 hand counted", its second hand marked in
progress in the review's table), a finished one the hands it was played in;
a table of a club night, or a game of the history, that was never started
offers to start it, not to resume it."""

import re

from support.nights import night_games, start_night
from support.page_forms import forms_of, submit
from support.pages import spaced_text as text


def ok(response):
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def in_its_second_hand(api):
    """A game over in its second hand, then reopened by a correction."""
    game = api.new_game(sides=["Karim", "Ali"])["id"]
    for _ in range(5):
        ok(api.event(game, type="next_deal"))
    ok(api.event(game, type="end_hand", cards=[30, None]))
    won = ok(api.event(game, type="adjust", side=0, points=30))
    assert won["finished"] and won["hand"] == 2
    return game, won["version"]


def test_a_reopened_game_counts_the_hands_it_has_counted(english, api):
    game, last = in_its_second_hand(api)
    over = text(english.get(f"/games/{game}/review").get_data(as_text=True))
    assert "· 2 hands ·" in over
    ok(api.post(f"/api/games/{game}/corrections",
                {"seq": last, "event": {"type": "adjust", "side": 0, "points": 3, "note": ""}}))
    page = text(english.get(f"/games/{game}/review").get_data(as_text=True))
    assert "In progress: hand 2" in page
    assert "· 1 hand counted ·" in page and "· 1 hand ·" not in page
    table = page[page.index("The score at the end of each hand"):]
    assert "1 10 0 2 · in progress 13 0" in table
    assert "1 hand counted" in text(english.get("/games").get_data(as_text=True))


def test_the_count_reads_in_french_and_arabic(client, api):
    game, last = in_its_second_hand(api)
    ok(api.post(f"/api/games/{game}/corrections",
                {"seq": last, "event": {"type": "adjust", "side": 0, "points": 3, "note": ""}}))
    assert "1 manche comptée" in text(client.get(f"/games/{game}/review?lang=fr").get_data(
        as_text=True))
    assert "جولة واحدة محتسبة" in text(client.get(f"/games/{game}/review?lang=ar").get_data(
        as_text=True))


def test_a_table_never_started_offers_to_start_it(english, app, api):
    night = start_night(english, "2", [("Karim",), ("Ali",), ("Omar",), ("Nadia",)])
    proposal = english.get(f"/nights/{night}/round").get_data(as_text=True)
    assert submit(english, next(f for f in forms_of(proposal) if f.method == "post")
                  ).status_code == 303
    first, second = night_games(app, night)
    ok(api.event(first, type="missa", side=0))
    page = text(english.get(f"/nights/{night}").get_data(as_text=True))
    assert "Resume Table 1" in page and "Start the game Table 2" in page
    french = text(english.get(f"/nights/{night}?lang=fr").get_data(as_text=True))
    assert "Commencer la partie Table 2" in french and "Reprendre Table 2" not in french
    history = english.get("/games?lang=en").get_data(as_text=True)
    assert len(re.findall(r">Start the game<span", history)) == 1
