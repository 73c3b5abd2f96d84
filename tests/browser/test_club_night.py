"""A club night in the browser: two phones score two tables, the
big screen (a 1920×1080 TV, and a phone held upright) follows both within
two seconds without reloading; the new pages are axe clean and fit 360 px."""

import re
import time

from playwright.sync_api import expect

from support.accessibility import check
from support.table import tap

TV = {"viewport": {"width": 1920, "height": 1080}, "has_touch": False, "is_mobile": False,
      "device_scale_factor": 1, "color_scheme": "dark"}


def start_night(page, entrants):
    page.goto("/nights/new")
    page.get_by_label("Nom de la soirée").fill("Vendredi au café")
    for number, name in enumerate(entrants, 1):
        page.get_by_label(f"Inscrit {number}", exact=True).fill(name)
    page.get_by_role("button", name="Lancer la soirée").tap()
    expect(page.get_by_role("heading", name="Vendredi au café")).to_be_visible()
    return page.url


def fits(page, width=360):
    """Nothing wider than the screen: the page does not scroll sideways."""
    return page.evaluate("() => document.documentElement.scrollWidth") <= width


def test_two_tables_and_the_big_screen_follow_each_other(new_phone, screenshot):
    first = new_phone()
    night = start_night(first, ["Karim", "Salma", "Ali", "Omar"])
    first.get_by_role("link", name="Tour suivant (1 sur 3)").tap()
    first.get_by_role("button", name="Ouvrir les 2 tables").tap()
    expect(first.get_by_text("Tour 1 : ses tables sont ouvertes.")).to_be_visible()
    tables = [first.locator(".night-tables a").nth(i).get_attribute("href") for i in range(2)]
    tv = new_phone(**TV)
    tv.goto(night + "/screen")
    expect(tv.locator(".screen-table")).to_have_count(2)
    tv.evaluate("() => { window.notReloaded = true; }")
    second = new_phone()
    first.goto(tables[0])
    second.goto(tables[1])
    first_sides = first.locator(".side-name").all_inner_texts()
    tap(first, f"Missa pour {first_sides[0]}")
    started = time.monotonic()
    expect(tv.locator(".screen-table").nth(0).locator(".table-score").nth(0)).to_have_text(
        "1", timeout=2500)
    assert time.monotonic() - started <= 2.5
    second_sides = second.locator(".side-name").all_inner_texts()
    tap(second, f"Missa pour {second_sides[1]}")
    expect(tv.locator(".screen-table").nth(1).locator(".table-score").nth(1)).to_have_text(
        "1", timeout=2500)
    assert tv.evaluate("() => window.notReloaded === true")  # followed in place
    # Table 1 ends: the standings move, its winner first.
    first.goto(tables[0] + "?sheet=more")
    first.get_by_label("Points (−50 à 50, négatif pour retirer)").fill("40")
    tap(first, "Ajouter la correction")
    expect(tv.locator(".screen-standings tbody tr").first).to_contain_text(first_sides[0],
                                                                            timeout=2500)
    expect(tv.locator(".screen-table").nth(0).locator(".table-status")).to_contain_text("a gagné")
    screenshot(tv, "night-screen-tv")
    check(tv, "big screen")
    upright = new_phone(color_scheme="dark")
    upright.goto(night + "/screen")
    assert fits(upright, 390)
    expect(upright.locator(".deals").first).to_be_visible()  # who deals, at table 2
    screenshot(upright, "night-screen-phone")
    assert tv.locator("button, a[href], input, select").count() == 0  # no controls


def test_the_new_pages_are_accessible_and_fit_a_small_phone(new_phone, screenshot):
    page = new_phone(viewport={"width": 360, "height": 640})
    night = start_night(page, ["Nadia", "Leila", "Sara"])
    for address in ("/nights", "/nights/new", night, night + "/round", "/players", "/stats"):
        page.goto(address)
        check(page, address)
        assert fits(page), address
    # The round's table opened: its game brings the entrants to the roster
    # (without it, this test found a person only after other tests' games).
    page.goto(night + "/round")
    page.get_by_role("button", name=re.compile(r"^Ouvrir")).tap()
    expect(page.get_by_text("Tour 1 : ses tables sont ouvertes.")).to_be_visible()
    page.goto("/players")
    page.locator(".roster a").first.tap()
    page.wait_for_url(re.compile(r"/players/\d+$"))
    check(page, "a person")
    assert fits(page), "a person"
    screenshot(page, "person")
    page.goto("/games/new")
    page.get_by_label("4 joueurs, deux équipes").check()
    expect(page.get_by_label("Équipe 1, joueur 1")).to_be_visible()
    side = page.get_by_role("textbox", name="Premier camp", exact=True)
    page.get_by_label("Équipe 1, joueur 1").fill("Karim")
    page.get_by_label("Équipe 1, joueur 2").fill("Salma")
    expect(side).to_have_value("Karim & Salma")  # the offered name follows the partners
    check(page, "new game, four players")
    assert fits(page), "new game"
    screenshot(page, "new-game-four")


def test_a_recent_player_is_one_tap(new_phone):
    page = new_phone()
    page.goto("/games/new")
    page.get_by_label("Premier camp", exact=True).fill("Youssef")
    page.get_by_label("Deuxième camp", exact=True).fill("Zineb")
    page.get_by_role("button", name="Commencer la partie").tap()
    expect(page.locator("#board")).to_be_visible()
    page.goto("/games/new")
    assert fits(page, 390)  # the row of recent players scrolls within its field
    field = page.get_by_label("Deuxième camp", exact=True)
    field.fill("")
    page.locator("#name1 ~ .chips").get_by_role("button", name="Youssef").tap()
    expect(field).to_have_value("Youssef")
    assert page.url.endswith("/games/new")  # filled in place, no reload
