"""Every page says what it is to a search engine or a shared link (Lighthouse's
SEO audit asks for one): a meta description, in the page's language."""

import html
import re

import pytest

from support.pages import start_game

DESCRIPTION = re.compile(r'<meta name="description" content="([^"]+)">')


@pytest.mark.parametrize("language, words", [("fr", "Ronda"), ("ar", "روندا"), ("en", "Ronda")])
def test_every_page_has_a_description_in_its_language(client, language, words):
    client.set_cookie("lang", language)
    board = start_game(client)
    for address in ("/", "/games/new", board, "/games", "/stats", "/settings", "/rules",
                    "/players", "/nights", "/nights/new", "/pair", "/games/nope"):
        page = client.get(address).get_data(as_text=True)
        found = DESCRIPTION.search(page)
        assert found and words in html.unescape(found.group(1)), address
