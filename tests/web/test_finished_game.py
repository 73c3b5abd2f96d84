"""A finished game stays finished unless asked, without JavaScript: the
history's Review opens the review, and an Undo on the result asks first,
naming what reopening changes, except right after the winning tap."""

import re
from datetime import datetime, timedelta, timezone

from scorekeeper.service import games, nights
from support.nights import start_night
from support.page_forms import find_button, forms_of, press, submit
from support.pages import api_state, start_game, text

DAYS_AGO = datetime.now(timezone.utc) - timedelta(days=3)


def won_days_ago(db, sides=("Ali", "Karim")) -> str:
    """A game Karim won three days ago: "Review" and Undo come much later."""
    def at(minutes):
        return (DAYS_AGO + timedelta(minutes=minutes)).isoformat(timespec="milliseconds")
    game, _ = games.create(db, {"sides": list(sides), "rules": {"target": 11}}, None, at(0))
    games.record(db, game.id, {"type": "adjust", "side": 1, "points": 10}, None, at(5))
    games.record(db, game.id, {"type": "missa", "side": 1}, None, at(9))
    return game.id


def test_review_in_the_history_opens_the_review(french, db):
    game_id = won_days_ago(db)
    page = french.get("/games").get_data(as_text=True)
    review = re.search(r'<a class="button quiet" href="([^"]+)">Récapitulatif', page)[1]
    assert review == f"/games/{game_id}/review"
    shown = text(french.get(review).get_data(as_text=True))
    assert "Revanche" not in shown and "Annuler" not in shown


def test_undo_on_a_game_won_earlier_asks_first_and_says_what_changes(french, db):
    game_id = won_days_ago(db)
    result = french.get(f"/games/{game_id}").get_data(as_text=True)
    assert not [f for f in forms_of(result) if f.action.endswith("/undo")]  # no one-tap undo
    ask = re.search(r'<a class="button undo-button" href="([^"]+)">', result)[1]
    assert ask == f"/games/{game_id}/reopen"
    question = french.get(ask).get_data(as_text=True)
    words = text(question)
    assert "Rouvrir la partie ?" in words
    assert "Karim a gagné." in words and "Missa · Karim" in words
    assert "La partie n'est plus terminée" in words
    assert "Le niveau des joueurs est recalculé sans elle." in words
    assert "soirée" not in words  # no club night to name
    assert api_state(french, f"/games/{game_id}")["finished"]
    submit(french, [f for f in forms_of(question) if f.action.endswith("/undo")][0])
    state = api_state(french, f"/games/{game_id}")
    assert not state["finished"] and state["scores"] == [0, 10]


def test_a_club_nights_game_says_its_standings_follow(french, db):
    night_id = start_night(french)
    game_id = won_days_ago(db)
    nights.add_table(db, night_id, game_id, None, DAYS_AGO.isoformat())
    db.conn.commit()
    words = text(french.get(f"/games/{game_id}/reopen").get_data(as_text=True))
    assert "Le classement de la soirée Friday club change avec elle." in words


def test_an_undo_sent_without_the_question_asks_it_and_changes_nothing(french, db):
    """A result page's one-tap Undo drawn right after the win, tapped later,
    or a forged post: the question, not a reopened game."""
    game_id = won_days_ago(db)
    question = french.get(f"/games/{game_id}/reopen").get_data(as_text=True)
    form = [f for f in forms_of(question) if f.action.endswith("/undo")][0]
    form.fields = [(k, v) for k, v in form.fields if k != "reopen"]
    response = submit(french, form)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game_id}/reopen"
    assert api_state(french, f"/games/{game_id}")["finished"]


def test_the_page_scripts_undo_without_the_question_is_refused_with_a_sentence(french, db):
    """The same post from the page's script (X-Board): the board back, saying
    to tap Undo again for the question, and nothing reopened."""
    game_id = won_days_ago(db)
    question = french.get(f"/games/{game_id}/reopen").get_data(as_text=True)
    form = [f for f in forms_of(question) if f.action.endswith("/undo")][0]
    form.fields = [(k, v) for k, v in form.fields if k != "reopen"]
    response = submit(french, form, headers={"X-Board": "1"})
    assert response.status_code == 409
    assert "La partie est terminée" in text(response.get_data(as_text=True))
    assert api_state(french, f"/games/{game_id}")["finished"]


def test_right_after_the_winning_tap_one_tap_still_takes_it_back(french):
    board = start_game(french)
    press(french, board + "?sheet=more", "adjust", {"side": "1", "points": "32"})
    press(french, board, "missa.1")  # the winning tap
    result = french.get(board).get_data(as_text=True)
    assert "/reopen" not in result
    press(french, board, "")  # the Undo's button
    assert not api_state(french, board)["finished"]


def test_a_running_game_has_nothing_to_ask(french):
    board = start_game(french)
    response = french.get(board + "/reopen")
    assert response.status_code == 303 and response.headers["Location"] == board


def won_seconds_ago(db, seconds: float) -> str:
    """A game Karim won `seconds` ago."""
    now = datetime.now(timezone.utc)

    def at(before):
        return (now - timedelta(seconds=before)).isoformat(timespec="milliseconds")
    game, _ = games.create(db, {"sides": ["Ali", "Karim"], "rules": {"target": 11}}, None,
                           at(seconds + 20))
    games.record(db, game.id, {"type": "adjust", "side": 1, "points": 10}, None, at(seconds + 10))
    games.record(db, game.id, {"type": "missa", "side": 1}, None, at(seconds))
    return game.id


