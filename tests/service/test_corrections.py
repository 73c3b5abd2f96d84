"""Corrections: any past event can be changed or removed, as a new record of
the log (the original stays, shown as corrected); the score is the barème's
replay; a correction that a later event cannot survive is refused with a
sentence naming that event. Through the API and through the review's forms."""


import pytest

from support.page_forms import find_button, forms_of, press, submit
from support.pages import spaced_text as text

HIT_1 = {"type": "hit", "side": 0, "value": 1}
HIT_5 = {"type": "hit", "side": 1, "value": 5}
MISSA = {"type": "missa", "side": 1}


def played(api, *events, sides=("Nous", "Eux")):
    game_id = api.new_game(sides=list(sides))["id"]
    for event in events:
        response = api.event(game_id, **event)
        assert response.status_code == 200, response.get_json()
    return game_id


def correct(api, game_id, body, **kwargs):
    return api.post(f"/api/games/{game_id}/corrections", body, **kwargs)


def log_of(client, game_id):
    from scorekeeper.storage import store
    from scorekeeper.storage.db import connect

    db = connect(client.application.config["DATABASE"])
    try:
        return list(store.log(db, game_id))
    finally:
        db.close()


# -- through the API ---------------------------------------------------------------------------

def test_a_corrected_side_is_scored_again_from_the_bareme(api, client):
    game_id = played(api, HIT_1, {"type": "missa", "side": 0}, MISSA)
    assert api.state(game_id)["scores"] == [2, 1]
    response = correct(api, game_id, {"seq": 2, "event": {"type": "missa", "side": 1}})
    assert response.status_code == 200, response.get_json()
    state = response.get_json()
    # The 1 of Nous now scores alone when Eux clears the table, then Eux's two missas.
    assert state["scores"] == [1, 2] and state["version"] == 4
    log = log_of(client, game_id)
    assert log[1]["payload"] == {"type": "missa", "side": 0, "last_card": False}  # the original stays
    assert log[-1]["action"] == "correction"
    assert log[-1]["payload"] == {"corrects": 2,
                                  "event": {"type": "missa", "side": 1, "last_card": False}}


def test_a_correction_that_leaves_a_5_without_its_1_is_refused_naming_that_event(api, client):
    game_id = played(api, HIT_1, HIT_5, MISSA)
    before, log = api.state(game_id), log_of(client, game_id)
    response = correct(api, game_id, {"seq": 1, "event": None},
                       headers={"Accept-Language": "en"})
    assert response.status_code == 409
    assert response.get_json()["error"] == (
        "Event 2 (Khamsa (5) · Eux, hand 1 deal 1) would no longer be possible: "
        "A 5 only follows an open 1 of the other side.")
    assert api.state(game_id) == before and log_of(client, game_id) == log


def test_a_correction_that_is_itself_impossible_is_refused_saying_so(api):
    game_id = played(api, HIT_1, MISSA)
    response = correct(api, game_id, {"seq": 1, "event": {"type": "hit", "side": 0, "value": 10}},
                       headers={"Accept-Language": "en"})
    assert response.status_code == 409
    assert response.get_json()["error"].startswith(
        "This correction is not possible there (Âachra (10) · Nous, hand 1 deal 1): A 10 only")


def test_a_removed_event_stays_in_the_log_and_can_be_put_back(api, client):
    game_id = played(api, HIT_1, MISSA, {"type": "adjust", "side": 0, "points": 3})
    assert api.state(game_id)["scores"] == [4, 1]
    removed = correct(api, game_id, {"seq": 3, "event": None}).get_json()
    assert removed["scores"] == [1, 1]
    back = correct(api, game_id, {"seq": 3, "event": {"type": "adjust", "side": 0, "points": 3,
                                                         "note": ""}}).get_json()
    assert back["scores"] == [4, 1] and back["version"] == 5
    assert [r["action"] for r in log_of(client, game_id)] == [
        "event", "event", "event", "correction", "correction"]


