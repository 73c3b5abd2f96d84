"""House rules: presets, custom rules, and the rules as the app applies them."""

import html
import json
import re
from pathlib import Path

import pytest

from support.page_forms import forms_of, press, submit
from support.scenarios import run_scenario

EXTRA = sorted((Path(__file__).parents[1] / "scenarios_extra").glob("*.json"))


@pytest.mark.parametrize("path", EXTRA, ids=[p.stem for p in EXTRA])
def test_a_whole_game_per_built_in_preset(client, path):
    run_scenario(client, json.loads(path.read_text()))


def test_there_is_a_whole_game_for_each_built_in_preset():
    from scorekeeper.engine import BUILT_IN_PRESETS

    assert {p.stem.split("-")[0] for p in EXTRA} >= set(BUILT_IN_PRESETS)


def page_text(response):
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))).split())


def preset_form(client, source="appli"):
    return forms_of(client.get(f"/settings/presets/new?from={source}").get_data(as_text=True))[0]


def create_preset(client, name, source="appli", **rules):
    form = preset_form(client, source)
    extra = {"name": name, **{f"rule_{k}": str(v) for k, v in rules.items()}}
    response = submit(client, form, extra=extra)
    assert response.status_code == 303, page_text(response)
    return response


def test_built_in_presets_are_shown_read_only_and_can_be_copied(french):
    page = french.get("/settings").get_data(as_text=True)
    assert "appli" in page and "classique" in page
    assert "/settings/presets/new?from=classique" in page
    assert "/settings/presets/appli" not in page  # no edit link for a built-in
    copy = french.get("/settings/presets/new?from=classique").get_data(as_text=True)
    assert 'value="Copie de « classique »"' in html.unescape(copy)
    form = preset_form(french, "classique")
    assert ("rule_target", "41") in form.fields and ("rule_tringa_contest", "lower") in form.fields


def test_a_preset_is_created_edited_renamed_and_deleted(french):
    create_preset(french, "Chez Omar", target=41, tringa=3)
    page = page_text(french.get("/settings"))
    assert "Chez Omar" in page and "partie en 41 · Tringa 3" in page
    edit = re.search(r'href="(/settings/presets/\w+)"', french.get("/settings").get_data(as_text=True))
    form = forms_of(french.get(edit.group(1)).get_data(as_text=True))[0]
    assert ("name", "Chez Omar") in form.fields and ("rule_target", "41") in form.fields
    submit(french, form, extra={"name": "Chez Karim", "rule_target": "25"})
    page = page_text(french.get("/settings"))
    assert "Chez Karim" in page and "Chez Omar" not in page and "partie en 25" in page
    confirm = french.get(edit.group(1) + "/delete")
    assert "Supprimer le jeu de règles Chez Karim ?" in page_text(confirm)
    assert "Chez Karim" in page_text(french.get("/settings"))  # asking deletes nothing
    submit(french, forms_of(confirm.get_data(as_text=True))[-1])
    assert "Chez Karim" not in page_text(french.get("/settings"))


@pytest.mark.parametrize("field, value, message", [
    ("rule_target", "10", "Un entier de 11 à 101."),
    ("rule_target", "102", "Un entier de 11 à 101."),
    ("rule_target", "abc", "N'est pas un entier valide."),
    ("rule_ronda", "21", "Un entier de 0 à 20."),
    ("rule_double_ronda", "-1", "Un entier de 0 à 20."),
    ("rule_tringa", "", "Donnez un nombre entier."),
    ("rule_missa", "99", "Un entier de 0 à 20."),
    ("rule_card_threshold", "41", "Un entier de 0 à 40."),
    ("rule_card_threshold_3", "-5", "Un entier de 0 à 40."),
    ("rule_hidden_ronda_penalty", "50", "Un entier de 0 à 20."),
    ("rule_dealer_last_trick", "21", "Un entier de 0 à 20."),
    ("rule_stop", "never", "N'est pas un choix valide."),
    ("rule_tringa_contest", "middle", "N'est pas un choix valide."),
    ("rule_hits", "1-2-3", "N'est pas un choix valide."),
    ("rule_missa_exclusion", "always", "N'est pas un choix valide."),
    ("rule_four_card_first_deal", "2", "N'est pas un choix valide."),
    ("name", "", "Ce champ est requis."),
    ("name", "x" * 41, "40"),
    ("name", "Classique", "« Classique » est le nom d'un jeu de règles intégré"),
    ("name", " classic ", "« classic » est le nom d'un jeu de règles intégré"),
    ("name", "APP", "« APP » est le nom d'un jeu de règles intégré : choisissez un autre nom."),
    ("name", "Appli", "« Appli » est le nom d'un jeu de règles intégré"),
    ("name", "الكلاسيكية", "« الكلاسيكية » est le nom d'un jeu de règles intégré"),
    ("name", "التطبيق\u200b", "« التطبيق » est le nom d'un jeu de règles intégré"),
])
def test_each_bad_value_is_refused_with_its_message_beside_the_field(french, field, value, message):
    form = preset_form(french)
    extra = {"name": "Ma table", field: value}
    response = submit(french, form, extra=extra)
    assert response.status_code == 400
    body = html.unescape(response.get_data(as_text=True))
    field_id = field
    error = re.search(rf'<p class="field-error" id="{field_id}-error">([^<]*)</p>', body)
    assert error, f"no error beside {field}"
    assert message in error.group(1)
    assert "Ma table" not in page_text(french.get("/settings")) or field == "name"
    assert not re.search(r'href="/settings/presets/[0-9a-f]{12}"',
                         french.get("/settings").get_data(as_text=True))  # nothing saved


