"""A finger's tap on a board button is made when the finger lifts, on the
button it came down on: the browser's click, which comes later (after the
pressed look is drawn and the mouse's events run), does not come at all, so
nothing counts twice. A finger that slides away, or a button that something
covers before the finger lifts, makes no tap, as the browser's own tap would
not."""

from support.table import expect_scores, open_game, version, wait_for_polls

# What reached the page: each click, and each finger lifted.
_WATCH = """() => { window.seen = {click: 0, touchend: 0};
  for (const type of ['click', 'touchend']) {
    window.addEventListener(type, () => { window.seen[type] += 1; }, true);
  } }"""


def _centre(phone, name):
    box = phone.get_by_role("button", name=name, exact=True).bounding_box()
    return {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}


def _touch(phone, *points):
    """A finger down at the first point, moved through the others, lifted at
    the last one: what a phone's screen sends."""
    cdp = phone.context.new_cdp_session(phone)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [points[0]]})
    for point in points[1:]:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_a_finger_tap_counts_once_with_no_click_after_it(phone):
    open_game(phone)
    phone.evaluate(_WATCH)
    before = version(phone)
    _touch(phone, _centre(phone, "Missa pour Nous"))
    expect_scores(phone, 1, 0)
    wait_for_polls(phone)  # the board as stored, and any click long come
    expect_scores(phone, 1, 0)
    assert int(version(phone)) == int(before) + 1
    assert phone.evaluate("window.seen") == {"click": 0, "touchend": 1}


def test_a_finger_moved_a_little_still_taps(phone):
    open_game(phone)
    point = _centre(phone, "Missa pour Eux")
    _touch(phone, point, {"x": point["x"] + 6, "y": point["y"] - 5})
    expect_scores(phone, 0, 1)


def test_a_finger_that_slides_off_the_button_makes_no_tap(phone):
    open_game(phone)
    before = version(phone)
    point = _centre(phone, "Missa pour Nous")
    _touch(phone, point, {"x": point["x"], "y": point["y"] + 40},
           {"x": point["x"], "y": point["y"] + 90})
    wait_for_polls(phone)
    assert version(phone) == before
    expect_scores(phone, 0, 0)


def test_a_button_covered_before_the_finger_lifts_makes_no_tap(phone):
    """A sheet, a notice or a settle over the button between the finger down
    and its lift: the finger lifts on what covers it."""
    open_game(phone)
    before = version(phone)
    point = _centre(phone, "Missa pour Nous")
    cdp = phone.context.new_cdp_session(phone)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    phone.evaluate("""() => {
      const cover = document.createElement('div');
      Object.assign(cover.style, {position: 'fixed', inset: '0', zIndex: '9'});  // CSSOM: the CSP allows it
      document.body.appendChild(cover); }""")
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()
    wait_for_polls(phone)
    assert version(phone) == before
    expect_scores(phone, 0, 0)


def test_two_fingers_are_left_to_the_browser(phone):
    """A second finger down is no tap of ours: a pinch, a palm."""
    open_game(phone)
    phone.evaluate(_WATCH)
    before = version(phone)
    first, second = _centre(phone, "Missa pour Nous"), _centre(phone, "Missa pour Eux")
    cdp = phone.context.new_cdp_session(phone)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [first]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart",
                                           "touchPoints": [first, second]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": [second]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()
    wait_for_polls(phone)
    assert version(phone) == before
    expect_scores(phone, 0, 0)
