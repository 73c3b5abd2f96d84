"""The scoreboard in Arabic, right to left, on a phone: a few taps, a
screenshot, the mirrored layout, numbers that stay readable, and axe-core.

The tests run against a server of their own: a game started here leaves
Arabic side names as the next game's defaults, which the French tests on
the shared server must not inherit."""

import pytest
from playwright.sync_api import expect

from scorekeeper.testing.live_server import serving
from support.accessibility import check_both_themes
from support.table import expect_scores, mark, tap
from support.timings import QUICK_ENV

pytestmark = pytest.mark.xdist_group("arabic")  # its module fixture, built once a run

ARABIC = {"locale": "ar-MA"}  # the browser asks for Arabic: Accept-Language ar-MA


@pytest.fixture(scope="module")
def arabic_server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("arabic"), "arabic", **QUICK_ENV) as live:
        yield live


@pytest.fixture
def arabic_phone(new_phone, arabic_server):
    def open_phone(**options):
        return new_phone(base_url=arabic_server.url, **ARABIC, **options)

    return open_phone


def start_arabic_game(page) -> None:
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    page.get_by_role("link", name="لعبة جديدة").tap()
    expect(page.get_by_label("الطرف الأول")).to_have_value("نحن")
    expect(page.get_by_label("الطرف الثاني")).to_have_value("هم")
    page.get_by_role("button", name="بدء اللعبة").tap()
    expect(page.locator("#board")).to_be_visible()


def glyph_order(page, selector: str) -> list[str]:
    """The visible characters of an element's first text, from left to right
    as drawn (spaces and the invisible bidi controls left out)."""
    return page.evaluate("""selector => {
        const node = document.querySelector(selector).firstChild;
        const chars = [];
        for (let i = 0; i < node.textContent.length; i++) {
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const box = range.getBoundingClientRect();
            if (box.width > 0 && node.textContent[i].trim()) {
                chars.push([box.left, node.textContent[i]]);
            }
        }
        return chars.sort((a, b) => a[0] - b[0]).map(c => c[1]);
    }""", selector)


def test_a_few_taps_in_arabic(arabic_phone, screenshot):
    page = arabic_phone()
    start_arabic_game(page)
    mark(page, "روندا لنا", then="الإعلانات: نحن روندا")
    tap(page, "تأكيد")
    expect_scores(page, 1, 0)
    tap(page, "1 بونت لهم")
    tap(page, "5 خمسة لنا")
    expect(page.get_by_text("السلسلة: 5 لنا، لم تُحتسب بعد")).to_be_visible()
    tap(page, "ميسا لنا")  # the missa made by the chain's last hit: 5 + 1
    expect_scores(page, 7, 0)
    expect(page.get_by_role("button", name="تراجع: ميسا · \u2068نحن\u2069")).to_be_visible()
    screenshot(page, "arabic-board")

    # Mirrored: the first side stands on the right, its buttons run right to left.
    first, second = page.locator("#score-0").bounding_box(), page.locator("#score-1").bounding_box()
    assert first["x"] > second["x"]
    one = page.get_by_role("button", name="1 بونت لنا").bounding_box()
    ten = page.get_by_role("button", name="10 عشرة لنا").bounding_box()
    assert one["x"] > ten["x"]
    # Numbers stay readable: "+6" is drawn "+6", not "6+", among Arabic words.
    assert glyph_order(page, ".recent li:first-child .gave bdi[dir=ltr]") == ["+", "6"]
    assert page.locator(".recent li:first-child .running").inner_text() == "7 – 0"
    # The same in the game's review, where the points are isolated by its markup.
    page.goto(page.url.split("?")[0] + "/review")
    drawn = glyph_order(page, ".timeline li:last-child .gave bdi[dir=ltr]")
    assert drawn.index("+") < drawn.index("6")
    # Its chart stays drawn left to right: the axis labels end at their anchor.
    ends = page.evaluate("""() => [...document.querySelectorAll('.chart text[text-anchor=end]')]
        .map(t => [t.getBBox().x + t.getBBox().width, Number(t.getAttribute('x'))])""")
    assert ends and all(right <= anchor + 1 for right, anchor in ends)


def test_the_common_case_fits_a_360_by_640_screen_in_arabic(arabic_phone):
    page = arabic_phone(viewport={"width": 360, "height": 640})
    start_arabic_game(page)
    tap(page, "1 بونت لنا")  # a chain strip is open: the common case mid-deal
    for name in ("ميسا لنا", "ميسا لهم", "التوزيعة التالية", "10 عشرة لهم"):
        box = page.get_by_role("button", name=name, exact=True).bounding_box()
        assert box["y"] + box["height"] <= 640, name
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # nothing pushed sideways


