"""The board's morph (static/board/board.js): the server's board put in place
of the one shown by changing only what differs, through the board's own hook
(Ronda.board.swap), on the real script in a real page."""

import pytest

pytestmark = pytest.mark.xdist_group("morph")  # its module fixture, built once a run

BOARD = """<div id="board" data-game="g1" data-version="1">
  <p class="status"><span id="deal">Donne 1</span> <b>Ali</b></p>
  <div class="scores"><span id="score-0">3</span><span id="score-1">7</span></div>
  <form><input id="cards-0" name="cards-0" value="10"><input id="early" type="checkbox"></form>
  <ul class="recent"><li id="e1">Missa</li><li id="e2">Bount</li></ul>
</div>"""


@pytest.fixture(scope="module")
def shown(board_page):
    return board_page(BOARD)


@pytest.fixture
def page(shown):
    """The page, its board as drawn at first (nothing focused)."""
    shown.evaluate("""html => {
      if (document.activeElement) { document.activeElement.blur(); }
      document.getElementById("board").outerHTML = html;
    }""", BOARD)
    return shown


def swap_in(page, board: str) -> None:
    """The server's board, as a tap's answer brings it."""
    page.evaluate("""html => Ronda.board.swap(new DOMParser().parseFromString(html, "text/html"),
                                                null)""", board)


def changed(page, board: str) -> list[str]:
    """Swap `board` in, and say what was written in the page, node by node."""
    return page.evaluate("""html => {
      const records = [];
      const observer = new MutationObserver(list => records.push(...list));
      observer.observe(document.getElementById("board"),
                       { subtree: true, childList: true, attributes: true, characterData: true });
      Ronda.board.swap(new DOMParser().parseFromString(html, "text/html"), null);
      records.push(...observer.takeRecords());
      observer.disconnect();
      return records.map(r => r.type + " " + (r.attributeName || "") + " " +
                         (r.target.id || r.target.parentNode && r.target.parentNode.id || ""));
    }""", board)


def keep(page, *selectors: str) -> None:
    page.evaluate("""selectors => { window.kept = selectors.map(s => document.querySelector(s)); }""",
                  list(selectors))


def still_the_same(page, *selectors: str) -> list[bool]:
    return page.evaluate("""selectors => selectors.map((s, i) =>
                              document.querySelector(s) === window.kept[i])""", list(selectors))


def test_the_same_board_again_writes_nothing(page):
    assert changed(page, BOARD) == []


def test_a_new_score_changes_its_text_in_the_very_node_shown(page):
    page.evaluate("() => { window.text = document.getElementById('score-1').firstChild; }")
    assert changed(page, BOARD.replace(">7<", ">9<")) == ["characterData  score-1"]
    assert page.text_content("#score-1") == "9"
    assert page.evaluate("() => document.getElementById('score-1').firstChild === window.text")


def test_attributes_are_added_changed_and_removed_and_only_those(page):
    fresh = (BOARD.replace('data-version="1"', 'data-version="2" data-live="1"')
             .replace('<span id="deal">', '<span id="deal" class="last">')
             .replace('<b>Ali</b>', '<b title="donneur">Ali</b>'))
    assert sorted(changed(page, fresh)) == sorted([
        "attributes data-version board", "attributes data-live board",
        "attributes class deal", "attributes title "])
    assert page.get_attribute("#board", "data-version") == "2"
    assert page.get_attribute("#deal", "class") == "last"
    assert sorted(changed(page, BOARD)) == sorted([
        "attributes data-version board", "attributes data-live board",
        "attributes class deal", "attributes title "])
    assert page.get_attribute("#board", "data-live") is None
    assert page.get_attribute("#deal", "class") is None
    assert page.get_attribute(".status b", "title") is None


def test_a_field_takes_the_servers_value_unless_it_is_being_typed_in(page):
    page.fill("#cards-0", "12")
    page.evaluate("() => document.activeElement.blur()")
    swap_in(page, BOARD.replace('value="10"', 'value="14"'))
    assert page.input_value("#cards-0") == "14"  # not focused: the server's count
    page.focus("#cards-0")
    page.keyboard.type("5")  # 145, being typed
    swap_in(page, BOARD.replace('value="10"', 'value="16"'))
    assert page.input_value("#cards-0") == "145"  # the answer is older than the text
    assert page.evaluate("() => document.activeElement.id") == "cards-0"


def asked_now(page) -> int:
    """What a request asked now carries: the changes typed so far."""
    return page.evaluate("() => Ronda.board.edits()")


def test_a_field_typed_in_after_the_answer_was_asked_keeps_what_was_typed(page):
    asked = asked_now(page)  # the sheet's opening asks its count (none yet)
    page.fill("#cards-0", "15")  # typed, then the next field: not focused now
    page.evaluate("() => document.activeElement.blur()")
    page.evaluate("""([html, asked]) => Ronda.board.swap(
                       new DOMParser().parseFromString(html, "text/html"), null, asked)""",
                  [BOARD.replace('value="10"', 'value=""'), asked])
    assert page.input_value("#cards-0") == "15"  # the answer is older than the text
    # An answer asked after it is the server's count.
    swap_asked = asked_now(page)
    page.evaluate("""([html, asked]) => Ronda.board.swap(
                       new DOMParser().parseFromString(html, "text/html"), null, asked)""",
                  [BOARD.replace('value="10"', 'value="17"'), swap_asked])
    assert page.input_value("#cards-0") == "17"


