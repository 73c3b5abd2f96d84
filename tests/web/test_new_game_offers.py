"""The names the new-game form offers (playtest 1, #10): the last game's of
the same number of players, its default names in the scorer's language."""

import html
import json
import re

from support.pages import start_game


def _offered(client, query=""):
    page = client.get("/games/new" + query).get_data(as_text=True)
    return [html.unescape(re.search(rf'id="{name}"[^>]*value="([^"]*)"', page).group(1))
            for name in ("name0", "name1", "name2")], page


def test_a_three_player_game_is_offered_to_three_players_only(client):
    client.set_cookie("lang", "fr")
    start_game(client, names=("Karim", "Samira", ""))
    start_game(client, players="3", names=("Ali", "Bahia", "Chafik"))
    assert _offered(client)[0][:2] == ["Karim", "Samira"]
    assert _offered(client, "?players=3")[0] == ["Ali", "Bahia", "Chafik"]
    assert _offered(client, "?players=4")[0][:2] == ["Nous", "Eux"]


def test_the_default_names_are_said_in_the_pages_language(client):
    client.set_cookie("lang", "fr")
    start_game(client, names=("Nous", "Eux", ""))
    client.set_cookie("lang", "ar")
    assert _offered(client)[0][:2] == ["نحن", "هم"]
    client.set_cookie("lang", "en")
    assert _offered(client)[0][:2] == ["Us", "Them"]


def test_the_page_gives_its_script_each_counts_names(client):
    client.set_cookie("lang", "en")
    start_game(client, players="3", names=("Ali", "Bahia", "Chafik"))
    page = _offered(client)[1]
    offers = json.loads(html.unescape(re.search(r'data-offers="([^"]*)"', page).group(1)))
    assert offers["3"] == ["Ali", "Bahia", "Chafik"] and offers["2"] == ["Us", "Them", "You"]


def test_people_s_names_are_not_padded_with_a_default_name(client):
    """Playtest 5: without JavaScript, 3 players after a 2-player game was
    offered "Nadia, Samir, Us"; the third field is left to type."""
    client.set_cookie("lang", "en")
    start_game(client, names=("Nadia", "Samir", ""))
    assert _offered(client)[0] == ["Nadia", "Samir", ""]
    assert _offered(client, "?players=3")[0] == ["Us", "Them", "You"]  # no 3-player game yet
    start_game(client, names=("Us", "Them", ""))
    assert _offered(client)[0] == ["Us", "Them", "You"]
