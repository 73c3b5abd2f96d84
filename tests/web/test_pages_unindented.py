"""The pages are drawn from their templates without the spaces that begin
their lines (scorekeeper/web/plumbing/slim.py, UnindentedLoader): the same
page to read, a board's page smaller once gzipped."""

import gzip
import re

import pytest
from jinja2 import FileSystemLoader

from support.paths import ROOT

TEMPLATES = ROOT / "templates"


def words(html: str) -> str:
    """What a page says and holds, its runs of white space made one (as a
    browser draws them outside <pre> and `white-space: pre`)."""
    return re.sub(r"\s+", " ", html).strip()


def board_page(client) -> str:
    game = client.post("/api/games", json={"sides": ["Nous", "Eux"], "players": 2}).get_json()["id"]
    for event in ({"type": "missa", "side": 0}, {"type": "hit", "side": 1, "value": 1}):
        client.post(f"/api/games/{game}/events", json=event)
    return f"/games/{game}"


def drawn(app, client, path: str) -> str:
    """The page at `path`, its form tokens left out (each drawing has its own)."""
    html = client.get(path).get_data(as_text=True)
    return re.sub(r'value="[\w.-]{12,}"', 'value=""', html)


@pytest.mark.parametrize("path", ["/", "/games/new", "board", "/rules", "/games"])
def test_a_page_says_the_same_as_its_indented_template_would(app, client, path):
    path = board_page(client) if path == "board" else path
    unindented = drawn(app, client, path)
    assert not re.search(r"^[ \t]+\S", unindented, re.M)
    app.jinja_loader = FileSystemLoader(str(TEMPLATES))
    app.jinja_env.cache.clear()
    indented = drawn(app, client, path)
    assert re.search(r"^[ \t]+\S", indented, re.M)  # the templates' own indentation
    assert words(unindented) == words(indented)


def test_no_template_holds_text_whose_spaces_are_kept():
    for template in TEMPLATES.rglob("*.html"):
        source = template.read_text()
        assert not re.search(r"<(pre|textarea)\b", source), template
        # An attribute's value over several lines would lose its spaces.
        assert not re.search(r'=\s*"[^"{}<>]*\n[^"{}<>]*"', source), template


def test_a_boards_page_is_smaller_once_gzipped(app, client):
    path = board_page(client)
    unindented = gzip.compress(drawn(app, client, path).encode())
    app.jinja_loader = FileSystemLoader(str(TEMPLATES))
    app.jinja_env.cache.clear()
    indented = gzip.compress(drawn(app, client, path).encode())
    assert len(unindented) < len(indented) - 50
