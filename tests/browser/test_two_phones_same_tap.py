"""Two phones tap the same Missa at once, as at a real table: it counts once,
and the phone whose tap came second says, in words, that it was already
recorded, with the fresh score. With and without the page's script. Two
phones tapping two different things both count; a tap whose meaning the
other phone's changed is refused, saying why (docs/BOARD.md, "Two phones")."""

import json
import re
import time

import pytest
from playwright.sync_api import expect

from support.table import expect_scores, hold_polls, open_game, wait_for_polls, wait_past_double_tap


@pytest.mark.parametrize("script", [True, False], ids=["js", "no-js"])
def test_the_same_missa_from_two_phones_counts_once(phone, new_phone, screenshot, script):
    open_game(phone)
    other = new_phone(java_script_enabled=script,
                      viewport={"width": 360, "height": 640})
    other.goto(phone.url)
    # The second phone has not yet seen the first one's tap (its next look at
    # the game comes within two seconds): its polls see the game as it was.
    game = phone.locator("#board").get_attribute("data-game")
    release = hold_polls(other, game)
    phone.get_by_role("button", name="Missa pour Nous").tap()
    expect_scores(phone, 1, 0)
    other.get_by_role("button", name="Missa pour Nous").tap()
    release()
    expect(other.locator("#notice")).to_contain_text("Déjà enregistré sur un autre téléphone")
    expect_scores(other, 1, 0)
    # The sentence fits the notice's three lines on the small phone (its 2 px padding aside).
    overflow = other.locator("#notice").evaluate("n => n.scrollHeight - n.clientHeight")
    assert overflow <= 2
    screenshot(other, f"two-phones-same-missa-{'js' if script else 'no-js'}-360")
    # The next deal, tapped on both, is dealt once.
    release = hold_polls(other, game)
    phone.get_by_role("button", name="Donne suivante").tap()
    expect(phone.locator(".status-text")).to_contain_text("Donne 2/6")
    other.get_by_role("button", name="Donne suivante").tap()
    release()
    # Its answer: the board of the game with that tap's own record (the
    # notice may still be the Missa's).
    expect(other.locator("#board")).to_have_attribute("data-version", "4")
    expect(other.locator("#notice")).to_contain_text("Déjà enregistré sur un autre téléphone")
    state = json.loads(phone.request.get(f"/api/games/{game}").text())
    # Each phone's second tap is a record of its own ("same"): the game unchanged.
    assert state["scores"] == [1, 0] and state["deal"] == 2 and state["version"] == 4


# The page's fetch, wrapped: a look at the game asked while `held` is set
# gets the server's answer of that moment, handed to the board only once
# `held` is cleared (a slow Wi-Fi's answer, overtaken by a tap's).
_HOLD_LOOKS = """() => {
  const fetched = window.fetch.bind(window);
  window.looks = { held: true, asked: 0 };
  window.fetch = (url, options) => {
    if (!window.looks.held || !String(url).includes("/api/games/")) { return fetched(url, options); }
    window.looks.asked += 1;
    return fetched(url, options).then((response) => response.text().then((text) =>
      new Promise((resolve) => {
        const wait = () => window.looks.held ? setTimeout(wait, 20)
          : resolve(new Response(text, { status: response.status, headers: response.headers }));
        wait();
      })));
  };
}"""


def test_a_look_at_the_game_asked_before_a_tap_does_not_wipe_its_notice(phone):
    """The other phone's Missa, then this phone's, while one of its looks at
    the game is still on its way: the tap's answer says the Missa was already
    recorded; the look, answered after it, tells of the game before that tap
    and is not followed (following it drew the board again, without the
    notice, before the scorer had read it)."""
    game = open_game(phone)
    phone.request.post(f"/api/games/{game}/events", headers={"Content-Type": "application/json"},
                       data=json.dumps({"type": "missa", "side": 0}))
    phone.evaluate(_HOLD_LOOKS)
    phone.wait_for_function("() => window.looks.asked >= 1")
    phone.get_by_role("button", name="Missa pour Nous").tap()
    expect(phone.locator("#notice")).to_contain_text("Déjà enregistré sur un autre téléphone")
    drawn = phone.locator("#board").get_attribute("data-version")
    phone.evaluate("() => { window.looks.held = false; }")
    wait_for_polls(phone)
    expect(phone.locator("#notice")).to_contain_text("Déjà enregistré sur un autre téléphone")
    assert phone.locator("#board").get_attribute("data-version") == drawn
    expect_scores(phone, 1, 0)


