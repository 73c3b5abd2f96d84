"""A marked announcement is taken back before Confirm by its chip, a link to the
board's draft without it (a phone without JavaScript follows it as any
link); and a side holds one announcement per player, the engine's rule: the
button of one more is off and says why. Through the test client."""

import re
from html import unescape

from support.pages import text


def chips(html):
    """Each chip of the draft: (its link's address, its words)."""
    marks = re.search(r'<ul class="marks">(.*?)</ul>', html, re.S)[1]
    return [(unescape(href), text(words)) for href, words in
            re.findall(r'<a href="([^"]*)"[^>]*>(.*?)</a>', marks, re.S)]


def test_each_chip_takes_back_the_last_one_of_its_kind(french, api):
    game = api.new_game(sides=["Karim & Salma", "Ali & Omar"], players=4)["id"]
    board = f"/games/{game}"
    html = french.get(f"{board}?a=0-ronda&a=1-tringa&a=0-ronda").get_data(as_text=True)
    # Each keeps the version the draft was first marked on (`at`, here the page's).
    assert chips(html) == [(f"{board}?a=0-ronda&a=1-tringa&at=0", "Ronda ×2"),
                           (f"{board}?a=0-ronda&a=0-ronda&at=0", "Tringa")]
    assert 'aria-label="Retirer une Ronda marquée pour Karim &amp; Salma"' in html
    # Followed: one Ronda is left.
    html = french.get(chips(html)[0][0]).get_data(as_text=True)
    assert chips(html) == [(f"{board}?a=1-tringa&at=0", "Ronda"),
                           (f"{board}?a=0-ronda&at=0", "Tringa")]
    # The last chip leads to the board with no draft at all.
    html = french.get(f"{board}?a=1-tringa").get_data(as_text=True)
    assert chips(html) == [(board, "Tringa")]


def test_a_side_full_of_announcements_says_why_a_further_one_is_off(french, api):
    game = api.new_game(sides=["Karim & Salma", "Ali & Omar"], players=4)["id"]
    board = f"/games/{game}"
    html = french.get(f"{board}?a=0-ronda&a=0-ronda").get_data(as_text=True)
    ronda = re.search(r'<a class="button kind-ronda" href="([^"]*)"[^>]*aria-disabled="true"', html)
    assert ronda and unescape(ronda[1]) == f"{board}?a=0-ronda&a=0-ronda&at=0&why=0-ronda"
    said = french.get(unescape(ronda[1])).get_data(as_text=True)
    assert ("Karim &amp; Salma ont déjà annoncé deux fois : chaque partenaire annonce une fois "
            "par donne.") in said
    assert chips(said) == [(f"{board}?a=0-ronda&at=0", "Ronda ×2")]
    # The other side can still mark theirs.
    assert re.search(r'<a class="button kind-ronda" href="[^"]*a=1-ronda&amp;at=0"', html)
