"""Knockout and Swiss nights through their pages, without JavaScript: the
new night's form, the bracket with a match's table in one tap, the winner
sent on the moment the game ends, the big screen and its data, a Swiss round
that waits for its tables (or the director, who sees them named), a
withdrawal and a late entrant; and a round robin's next round, offered once
its tables are done."""

import html as markup
import re

from support import pages
from support.nights import night_games, start_night
from support.page_forms import forms_of, submit


def text(html):
    return markup.unescape(pages.text(html))


def new_tournament(client, kind, entrants, **fields):
    html = client.get("/nights/new").get_data(as_text=True)
    form = next(f for f in forms_of(html) if f.method == "post")
    extra = {"name": "Café cup", "date": "2026-12-04", "players": "2", "preset": "appli",
             "format": kind, "match_games": "1", "seeding": "rating",
             "more": "\n".join(entrants), **fields}
    response = submit(client, form, extra=extra)
    assert response.status_code == 303, text(response.get_data(as_text=True))[:600]
    return response.headers["Location"]


def finish(api, game_id, winner_name, points=40):
    sides = api.state(game_id)["sides"]
    response = api.event(game_id, type="adjust", side=sides.index(winner_name), points=points)
    assert response.status_code == 200


def start_button(client, night, label):
    """The form of the match whose start button names `label` (its two entrants)."""
    html = client.get(night).get_data(as_text=True)
    for form in forms_of(html):
        if "/matches/" in form.action and any(label in b.label for b in form.buttons):
            return form
    raise AssertionError(f"no start button for {label}: {text(html)[:2000]}")


def test_a_knockout_of_five_is_played_from_its_bracket(english, api):
    night = new_tournament(english, "knockout", ["Karim", "Salma", "Ali", "Omar", "Nadia"])
    page = text(english.get(night).get_data(as_text=True))
    assert "knockout · one game a match · seeded by rating" in page
    assert "Quarter-finals" in page and "Semi-finals" in page and "Final" in page
    assert page.count("through with a bye") == 3  # the three top seeds
    assert "Next round" not in page  # a knockout has no rounds to open
    response = submit(english, start_button(english, night, "Omar – Nadia"))
    assert response.status_code == 303 and "/games/" in response.headers["Location"]
    game = response.headers["Location"].rsplit("/", 1)[1]
    assert api.state(game)["sides"] == ["Omar", "Nadia"]
    assert "Table 1 · being played" in text(english.get(night).get_data(as_text=True))
    finish(api, game, "Nadia")
    page = text(english.get(night).get_data(as_text=True))
    semi = page[page.index("Semi-finals"):page.index("Final ")]
    assert "Karim" in semi and "Nadia" in semi  # Nadia went on the moment her game ended
    for label, winner in (("Karim – Nadia", "Karim"), ("Salma – Ali", "Ali"),
                          ("Karim – Ali", "Karim")):
        response = submit(english, start_button(english, night, label))
        finish(api, response.headers["Location"].rsplit("/", 1)[1], winner)
    page = text(english.get(night).get_data(as_text=True))
    assert "Karim won the knockout." in page
    screen = text(english.get(night + "/screen").get_data(as_text=True))
    assert "Karim won the knockout." in screen and "Start the table" not in screen
    data = english.get(night + "/screen.json").get_json()
    assert data["champion"] == 0 and data["entrants"][0] == "Karim"
    assert [len(r) for r in data["bracket"]] == [4, 2, 1]


def test_a_corrected_result_sends_the_other_entrant_on(english, api, client):
    night = new_tournament(english, "knockout", ["A1", "B2", "C3"])
    response = submit(english, start_button(english, night, "B2 – C3"))
    game = response.headers["Location"].rsplit("/", 1)[1]
    finish(api, game, "C3")
    def final():
        page = text(english.get(night).get_data(as_text=True))
        return page[page.index("Final"):page.index("Tables")]

    assert "C3" in final()
    correction = client.post(f"/api/games/{game}/corrections",
                             json={"seq": 1, "event": {"type": "adjust", "side": 0,
                                                       "points": 40}})
    assert correction.status_code == 200, correction.get_json()
    assert "B2" in final() and "C3" not in final()


