"""A team's name mixing Latin and Arabic letters ("Karim & سلمى") reads in
one order everywhere, the order it was typed in: the score box shows its
partners one above the other, and the header, the sheets, the Undo's label,
the lists and the review read its first partner first too, right to left
in Arabic as left to right in French. One isolate for the whole name drew
it left to right on an Arabic page: read from the right, "سلمى & Karim"."""

import pytest

from scorekeeper.testing.live_server import serving
from support.timings import QUICK_ENV

pytestmark = pytest.mark.xdist_group("team_names")  # its module's server, started once a run

TEAMS = ["Karim & سلمى", "Youssef & نادية"]

# Where a word is drawn: the box of its first occurrence in `root`'s text.
WHERE = """([root, word]) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent.indexOf(word);
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + word.length);
        const box = range.getBoundingClientRect();
        return {top: box.top, left: box.left, right: box.right, height: box.height};
    }
    return null;
}"""


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("teams"), "teams", **QUICK_ENV) as live:
        yield live


def read_first(page, root, first: str, second: str, rtl: bool) -> bool:
    """Whether a reader of the page's direction reads `first` before `second` in `root`."""
    a = page.evaluate(WHERE, [root.element_handle(), first])
    b = page.evaluate(WHERE, [root.element_handle(), second])
    assert a and b, (first, second)
    if abs(a["top"] - b["top"]) > min(a["height"], b["height"]) / 2:  # two lines
        return a["top"] < b["top"]
    return a["right"] > b["right"] if rtl else a["left"] < b["left"]


@pytest.mark.parametrize("language", ["ar", "fr"])
def test_a_team_reads_its_first_partner_first_everywhere(browser, table, language):
    context = browser.new_context(base_url=table.url, viewport={"width": 360, "height": 740},
                                  locale={"ar": "ar-MA", "fr": "fr-FR"}[language])
    page = context.new_page()
    page.goto("/games/new")
    page.evaluate("""async (sides) => {
        const made = await fetch('/api/games', {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({sides, players: 4})}).then(r => r.json());
        await fetch(`/api/games/${made.id}/events`, {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({type: 'hit', side: 0, value: 1})});
        location.href = `/games/${made.id}`;
    }""", TEAMS)
    page.wait_for_url("**/games/*")
    page.locator("#board").wait_for()
    rtl = language == "ar"
    game = page.url
    places = {
        "score box": page.locator(".score.side-0 .side-name"),
        "header": page.locator(".status-text"),
        "chain strip": page.locator(".chain-slot"),
        "Undo": page.locator(".undo-what"),
    }
    for where, root in places.items():
        assert read_first(page, root, "Karim", "سلمى", rtl), where
    page.goto(game + "/review")
    assert read_first(page, page.locator("h1"), "Karim", "سلمى", rtl), "review"
    page.goto("/games")
    line = page.locator(".game-title").first
    assert read_first(page, line, "Karim", "سلمى", rtl), "list"
    assert read_first(page, line, "Youssef", "نادية", rtl), "list"
    context.close()


@pytest.mark.parametrize("language", ["ar", "fr"])
def test_the_first_dealers_choice_reads_a_team_as_typed(browser, table, language):
    """The new game's first-dealer choice names a team after its partners as
    they are typed: in the same order as the board will."""
    context = browser.new_context(base_url=table.url, viewport={"width": 360, "height": 740},
                                  locale={"ar": "ar-MA", "fr": "fr-FR"}[language])
    page = context.new_page()
    page.goto("/games/new")
    page.locator("input[name=players][value='4']").check()
    for field, name in zip(["p0a", "p0b", "p1a", "p1b"], ["Karim", "سلمى", "يوسف", "Nadia"]):
        page.locator(f"#{field}").fill(name)
    choices = page.locator("fieldset.dealer")
    rtl = language == "ar"
    assert read_first(page, choices.locator("[data-name-of]").first, "Karim", "سلمى", rtl)
    assert read_first(page, choices.locator("[data-name-of]").nth(1), "يوسف", "Nadia", rtl)
    context.close()