def test_a_correction_is_applied_once_whatever_the_retries(api, client):
    game_id = played(api, HIT_1, MISSA)
    body = {"seq": 2, "event": {"type": "missa", "side": 0}}
    first = correct(api, game_id, body, headers={"Idempotency-Key": "fix-1"})
    again = correct(api, game_id, body, headers={"Idempotency-Key": "fix-1"})
    assert first.status_code == again.status_code == 200
    assert first.get_json() == again.get_json()
    assert len(log_of(client, game_id)) == 3


def test_a_correction_from_an_out_of_date_screen_is_refused(api):
    game_id = played(api, HIT_1, MISSA)
    response = correct(api, game_id, {"seq": 1, "event": {"type": "hit", "side": 1, "value": 1},
                                      "expected_version": 1})
    assert response.status_code == 409
    assert api.state(game_id)["version"] == 2


def test_an_undone_event_or_a_change_of_nothing_is_refused(api):
    game_id = played(api, HIT_1, MISSA)
    api.undo(game_id)
    assert correct(api, game_id, {"seq": 2, "event": None}).status_code == 409
    assert correct(api, game_id, {"seq": 1, "event": HIT_1}).status_code == 409
    assert correct(api, game_id, {"seq": 99, "event": None}).status_code == 409


@pytest.mark.parametrize("body", [
    {"seq": "1", "event": None},
    {"seq": True, "event": None},
    {"event": None},
    {"seq": 1, "event": {"type": "hit", "side": 7, "value": 1}},
    {"seq": 1, "event": {"type": "nope"}},
    {"seq": 1, "event": None, "why": "typo"},
    {"seq": 1, "event": None, "expected_version": "2"},
])
def test_malformed_corrections_are_400_and_change_nothing(api, body):
    game_id = played(api, HIT_1, MISSA)
    before = api.state(game_id)
    response = correct(api, game_id, body)
    assert response.status_code == 400 and response.get_json()["error"]
    assert api.state(game_id) == before


def test_a_correction_of_an_unknown_game_is_404_and_a_form_post_is_415(api, client):
    assert correct(api, "nosuchgame", {"seq": 1, "event": None}).status_code == 404
    game_id = played(api, HIT_1)
    assert client.post(f"/api/games/{game_id}/corrections", data={"seq": "1"}).status_code == 415


def test_undo_after_a_correction_takes_back_the_last_event_as_corrected(api):
    game_id = played(api, HIT_1, MISSA, {"type": "adjust", "side": 0, "points": 5})
    correct(api, game_id, {"seq": 3, "event": {"type": "adjust", "side": 1, "points": 5,
                                               "note": ""}})
    assert api.state(game_id)["scores"] == [1, 6]
    assert api.undo(game_id).get_json()["scores"] == [1, 1]


def test_a_correction_can_finish_a_game_and_another_reopen_it(api):
    game_id = played(api, {"type": "adjust", "side": 0, "points": 31}, HIT_1, MISSA)
    assert api.state(game_id)["scores"] == [32, 1]
    early = correct(api, game_id, {"seq": 1, "event": {"type": "adjust", "side": 0, "points": 33,
                                                         "note": ""}},
                    headers={"Accept-Language": "en"})
    # The game would be over at its first event: the next could not have been played,
    # and the sentence says so (not only "the game is over", which would not help).
    assert early.status_code == 409
    assert early.get_json()["error"] == (
        "With this correction the game is over at event 1 (Correction +33 · Nous): the "
        "events recorded after it could no longer count. Save it with those events removed, "
        "or change the correction.")
    assert api.state(game_id)["scores"] == [32, 1]
    last = correct(api, game_id, {"seq": 3, "event": {"type": "missa", "side": 0}}).get_json()
    assert last["finished"] and last["winner"] == 0 and last["scores"] == [33, 0]
    reopened = correct(api, game_id, {"seq": 3, "event": MISSA}).get_json()
    assert not reopened["finished"] and reopened["scores"] == [32, 1]


# -- through the review's forms (a browser without JavaScript, CSRF on) ---------------------------

def test_the_review_offers_to_correct_every_standing_event(french, api):
    game_id = played(api, HIT_1, HIT_5, MISSA)
    html = french.get(f"/games/{game_id}/review").get_data(as_text=True)
    for seq in (1, 2, 3):
        assert f'href="/games/{game_id}/events/{seq}/correct"' in html


