"""The board's links say where they lead: none is only "More" (Lighthouse's
SEO audit of link texts, the board at 90 in English)."""

import re

import pytest

from support.pages import start_game

GENERIC = {"more", "here", "click here", "read more", "learn more", "this", "go", "start"}


def test_no_board_link_is_only_more(client):
    client.set_cookie("lang", "en")
    board = start_game(client)
    page = client.get(board).get_data(as_text=True)
    texts = [re.sub(r"<[^>]+>", "", text).strip().lower()
             for text in re.findall(r"<a [^>]*>(.*?)</a>", page, re.S)]
    assert texts and not GENERIC & set(texts)
    assert "options" in texts


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_the_options_sheet_is_titled_as_the_link_that_opens_it(client, language):
    """Seen at the table: the English board said "Options", its sheet "More"."""
    client.set_cookie("lang", language)
    board = start_game(client)
    page = client.get(board).get_data(as_text=True)
    link = re.search(r'<a [^>]*sheet=more[^>]*>(.*?)</a>', page, re.S).group(1).strip()
    sheet = client.get(board + "?sheet=more").get_data(as_text=True)
    title = re.search(r'<h2 id="sheet-title">(.*?)</h2>', sheet, re.S).group(1).strip()
    assert link == title, (link, title)