def test_an_answer_older_than_the_count_typed_predicts_no_score(page):
    live = BOARD.replace("<form>", '<form data-live-form="/games/g1">').replace(
        "</form>", '<button name="move" value="end_hand" data-scores="5 7" data-what="x">'
                   'OK</button></form>')
    swap_in(page, live)
    asked = asked_now(page)
    page.fill("#cards-0", "15")
    page.evaluate("""([html, asked]) => Ronda.board.swap(
                       new DOMParser().parseFromString(html, "text/html"), null, asked)""",
                  [live, asked])
    assert page.get_attribute("button[value=end_hand]", "data-scores") is None
    # The same board asked after the typing predicts what the server says.
    page.evaluate("""([html, asked]) => Ronda.board.swap(
                       new DOMParser().parseFromString(html, "text/html"), null, asked)""",
                  [live, asked_now(page)])
    assert page.get_attribute("button[value=end_hand]", "data-scores") == "5 7"


def test_a_box_is_ticked_and_unticked_as_the_server_says(page):
    swap_in(page, BOARD.replace('type="checkbox"', 'type="checkbox" checked'))
    assert page.is_checked("#early")
    swap_in(page, BOARD)
    assert not page.is_checked("#early")


def test_children_added_at_the_end_and_removed_from_it(page):
    keep(page, "#e1", "#e2")
    more = BOARD.replace("<li id=\"e2\">Bount</li>", "<li id=\"e2\">Bount</li><li id=\"e3\">Ronda</li>")
    swap_in(page, more)
    assert page.eval_on_selector_all(".recent li", "items => items.map(li => li.id)") == \
        ["e1", "e2", "e3"]
    assert still_the_same(page, "#e1", "#e2") == [True, True]
    swap_in(page, BOARD.replace("<li id=\"e2\">Bount</li>", ""))
    assert page.eval_on_selector_all(".recent li", "items => items.map(li => li.id)") == ["e1"]
    assert still_the_same(page, "#e1") == [True]


def test_a_child_of_another_kind_is_replaced_and_the_rest_kept(page):
    keep(page, "#deal", ".status b")
    swap_in(page, BOARD.replace("<b>Ali</b>", "<i>Ali</i>"))
    assert page.text_content(".status i") == "Ali"
    assert page.query_selector(".status b") is None
    assert still_the_same(page, "#deal") == [True]


def test_a_child_of_another_id_is_another_node_not_the_same_one_changed(page):
    keep(page, "#e1", "#e2")
    swap_in(page, BOARD.replace('<li id="e1">Missa</li>', '<li id="e0">Tringa</li>'))
    assert page.eval_on_selector_all(".recent li", "items => items.map(li => li.id)") == \
        ["e0", "e2"]
    assert still_the_same(page, "#e0", "#e2") == [False, True]


def test_a_new_child_before_one_with_an_id_is_put_in_before_it_which_stays(page):
    """The last card's form comes above the count's as the other phone
    reaches the last deal: the count's form, and the field typed in, stay
    the same elements (made the new form's, the field lost what was typed)."""
    counting = BOARD.replace("<form>", '<form id="count">')
    page.evaluate("html => { document.getElementById('board').outerHTML = html; }", counting)
    page.focus("#cards-0")
    page.evaluate("() => { document.getElementById('cards-0').value = '19'; }")
    keep(page, "#count", "#cards-0")
    swap_in(page, counting.replace('<form id="count">',
                                   '<form class="last"><button>Missa</button></form><form id="count">'))
    assert page.eval_on_selector_all("#board form", "forms => forms.map(f => f.className || f.id)") \
        == ["last", "count"]
    assert still_the_same(page, "#count", "#cards-0") == [True, True]
    assert page.input_value("#cards-0") == "19"


def at_the_end(board: str, html: str) -> str:
    """`board` with `html` as its last children."""
    head, _, tail = board.rpartition("</div>")
    return head + html + "</div>" + tail


def test_a_child_gone_before_one_with_an_id_is_taken_out_and_the_one_kept(page):
    """The last events, all undone, go from above an open sheet: the sheet,
    and the field typed in, stay the same elements."""
    sheet = '<section id="sheet"><input id="note" name="note"></section>'
    before = at_the_end(BOARD, '<section id="recent"><ol><li>Missa</li></ol></section>' + sheet)
    page.evaluate("html => { document.getElementById('board').outerHTML = html; }", before)
    page.fill("#note", "carte tombée")
    keep(page, "#sheet", "#note")
    swap_in(page, at_the_end(BOARD, sheet))
    assert page.locator("#recent").count() == 0
    assert still_the_same(page, "#sheet", "#note") == [True, True]
    assert page.input_value("#note") == "carte tombée"


def test_a_radio_picked_stays_picked_through_an_answer_that_knows_nothing_typed(page):
    """Following the other phone (asked 0): its board draws the sheet with the
    first side picked, which the scorer changed."""
    sides = ('<form id="adjust"><input type="radio" name="side" value="0" checked>'
             '<input type="radio" name="side" value="1"></form>')
    with_sides = at_the_end(BOARD, sides)
    swap_in(page, with_sides)
    page.check("input[name=side][value='1']")
    follow = """([html, asked]) => Ronda.board.swap(
                  new DOMParser().parseFromString(html, "text/html"), null, asked)"""
    page.evaluate(follow, [with_sides, 0])
    picked = "() => [...document.querySelectorAll('input[name=side]')].map(r => r.checked)"
    assert page.evaluate(picked) == [False, True]
    # An answer to what was sent with the pick is the server's.
    page.evaluate(follow, [with_sides, page.evaluate("() => Ronda.board.edits()")])
    assert page.evaluate(picked) == [True, False]


def test_each_part_hears_that_the_servers_board_is_in_place(page):
    page.evaluate("() => { window.heard = 0; Ronda.afterSwap.push(() => { window.heard += 1; }); }")
    swap_in(page, BOARD)
    assert page.evaluate("window.heard") == 1
