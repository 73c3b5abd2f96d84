"""What the notice says when another phone's tap changed the meaning of this
one (engine/merge.py) reads whole in its box over the status line, at 360 px,
in each language: the scorer is told to check the score at that very moment,
and a sentence cut at the top of the screen or running over the scores is
no help then."""

import pytest
from babel.support import Translations
from playwright.sync_api import expect

from scorekeeper.engine.merge import (
    ALREADY_COUNTED,
    ALREADY_UNDONE,
    CLOSED_AFTER,
    JOINED,
    PLACED,
    SENTENCES,
)
from scorekeeper.web.views.games import COUNTED_OTHERWISE, HAND_COUNTED
from support.paths import ROOT
from support.table import open_game

SMALL = {"width": 360, "height": 640}
SHOW = """text => { const notice = document.getElementById('notice');
  notice.textContent = text; notice.className = 'notice shown error';
  return notice.scrollHeight - notice.clientHeight; }"""


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_every_other_phone_sentence_fits_the_notice_at_360(new_phone, language):
    words = Translations.load(str(ROOT / "translations"), [language])
    page = new_phone(viewport=SMALL)
    open_game(page)
    page.goto(page.url + f"?lang={language}")
    expect(page.locator("#board")).to_be_visible()
    overflowing = {}
    # And the board's own words for a count refused or closed: the counts of
    # three sides at their widest.
    board_words = {"counted_otherwise": (COUNTED_OTHERWISE, {"what": "\u206640 – 40 – 40\u2069"}),
                   "hand_counted": (HAND_COUNTED, {"hand": 100}),
                   "already_counted": (ALREADY_COUNTED, {}),
                   "already_undone": (ALREADY_UNDONE, {}),
                   "placed": (PLACED, {}),
                   "closed_after": (CLOSED_AFTER, {}),
                   "joined": (JOINED, {})}
    for reason, (sentence, values) in {**{key: (value, {}) for key, value in SENTENCES.items()},
                                       **board_words}.items():
        said = words.gettext(sentence) % values if values else words.gettext(sentence)
        overflow = page.evaluate(SHOW, said)
        if overflow > 2:  # the box's padding aside
            overflowing[reason] = (overflow, said)
    assert not overflowing, overflowing