def test_the_winning_missa_on_both_phones_leaves_the_second_asking_before_reopening(
        phone, new_phone, screenshot):
    """The second phone's Missa is already recorded and its board shows the
    result; its Undo, there, asks first: a second tap meant the Missa again."""
    game = open_game(phone)
    phone.request.post(f"/api/games/{game}/events", headers={"Content-Type": "application/json"},
                       data=json.dumps({"type": "adjust", "side": 0, "points": 32}))
    phone.reload()
    other = new_phone(viewport={"width": 360, "height": 640})
    other.goto(phone.url)
    release = hold_polls(other, game)
    phone.get_by_role("button", name="Missa pour Nous").tap()
    expect(phone.locator(".over")).to_be_visible()
    other.get_by_role("button", name="Missa pour Nous").tap()
    release()
    expect(other.locator(".flash-error")).to_contain_text("Déjà enregistré sur un autre téléphone")
    expect(other.locator(".over")).to_be_visible()
    screenshot(other, "two-phones-winning-missa-360")
    # Its polls see the game as it is: its board stays as drawn.
    wait_for_polls(other)
    undo = other.locator(".over .undo-button")
    assert undo.evaluate("e => e.tagName") == "A"  # a link to the question, not the Undo itself
    undo.tap()
    expect(other).to_have_url(re.compile(r"/reopen$"))
    assert json.loads(phone.request.get(f"/api/games/{game}").text())["finished"]


# -- the same tap, or two taps, on two phones at once: real touches, real polls ---------------
# The gaps between the two phones' touches are the subject here: they are waited for.

def center(page, name: str) -> tuple[float, float]:
    box = page.get_by_role("button", name=name, exact=True).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def game_state(page) -> dict:
    game = page.locator("#board").get_attribute("data-game")
    return json.loads(page.request.get(f"/api/games/{game}").text())


def caught_up(*phones) -> dict:
    """The game once every phone's taps are answered and its board shows it:
    a tap that was the other phone's record is a record too, which may land
    just after the game was read, so it is read until every board shows it."""
    deadline = time.monotonic() + 10
    while True:
        for page in phones:
            page.wait_for_function("() => !window.Ronda.board.busy()")
            expect(page.locator("html")).not_to_have_attribute("data-outbox", re.compile("."))
        state = game_state(phones[0])
        shown = [page.locator("#board").get_attribute("data-version") for page in phones]
        if all(version == str(state["version"]) for version in shown):
            return state
        assert time.monotonic() < deadline, (state, shown)
        time.sleep(0.1)


# The page's own settle animations (style.css): the button of the move just
# recorded takes no tap for half a second, on a board that followed it too.
SETTLED = "() => !document.getAnimations().some(a => /^settle/.test(a.animationName || ''))"


def two_phones(phone, new_phone):
    open_game(phone)
    other = new_phone()
    other.goto(phone.url)
    expect(other.locator("#board")).to_be_visible()
    return phone, other


@pytest.mark.real_time  # the gap between the phones' taps is the subject
def test_the_same_missa_on_two_phones_counts_once_whatever_the_gap(phone, new_phone):
    """0, 200, 500 and 800 ms apart. From 500 ms, the second phone's board
    follows the first phone's tap before its own finger comes down: its next
    look at the game (every 1.5 s) is made to come right after that tap, the
    worst moment, where it swapped in the new board under the finger."""
    first, second = two_phones(phone, new_phone)
    for round_, gap_ms in enumerate((0, 200, 500, 800), 1):
        before = first.locator("#board").get_attribute("data-version")
        here, there = center(first, "Missa pour Nous"), center(second, "Missa pour Nous")
        first.touchscreen.tap(*here)
        tapped = time.monotonic()
        if gap_ms >= 500:
            first.wait_for_function(
                "v => document.getElementById('board').dataset.version !== v", arg=before)
            second.evaluate("() => window.Ronda.board.poll()")
        second.wait_for_timeout(max(0, gap_ms - 1000 * (time.monotonic() - tapped)))
        second.touchscreen.tap(*there)
        state = caught_up(first, second)
        assert state["scores"] == [round_, 0], (gap_ms, state)
        expect_scores(first, round_, 0)
        expect_scores(second, round_, 0)
        for page in (first, second):  # the next round's taps land on controls that take them
            page.wait_for_function(SETTLED, polling="raf")
        wait_past_double_tap(first)  # and are no double tap of these


