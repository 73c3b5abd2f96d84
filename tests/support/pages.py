"""A game started through the new-game page, a board's state by its API
twin, a page's text without its tags."""

import html
import re

from support.page_forms import forms_of, submit


def start_game(client, players="2", names=("Nous", "Eux", ""), preset="appli", dealer="0"):
    # Choosing a preset reloads the form with its rules, as the page does.
    html = client.get(f"/games/new?preset={preset}").get_data(as_text=True)
    form = forms_of(html)[0]
    extra = {"players": players, "name0": names[0], "name1": names[1], "name2": names[2],
             "first_dealer": dealer}
    response = submit(client, form, extra=extra)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def api_state(client, board_url):
    return client.get("/api" + board_url).get_json()


def text(html):
    """A page's words, without its tags nor the direction isolates around names."""
    return " ".join(re.sub(r"</?bdi[^>]*>|[\u2066-\u2069]", "",  # inline: "d'<bdi>Eux</bdi>"
                           re.sub(r"<(?!/?bdi\b)[^>]+>", " ", html)).split())


def spaced_text(html):
    """A page's words, a space where each tag stood; without the marks that
    isolate numbers for right to left."""
    words = re.sub(r"<[^>]+>", " ", html).translate(dict.fromkeys(range(0x2066, 0x206A)))
    return " ".join(words.split())


def words(response):
    """A page's answer as text(): its words, its entities read."""
    return text(html.unescape(response.get_data(as_text=True)))


def notice(response):
    """The board's notice, as shown ("" when none)."""
    found = re.search(r'<p id="notice" class="notice( shown[^"]*)?"[^>]*>([^<]*)</p>',
                      response.get_data(as_text=True))
    return html.unescape(found.group(2)) if found.group(1) else ""
