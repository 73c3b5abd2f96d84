"""axe-core on every page and sheet: no serious or critical violation, and
every control has an accessible name."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from table import mark, start_game, tap

AXE = Axe()


def serious_violations(page):
    results = AXE.run(page)
    return [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def unnamed_controls(page):
    """Buttons, links and fields without an accessible name."""
    return page.evaluate("""() => [...document.querySelectorAll(
        'button, a[href], input:not([type=hidden]), select, [role=link], [role=button]')]
        .filter(el => {
            const label = el.labels && el.labels.length ? el.labels[0].textContent : '';
            const name = el.getAttribute('aria-label') || label || el.textContent || el.title;
            return !name || !name.trim();
        }).map(el => el.outerHTML.slice(0, 80))""")


def check(page, where):
    assert serious_violations(page) == [], where
    assert unnamed_controls(page) == [], where


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_is_accessible(new_phone, scheme):
    page = new_phone(color_scheme=scheme)
    page.goto("/")
    check(page, "home")
    page.goto("/games/new")
    check(page, "new game")
    start_game(page)
    check(page, "board")
    mark(page, "Ronda pour Nous", then="Annonces : Nous Ronda")
    mark(page, "Ronda pour Eux", then="Annonces : Nous Ronda, Eux Ronda")
    check(page, "announcement draft")
    tap(page, "Valider")
    tap(page, "Bount (1) pour Nous")
    check(page, "chain and reveal strips")
    mark(page, "Choisir les rangs", then="Meilleure Ronda de Nous")
    check(page, "ranks sheet")
    page.goto(page.url.split("?")[0] + "?sheet=end")
    check(page, "end-of-hand sheet")
    page.goto(page.url.split("?")[0] + "?sheet=end&cards0=17&ask=early")
    check(page, "end-of-hand sheet, asking whether the hand is over")
    page.goto(page.url.split("?")[0] + "?sheet=more")
    check(page, "more sheet")
    page.goto(page.url.split("?")[0] + "?sheet=rules")
    check(page, "rules sheet")
    for address in ("/settings", "/settings/presets/new?from=classique", "/rules",
                    "/rules?preset=classique"):
        page.goto(address)
        check(page, address)
    page.goto("/games/nope")
    check(page, "error page")


def test_the_result_page_is_accessible(phone):
    start_game(phone)
    phone.goto(phone.url.split("?")[0] + "?sheet=more")
    phone.get_by_label("Points (−50 à 50, négatif pour retirer)").fill("33")
    tap(phone, "Ajouter la correction")
    expect(phone.get_by_role("heading", name="Nous gagnons !")).to_be_visible()
    check(phone, "game over")
