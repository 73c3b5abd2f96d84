"""Names and numbers in the review and the lists are isolated by the page's
markup (<bdi>, dir="ltr"), never by invisible direction characters: a text
copied from them, or read by a screen reader, holds only what is seen."""

import re

import pytest

from support.page_forms import forms_of, submit

# LRM, RLM, ALM, the embeddings and overrides, the isolates.
INVISIBLE = re.compile("[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]")


@pytest.fixture
def history(client, api):
    team = api.new_game(sides=["Karim & سلمى", "علي & Omar"], players=4)["id"]
    api.event(team, type="adjust", side=1, points=-3)
    api.event(team, type="hit", side=0, value=1)
    api.event(team, type="adjust", side=0, points=60)
    running = api.new_game(sides=["سلمى", "Youssef"])["id"]
    api.event(running, type="missa", side=0)
    binned = api.new_game(sides=["Léa", "نادية"])["id"]
    page = client.get(f"/games/{binned}/delete").get_data(as_text=True)
    submit(client, [f for f in forms_of(page) if f.method == "post"][0])
    return team, running, binned


@pytest.mark.parametrize("language", ["ar", "fr"])
def test_the_review_and_the_lists_hold_no_invisible_direction_mark(client, history,
                                                                    language):
    team, running, _ = history
    players = client.get("/players").get_data(as_text=True)
    person = re.search(r'href="/players/(\d+)"', players).group(1)
    for path in (f"/games/{team}/review", f"/games/{running}/review", "/games",
                 "/games/bin", "/players", f"/players/{person}", "/stats"):
        page = client.get(f"{path}?lang={language}")
        assert page.status_code == 200, path
        found = INVISIBLE.findall(page.get_data(as_text=True))
        assert not found, (path, [hex(ord(c)) for c in found])


def test_the_reviews_points_and_scores_are_isolated_by_markup(client, api):
    game = api.new_game(sides=["علي", "Karim"])["id"]
    api.event(game, type="adjust", side=1, points=-3)
    html = client.get(f"/games/{game}/review?lang=ar").get_data(as_text=True)
    assert '<span class="pair"><bdi>Karim</bdi> <bdi dir="ltr">-3</bdi></span>' in html
    assert '<bdi dir="ltr">0</bdi> – <bdi dir="ltr">\u22123</bdi>' in html  # a real minus