def test_a_missa_tapped_just_after_the_board_followed_the_same_one_counts_once(phone, new_phone):
    """The second phone's board shows the first phone's Missa a moment before
    its own finger comes down on Missa (once its Missa takes taps again, less
    than a second after): the finger had not seen it yet."""
    first, second = two_phones(phone, new_phone)
    first.touchscreen.tap(*center(first, "Missa pour Nous"))
    # Followed, seen at the next frame; then the moment its Missa takes taps again.
    second.wait_for_function("() => document.getElementById('score-0').textContent === '1'",
                             polling="raf", timeout=2500)
    second.wait_for_function(SETTLED, polling="raf")
    second.touchscreen.tap(*center(second, "Missa pour Nous"))
    expect(second.locator("#notice")).to_contain_text("Déjà enregistré sur un autre téléphone")
    assert caught_up(first, second)["scores"] == [1, 0]


def test_a_khamsa_tapped_just_after_the_board_followed_the_bount_counts(phone, new_phone):
    """What a board that had just followed shows is not refused for it: the
    Khamsa its finger taps on the Bount it had just shown is that Khamsa."""
    first, second = two_phones(phone, new_phone)
    first.touchscreen.tap(*center(first, "1 Bount pour Nous"))
    second.wait_for_function(
        "() => !document.querySelector('button[value=\"hit.1.5\"]').hasAttribute('aria-disabled')",
        polling="raf", timeout=2500)  # followed: the Khamsa is on
    second.wait_for_function(SETTLED, polling="raf")
    second.touchscreen.tap(*center(second, "5 Khamsa pour Eux"))
    state = caught_up(first, second)
    assert state["version"] == 2 and state["chain"] == {"side": 1, "value": 5}, state
    assert "autre téléphone" not in (second.locator("#notice").text_content() or "")


def test_missa_for_us_and_missa_for_them_at_the_same_moment_both_count(phone, new_phone):
    first, second = two_phones(phone, new_phone)
    here, there = center(first, "Missa pour Nous"), center(second, "Missa pour Eux")
    first.touchscreen.tap(*here)
    second.touchscreen.tap(*there)
    expect(first.locator("#score-1")).to_have_text("1", timeout=5000)
    expect(second.locator("#score-0")).to_have_text("1", timeout=5000)
    state = caught_up(first, second)
    assert state["scores"] == [1, 1] and state["version"] == 2
    for page in (first, second):
        assert "autre téléphone" not in (page.locator("#notice").text_content() or "")


def test_a_missa_racing_the_other_phones_next_deal_counts_in_its_deal(phone, new_phone):
    first, second = two_phones(phone, new_phone)
    # The second phone has not yet seen the next deal: its polls see the game
    # as it was (on a slow machine a poll could otherwise come in between).
    game = first.locator("#board").get_attribute("data-game")
    release = hold_polls(second, game)
    first.touchscreen.tap(*center(first, "Donne suivante"))
    expect(first.locator(".status-text")).to_contain_text("Donne 2/6")
    second.touchscreen.tap(*center(second, "Missa pour Nous"))
    release()
    expect(second.locator("#notice")).to_contain_text(
        "Compté dans la donne où il a été touché : un autre téléphone était passé")
    state = caught_up(first, second)
    assert state["scores"] == [1, 0] and state["deal"] == 2 and state["version"] == 2


def test_a_khamsa_tapped_before_the_board_follows_the_other_phones_bount_counts(phone):
    """At the table their 1, then our 5 at once: the other phone records the
    Bount, this one the Khamsa, off on its board as it has not followed
    yet. The board follows the game first, and the Khamsa is made there."""
    game = open_game(phone)
    hold_polls(phone, game)  # no poll sees the Bount
    khamsa = phone.locator('#board button[value="hit.1.5"]')
    expect(khamsa).to_have_attribute("aria-disabled", "true")
    phone.request.post(f"/api/games/{game}/events", headers={"Content-Type": "application/json"},
                       data=json.dumps({"type": "hit", "side": 0, "value": 1}))
    khamsa.tap(force=True)  # off on the board shown: the page takes the tap all the same
    expect(phone.locator('#board button[value="hit.0.10"]')).not_to_have_attribute(
        "aria-disabled", "true")  # the chain's next step, after the Khamsa
    state = json.loads(phone.request.get(f"/api/games/{game}").text())
    assert state["version"] == 2 and state["chain"] == {"side": 1, "value": 5}, state


