"""The board's links say where they lead: none is only "More" (Lighthouse's
SEO audit of link texts, the board at 90 in English)."""

import re

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