def test_two_matches_started_from_one_page_are_two_tables(english, app):
    night = new_tournament(english, "knockout", ["P1", "P2", "P3", "P4"])
    html = english.get(night).get_data(as_text=True)
    starts = [f for f in forms_of(html) if "/matches/" in f.action]
    assert len(starts) == 2
    for form in starts:
        assert submit(english, form).status_code == 303
    assert len(night_games(app, night.rsplit("/", 1)[1])) == 2


def test_a_bad_tournament_form_says_why(english):
    html = english.get("/nights/new").get_data(as_text=True)
    form = next(f for f in forms_of(html) if f.method == "post")
    response = submit(english, form, extra={"name": "Cup", "date": "2026-12-04",
                                            "format": "knockout", "more": "Karim"})
    assert response.status_code == 400
    assert "A knockout or a Swiss evening needs two entrants at least." in text(
        response.get_data(as_text=True))


def test_the_roster_ticks_and_teams_typed_become_entrants(english, api):
    api.new_game(sides=["Karim", "Ali"])
    html = english.get("/nights/new").get_data(as_text=True)
    assert 'name="people" value="Karim"' in html
    form = next(f for f in forms_of(html) if f.method == "post")
    response = submit(english, form, extra={
        "name": "Cup", "date": "2026-12-04", "players": "2", "format": "swiss",
        "people": "Karim", "more": "Zineb\n\nYoussef"})
    night = response.headers["Location"]
    page = text(english.get(night).get_data(as_text=True))
    for name in ("Karim", "Zineb", "Youssef"):
        assert name in page
    response = submit(english, form, extra={
        "name": "Cup of teams", "date": "2026-12-04", "players": "4", "format": "knockout",
        "more": "Karim & Salma\nAli & Omar"})
    page = text(english.get(response.headers["Location"]).get_data(as_text=True))
    assert "Karim & Salma" in page and "Ali & Omar" in page


def test_a_swiss_round_waits_for_its_tables_and_names_them_to_the_director(english, api, app):
    night = new_tournament(english, "swiss", ["A", "B", "C", "D", "E"], match_games="1")
    page = text(english.get(night).get_data(as_text=True))
    assert "Swiss, 3 rounds" in page and "Next round (1 of 3)" in page
    html = english.get(night + "/round").get_data(as_text=True)
    assert "The round before is not over" not in text(html)
    submit(english, next(f for f in forms_of(html) if f.method == "post"))
    first, second = night_games(app, night.rsplit("/", 1)[1])
    page = text(english.get(night).get_data(as_text=True))
    assert "Next round (2 of 3)" not in page
    assert "Round 1 still has 2 matches to finish" in page and "E" in page
    finish(api, first, "A")
    html = english.get(night + "/round").get_data(as_text=True)
    assert "The round before is not over: Table 2 · being played: B – D" in text(html)
    form = next(f for f in forms_of(html) if f.method == "post")
    assert dict(form.fields)["force"] == "1"
    unconfirmed = dict(form.fields, force="")
    response = english.post(night + "/round", data=unconfirmed)
    assert response.status_code == 303 and len(night_games(app, night.rsplit("/", 1)[1])) == 2
    assert submit(english, form).status_code == 303  # confirmed: round 2 starts anyway
    assert len(night_games(app, night.rsplit("/", 1)[1])) == 4


def test_a_swiss_entrant_withdraws_and_a_late_one_joins(english, api, app):
    night = new_tournament(english, "swiss", ["A", "B", "C", "D"])
    html = english.get(night + "/round").get_data(as_text=True)
    submit(english, next(f for f in forms_of(html) if f.method == "post"))
    for game in night_games(app, night.rsplit("/", 1)[1]):
        finish(api, game, api.state(game)["sides"][0])
    html = english.get(night).get_data(as_text=True)
    withdraw = next(f for f in forms_of(html) if f.action.endswith("/entrants/1/withdraw"))
    response = submit(english, withdraw)
    assert response.status_code == 303
    add = next(f for f in forms_of(html) if f.action.endswith("/entrants"))
    response = submit(english, add, extra={"first": "Zineb"})
    page = text(english.get(response.headers["Location"].split("#")[0]).get_data(as_text=True))
    assert "B (withdrawn)" in page and "Zineb (from round 2)" in page
    pairs = text(english.get(night + "/round").get_data(as_text=True))
    assert "Zineb" in pairs and " B " not in pairs


