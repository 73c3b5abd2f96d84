"""/stats: per person across finished games (played, won, win rate, average
final margin, each kind of gain; a name typed, whatever its case, is its
person), head to head, and the charts with their text alternatives. Games in
progress and games in the bin do not count."""

import re

import pytest

from support.page_forms import press
from support.pages import spaced_text as text


def row(html, name):
    """The table of every player's row of `name`: its cells' texts."""
    html = html.split('id="names-title"')[1]
    found = re.search(rf'<tr>\s*<th scope="row"><a href="[^"]*"><bdi>{name}</bdi></a></th>'
                      r'(.*?)</tr>', html, re.S)
    assert found, name
    return [text(cell) for cell in re.findall(r"<td>(.*?)</td>", found.group(1), re.S)]


def played(api, sides, *events):
    game_id = api.new_game(sides=list(sides))["id"]
    for event in events:
        assert api.event(game_id, **event).status_code == 200, event
    return game_id


@pytest.fixture
def season(api, french):
    """Ali beats Karim 33–6 with a Tringa, a Khamsa-missa and a card bonus;
    karim (any case) beats Ali 34–1; Ali and Omar are still playing; a game
    Omar won is in the bin."""
    played(api, ("Ali", "Karim"),
           {"type": "announce", "announcements": [{"side": 0, "kind": "tringa"}]},
           {"type": "hit", "side": 1, "value": 1}, {"type": "hit", "side": 0, "value": 5},
           {"type": "missa", "side": 0},
           {"type": "next_deal"}, {"type": "missa", "side": 1},
           {"type": "end_hand", "cards": [25, None]},
           {"type": "adjust", "side": 1, "points": 5},
           {"type": "adjust", "side": 0, "points": 17})
    played(api, ("karim", "ALI"), {"type": "missa", "side": 1},
           {"type": "adjust", "side": 0, "points": 34})
    played(api, ("Ali", "Omar"), {"type": "missa", "side": 1})
    binned = played(api, ("Omar", "Ali"), {"type": "adjust", "side": 0, "points": 40})
    press(french, f"/games/{binned}/delete", "")


def test_every_name_with_games_played_won_win_rate_and_average_margin(french, season):
    html = french.get("/stats").get_data(as_text=True)
    # Ali: won 33–6 (+27), lost 1–34 (−33): two games, one won, average −3.
    assert row(html, "Ali") == ["2", "1", "50 %", "−3,0"]  # "ALI" is Ali
    assert row(html, "Karim") == ["2", "1", "50 %", "+3,0"]
    assert "Omar" not in re.sub(r"<datalist.*?</datalist>", "", html, flags=re.S).split(
        "Un nom")[0]  # Omar finished no game outside the bin


def test_a_names_gains_are_counted_by_kind(french, season):
    page = text(french.get("/stats?name=ali").get_data(as_text=True))
    assert "Ali : 2 parties, 1 gagnée (50 %), écart moyen −3,0" in page
    gains = page[page.index("Combien de fois"):]
    for kind, times, per_game in [("Tringa", 1, "0,5"), ("Missa", 2, "1,0"),
                                  ("Coup de 5 (Khamsa)", 1, "0,5"), ("Coup de 1 (Bount)", 0, "0,0"),
                                  ("Bonus des cartes", 1, "0,5"), ("Correction ou pénalité", 1, "0,5")]:
        assert f"{kind} {times} {per_game}" in gains, kind
    assert "Aucune partie terminée avec Nadia." in text(
        french.get("/stats?name=Nadia").get_data(as_text=True))


def test_head_to_head_between_two_names(french, season):
    page = text(french.get("/stats?a=Ali&b=KARIM").get_data(as_text=True))
    # A name is its person's, whatever the case typed.
    assert ("Ali et Karim se sont affrontés dans 2 parties terminées. Ali en a gagné 1, "
            "Karim 1. Écart de score moyen : Ali −3,0.") in page
    assert "Leurs dernières parties" in page
    assert "n'ont aucune partie terminée ensemble" in text(
        french.get("/stats?a=Ali&b=Omar").get_data(as_text=True))


def test_the_charts_are_svg_with_a_text_alternative(french, season):
    html = french.get("/stats?name=Ali").get_data(as_text=True)
    charts = re.findall(r'<svg class="chart bars".*?</svg>', html, re.S)
    assert len(charts) == 2
    wins, gains = charts
    assert 'role="img"' in wins and "<title" in wins
    assert re.search(r"<desc[^>]*>Ali 50\s%, Karim 50\s%</desc>", wins)
    assert re.search(r"<desc[^>]*>[^<]*Tringa 0,5[^<]*</desc>", gains)
    assert "style=" not in html  # the CSP forbids inline styles


