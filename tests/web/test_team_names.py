"""With four players the new-game page says a
team takes its partners' names unless its own name is typed; emptying the
team's name to let the partners name it was refused ("This field is
required"). Through the test client, as a phone without JavaScript."""

from support.page_forms import forms_of, submit
from support.pages import text


def new_game(client, **fields):
    form = forms_of(client.get("/games/new").get_data(as_text=True))[0]
    return submit(client, form, extra={"first_dealer": "0", **fields})


def test_an_emptied_team_name_takes_its_partners_names(french):
    response = new_game(french, players="4", name0="", name1="", p0a="Karim", p0b="Salma",
                        p1a="Omar", p1b="Leila")
    assert response.status_code == 303, text(response.get_data(as_text=True))
    game = french.get("/api" + response.headers["Location"]).get_json()
    assert game["sides"] == ["Karim & Salma", "Omar & Leila"]


def test_a_team_with_neither_a_name_nor_both_partners_is_asked_for_one(french):
    response = new_game(french, players="4", name0="", name1="Eux", p0a="Karim", p0b="",
                        p1a="Omar", p1b="Leila")
    assert response.status_code == 400
    assert "Nommez cette équipe, ou ses deux partenaires." in text(response.get_data(as_text=True))


def test_a_side_left_empty_takes_its_default_name(french):
    """As the first-dealer choice says beforehand: "Nous", not "Camp 1"."""
    response = new_game(french, players="2", name0="", name1="Omar")
    assert response.status_code == 303, text(response.get_data(as_text=True))
    assert french.get("/api" + response.headers["Location"]).get_json()["sides"] == [
        "Nous", "Omar"]
    response = new_game(french, players="4", name0="Les Lions", name1="", p0a="Karim",
                        p0b="Salma")
    game = french.get("/api" + response.headers["Location"]).get_json()
    assert game["sides"] == ["Les Lions", "Eux"]