def test_a_round_robin_offers_its_next_round_once_its_tables_are_done(english, api, app):
    """Not as soon as round 1's tables are opened: when they are over, or
    forced by the director, who sees the tables still being played."""
    night = start_night(english, entrants=[("Karim",), ("Ali",), ("Omar",), ("Nadia",)])
    html = english.get(f"/nights/{night}/round").get_data(as_text=True)
    submit(english, next(f for f in forms_of(html) if f.method == "post"))
    first, second = night_games(app, night)
    page = text(english.get(f"/nights/{night}").get_data(as_text=True))
    assert "Next round (2 of 3)" not in page
    assert "Round 1 is still being played at tables 1, 2" in page
    assert "Start round 2 anyway…" in page
    finish(api, first, api.state(first)["sides"][0])
    html = english.get(f"/nights/{night}/round").get_data(as_text=True)
    assert "Table 2 · being played" in text(html) and "Start anyway" in text(html)
    form = next(f for f in forms_of(html) if f.method == "post")
    response = english.post(f"/nights/{night}/round", data=dict(form.fields, force=""))
    assert response.headers["Location"].endswith(f"/nights/{night}/round")  # not confirmed
    assert "confirm to start this one anyway" in text(english.get(
        response.headers["Location"]).get_data(as_text=True))
    assert len(night_games(app, night)) == 2
    finish(api, second, api.state(second)["sides"][1])
    page = text(english.get(f"/nights/{night}").get_data(as_text=True))
    assert "Next round (2 of 3)" in page and "still being played" not in page


def test_the_screen_link_shows_the_bracket_and_nothing_to_press(client, app, api):
    night = new_tournament(client, "knockout", ["Karim", "Salma", "Ali"])
    html = client.get(night).get_data(as_text=True)
    link_form = next(f for f in forms_of(html) if f.action.endswith("/screen-link"))
    submit(client, link_form)  # the owner turns the screen link on
    html = client.get(night).get_data(as_text=True)
    link = re.search(r'href="(http://[^"]+/screen\?screen=\w+)"', html).group(1)
    path = link.split("localhost", 1)[-1]
    screen = client.get(path, environ_base={"REMOTE_ADDR": "192.168.1.20"})
    assert screen.status_code == 200
    body = screen.get_data(as_text=True)
    assert 'class="bracket"' in body and "<form" not in body and "<button" not in body


def test_the_screen_asks_for_the_stamp_alone_through_its_link_too(client, api):
    """Every second a TV asks whether anything moved: the stamp alone, not
    every table and match of a 128-entrant evening."""
    night = new_tournament(client, "knockout", ["Karim", "Salma", "Ali"])
    html = client.get(night).get_data(as_text=True)
    submit(client, next(f for f in forms_of(html) if f.action.endswith("/screen-link")))
    link = re.search(r'href="http://[^"]+(/nights/\w+/screen\?screen=\w+)"',
                     client.get(night).get_data(as_text=True)).group(1)
    away = {"REMOTE_ADDR": "192.168.1.20"}
    screen = client.get(link, environ_base=away).get_data(as_text=True)
    feed = markup.unescape(re.search(r'data-feed="([^"]+)"', screen).group(1))
    assert "stamp=1" in feed and "screen=" in feed
    before = client.get(feed, environ_base=away).get_json()
    assert list(before) == ["stamp"]
    submit(client, start_button(client, night, "Salma – Ali"))
    assert client.get(feed, environ_base=away).get_json()["stamp"] != before["stamp"]
