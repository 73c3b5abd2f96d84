"""axe-core on every page and sheet: no serious or critical violation, and
every control has an accessible name; every rule in the light theme, and
the colour rules again in the dark one (support/accessibility.py)."""

from playwright.sync_api import expect

from support.accessibility import check, check_both_themes
from support.table import mark, start_game, tap


def test_every_page_is_accessible(phone):
    page = phone
    page.goto("/")
    check_both_themes(page, "home")
    page.goto("/games/new")
    check_both_themes(page, "new game")
    start_game(page)
    check_both_themes(page, "board")
    mark(page, "Ronda pour Nous", then="Annonces : Nous Ronda")
    mark(page, "Ronda pour Eux", then="Annonces : Nous Ronda, Eux Ronda")
    check_both_themes(page, "announcement draft")
    tap(page, "Valider")
    tap(page, "1 Bount pour Nous")
    check_both_themes(page, "chain and reveal strips")
    mark(page, "Choisir les rangs", then="Meilleure Ronda de Nous")
    check_both_themes(page, "ranks sheet")
    page.goto(page.url.split("?")[0] + "?sheet=end")
    check_both_themes(page, "end-of-hand sheet")
    page.goto(page.url.split("?")[0] + "?sheet=end&cards0=17&ask=early")
    check_both_themes(page, "end-of-hand sheet, asking whether the hand is over")
    page.goto(page.url.split("?")[0] + "?sheet=more")
    check_both_themes(page, "more sheet")
    page.goto(page.url.split("?")[0] + "?sheet=rules")
    check_both_themes(page, "rules sheet")
    for address in ("/settings", "/settings/presets/new?from=classique", "/rules",
                    "/rules?preset=classique"):
        page.goto(address)
        check_both_themes(page, address)
    page.goto("/games/nope")
    check_both_themes(page, "error page")


def test_the_result_page_is_accessible(phone):
    start_game(phone)
    phone.goto(phone.url.split("?")[0] + "?sheet=more")
    phone.get_by_label("Points (−50 à 50, négatif pour retirer)").fill("33")
    tap(phone, "Ajouter la correction")
    expect(phone.get_by_role("heading", name="Nous gagnons !")).to_be_visible()
    check(phone, "game over")
    # The question an Undo asks once the win is no longer right after its tap.
    phone.goto(phone.url.split("?")[0] + "/reopen")
    expect(phone.get_by_role("heading", name="Rouvrir la partie ?")).to_be_visible()
    check(phone, "reopen question")
