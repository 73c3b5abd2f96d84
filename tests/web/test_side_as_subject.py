"""A sentence whose subject is a side agrees with it. A
team takes the plural ("Karim & Salma have already announced twice",
"Omar & Leila ont gagné"); a default name is the pronoun it is ("Nous avons
gagné", «فزنا»), and Arabic says «لنا»، «لهم» where «لـ» comes before one
(not «روندا لـنحن»). One place decides: web/wording/elision.py (`about`)."""

from html import unescape

import pytest

from support.pages import text

ISOLATES = dict.fromkeys(range(0x2066, 0x206A))


def page(client, path, language):
    html = client.get(f"{path}{'&' if '?' in path else '?'}lang={language}").get_data(as_text=True)
    return unescape(text(html)).translate(ISOLATES)


def won(api, sides, players=None, winner=0):
    game = api.new_game(sides=sides, **({"players": players} if players else {}))
    assert api.event(game["id"], type="adjust", side=winner, points=40).status_code == 200
    return game["id"]


def refusal(client, game_id, language, announcements):
    response = client.post(f"/api/games/{game_id}/events", headers={"Accept-Language": language},
                           json={"type": "announce", "announcements": announcements})
    assert response.status_code == 400
    return response.get_json()["error"]


@pytest.mark.parametrize("language, said", [
    ("en", "Karim & Salma have already announced twice"),
    ("fr", "Karim & Salma ont déjà annoncé deux fois"),
    ("ar", "أعلن Karim & Salma مرتين من قبل")])
def test_a_team_has_already_announced_in_the_plural(client, api, language, said):
    game = api.new_game(sides=["Karim & Salma", "Omar & Leila"], players=4)["id"]
    three = [{"side": 0, "kind": "ronda"}] * 3
    assert said in refusal(client, game, language, three).translate(ISOLATES)


@pytest.mark.parametrize("language, said", [
    ("en", "We have already announced: each player"),
    ("fr", "Nous avons déjà annoncé : chaque joueur"),
    ("ar", "أعلنّا من قبل")])
def test_a_default_name_has_already_announced_as_a_pronoun(client, api, language, said):
    names = {"en": ["Us", "Them"], "fr": ["Nous", "Eux"], "ar": ["نحن", "هم"]}[language]
    game = api.new_game(sides=names)["id"]
    assert said in refusal(client, game, language, [{"side": 0, "kind": "ronda"}] * 2)


def test_who_won_agrees_with_a_team_and_a_default_name(client, api):
    teams = won(api, ["Omar & Leila", "Hamza & Sanaa"], players=4)
    person = won(api, ["Karim", "Ali"])
    us = won(api, ["Nous", "Eux"])
    won(api, ["Nous", "Eux"], winner=1)
    won(api, ["Us", "Them"])
    won(api, ["نحن", "هم"], winner=1)
    history = page(client, "/games", "fr")
    for said in ("Omar & Leila ont gagné", "Karim a gagné", "Nous avons gagné",
                 "Ils ont gagné"):
        assert said in history, said
    assert "Nous a gagné" not in history and "Omar & Leila a gagné" not in history
    english = page(client, "/games", "en")
    assert "We won" in english and "They won" in english and "Karim won" in english
    arabic = page(client, "/games", "ar")
    assert "فازوا" in arabic and "فاز Karim" in arabic and "فاز هم" not in arabic
    assert "Omar & Leila ont gagné." in page(client, f"/games/{teams}/review", "fr")
    assert "Nous avons gagné." in page(client, f"/games/{us}/review", "fr")
    assert "Karim a gagné." in page(client, f"/games/{person}/review", "fr")


def test_a_hidden_ronda_and_the_count_with_default_names(client, api):
    game = api.new_game(sides=["Nous", "Eux"], rules={"preset": "classique"})["id"]
    more = page(client, f"/games/{game}?sheet=more", "fr")
    assert "Nous avons caché une Ronda → +5 pour Eux" in more
    assert "Ils ont caché une Ronda → +5 pour Nous" in more
    english = api.new_game(sides=["Us", "Them"], rules={"preset": "classique"})["id"]
    assert "We hid a Ronda → +5 to Them" in page(client, f"/games/{english}?sheet=more", "en")
    arabic = api.new_game(sides=["نحن", "هم"], rules={"preset": "classique"})["id"]
    more = page(client, f"/games/{arabic}?sheet=more", "ar")
    assert "أخفينا روندا ← \u200e+5 لهم" in more and "لـ هم" not in more
    end = page(client, f"/games/{arabic}?sheet=end", "ar")
    assert "الأوراق التي جمعناها" in end and "جمعها نحن" not in end
    assert "Cartes ramassées par Nous" in page(client, f"/games/{game}?sheet=end", "fr")
    teams = api.new_game(sides=["Karim & Salma", "Omar & Leila"], players=4,
                         rules={"preset": "classique"})["id"]
    assert "Karim & Salma ont caché une Ronda → +5 pour Omar & Leila" in page(
        client, f"/games/{teams}?sheet=more", "fr")


def test_arabic_says_lana_and_lahum_after_li(client, api):
    """The board's buttons name their side to a screen reader: «روندا لنا»."""
    game = api.new_game(sides=["نحن", "هم"])["id"]
    board = client.get(f"/games/{game}?lang=ar").get_data(as_text=True)
    assert 'aria-label="روندا لنا"' in board and 'aria-label="ميسا لهم"' in board
    assert "لـنحن" not in board and "لـهم" not in board
    named = api.new_game(sides=["Karim", "Nousra"])["id"]  # names of their own
    board = client.get(f"/games/{named}?lang=ar").get_data(as_text=True)
    assert 'aria-label="روندا لـKarim"' in board and 'aria-label="ميسا لـNousra"' in board