def test_a_correction_through_the_form_redirects_to_the_review_with_the_new_score(french, api):
    game_id = played(api, HIT_1, MISSA)
    page = f"/games/{game_id}/events/2/correct"
    response = press(french, page, "change", {"side": "0"})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game_id}/review"
    review = text(french.get(response.headers["Location"]).get_data(as_text=True))
    assert "Corrigé : le score est maintenant 2 – 0." in review
    assert "Missa · Nous corrigé, était : Missa · Eux" in review
    assert api.state(game_id)["scores"] == [2, 0]


def test_a_refused_correction_comes_back_with_the_sentence_that_names_the_event(french, api):
    game_id = played(api, HIT_1, HIT_5, MISSA)
    page = f"/games/{game_id}/events/1/correct"
    response = press(french, page, "remove")
    assert response.status_code == 409
    html = text(response.get_data(as_text=True))
    assert ("Le coup 2 (Khamsa (5) · Eux, manche 1 donne 1) ne serait plus possible :"
            in html)
    assert api.state(game_id)["scores"] == [0, 6] and api.state(game_id)["version"] == 3


def test_a_refused_correction_keeps_the_edit_in_the_form(french, api):
    game_id = played(api, {"type": "adjust", "side": 0, "points": 5}, HIT_1, HIT_5)
    page = f"/games/{game_id}/events/2/correct"
    response = press(french, page, "change", {"side": "1"})  # then the 5 follows its own 1
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    form, _ = find_button(html, "change")
    assert ("side", "1") in form.fields  # the edit, not the event as it stands
    assert api.state(game_id)["version"] == 3


def test_a_correction_that_ends_the_game_earlier_can_remove_what_came_after(french, api, client):
    game_id = played(api, {"type": "adjust", "side": 0, "points": 30}, HIT_1, MISSA,
                     {"type": "adjust", "side": 1, "points": 3}, MISSA)
    page = f"/games/{game_id}/events/1/correct"
    refused = press(french, page, "change", {"points": "33"})
    assert refused.status_code == 409
    html = refused.get_data(as_text=True)
    assert "Avec cette correction, la partie est finie au coup 1" in html
    form, trim = find_button(html, "change_and_trim")
    assert ("points", "33") in form.fields
    response = submit(french, form, trim)
    assert response.status_code == 303
    state = api.state(game_id)
    assert state["finished"] and state["winner"] == 0 and state["scores"] == [33, 0]
    # One correction, then one removal per event after the new end, all in the log.
    records = log_of(client, game_id)[-5:]
    assert [r["payload"] for r in records] == [
        {"corrects": 1, "event": {"type": "adjust", "side": 0, "points": 33, "note": ""}},
        {"corrects": 2, "event": None}, {"corrects": 3, "event": None},
        {"corrects": 4, "event": None}, {"corrects": 5, "event": None}]
    review = text(french.get(f"/games/{game_id}").get_data(as_text=True))
    assert review.count("retiré") == 4


def test_through_the_api_the_events_after_the_new_end_go_only_when_asked(api):
    game_id = played(api, {"type": "adjust", "side": 0, "points": 31}, HIT_1, MISSA)
    body = {"seq": 1, "event": {"type": "adjust", "side": 0, "points": 33}}
    assert correct(api, game_id, body).status_code == 409
    state = correct(api, game_id, {**body, "remove_after_end": True}).get_json()
    assert state["finished"] and state["scores"] == [33, 0] and state["version"] == 6
    assert correct(api, game_id, {**body, "remove_after_end": "yes"}).status_code == 400


def test_a_tringa_corrected_into_a_ronda_can_be_given_its_rank(french, api):
    tringa_vs_ronda = {"type": "announce", "announcements": [
        {"side": 0, "kind": "tringa"}, {"side": 1, "kind": "ronda"}]}
    game_id = played(api, tringa_vs_ronda, {"type": "next_deal"})
    assert api.state(game_id)["scores"] == [6, 0]
    page = f"/games/{game_id}/events/1/correct"
    # Two Rondas: the ranks decide, before the deal could end. Without them, refused...
    refused = press(french, page, "change", {"a0_kind": "ronda"})
    assert refused.status_code == 409 and api.state(game_id)["scores"] == [6, 0]
    # ...with them, taken: the 7s beat the 3s.
    response = press(french, page, "change", {"a0_kind": "ronda", "a0_rank": "7",
                                              "a1_rank": "3"})
    assert response.status_code == 303, text(response.get_data(as_text=True))
    assert api.state(game_id)["scores"] == [2, 0]


