"""Names and labels read whole on a small phone. At the table, /stats broke
"Youssef" as "Yousse/f" (a table cell wrapped anywhere); the new-game
rules' selects cut their choice ("tout de suite, même en pleine manch…").
A name wraps between its words, never inside one; a select shows its whole
choice, in fr, ar and en at 360 px."""


import pytest

from support.table import post

SMALL = {"width": 360, "height": 640}
# Every word of `sel`'s elements on one line: a word split over two lines has two boxes.
SPLIT_WORDS = """sel => {
  const split = [];
  for (const element of document.querySelectorAll(sel)) {
    const text = element.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) continue;
    const re = /\\S+/g; let m;
    while ((m = re.exec(text.data))) {
      const range = document.createRange();
      range.setStart(text, m.index); range.setEnd(text, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (lines.size > 1) split.push(m[0]);
    }
  }
  return split; }"""
# Each select's every choice, measured in the select's font, against the room it has
# (its content box, less the arrow's 24 px).
CUT_CHOICES = """() => {
  const context = document.createElement('canvas').getContext('2d');
  const cut = [];
  for (const select of document.querySelectorAll('select')) {
    if (!select.offsetParent) continue;
    const style = getComputedStyle(select);
    context.font = style.font;
    const room = select.clientWidth - parseFloat(style.paddingLeft)
      - parseFloat(style.paddingRight) - 24;
    for (const option of select.options) {
      if (context.measureText(option.text).width > room) cut.push(option.text);
    }
  }
  return cut; }"""


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_names_and_choices_read_whole_at_360(new_phone, server, language):
    page = new_phone(viewport=SMALL, locale=language)
    for sides in (["Youssef & Nadia", "Hamza & Sanaa"], ["Abdelkrim", "Chama"]):
        game = post(page, server, "/api/games", {"sides": sides})
        post(page, server, f"/api/games/{game['id']}/events",
             {"type": "adjust", "side": 0, "points": 40})
    page.goto(f"/stats?lang={language}")
    assert page.evaluate(SPLIT_WORDS, ".stats-table th[scope=row] a bdi, "
                                      ".stats-table th[scope=row] a") == []
    for path in ("/games/new", "/settings/presets/new?from=appli"):
        page.goto(f"{path}?lang={language}" if "?" not in path else f"{path}&lang={language}")
        for details in page.locator("details").all():
            details.evaluate("d => d.open = true")
        assert page.evaluate(CUT_CHOICES) == [], (language, path)


# From the end of a name (<bdi>) to the colon that follows it, as drawn.
GAP_BEFORE_COLON = """() => [...document.querySelectorAll('.computed bdi')].map(name => {
  const after = name.nextSibling, range = document.createRange();
  range.setStart(after, 0); range.setEnd(after, 1);
  const colon = range.getBoundingClientRect(), box = name.getBoundingClientRect();
  return [after.data[0], Math.round(getComputedStyle(name.parentNode).direction === 'rtl'
    ? box.left - colon.right : colon.left - box.right)]; })"""


@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_count_sheet_puts_no_space_before_the_colon(new_phone, server, language):
    """Seen at the table: "Chama : 11 cards (the rest of the 40)", French
    spacing in English."""
    page = new_phone(viewport=SMALL, locale=language, java_script_enabled=False)
    game = post(page, server, "/api/games", {"sides": ["Ali", "Badr", "Chama"], "players": 3})
    for query in ("", "&cards0=15&cards1=14"):
        page.goto(f"/games/{game['id']}?sheet=end{query}")
        assert page.evaluate(GAP_BEFORE_COLON) == [[":", 0]], query


# Each hit button's call ("Khamsa") against the room its button has.
CUT_CALLS = """() => [...document.querySelectorAll('#board .pad .call')].filter(call => {
  const button = call.closest('button');
  return call.getBoundingClientRect().width > button.clientWidth || !call.offsetParent;
}).map(call => call.textContent)"""


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_three_sides_hit_buttons_say_their_call_whole_at_360(new_phone, server, language):
    """Seen at the table: with three players the 1, 5 and 10 said no
    "Bount", "Khamsa", "Âachra", which a newcomer reads by."""
    page = new_phone(viewport=SMALL, locale=language)
    game = post(page, server, "/api/games", {"sides": ["Ali", "Badr", "Chama"], "players": 3})
    page.goto(f"/games/{game['id']}?lang={language}")
    assert page.locator("#board .pad .call").count() == 9
    assert page.evaluate(CUT_CALLS) == []


# The status line's lines as they show: each of its two parts cut between
# lines only (a part cut inside a line showed the top of its next line's
# letters), and the deal's part whole.
STATUS_LINES = """() => {
  const [deal, dealer] = document.querySelectorAll('.status-text > span');
  const line = parseFloat(getComputedStyle(deal).lineHeight);
  const whole = e => Math.abs(e.clientHeight / line - Math.round(e.clientHeight / line)) < 0.05;
  return {deal: deal.scrollHeight <= deal.clientHeight + 1 && whole(deal),
          dealer: whole(dealer) && dealer.clientHeight >= line - 0.5}; }"""


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
def test_the_status_line_shows_whole_lines_with_long_team_names_on_the_last_deal(
        new_phone, server, language):
    """Seen at the table: "(Khlassou)" and "Partie en 33" half cut under the
    deal line, with two long teams' names on the last deal."""
    page = new_phone(viewport=SMALL, locale=language)
    game = post(page, server, "/api/games", {
        "sides": ["Abdelkader & Fatima-Zahra", "Mohammed & Khadija"], "players": 4})
    for _ in range(2):
        post(page, server, f"/api/games/{game['id']}/events", {"type": "next_deal"})
    page.goto(f"/games/{game['id']}?lang={language}")
    assert page.evaluate(STATUS_LINES) == {"deal": True, "dealer": True}