def test_an_undo_whose_board_follows_the_other_phone_under_the_finger_takes_back_the_mistake(
        phone):
    """A Missa for us by mistake; the finger comes down on Undo, which names
    it; the board follows the other phone's Missa for them before the finger
    lifts: the finger meant the mistake (the board it saw), which is taken
    back, and the other phone's right tap stands."""
    game = open_game(phone)
    phone.get_by_role("button", name="Missa pour Nous").tap()
    expect_scores(phone, 1, 0)
    wait_past_double_tap(phone)
    undo = phone.locator("#board form.undo button")
    box = undo.bounding_box()
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    cdp = phone.context.new_cdp_session(phone)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    phone.request.post(f"/api/games/{game}/events", headers={"Content-Type": "application/json"},
                       data=json.dumps({"type": "missa", "side": 1}))
    expect(phone.locator("#board")).to_have_attribute("data-version", "2")  # followed
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()
    expect_scores(phone, 0, 1)
    state = json.loads(phone.request.get(f"/api/games/{game}").text())
    assert state["scores"] == [0, 1] and state["version"] == 3, state


def _board_followed(phone, game):
    return phone.expect_response(lambda response: response.request.method == "GET"
                                 and response.url.endswith(f"/games/{game}"))


def test_a_khamsa_tapped_a_moment_before_the_other_phones_bount_says_why_at_once(phone):
    """At the table their 1, then our 5, and our scorer taps first: the
    Khamsa is off here until the other phone's Bount comes. It says why at
    once (a wait of two seconds read as a frozen phone), and tapped again
    once the board shows the Bount, it counts."""
    game = open_game(phone)
    khamsa = phone.locator('#board button[value="hit.1.5"]')
    expect(khamsa).to_have_attribute("aria-disabled", "true")
    started = time.monotonic()
    with _board_followed(phone, game):  # the game followed once: no Bount yet
        khamsa.tap(force=True)
    expect(phone.locator("#notice")).to_contain_text("Le 5 suit un 1 ouvert de l'autre camp.",
                                                     timeout=1500)
    assert time.monotonic() - started < 1.5  # at once, not after a wait
    phone.request.post(f"/api/games/{game}/events", headers={"Content-Type": "application/json"},
                       data=json.dumps({"type": "hit", "side": 0, "value": 1}))
    expect(khamsa).not_to_have_attribute("aria-disabled", "true")  # the Bount, shown
    wait_past_double_tap(phone)
    khamsa.tap()
    expect(phone.locator('#board button[value="hit.0.10"]')).not_to_have_attribute(
        "aria-disabled", "true")  # the chain's next step, after the Khamsa
    state = json.loads(phone.request.get(f"/api/games/{game}").text())
    assert state["version"] == 2 and state["chain"] == {"side": 1, "value": 5}, state


def test_a_khamsa_no_bount_comes_for_says_why_and_is_not_made_later(phone):
    game = open_game(phone)
    khamsa = phone.locator('#board button[value="hit.1.5"]')
    khamsa.tap(force=True)
    expect(phone.locator("#notice")).to_contain_text("Le 5 suit un 1 ouvert de l'autre camp.")
    assert json.loads(phone.request.get(f"/api/games/{game}").text())["version"] == 0
    # The Bount that comes after is not followed by a Khamsa made by itself.
    phone.request.post(f"/api/games/{game}/events", headers={"Content-Type": "application/json"},
                       data=json.dumps({"type": "hit", "side": 0, "value": 1}))
    expect(phone.locator("#board")).to_have_attribute("data-version", "1")  # followed
    expect(khamsa).not_to_have_class(re.compile(r"\bpressed\b"))
    wait_for_polls(phone)
    state = json.loads(phone.request.get(f"/api/games/{game}").text())
    assert state["chain"] == {"side": 0, "value": 1}, state  # no Khamsa made after it