def test_an_announcement_forgotten_can_be_added(french, api):
    game_id = played(api, {"type": "announce", "announcements": [{"side": 0, "kind": "ronda"}]})
    page = f"/games/{game_id}/events/1/correct"
    response = press(french, page, "change", {"a1_side": "1", "a1_kind": "tringa"})
    assert response.status_code == 303
    assert api.state(game_id)["scores"] == [0, 6]


def test_the_card_count_form_shows_the_engines_complement(french, api):
    game_id = played(api, {"type": "end_hand", "cards": [None, 23]})
    html = french.get(f"/games/{game_id}/events/1/correct").get_data(as_text=True)
    assert 'name="cards0" type="number" inputmode="numeric" min="0" max="40" value="17"' in html


def test_a_missa_with_the_last_card_is_corrected_and_explained(french, api):
    game_id = played(api, HIT_1, MISSA)
    press(french, f"/games/{game_id}/events/2/correct", "change", {"last_card": "1"})
    assert api.state(game_id)["scores"] == [1, 0]  # the chain's 1 still scores, the missa not
    review = text(french.get(f"/games/{game_id}/review").get_data(as_text=True))
    assert "Missa avec la dernière carte · Eux corrigé, était : Missa · Eux" in review
    assert "Nous +1 · dernière carte : 0" in review  # why the missa gave nothing


def test_a_hidden_ronda_with_three_sides_is_corrected_with_its_receiver(french, api):
    body = {"sides": ["A", "B", "C"], "players": 3, "rules": {"preset": "classique"}}
    game_id = api.post("/api/games", body).get_json()["id"]
    api.event(game_id, type="hidden_ronda", side=1, to=0)
    page = f"/games/{game_id}/events/1/correct"
    response = press(french, page, "change", {"to": "2"})
    assert response.status_code == 303
    assert api.state(game_id)["scores"] == [0, 0, 5]


def test_a_correction_form_sent_twice_is_applied_once(french, api):
    game_id = played(api, HIT_1, MISSA)
    html = french.get(f"/games/{game_id}/events/1/correct").get_data(as_text=True)
    form, button = find_button(html, "change")
    first = submit(french, form, button, {"side": "1"})
    again = submit(french, form, button, {"side": "1"})
    assert first.status_code == again.status_code == 303
    assert api.state(game_id)["version"] == 3


def test_the_review_shows_corrected_removed_and_undone_events_as_such(french, api):
    game_id = played(api, HIT_1, MISSA, {"type": "adjust", "side": 0, "points": 2},
                     {"type": "adjust", "side": 1, "points": 4})
    api.undo(game_id)
    correct(api, game_id, {"seq": 3, "event": None})
    correct(api, game_id, {"seq": 2, "event": {"type": "missa", "side": 0}})
    page = text(french.get(f"/games/{game_id}/review").get_data(as_text=True))
    assert "Missa · Nous corrigé, était : Missa · Eux" in page
    assert "Correction +2 · Nous retiré" in page
    assert "Correction +4 · Eux annulé" in page
    html = french.get(f"/games/{game_id}/events/3/correct").get_data(as_text=True)
    assert find_button(html, "restore")  # a removed event can be put back
    html = french.get(f"/games/{game_id}/events/4/correct").get_data(as_text=True)
    assert not [f for f in forms_of(html) if f.method == "post"]  # an undone one cannot


def test_a_correction_page_of_no_event_is_404(french, api):
    game_id = played(api, HIT_1)
    assert french.get(f"/games/{game_id}/events/9/correct").status_code == 404
    assert french.get("/games/nosuchgame/events/1/correct").status_code == 404
    assert french.get(f"/games/{game_id}/events/x/correct").status_code == 404
