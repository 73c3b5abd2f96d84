"""Past games on a phone (390×844, touch), in Chromium: from the result to the
history and the review, a correction accepted and one refused, delete and
restore, the statistics; axe-core on every page of the history."""

import json
import secrets
import urllib.request

import pytest
from playwright.sync_api import expect

from scorekeeper.testing.live_server import serving
from support.accessibility import check_both_themes
from support.table import tap
from support.timings import QUICK_ENV

pytestmark = pytest.mark.xdist_group("history_in_browser")  # its module fixture, built once a run


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server of this module's own: its games must not become the names the
    new-game page offers to the other browser tests (it offers the last ones)."""
    with serving(tmp_path_factory.mktemp("history-live"), "history", **QUICK_ENV) as live:
        yield live


def post(server, path, body):
    request = urllib.request.Request(server.url + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def names():
    """Side names no other test of this module uses."""
    tag = secrets.token_hex(3)
    return f"Ali{tag}", f"Karim{tag}"


def played(server, sides, *events):
    game_id = post(server, "/api/games", {"sides": list(sides)})["id"]
    for event in events:
        post(server, f"/api/games/{game_id}/events", event)
    return game_id


HIT_1 = {"type": "hit", "side": 0, "value": 1}
HIT_5 = {"type": "hit", "side": 1, "value": 5}
MISSA = {"type": "missa", "side": 1}


def test_from_the_result_to_the_history_and_the_games_review(phone, server, screenshot):
    ali, karim = names()
    game_id = played(server, (ali, karim), HIT_1, HIT_5, MISSA, {"type": "next_deal"})
    phone.goto(f"/games/{game_id}?sheet=more")
    phone.get_by_label("Points (−50 à 50, négatif pour retirer)").fill("33")
    tap(phone, "Ajouter la correction")
    expect(phone.get_by_role("heading", name=f"{ali} gagne !")).to_be_visible()
    phone.get_by_role("link", name="Historique").tap()

    expect(phone.get_by_role("heading", name="Historique")).to_be_visible()
    phone.get_by_label("Seulement les parties d'un nom").fill(ali)
    phone.get_by_role("button", name="Filtrer").tap()
    expect(phone.get_by_text("1 partie avec")).to_be_visible()
    expect(phone.locator(".game-line")).to_have_count(1)
    expect(phone.locator(".game-meta")).to_contain_text(f"{ali} a gagné")
    phone.locator(".game-title").tap()

    expect(phone.get_by_role("heading", name="Le déroulé de la partie")).to_be_visible()
    chart = phone.get_by_role("img", name="Le score après chaque coup")
    chart.scroll_into_view_if_needed()
    expect(chart).to_be_visible()
    assert chart.bounding_box()["width"] <= 390
    expect(phone.get_by_role("table", name="Le score à la fin de chaque manche")).to_be_visible()
    expect(phone.get_by_role("heading", name="Manche 1")).to_be_visible()
    expect(phone.locator(".timeline .entry")).to_have_count(5)
    screenshot(phone, "history-review")


def test_a_correction_accepted_then_one_refused(phone, server, screenshot):
    ali, karim = names()
    game_id = played(server, (ali, karim), HIT_1, HIT_5, MISSA)
    phone.goto(f"/games/{game_id}/review")
    phone.get_by_role("link", name=f"Corriger Missa · {karim} (coup 3)").tap()
    expect(phone.get_by_role("heading", name="Corriger le coup 3")).to_be_visible()
    phone.get_by_label(ali, exact=True).check()
    screenshot(phone, "history-correct")
    phone.get_by_role("button", name="Enregistrer la correction").tap()
    expect(phone.get_by_text("Corrigé : le score est maintenant 1 – 5.")).to_be_visible()
    expect(phone.get_by_text(f"corrigé, était : Missa · {karim}")).to_be_visible()

    phone.get_by_role("link", name=f"Corriger Bount (1) · {ali} (coup 1)").tap()
    phone.get_by_role("button", name="Retirer ce coup").tap()
    expect(phone.get_by_role("alert")).to_contain_text(
        f"Le coup 2 (Khamsa (5) · {karim}, manche 1 donne 1) ne serait plus possible")
    phone.get_by_role("link", name="Retour au récapitulatif").tap()
    expect(phone.locator(".final")).to_have_text(f"{ali} 1 – {karim} 5")  # nothing changed
    assert post(server, f"/api/games/{game_id}/corrections", {"seq": 2, "event": None}) \
        ["scores"] == [2, 0]  # the 5 itself may go: the 1 and its missa make 2


def test_delete_after_a_confirmation_then_restore_without_javascript(phone_without_js, server):
    page = phone_without_js
    ali, karim = names()
    played(server, (ali, karim), MISSA)
    page.goto(f"/games?name={ali}")
    page.get_by_role("link", name=f"Supprimer {ali} – {karim}").tap()
    expect(page.get_by_role("heading", name="Supprimer cette partie ?")).to_be_visible()
    page.get_by_role("button", name="Supprimer la partie").tap()
    expect(page.get_by_text("La partie est dans la corbeille")).to_be_visible()
    page.goto(f"/games?name={ali}")
    expect(page.locator(".game-line")).to_have_count(0)
    page.goto("/games/bin")
    page.get_by_role("button", name=f"Restaurer {ali} – {karim}").tap()
    expect(page.get_by_text("La partie est de retour dans la liste.")).to_be_visible()
    page.goto(f"/games?name={ali}")
    expect(page.locator(".game-line")).to_have_count(1)


def test_the_statistics_on_a_phone(phone, server, screenshot):
    ali, karim = names()
    played(server, (ali, karim), {"type": "adjust", "side": 0, "points": 33})
    played(server, (karim, ali), MISSA, {"type": "adjust", "side": 0, "points": 40})
    phone.goto("/stats")
    wins = "Taux de victoire de chaque joueur ci-dessous, ceux qui ont le plus joué d'abord"
    expect(phone.get_by_role("img", name=wins)).to_be_visible()
    phone.get_by_label("Nom", exact=True).fill(ali.upper())
    phone.get_by_role("button", name="Afficher").tap()
    expect(phone.locator(".player-line")).to_contain_text("2 parties, 1 gagnée (50")
    phone.get_by_label("Premier nom").fill(ali)
    phone.get_by_label("Second nom").fill(karim)
    phone.get_by_role("button", name="Comparer").tap()
    expect(phone.get_by_text("se sont affrontés dans 2 parties terminées")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "history-stats")


def test_the_history_pages_are_accessible(phone, server):
    """Every rule in the light theme, the colour rules in the dark one."""
    page = phone
    ali, karim = names()
    over = played(server, (ali, karim), HIT_1, HIT_5, MISSA,
                  {"type": "adjust", "side": 0, "points": 40})
    running = played(server, (ali, karim), MISSA, {"type": "adjust", "side": 1, "points": 3})
    post(server, f"/api/games/{running}/corrections", {"seq": 2, "event": None})
    for where, url in [
        ("list", "/games"), ("filtered list", f"/games?name={ali}"),
        ("result and review", f"/games/{over}"), ("review", f"/games/{running}/review"),
        ("correction", f"/games/{over}/events/1/correct"),
        ("put back", f"/games/{running}/events/2/correct"),
        ("delete", f"/games/{running}/delete"), ("bin", "/games/bin"),
        ("empty the bin", "/games/bin/empty"), ("import", "/games/import"),
        ("statistics", f"/stats?name={ali}&a={ali}&b={karim}"),
    ]:
        page.goto(url)
        check_both_themes(page, where)