def test_with_no_finished_game_the_page_says_so(french, api):
    played(api, ("Ali", "Karim"))
    assert "Aucune partie n'est encore terminée." in text(french.get("/stats").get_data(
        as_text=True))


@pytest.mark.parametrize("query, status", [
    ("page=0", 400), ("page=x", 400), ("page=2", 404), ("name=" + "é" * 41, 400),
    ("a=Ali&b=" + "x" * 50, 400),
])
def test_bad_statistics_addresses_get_a_clear_4xx_page(french, season, query, status):
    response = french.get("/stats?" + query)
    assert response.status_code == status
    assert '<p role="alert">' in response.get_data(as_text=True)


def test_the_charts_labels_read_whole_between_words(french, api, season):
    """Seen at the table: the person page's bars read "Coup de 10 (Â…", "Bonus des
    car…" (a label cut at 14 characters). A long label wraps between its
    words, each line below the last, the rows as tall as their lines."""
    played(api, ("Youssef & Nadia-Salma", "Ali"), *({"type": "hit", "side": side, "value": value}
                                                    for side, value in ((0, 1), (1, 5), (0, 10))),
           {"type": "adjust", "side": 0, "points": 40})
    for path in ("/stats?name=Ali", "/stats"):
        html = french.get(path).get_data(as_text=True)
        assert "…" not in "".join(re.findall(r'class="bar-label"[^>]*>([^<]*)<', html))
    gains = re.findall(r'<svg class="chart bars".*?</svg>', french.get(
        "/stats?name=Youssef %26 Nadia-Salma").get_data(as_text=True), re.S)[-1]
    labels = re.findall(r'<text class="bar-label" x="4" y="([\d.]+)">([^<]*)</text>', gains)
    assert [text for _, text in labels][:2] == ["Coup de 10", "(Âachra)"]
    assert "Correction ou" in [text for _, text in labels]
    baselines = [float(y) for y, _ in labels]
    assert baselines == sorted(baselines) and len(set(baselines)) == len(baselines)
    wins = french.get("/stats").get_data(as_text=True)
    assert re.search(r'class="bar-label"[^>]*>Youssef &amp; Nadia-Salma<', wins) or \
        re.search(r'class="bar-label"[^>]*>Youssef &amp;<', wins)


def test_the_every_name_chart_has_every_name_of_the_table_mirrored_in_arabic(client, api):
    """Seen at the table: with 11 names the chart showed 10 (حمزة & سناء left out, a
    top 10 the page did not say), names on the left in Arabic too."""
    for first, second in (("Chama", "Ali"), ("Hassan", "Badr"), ("Karim", "Meryem"),
                          ("Omar & Leila", "حمزة & سناء"), ("Samir", "Nadia"), ("Youssef", "")):
        played(api, (first, second or "Zineb"), {"type": "adjust", "side": 0, "points": 40})
    for language in ("fr", "ar"):
        client.set_cookie("lang", language)
        html = client.get("/stats").get_data(as_text=True)
        wins = re.search(r'<svg class="chart bars".*?</svg>', html, re.S).group(0)
        table = [re.sub("<[^>]+>", "", name) for name in re.findall(  # a team's: its partners'
            r'<th scope="row"><a href="/players/\d+">(.*?)</a></th>',
            html.split('id="names-title"')[1])]
        labels = re.findall(r'<text class="bar-label" x="([\d.]+)"[^>]*>([^<]*)</text>', wins)
        assert [label for _, label in labels] == table != []
        assert len(labels) == 12 and "حمزة &amp; سناء" in [label for _, label in labels]
        label_x = float(labels[0][0])
        bar = re.search(r'<rect class="bar" x="([\d.]+)"[^>]*width="([\d.]+)"', wins)
        value_x = float(re.search(r'<text class="bar-value" x="([\d.]+)"', wins).group(1))
        bar_left, bar_right = float(bar.group(1)), float(bar.group(1)) + float(bar.group(2))
        if language == "ar":  # the label on the right, ending at its x; the value on the left
            assert value_x < bar_left < bar_right < label_x
            assert 'text-anchor="end"' in wins
        else:
            assert label_x < bar_left < bar_right < value_x
            assert 'text-anchor' not in wins
