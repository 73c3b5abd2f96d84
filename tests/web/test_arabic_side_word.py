"""Arabic says «فريق» (team) only of teams: two or three players alone are
sides (a name, «طرف»), as French says «camp» (a table read «فريق» for a lone player)."""

import html

from support.pages import start_game, text


def test_single_players_are_never_called_a_team_in_arabic(client):
    client.set_cookie("lang", "ar")
    for players, names in (("2", ("كريم", "سلمى", "")), ("3", ("علي", "بهية", "شفيق"))):
        board = start_game(client, players=players, names=names)
        for query in ("", "?sheet=end", "?sheet=more", "?a=0-ronda"):
            page = text(html.unescape(client.get(board + query).get_data(as_text=True)))
            assert "فريق" not in page, (players, query)
        assert f"ميسا لـ{names[0]}" in html.unescape(client.get(board).get_data(as_text=True))
    new = html.unescape(client.get("/games/new").get_data(as_text=True))
    assert "الطرف الأول" in new and "الفريق 1، اللاعب 1" in new  # the partners' fields are teams'