def test_a_game_won_40_seconds_ago_opened_from_the_history_asks_first(french, db):
    """Within the Undo's minute, but not the winning tap's own answer: a
    newcomer opened it from the history and reopened it with one tap."""
    game_id = won_seconds_ago(db, 40)
    result = french.get(f"/games/{game_id}").get_data(as_text=True)
    assert re.search(r'<a class="button undo-button" href="[^"]+/reopen">', result)
    assert api_state(french, f"/games/{game_id}")["finished"]


def test_the_result_drawn_right_after_the_win_undoes_it_in_one_tap(french, db):
    game_id = won_seconds_ago(db, 2)
    result = french.get(f"/games/{game_id}").get_data(as_text=True)
    assert "/reopen" not in result
    assert re.search(r'<button class="[^"]*undo-button', result)


def test_the_result_shown_for_a_refused_tap_asks_before_reopening(french, second_phone):
    """Both phones tapped the winning Missa: the second one's is already
    recorded, and its page shows the result with that sentence. Its Undo,
    where its Missa was, asks first: a second tap there meant the Missa
    again, and took the win back at once."""
    board = start_game(french)
    press(french, board + "?sheet=more", "adjust", {"side": "1", "points": "32"})
    other = second_phone.get(board).get_data(as_text=True)  # its board, before the win
    press(french, board, "missa.1")  # the winning tap, on the first phone
    form, missa = find_button(other, "missa.1")
    for script in (False, True):
        headers = {"X-Board": "1"} if script else {}
        response = submit(second_phone, form, missa, headers=headers)
        page = (response if script else second_phone.get(response.headers["Location"]))
        result = page.get_data(as_text=True)
        assert "Déjà enregistré sur un autre téléphone" in text(result), script
        assert re.search(r'<a class="button undo-button" href="[^"]+/reopen">', result), script
        assert api_state(french, board)["finished"], script
    # The first phone's own result still takes its win back with one tap.
    assert "/reopen" not in french.get(board).get_data(as_text=True)


def test_a_board_following_another_phones_win_asks_before_reopening(french, db):
    """The page's script draws the board again when another phone recorded
    something (X-Board-Follows): the win it shows was not this phone's tap."""
    game_id = won_seconds_ago(db, 2)
    followed = french.get(f"/games/{game_id}",
                          headers={"X-Board": "1", "X-Board-Follows": "1"}).get_data(as_text=True)
    assert re.search(r'<a class="button undo-button" href="[^"]+/reopen">', followed)
    drawn = french.get(f"/games/{game_id}", headers={"X-Board": "1"}).get_data(as_text=True)
    assert re.search(r'<button class="[^"]*undo-button', drawn)  # the winning tap's own answer


def test_a_tap_from_a_phone_that_had_not_seen_the_win_does_not_say_to_undo_it(french):
    """Seen at the table: the other phone's Missa, tapped as this one won,
    was refused with "undo its last event to change it", which sent a
    newcomer to take the win back. Nothing more counts: that is all it says."""
    board = start_game(french)
    press(french, board + "?sheet=more", "adjust", {"side": "1", "points": "32"})
    other_phone = find_button(french.get(board).get_data(as_text=True), "missa.0")
    press(french, board, "missa.1")  # the winning tap, on this phone
    refused = submit(french, *other_phone, headers={"X-Board": "1"})
    assert refused.status_code == 409
    words = text(refused.get_data(as_text=True))
    assert "La partie est terminée : plus rien n'y est compté." in words.replace("&#39;", "'")
    assert "annulez" not in words
    assert api_state(french, board)["scores"] == [0, 33]


def test_a_count_confirmed_after_the_other_phones_winning_count_says_it_stands(
        french, second_phone, app):
    """Without JavaScript, two phones with the count sheet open mid-hand
    (deal 1 of 6): one confirms the count that wins the game; the other's
    Confirm then showed the result and nothing else, as if asking the early
    end of a hand the game no longer has: it is judged as a tap, already
    recorded, and the result says so."""
    board = start_game(french)
    press(french, board + "?sheet=more", "adjust", {"side": "1", "points": "32"})
    def sheet(phone):
        page = phone.get(board + "?sheet=end&cards0=10&hand=1").get_data(as_text=True)
        return find_button(page, "end_hand")

    third_phone = app.test_client()
    third_phone.set_cookie("lang", "fr")
    first, second, not_asked_yet = sheet(french), sheet(second_phone), sheet(third_phone)
    winning = {"cards0": "10", "early": "1"}
    assert submit(french, *first, winning).status_code == 303
    assert api_state(french, board)["finished"]
    version, scores = api_state(french, board)["version"], api_state(french, board)["scores"]
    response = submit(second_phone, *second, winning)
    result = second_phone.get(response.headers["Location"]).get_data(as_text=True)
    assert "Déjà enregistré sur un autre téléphone" in text(result)
    now = api_state(french, board)  # the same count: a record of its own, the game unchanged
    assert now["version"] == version + 1 and now["scores"] == scores
    # Without the early end's answer (its sheet had not asked it yet): the same.
    response = submit(third_phone, *not_asked_yet, {"cards0": "10"})
    result = third_phone.get(response.headers["Location"]).get_data(as_text=True)
    assert "Déjà enregistré sur un autre téléphone" in text(result)
