"""The names the new-game form offers: what this phone last played, when it
had that number of players, its default names said in the scorer's
language; never another phone's game (a newcomer at the next table found
"Hassan", "Mounir" to clear), whose players are the recent players offered
one tap each."""

import html
import json
import re

from support.pages import start_game


def _offered(client, query=""):
    page = client.get("/games/new" + query).get_data(as_text=True)
    return [html.unescape(re.search(rf'id="{name}"[^>]*value="([^"]*)"', page).group(1))
            for name in ("name0", "name1", "name2")], page


def played(client, players="2", names=("Nous", "Eux", "")):
    """A game started on this phone, its board opened as after any Start."""
    board = start_game(client, players=players, names=names)
    client.get(board)
    return board


def test_a_phone_is_offered_what_it_last_played_for_that_number_of_players(client):
    client.set_cookie("lang", "fr")
    played(client, names=("Karim", "Samira", ""))
    assert _offered(client)[0][:2] == ["Karim", "Samira"]
    assert _offered(client, "?players=3")[0] == ["Nous", "Eux", "Vous"]
    played(client, players="3", names=("Ali", "Bahia", "Chafik"))
    assert _offered(client, "?players=3")[0] == ["Ali", "Bahia", "Chafik"]
    assert _offered(client)[0][:2] == ["Nous", "Eux"]  # its last game had three
    assert _offered(client, "?players=4")[0][:2] == ["Nous", "Eux"]


def test_a_phone_that_never_played_starts_from_the_default_names(app):
    hassan = app.test_client()
    hassan.set_cookie("lang", "fr")
    played(hassan, names=("Hassan", "Mounir", ""))
    newcomer = app.test_client()
    newcomer.set_cookie("lang", "fr")
    names, page = _offered(newcomer)
    assert names[:2] == ["Nous", "Eux"]
    # The other table's people are offered, one tap each.
    assert 'value="name0:Hassan"' in page and 'value="name1:Mounir"' in page
    assert _offered(hassan)[0][:2] == ["Hassan", "Mounir"]  # Hassan's phone still has them


def test_the_default_names_are_said_in_the_pages_language(client):
    client.set_cookie("lang", "fr")
    played(client, names=("Nous", "Eux", ""))
    client.set_cookie("lang", "ar")
    assert _offered(client)[0][:2] == ["نحن", "هم"]
    client.set_cookie("lang", "en")
    assert _offered(client)[0][:2] == ["Us", "Them"]


def test_the_page_gives_its_script_each_counts_names(client):
    client.set_cookie("lang", "en")
    played(client, players="3", names=("Ali", "Bahia", "Chafik"))
    page = _offered(client)[1]
    offers = json.loads(html.unescape(re.search(r'data-offers="([^"]*)"', page).group(1)))
    assert offers["3"] == ["Ali", "Bahia", "Chafik"] and offers["2"] == ["Us", "Them", "You"]


def test_people_s_names_are_not_padded_with_a_default_name(client):
    """Seen at the table: without JavaScript, 3 players after a 2-player game was
    offered "Nadia, Samir, Us"; the third field is left to type."""
    client.set_cookie("lang", "en")
    played(client, names=("Nadia", "Samir", ""))
    assert _offered(client)[0] == ["Nadia", "Samir", ""]
    assert _offered(client, "?players=3")[0] == ["Us", "Them", "You"]  # no 3-player game yet
    played(client, names=("Us", "Them", ""))
    assert _offered(client)[0] == ["Us", "Them", "You"]
