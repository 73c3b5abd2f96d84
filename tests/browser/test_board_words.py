"""The board's words, read whole and set alike on the small phone, where the
table found them cut or askew.

What a side needs: with 3 players at 360 px the tie's line was cut
("égalité : encore un…"); every wording the score boxes can show, under
both stop rules, must fit their two lines in French, Arabic and English.
The buttons' labels: "Fin de manche", a link, wrapped on two lines aligned
to the start while "Donne suivante" was centred.
"""

import json

import pytest
from playwright.sync_api import expect

from support.board_boxes import PHONES

SIDES = ["Mohammed-Amine", "Badr", "Chama"]
# Every text a score box shows or will show at once after a tap (data-needs):
# each is put in the first box and must fit it.
NEEDS_FIT = """() => {
  const box = document.querySelector('.needs');
  const texts = new Set([...document.querySelectorAll('.needs')].map(n => n.textContent));
  document.querySelectorAll('[data-needs]').forEach(b => b.dataset.needs.split('|')
    .forEach(t => texts.add(t)));
  const cut = [];
  for (const text of texts) {
    box.textContent = text;
    if (box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth) {
      cut.push(text);
    }
  }
  return {texts: [...texts], cut};
}"""


def _post(page, url, data):
    response = page.request.post(url, data=json.dumps(data),
                                 headers={"Content-Type": "application/json"})
    assert response.ok, response.text()
    return response.json()


def _tied_and_ahead_games(page, server) -> list[str]:
    """Three-player games at 11: a tie at the target with each stop rule, and
    a side over the target in the middle of a hand that ends the game at its count."""
    games = []
    for stop in ("immediate", "end_of_hand"):
        game = _post(page, f"{server.url}/api/games",
                     {"sides": SIDES, "players": 3, "rules": {"target": 11, "stop": stop}})["id"]
        events = f"{server.url}/api/games/{game}/events"
        for side in (0, 1):
            _post(page, events, {"type": "adjust", "side": side, "points": 10})
        _post(page, events, {"type": "announce", "announcements": [  # shared: 11 – 11 – 0
            {"side": 0, "kind": "ronda", "rank": 5}, {"side": 1, "kind": "ronda", "rank": 5}]})
        games.append(game)
    ahead = _post(page, f"{server.url}/api/games",
                  {"sides": SIDES, "players": 3, "rules": {"target": 11, "stop": "end_of_hand"}})
    _post(page, f"{server.url}/api/games/{ahead['id']}/events",
          {"type": "adjust", "side": 0, "points": 12})
    return games + [ahead["id"]]


def test_what_each_side_needs_is_read_whole_with_three_players(new_phone, server):
    page = new_phone(viewport=PHONES["small"])
    games = _tied_and_ahead_games(page, server)
    for language in ("fr", "ar", "en"):
        seen = set()
        for game in games:
            page.goto(f"/games/{game}?lang={language}")
            fit = page.evaluate(NEEDS_FIT)
            assert fit["cut"] == [], (language, game)
            seen.update(fit["texts"])
        assert len(seen) >= 5, (language, seen)  # needs N, both ties, ahead, …


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_every_button_label_is_centred(new_phone, server, language):
    page = new_phone(viewport=PHONES["small"])
    game = _post(page, f"{server.url}/api/games", {"sides": SIDES, "players": 3})["id"]
    for query in ("", "&sheet=end", "&sheet=more"):
        page.goto(f"/games/{game}?lang={language}{query}")
        aside = page.evaluate("""() => [...document.querySelectorAll(
              '#board button, #board .button, #board a[class~=button]')]
            .filter(e => e.offsetWidth > 1 && getComputedStyle(e).textAlign !== 'center')
            .map(e => e.textContent.trim())""")
        assert aside == [], (language, query)


@pytest.mark.parametrize("language, said", [
    ("fr", "\u2068Nous\u2069 : 40 cartes au plus, tout le jeu."),  # the name isolated
    ("ar", "\u2068نحن\u2069: 40 ورقة على الأكثر، الرزمة كلها."),
])
def test_a_count_beyond_the_deck_is_said_by_the_sheet(new_phone, server, screenshot, language,
                                                      said):
    """45 typed for 25, as a scorer did: the sheet's own sentence, no
    points, Confirm off; a tap on it records nothing and says why."""
    page = new_phone()
    names = {"fr": ["Nous", "Eux"], "ar": ["نحن", "هم"]}[language]
    game = _post(page, f"{server.url}/api/games", {"sides": names})
    page.goto(f"/games/{game['id']}?lang={language}&sheet=end")
    page.locator("#cards0").fill("45")
    confirm = page.locator("button[value=end_hand]")
    expect(page.locator(".end-sheet .gets")).to_have_text(said)
    expect(confirm).to_have_attribute("aria-disabled", "true")
    assert "+20" not in page.locator(".end-sheet").inner_text()
    screenshot(page, f"count-45-{language}")
    confirm.tap(force=True)  # it is off: a finger can still tap it
    expect(page.locator("#notice")).to_have_text(said)
    assert _post(page, f"{server.url}/api/games/{game['id']}/events",
                 {"type": "missa", "side": 0})["version"] == 1  # nothing was recorded before
