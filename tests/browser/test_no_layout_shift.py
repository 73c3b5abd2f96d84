"""Nothing moves by itself on any page (BRIEF: a control that moves when
something appears above it is a defect): each page, loaded on a phone, has
no layout shift that no input caused (PerformanceObserver, buffered).

The phones here have touch but no `is_mobile`: with Chromium's mobile
emulation every shift of a page's load is reported as after an input
(hadRecentInput), which would hide exactly the shifts looked for."""

import json
import re

import pytest
from playwright.sync_api import expect

from scorekeeper.engine.limits import NAME_LENGTH
from support.table import start_game, table_url, tap

pytestmark = pytest.mark.xdist_group("no_layout_shift")  # its module fixture, built once a run

# Started before the page's own scripts; read once the page has settled.
OBSERVE = """window.__shifts = [];
new PerformanceObserver(list => { for (const e of list.getEntries()) { if (!e.hadRecentInput)
  window.__shifts.push({value: e.value, moved: (e.sources || []).map(s => s.node ?
    s.node.nodeName + '.' + (s.node.className || '') : '?')}); } })
  .observe({type: 'layout-shift', buffered: true});"""
SETTLED = """() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(
  () => setTimeout(() => done(window.__shifts), 120))))"""
# French on the tall phone, Arabic (right to left) on the small one; English
# lays out as French does.
PHONES = {"fr-390": ("fr-FR", 390, 844), "ar-360": ("ar", 360, 640)}


@pytest.fixture(scope="module")
def addresses(shell_browser, quick_server):
    context = shell_browser.new_context(base_url=quick_server.url, locale="fr-FR", has_touch=True)
    try:
        yield _pages(context.new_page(), quick_server)
    finally:
        context.close()


def _pages(page, server):
    """Every page of the app, with a game running, one over, a player and a night."""
    start_game(page)
    running = page.url.split("?")[0]
    game = running.rsplit("/", 1)[1]
    tap(page, "1 Bount pour Nous")
    over = page.request.post("/api/games", data=json.dumps({"sides": ["Ali", "Bahia"]}),
                             headers={"Content-Type": "application/json"}).json()["id"]
    page.request.post(f"/api/games/{over}/events", headers={"Content-Type": "application/json"},
                      data=json.dumps({"type": "adjust", "side": 0, "points": 33}))
    # Long names, as a table writes them: a person page's choosers list them.
    page.request.post("/api/games", headers={"Content-Type": "application/json"}, data=json.dumps(
        {"sides": ["Abdelkrim Mohammed-Amine El Ouazzani"[:NAME_LENGTH],
                   "Fatima-Zahra Benjelloun-Tazi"]}))
    # The longest a name may be, without a space: a game won (its result, its
    # review, the history) and one running, this phone's last (the home page
    # resumes it).
    unbroken = ["W" * NAME_LENGTH, ("Abdelkrimelouazzanibenjellountazi" * 2)[:NAME_LENGTH]]
    won = page.request.post("/api/games", headers={"Content-Type": "application/json"},
                            data=json.dumps({"sides": unbroken})).json()["id"]
    page.request.post(f"/api/games/{won}/events", headers={"Content-Type": "application/json"},
                      data=json.dumps({"type": "adjust", "side": 1, "points": 33}))
    page.request.post("/api/games", headers={"Content-Type": "application/json"},
                      data=json.dumps({"sides": unbroken[::-1]}))
    page.goto("/nights/new")
    page.get_by_label("Nom de la soirée").fill("Vendredi au café")
    for number, name in enumerate(["Karim", "Salma", "Ali", "Omar"], 1):
        page.get_by_label(f"Inscrit {number}", exact=True).fill(name)
    page.get_by_role("button", name="Lancer la soirée").tap()
    expect(page.get_by_role("heading", name="Vendredi au café")).to_be_visible()
    night = page.url.split("?")[0]
    page.goto("/players")
    player = re.search(r'href="(/players/\d+)"', page.content()).group(1)
    return [
        "/", "/games/new", "/games/new?players=3", "/games/new?players=4", running,
        running + "?a=0-ronda", running + "?sheet=end", running + "?sheet=more",
        running + "?sheet=rules", f"/games/{over}", f"/games/{over}/review",
        f"/games/{game}/events/1/correct", "/games", "/games/bin", "/games/import", "/stats",
        "/settings", "/settings/presets/new?from=classique", "/rules", "/players", player,
        "/nights", "/nights/new", night, night + "/screen", "/pair", "/games/nope",
        f"/games/{won}", f"/games/{won}/review",
        table_url(server) + "/",  # a stranger's phone: the key page
    ]


@pytest.mark.parametrize("phone_name", PHONES)
def test_no_page_shifts_by_itself(browser, server, addresses, phone_name):
    locale, width, height = PHONES[phone_name]
    context = browser.new_context(base_url=server.url, locale=locale, has_touch=True,
                                  viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        context.add_init_script(OBSERVE)
        shifted = {}
        for address in addresses:
            page.goto(address)
            shifts = page.evaluate(SETTLED)
            if shifts:
                shifted[address] = shifts
        assert shifted == {}
    finally:
        context.close()


@pytest.mark.parametrize("phone_name", PHONES)
def test_no_page_is_wider_than_the_phone(browser, server, addresses, phone_name):
    """Every page fits the screen: nothing pushed sideways, nothing cut off
    (a mobile page wider than the screen widens innerWidth with it, so the
    measure is the screen's)."""
    locale, width, height = PHONES[phone_name]
    context = browser.new_context(base_url=server.url, locale=locale, has_touch=True,
                                  is_mobile=True, viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        wider = {}
        for address in addresses:
            page.goto(address)
            seen = page.evaluate("() => document.documentElement.scrollWidth")
            if seen > width:
                wider[address] = seen
        assert wider == {}
    finally:
        context.close()
