"""A player's line (games, won, average margin) is one list: its commas are
the language's, not Latin ones in Arabic ("3 ألعاب, فاز في 2")."""

import re

import pytest


@pytest.mark.parametrize(("language", "comma"), [("ar", "،"), ("fr", ","), ("en", ",")])
def test_a_players_line_uses_the_languages_comma(client, api, language, comma):
    game = api.new_game(sides=["Nadia", "Karim"])
    api.post(f"/api/games/{game['id']}/events", {"type": "adjust", "side": 0, "points": 40})
    client.set_cookie("lang", language)
    people = client.get("/players").get_data(as_text=True)
    nadia = re.search(r'href="(/players/\d+)"[^>]*>\s*(?:<bdi>)?Nadia', people).group(1)
    for page in (nadia, "/stats?name=Nadia"):  # the person's page, the stats' look-up
        html = client.get(page).get_data(as_text=True)
        line = re.search(r'<p class="player-line">(.*?)</p>', html, re.S)
        assert line is not None, page
        words = " ".join(re.sub(r"<[^>]+>", " ", line.group(1)).split())
        assert words.count(comma) >= 2, words
        if comma != ",":
            assert "," not in words, words
