"""Every marked announcement can be read before Confirm.

The draft strip said "Annonces : Ali Ronda, Badr…": with 3 or 4 players the
names left no room for the last announcement, the one that decides the pool.
It now shows a chip per side and kind, in the side's colour; this checks the
longest drafts (3 players, three announcements; 4 players with long team
names, two each, double Rondas among them) at 360×640 and 390×844, in French,
Arabic and English, with and without JavaScript: every chip is whole inside
the strip, says its kind, and no control of the board moved from where it is
with no draft at all.
"""

import json

import pytest

from support.board_boxes import CONTROLS, MEASURE, PHONES
from support.table import without_the_engine

LONG_TEAMS = ["Abdelkrim & Salma-Nour", "Mohammed-Amine & Fatima-Zahra"]
# (players, sides, rules, draft as the board's query, the chips it shows)
DRAFTS = [
    (2, ["Nous", "Eux"], {}, ["0-ronda", "1-tringa"],
     [(0, "ronda", 1), (1, "tringa", 1)]),
    (3, ["Mohammed-Amine", "Badr", "Chama"], {}, ["0-ronda", "1-ronda", "2-tringa"],
     [(0, "ronda", 1), (1, "ronda", 1), (2, "tringa", 1)]),
    (4, LONG_TEAMS, {"preset": "classique"},
     ["1-ronda", "0-double_ronda", "0-tringa", "1-double_ronda"],
     [(0, "double_ronda", 1), (0, "tringa", 1), (1, "ronda", 1), (1, "double_ronda", 1)]),
    (4, LONG_TEAMS, {"preset": "classique"},
     ["0-double_ronda", "0-double_ronda", "1-tringa", "1-tringa"],
     [(0, "double_ronda", 2), (1, "tringa", 2)]),
]
KIND_WORDS = {
    "fr": {"ronda": "Ronda", "tringa": "Tringa", "double_ronda": "Double Ronda"},
    "en": {"ronda": "Ronda", "tringa": "Tringa", "double_ronda": "Double Ronda"},
    "ar": {"ronda": "روندا", "tringa": "ترينكا", "double_ronda": "روندا مزدوجة"},
}
# The strip's chips: their side, their words, and whether each lies whole
# inside the strip (its border box) and inside its own box.
CHIPS = """() => {
  const strip = document.querySelector('.draft-strip').getBoundingClientRect();
  const marks = document.querySelector('.draft-strip .marks');
  return {
    cut: marks.scrollHeight > marks.clientHeight || marks.scrollWidth > marks.clientWidth,
    chips: [...marks.children].map(li => {
      const r = li.getBoundingClientRect();
      return {side: li.className, text: li.textContent.trim(),
              inside: r.left >= strip.left && r.right <= strip.right && r.top >= strip.top
                      && r.bottom <= strip.bottom && li.scrollWidth <= li.clientWidth};
    }),
  };
}"""


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_every_marked_announcement_is_read_whole_and_moves_nothing(new_phone, server,
                                                                   javascript):
    page = new_phone(java_script_enabled=javascript)
    without_the_engine(page)  # 48 boards, each read as loaded
    for players, sides, rules, draft, chips in DRAFTS:
        game = page.request.post(f"{server.url}/api/games", data=json.dumps(
            {"sides": sides, "players": players, "rules": rules}),
            headers={"Content-Type": "application/json"}).json()
        for language, words in KIND_WORDS.items():
            # Without the script the page is the same server's: one phone size.
            for phone, size in PHONES.items() if javascript else [("small", PHONES["small"])]:
                page.set_viewport_size(size)
                url = f"/games/{game['id']}?lang={language}"
                page.goto(url)
                without = page.evaluate(MEASURE, CONTROLS)
                page.goto(url + "".join(f"&a={a}" for a in draft))
                case = (players, language, phone, draft)
                seen = page.evaluate(CHIPS)
                assert not seen["cut"], case
                assert [c["inside"] for c in seen["chips"]] == [True] * len(chips), case
                assert [(c["side"], c["text"]) for c in seen["chips"]] == [
                    (f"side-{side}", words[kind] + (f" ×{count}" if count > 1 else ""))
                    for side, kind, count in chips], case
                assert page.evaluate(MEASURE, CONTROLS) == without, case
