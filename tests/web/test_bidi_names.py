"""A side's name inside a sentence is isolated, so that it reads whole in
any script.

In Arabic a Latin name ran into the words around it: "فاز Omar & Leila!"
read "!Leila", the hidden Ronda's button mixed its order. Every sentence of
the board, its sheets and its result that holds a name must hold it
isolated: in a <bdi> in the page, between FSI and PDI in text the page's
script shows (data-what). An element that holds the name alone (a score
box's heading, a radio's label) is isolated by itself.
"""

from html.parser import HTMLParser

import pytest

TEAMS = ("Omar & Leila", "Hamza & Sanaa")
FSI = "\u2068"


class NamesInText(HTMLParser):
    """Each place a name is shown outside an isolate: (tag, the text around it)."""

    SKIPPED = {"script", "style", "title"}

    def __init__(self, names):
        super().__init__(convert_charrefs=True)
        self.names, self.stack, self.bare = names, [], []

    def handle_starttag(self, tag, attrs):
        # A button is a flex box: a <bdi> right in it would be a box of its
        # own, and its sentence would fall apart in columns.
        if tag == "bdi" and self.stack and self.stack[-1] in ("button", "a"):
            self.bare.append(("bdi in a " + self.stack[-1], ""))
        if tag not in ("input", "br", "img", "meta", "link"):
            self.stack.append(tag)
        for name, value in attrs:
            if name == "data-what" and value:
                self.check(value, "data-what", isolated_only=True)

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop() != tag:
            pass

    def handle_data(self, data):
        tag = self.stack[-1] if self.stack else ""
        if tag in self.SKIPPED:
            return
        # Alone in its element (a <bdi>, a heading, a label): nothing to run into.
        if data.strip() in self.names:
            return
        self.check(data, tag)

    def check(self, text, where, isolated_only=False):
        for name in self.names:
            start = text.find(name)
            while start != -1:
                # A name-and-points pair may be one isolate: "⁨Omar & Leila ⁦+2⁩⁩".
                if not (start and text[start - 1] == FSI):
                    self.bare.append((where, text.strip()))
                start = text.find(name, start + 1)


def bare_names(page: str) -> list[tuple[str, str]]:
    parser = NamesInText(TEAMS)
    parser.feed(page)
    return parser.bare


def post(client, game, event):
    response = client.post(f"/api/games/{game}/events", json=event)
    assert response.status_code == 200, response.get_json()


@pytest.mark.parametrize("language", ["ar", "fr"])
def test_every_name_in_a_sentence_is_isolated(client, language):
    client.set_cookie("lang", language)
    game = client.post("/api/games", json={
        "sides": list(TEAMS), "players": 4, "rules": {"preset": "classique", "target": 15}},
    ).get_json()["id"]
    board = f"/games/{game}"
    pages = {}
    post(client, game, {"type": "hit", "side": 0, "value": 1})  # a chain open
    pages["chain, draft"] = board + "?a=0-ronda&a=1-tringa"
    pages["more"] = board + "?sheet=more"
    post(client, game, {"type": "announce", "announcements": [
        {"side": 0, "kind": "ronda"}, {"side": 1, "kind": "ronda"}]})
    pages["ranks"] = board + "?sheet=ranks"
    post(client, game, {"type": "reveal", "ranks": [7, 5]})
    post(client, game, {"type": "missa", "side": 1})
    for _ in range(2):
        post(client, game, {"type": "next_deal"})
    pages["count"] = board + "?sheet=end&cards0=22"
    pages["count missing"] = board + "?sheet=end"
    pages["count beyond"] = board + "?sheet=end&cards0=45"
    for name, url in pages.items():
        page = client.get(url).get_data(as_text=True)
        assert bare_names(page) == [], (language, name)
    post(client, game, {"type": "end_hand", "cards": [22, None]})
    post(client, game, {"type": "adjust", "side": 0, "points": 15})  # the win
    result = client.get(board).get_data(as_text=True)
    assert 'class="winner' in result
    assert bare_names(result) == [], language