def test_the_preset_new_games_start_with_is_chosen_in_the_settings(french):
    create_preset(french, "Vendredi", target=21)
    form = forms_of(french.get("/settings").get_data(as_text=True))[0]
    submit(french, form, extra={"preset": "Vendredi"})
    new_game = french.get("/games/new").get_data(as_text=True)
    assert '<option selected value="Vendredi">' in new_game or 'value="Vendredi" selected' in new_game
    assert "partie en 21" in page_text(french.get("/games/new"))
    assert "Le premier camp à atteindre 21 seul en tête gagne." in page_text(french.get("/rules"))


def start(client, preset="appli", **overrides):
    form = forms_of(client.get(f"/games/new?preset={preset}").get_data(as_text=True))[0]
    extra = {f"rule_{k}": str(v) for k, v in overrides.items()}
    response = submit(client, form, extra=extra)
    assert response.status_code == 303, page_text(response)
    return response.headers["Location"]


def test_the_new_game_page_shows_the_presets_summary_and_its_rules(french):
    page = page_text(french.get("/games/new?preset=classique"))
    assert "partie en 41 · Tringa 3 · coups 1/5/10" in page
    assert "Changer une règle pour cette partie seulement" in page


def test_a_rule_changed_for_one_game_changes_only_that_game(french):
    board = start(french, "classique", target=25)
    assert french.get("/api" + board).get_json()["rules"]["target"] == 25
    other = start(french, "classique")
    assert french.get("/api" + other).get_json()["rules"]["target"] == 41


def test_a_preset_edited_after_a_game_started_leaves_that_game_alone(french, api):
    create_preset(french, "Maison", tringa=4)
    game = api.new_game(rules={"preset": "Maison"})
    edit = re.search(r'href="(/settings/presets/\w+)"', french.get("/settings").get_data(as_text=True))
    form = forms_of(french.get(edit.group(1)).get_data(as_text=True))[0]
    submit(french, form, extra={"rule_tringa": "1", "rule_target": "50"})
    state = api.state(game["id"])
    assert state["rules"]["tringa"] == 4 and state["rules"]["target"] == 33
    # And the game goes on scoring with its own copy.
    answer = api.event(game["id"], type="announce", announcements=[{"side": 0, "kind": "tringa"}])
    assert answer.get_json()["scores"] == [4, 0]
    # Deleting the preset leaves it alone too.
    submit(french, forms_of(french.get(edit.group(1) + "/delete").get_data(as_text=True))[-1])
    assert api.state(game["id"])["rules"]["tringa"] == 4


def test_the_api_takes_the_table_presets_and_the_new_rule_keys(french, api):
    create_preset(french, "Maison", hits="1-6-15")
    game = api.new_game(rules={"preset": "Maison", "dealer_last_trick": 5})
    assert game["rules"]["hits"] == [1, 6, 15] and game["rules"]["dealer_last_trick"] == 5
    assert api.event(game["id"], type="hit", side=0, value=1).status_code == 200
    assert api.event(game["id"], type="hit", side=1, value=6).get_json()["chain"] == {"side": 1, "value": 6}
    assert api.event(game["id"], type="hit", side=1, value=5).status_code == 400
    refused = api.post("/api/games", {"sides": ["A", "B"], "rules": {"preset": "Maison", "jokers": 2}})
    assert refused.status_code == 400


def test_rules_explains_scoring_from_the_presets_values(french):
    create_preset(french, "Drôle", tringa=4, hits="1-6-15", missa=2, dealer_last_trick=0,
                  tringa_contest="lower", stop="end_of_hand")
    text = page_text(french.get("/rules?preset=Drôle"))
    assert "une Tringa (un brelan) 4" in text
    assert "Bount, 1. Le troisième exemplaire en fait Khamsa, 6 ; le quatrième, Âachra, 15." in text
    assert "Vider le tapis rapporte 2." in text and "Entre deux Tringas, la plus basse gagne." in text
    assert "Le score n'est vérifié qu'une fois les cartes de la manche comptées." in text
    assert "dernier pli" not in text
    assert "dans l'ordre où ils sont gagnés" not in text  # the count comes before the check
    classique = page_text(french.get("/rules?preset=classique"))
    assert ("Les points comptent dans l'ordre où ils sont gagnés : quand la Missa du joueur "
            "suivant, ou le compte, arrête une chaîne dont le coup fait gagner, la partie est "
            "finie avant eux.") in classique
    assert "une nouvelle donne, le compte, ou la quatrième carte." in classique
    assert "avec un 12, son camp marque 5" in classique
    assert "Une missa dans la dernière donne de la manche ne rapporte rien." in classique
    assert french.get("/rules?preset=nope").status_code == 404


