"""The new-game page's first-dealer choice says what each side will be
called, however its names were filled in: typed, tapped as recent players
(four players: the team after its partners, "Karim & Salma"), or left empty
(the default names), as the game then starts. Without JavaScript: after
the form's reloads (a recent player's button, another preset)."""

import html
import re

import pytest

from support.page_forms import forms_of, submit
from support.pages import api_state


def dealers(client, query: str) -> list[str]:
    page = client.get("/games/new?" + query).get_data(as_text=True)
    # Each name in its isolate (<bdi>): the text without the markup.
    return [html.unescape(re.sub("<[^>]+>", "", label)) for label in
            re.findall(r'<span data-name-of="name\d"[^>]*>(.*?)</span>', page)][:2]


@pytest.mark.parametrize("language, us, them", [("fr", "Nous", "Eux"), ("ar", "نحن", "هم"),
                                                ("en", "Us", "Them")])
def test_four_players_tapped_as_recent_players_deal_as_their_team(client, language, us, them):
    client.set_cookie("lang", language)
    # The partners' buttons (recent players) reload the form with the name picked.
    query = f"players=4&name0={us}&name1={them}&p1a=Omar&pick=p0a:Karim"
    assert dealers(client, query) == ["Karim", "Omar"]
    query = f"players=4&name0={us}&name1={them}&p0a=Karim&p1a=Omar&p1b=Leila&pick=p0b:Salma"
    assert dealers(client, query) == ["Karim & Salma", "Omar & Leila"]


def test_empty_sides_deal_under_their_default_names_and_start_so(french):
    assert dealers(french, "players=2&name0=&name1=") == ["Nous", "Eux"]
    assert dealers(french, "players=4&name0=&name1=&p1a=Omar&p1b=Leila") == [
        "Nous", "Omar & Leila"]
    form = forms_of(french.get("/games/new?players=2&name0=&name1=").get_data(as_text=True))[0]
    started = submit(french, form, extra={"first_dealer": "1"})
    state = api_state(french, started.headers["Location"])
    assert state["sides"] == ["Nous", "Eux"] and state["first_dealer"] == 1


def test_typed_names_are_the_dealers(french):
    assert dealers(french, "players=2&name0=Ali&name1=Karim") == ["Ali", "Karim"]
    # A team's own name, typed over the one offered, is kept over its partners',
    # through the form's reloads too.
    query = "players=4&name0=Les Lions&given0=Nous&name1=Eux&given1=Eux&p0a=Karim&p0b=Salma"
    assert dealers(french, query) == ["Les Lions", "Eux"]
    assert dealers(french, query + "&pick=p1a:Omar") == ["Les Lions", "Omar"]
    form = forms_of(french.get("/games/new?" + query).get_data(as_text=True))[0]
    started = submit(french, form)
    assert api_state(french, started.headers["Location"])["sides"] == ["Les Lions", "Eux"]