def test_the_switcher_goes_from_arabic_to_french_and_stays(arabic_phone):
    page = arabic_phone()
    start_arabic_game(page)
    mark(page, "المزيد", then="اللغة")
    page.get_by_role("link", name="Français").tap()
    expect(page.locator("html")).to_have_attribute("dir", "ltr")
    expect(page.get_by_role("heading", name="Plus")).to_be_visible()  # the sheet stays open
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")  # the cookie keeps it


def test_axe_finds_nothing_serious_right_to_left(arabic_phone):
    """Every rule in the light theme, the colour rules in the dark one."""
    page = arabic_phone()
    page.goto("/")
    check_both_themes(page, "home")
    page.goto("/games/new")
    check_both_themes(page, "new game")
    start_arabic_game(page)
    mark(page, "روندا لنا", then="الإعلانات: نحن روندا")
    mark(page, "روندا لهم", then="الإعلانات: نحن روندا، هم روندا")
    check_both_themes(page, "announcement draft")
    tap(page, "تأكيد")
    tap(page, "1 بونت لنا")
    check_both_themes(page, "chain and reveal strips")
    board = page.url.split("?")[0]
    for sheet in ("ranks", "end", "more"):
        page.goto(f"{board}?sheet={sheet}")
        check_both_themes(page, sheet)
    page.goto("/games/nope")
    check_both_themes(page, "error page")


LONG_LATIN = ["Abdelkrim-Mohammed", "Fatima-Zahra Benali", "Salma-Nour El Idrissi"]
# Each element's first Latin letter, and whether it is drawn inside the
# element's box: a name cut at its start (the ellipsis of a right-to-left box
# falls on the left, where a Latin name begins) draws it outside.
START_DRAWN = """selector => [...document.querySelectorAll(selector)].map(element => {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  let node; while ((node = walker.nextNode()) && !/[A-Za-z]/.test(node.data));
  if (!node) return null;
  const at = node.data.search(/[A-Za-z]/), range = document.createRange();
  range.setStart(node, at); range.setEnd(node, at + 1);
  const letter = range.getBoundingClientRect(), box = element.getBoundingClientRect();
  return [node.data.slice(at, at + 5), letter.left >= box.left - 1 && letter.right <= box.right + 1];
})"""


@pytest.mark.parametrize("script", [True, False], ids=["js", "no-js"])
def test_long_latin_names_keep_their_start_in_arabic_at_360(arabic_phone, script):
    """Seen at the table: "…hammed", "…ra Benali": two "Mohammed-…" could not be told apart."""
    page = arabic_phone(viewport={"width": 360, "height": 640}, java_script_enabled=script)
    game = page.request.post("/api/games", data={"sides": LONG_LATIN}).json()
    page.request.post(f"/api/games/{game['id']}/events",
                      data={"type": "hit", "side": 2, "value": 1})
    page.goto(f"/games/{game['id']}")
    names = page.evaluate(START_DRAWN, ".side-name")
    assert names == [["Abdel", True], ["Fatim", True], ["Salma", True]]
    assert page.evaluate("() => [...document.querySelectorAll('.side-name')].some("
                         "e => e.scrollWidth > e.clientWidth)")  # they are cut, at their end
    assert page.evaluate(START_DRAWN, ".undo-what bdi") == [["Salma", True]]
    assert page.locator(".undo-what").inner_text().startswith("تراجع: بونت (1)")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    if script:  # the new game's first dealer, by the name as typed
        page.goto("/games/new")
        page.locator("#name0").fill("Abdelkrim-Mohammed Benali El Idrissi Ala")
        page.locator("#name0").blur()
        assert page.evaluate(START_DRAWN, ".choice.dealer span")[0] == ["Abdel", True]


def test_a_score_below_zero_reads_minus_one_not_one_minus(arabic_phone):
    """Seen on an Arabic board: a side at -1 showed "1-", its minus sign
    after the number as the page runs right to left."""
    page = arabic_phone(viewport={"width": 360, "height": 640})
    start_arabic_game(page)
    game = page.locator("#board").get_attribute("data-game")
    response = page.request.post(f"/api/games/{game}/events", data={
        "type": "adjust", "side": 1, "points": -1, "note": ""})
    assert response.ok, response.text()
    page.reload()
    places = page.locator("#score-1").evaluate("""p => {
        const text = p.firstChild, range = document.createRange();
        return [...text.data].map((c, i) => {
            range.setStart(text, i); range.setEnd(text, i + 1);
            return [c, range.getBoundingClientRect().x]; }); }""")
    assert [c for c, _ in places] == ["-", "1"]
    assert places[0][1] < places[1][1]  # the minus sign left of the 1