def test_the_scoreboard_shows_the_games_rules_in_a_sheet(french):
    board = start(french, "classique", target=31)
    sheet = page_text(french.get(board + "?sheet=rules"))
    assert "Les règles de cette partie" in sheet
    assert "Score à atteindre 31" in sheet and "Tringa contre Tringa la plus basse gagne" in sheet


def test_the_dealers_last_trick_is_offered_in_the_last_deal_when_the_rule_is_on(french):
    board = start(french, "classique", players="2")
    for _ in range(5):
        press(french, board, "next_deal")
    # The end-of-hand sheet asks it first, on the hand's last deal.
    page = french.get(board + "?sheet=end").get_data(as_text=True)
    assert "Dernier pli du donneur (donneur : <bdi>Nous</bdi>)" in html.unescape(page)
    response = press(french, board + "?sheet=end", "last_trick.one")
    assert response.headers["Location"] == board + "?sheet=end"  # the sheet stays open
    assert french.get("/api" + board).get_json()["scores"] == [0, 5]
    assert "last_trick.one" not in french.get(board + "?sheet=end").get_data(as_text=True)
    appli = start(french, "appli")
    for _ in range(5):
        press(french, appli, "next_deal")
    assert "last_trick" not in french.get(appli).get_data(as_text=True)


def _another_value(rules, key):
    """A valid value of rule `key` other than `rules`'."""
    from scorekeeper.engine.houserules import _CHECKS, _Choice, _Switch

    value, check = getattr(rules, key), _CHECKS[key]
    if isinstance(check, _Switch):
        return not value
    if isinstance(check, _Choice):
        return next(choice for choice in check.choices if choice != value)
    if key == "hits":
        return (1, 6, 15)
    return value + 1 if value + 1 <= check.high else value - 1


def test_the_summary_names_every_rule_that_differs_from_the_default(app):
    """Seen at the table: "Fès house" had a 3-side threshold of 12, its summary did not say."""
    from dataclasses import replace

    from scorekeeper.engine import RULE_KEYS, HouseRules
    from scorekeeper.web.wording import rule_texts

    default = HouseRules()
    with app.test_request_context("/?lang=en"):
        plain = rule_texts.summary(default)
        assert plain == "game in 33 · Tringa 5 · hits 1/5/10"
        for key in RULE_KEYS:
            changed = rule_texts.summary(replace(default, **{key: _another_value(default, key)}))
            assert changed != plain, key
        fes = replace(default, target=15, tringa=3, hits=(1, 6, 15), card_threshold_3=12,
                      hidden_ronda_penalty=3)
        assert rule_texts.summary(fes) == ("game in 15 · Tringa 3 · hits 1/6/15 · cards beyond 12 "
                                           "with three sides · hidden Ronda 3")


def test_a_presets_changed_threshold_shows_on_the_settings_and_the_new_game(client):
    client.set_cookie("lang", "fr")
    create_preset(client, "Maison de Fès", card_threshold_3=12, missa_exclusion="none")
    summary = "partie en 33 · Tringa 5 · coups 1/5/10 · cartes au-delà de 12 à trois camps · " \
              "la Missa de la dernière carte compte"
    assert summary in page_text(client.get("/settings"))
    page = client.get("/games/new?preset=Maison de Fès")
    assert summary in page_text(page)


def test_a_new_game_refused_for_a_field_far_down_says_so_at_the_top(french):
    """Seen without JavaScript: Start refused for a rule changed under "Change
    a rule", its reason beside that field far down the page, which opens
    again at its top: it looked as if nothing happened."""
    form = forms_of(french.get("/games/new").get_data(as_text=True))[0]
    response = submit(french, form, extra={"rule_target": "10"})
    assert response.status_code == 400
    body = html.unescape(response.get_data(as_text=True))
    summary = re.search(r'<div class="flash flash-error errors-summary" role="alert">(.*?)</div>',
                        body, re.S)
    assert summary, "no summary at the top"
    assert body.index("errors-summary") < body.index('name="players"')
    assert "La partie n'a pas commencé : vérifiez ces champs." in summary.group(1)
    assert re.findall(r'<a href="#([^"]+)">', summary.group(1)) == ["rule_target"]
    assert 'id="rule_target"' in body
