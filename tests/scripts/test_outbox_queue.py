"""The outbox's queue (static/board/outbox.js): the taps of a game kept in
order, through a reload, sent one by one, each counted once, stopped by a
refusal, and sent by one tab of a phone at a time. The app's real board page
and script, the app answering through its test client behind a network
that the test takes down, loses an answer of, or holds (conftest.Network)."""

import time

from playwright.sync_api import expect

WAITING = "ronda.outbox.v1"  # the outbox's key in localStorage

# The board with nothing waiting any more, at the game's version `v`.
DRAINED = """v => !document.documentElement.hasAttribute("data-outbox") &&
                 document.getElementById("board").dataset.version === String(v)"""

# The page hears the server again (as its poll does), then every task of the
# board's queue made meanwhile has run: what it sends, it has sent.
HEARD_AND_DONE = "async () => { Ronda.link.reached(); await Ronda.board.run(() => null); }"


def tap(page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).tap()


def waiting(page, count: int) -> None:
    expect(page.locator("html")).to_have_attribute("data-outbox", str(count))


def drained(page, version: int) -> None:
    page.wait_for_function(DRAINED, arg=version)


def until(page, condition, seconds: float = 10) -> None:
    """Wait until `condition()` holds on this side: Playwright's sync API
    hands a request to the network's handler only while it waits."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the request never came"
        page.wait_for_timeout(20)


def test_taps_kept_while_the_server_is_away_are_sent_in_their_order_after_a_reload(table):
    page = table.open()
    # As on a phone without a worker: the phone's engine is not started here (conftest).
    expect(page.locator("html")).to_have_attribute("data-engine", "off")
    version = table.state()["version"]
    table.network.down = True
    tap(page, "Missa pour Nous")
    waiting(page, 1)
    tap(page, "1 Bount pour Eux")
    tap(page, "Missa pour Eux")
    waiting(page, 3)
    kept = page.evaluate(f"JSON.parse(localStorage.getItem('{WAITING}')).map(e => e.label)")
    assert kept == ["Missa · \u2068Nous\u2069", "Bount (1) · \u2068Eux\u2069", "Missa · \u2068Eux\u2069"]
    assert table.network.taps == []
    table.network.down = False
    page.on("dialog", lambda dialog: dialog.accept())  # "leave this page?" while taps wait
    page.reload()
    drained(page, version + 3)
    assert table.network.moves() == ["missa.0", "hit.1.1", "missa.1"]
    assert table.state()["scores"] == [1, 2]
    assert page.evaluate(f"localStorage.getItem('{WAITING}')") is None


def test_waiting_taps_go_one_at_a_time_each_on_the_game_the_one_before_left(table):
    page = table.open()
    version = table.state()["version"]
    table.network.down = True
    tap(page, "Missa pour Nous")
    waiting(page, 1)
    tap(page, "Missa pour Eux")
    tap(page, "1 Bount pour Nous")
    waiting(page, 3)
    table.network.down = False
    page.evaluate("Ronda.board.poll()")
    drained(page, version + 3)
    assert page.evaluate("window.sends.most") == 1  # never two on their way at once
    assert table.network.moves() == ["missa.0", "missa.1", "hit.0.1"]
    # Each of the board the scorer saw, from one phone (its device): its
    # records are its own, wherever they landed.
    taps = table.network.taps
    assert [int(tap["expected_version"]) for tap in taps] == [version] * 3
    assert len({tap["device"] for tap in taps}) == 1 and taps[0]["device"]
    assert table.state()["version"] == version + 3  # each one recorded


def test_a_tap_whose_answer_was_lost_is_sent_again_with_its_key_and_counts_once(table):
    page = table.open()
    version = table.state()["version"]
    table.network.lose_next_answer = True
    tap(page, "Missa pour Nous")
    waiting(page, 1)  # no answer: the tap waits, though the app has it
    assert table.state()["scores"] == [1, 0]
    page.evaluate("Ronda.board.poll()")
    drained(page, version + 1)
    first, again = table.network.taps
    assert again["token"] == first["token"] and again["move"] == first["move"] == "missa.0"
    assert table.state()["scores"] == [1, 0]
    expect(page.locator("#score-0")).to_have_text("1")


def test_a_refused_tap_stops_the_ones_after_it_until_the_scorer_chooses(table):
    """Offline, their 5 on our open 1, then a Missa for them; the other phone
    tapped Over meanwhile: the 5 follows no open chain (refused), and the
    Missa waits for the scorer's choice."""
    table.event(type="hit", side=0, value=1)
    page = table.open()
    table.network.down = True
    page.get_by_role("button", name="5 Khamsa pour Eux", exact=True).tap(force=True)
    waiting(page, 1)
    tap(page, "Missa pour Eux")
    waiting(page, 2)
    version = table.event(type="chain_end")["version"]  # the other phone
    table.network.down = False
    page.evaluate("Ronda.board.poll()")
    refusal = page.locator(".refusal")
    expect(refusal.locator(".refused-what")).to_contain_text("Khamsa")
    expect(refusal.locator(".refused-why")).not_to_be_empty()
    expect(refusal.locator(".refused-rest li")).to_have_text(["Missa · \u2068Eux\u2069"])
    expect(refusal.locator(".hint.choose")).to_be_visible()  # drop one, or all
    expect(refusal.locator(".hint.lone")).to_be_hidden()
    assert table.network.moves() == ["hit.1.5"]
    page.evaluate(HEARD_AND_DONE)  # the server is there: still nothing more goes
    assert table.network.moves() == ["hit.1.5"]
    refusal.locator("[data-choice=one]").click()  # drop it, send the rest
    drained(page, version + 1)
    assert table.network.moves() == ["hit.1.5", "missa.1"]
    assert table.state()["scores"] == [1, 1]


def test_two_tabs_of_one_phone_do_not_both_send_the_waiting_taps(table):
    first = table.open()
    version = table.state()["version"]
    table.network.down = True
    tap(first, "Missa pour Nous")
    waiting(first, 1)
    tap(first, "Missa pour Eux")
    waiting(first, 2)
    table.network.down = False
    table.network.hold = True
    first.evaluate("Ronda.board.poll()")
    until(first, lambda: len(table.network.held) == 1)  # the first tab's tap, on its way
    second = table.open()  # the same taps wait there (one localStorage)
    waiting(second, 2)
    second.evaluate(HEARD_AND_DONE)
    assert second.evaluate("window.sends.made") == 0
    assert len(table.network.held) == 1
    table.network.hold = False
    table.network.release()
    drained(first, version + 2)
    assert table.network.moves() == ["missa.0", "missa.1"]
    assert table.state()["scores"] == [1, 1]
    assert second.evaluate("window.sends.made") == 0


def test_waiting_taps_the_other_phone_also_made_are_dropped_without_a_question(table):
    """Both phones tapped the same Missa and then Next deal, this one offline:
    each is the other phone's record, counted once, with nothing to choose
    (its Next deal, sent on the game as it now is, had skipped a deal)."""
    page = table.open()
    version = table.state()["version"]
    table.network.down = True
    tap(page, "Missa pour Nous")
    waiting(page, 1)
    tap(page, "Donne suivante")
    waiting(page, 2)
    table.event(type="missa", side=0)  # the other phone: the same two taps
    table.event(type="next_deal")
    table.network.down = False
    page.evaluate("Ronda.board.poll()")
    drained(page, version + 4)  # each a record of its own, the game unchanged
    assert table.network.moves() == ["missa.0", "next_deal"]
    taps = table.network.taps
    assert [int(tap["expected_version"]) for tap in taps] == [version, version]
    expect(page.locator(".refusal")).to_have_count(0)
    expect(page.locator("#notice")).to_contain_text("Déjà enregistré sur un autre téléphone")
    state = table.state()
    assert state["scores"] == [1, 0] and state["deal"] == 2, state


def test_a_waiting_missa_is_not_the_other_phones_missa_of_the_next_deal(table):
    """Offline, a Missa for us in this deal; the other phone taps Next deal,
    then a real Missa for us in the next one. This Missa is of the deal
    before: it counts there, and the board says so."""
    page = table.open()
    version = table.state()["version"]
    table.network.down = True
    tap(page, "Missa pour Nous")
    waiting(page, 1)
    table.event(type="next_deal")  # the other phone
    table.event(type="missa", side=0)
    table.network.down = False
    page.evaluate("Ronda.board.poll()")
    drained(page, version + 3)
    expect(page.locator(".refusal")).to_have_count(0)
    expect(page.locator("#notice")).to_contain_text("Compté dans la donne où il a été touché")
    state = table.state()
    assert state["scores"] == [2, 0] and state["deal"] == 2, state


def test_a_tap_after_a_waiting_one_that_stands_is_judged_on_the_game_with_it(table):
    """Both phones tapped Next deal, this one offline, then a Missa here: its
    Next deal is the other phone's, counted once, and the Missa is of the
    deal both phones moved to, and counts there."""
    page = table.open()
    version = table.state()["version"]
    table.network.down = True
    tap(page, "Donne suivante")
    waiting(page, 1)
    tap(page, "Missa pour Nous")
    waiting(page, 2)
    table.event(type="next_deal")  # the other phone
    table.network.down = False
    page.evaluate("Ronda.board.poll()")
    drained(page, version + 3)
    taps = table.network.taps
    assert [int(tap["expected_version"]) for tap in taps] == [version, version]
    expect(page.locator(".refusal")).to_have_count(0)
    state = table.state()
    assert state["scores"] == [1, 0] and state["deal"] == 2, state


def test_a_tap_on_a_control_off_before_the_tap_on_its_way_is_made_on_the_board_after_it(table):
    """A Khamsa tapped as the Bount before it is on its way (a slow network):
    off on the board shown, it is made on the board the Bount's answer
    leaves, where it is on. It was dropped, saying to tap again."""
    page = table.open()
    version = table.state()["version"]
    table.network.hold = True
    tap(page, "1 Bount pour Nous")
    until(page, lambda: table.network.held)
    khamsa = page.get_by_role("button", name="5 Khamsa pour Eux", exact=True)
    expect(khamsa).to_have_attribute("aria-disabled", "true")
    khamsa.tap(force=True)  # off: Playwright would wait for it to be on
    table.network.hold = False
    table.network.release()
    drained(page, version + 2)
    assert table.network.moves() == ["hit.0.1", "hit.1.5"]
    expect(page.locator("#notice")).not_to_have_class("notice shown info")


def test_offline_a_khamsa_off_on_a_board_behind_the_other_phone_waits_for_the_server(table):
    """Offline, the other phone records their Bount; this phone, which cannot
    follow it, taps our Khamsa, off on its board: it waits, and counts once
    sent. It was dropped with the board's reason, a line hidden under the
    offline box, and nothing said a tap was lost."""
    page = table.open()
    version = table.state()["version"]
    table.network.down = True
    page.evaluate("Ronda.board.poll()")
    expect(page.locator("html")).to_have_attribute("data-link", "lost")
    table.event(type="hit", side=0, value=1)  # the other phone
    khamsa = page.get_by_role("button", name="5 Khamsa pour Eux", exact=True)
    expect(khamsa).to_have_attribute("aria-disabled", "true")
    khamsa.tap(force=True)
    waiting(page, 1)
    table.network.down = False
    page.evaluate("Ronda.board.poll()")
    drained(page, version + 2)
    assert table.network.moves() == ["hit.1.5"]
    assert table.state()["chain"] == {"side": 1, "value": 5}


def test_a_control_still_off_on_the_board_after_the_tap_says_why(table):
    """The same with a control that the tap on its way leaves off (an Âachra
    with no Khamsa open): nothing sent, and the board says why."""
    page = table.open()
    version = table.state()["version"]
    table.network.hold = True
    tap(page, "1 Bount pour Nous")
    until(page, lambda: table.network.held)
    page.get_by_role("button", name="10 Âachra pour Eux", exact=True).tap(force=True)
    table.network.hold = False
    table.network.release()
    drained(page, version + 1)
    assert table.network.moves() == ["hit.0.1"]
    expect(page.locator("#notice")).to_have_class("notice shown info")


def test_a_refused_tap_is_sent_again_once_what_refused_it_is_undone(table):
    """Their 5 waits while the other phone taps Over: refused, its chain
    closed. That phone then undoes its Over: the board changed, and the
    sheet offers to send the 5 again, which now counts."""
    table.event(type="hit", side=0, value=1)
    page = table.open()
    version = table.state()["version"]
    table.network.down = True
    page.get_by_role("button", name="5 Khamsa pour Eux", exact=True).tap(force=True)
    waiting(page, 1)
    table.event(type="chain_end")  # the other phone
    table.network.down = False
    page.evaluate("Ronda.board.poll()")
    refusal = page.locator(".refusal")
    expect(refusal.locator(".refused-what")).to_contain_text("Khamsa")
    again = refusal.locator("[data-choice=again]")
    expect(again).to_be_hidden()  # nothing changed since: the same answer
    assert table.client.post(f"/api/games/{table.game}/undo", json={}).status_code == 200
    page.evaluate("Ronda.board.poll()")
    expect(again).to_be_visible()
    expect(again).to_have_text("Le tableau a changé : la renvoyer")
    again.click()
    drained(page, version + 3)
    expect(refusal).to_have_count(0)
    assert table.network.moves() == ["hit.1.5", "hit.1.5"]  # refused, then counted
    assert table.state()["chain"] is not None


def test_the_undo_names_the_games_last_event_not_a_refused_tap(table):
    """A refused tap is not in the game: an Undo tapped while it waits for
    the scorer's choice takes back the game's last event, and says so."""
    table.event(type="missa", side=1)
    table.event(type="hit", side=0, value=1)
    page = table.open()
    table.network.down = True
    page.get_by_role("button", name="5 Khamsa pour Eux", exact=True).tap(force=True)
    waiting(page, 1)
    table.event(type="missa", side=0)  # the other phone: our Missa ends our chain
    table.network.down = False
    page.evaluate("Ronda.board.poll()")
    refusal = page.locator(".refusal")
    expect(refusal.locator(".refused-what")).to_contain_text("Khamsa")
    # The game's last event is now our Missa: that is what an Undo takes back.
    expect(page.locator(".undo-button .undo-what")).to_contain_text("Missa")
    expect(page.locator(".undo-button .undo-what")).to_contain_text("Nous")
    expect(page.locator(".undo-button .undo-what")).not_to_contain_text("Khamsa")
    # One way out (drop it): the sheet says what the board shows, not "choose".
    expect(refusal.locator("[data-choice=one]")).to_be_visible()
    expect(refusal.locator("[data-choice=again]")).to_be_hidden()
    expect(refusal.locator(".hint.lone")).to_be_visible()
    expect(refusal.locator(".hint.choose")).to_be_hidden()


def test_a_khamsa_made_offline_after_its_own_bount_counts_with_it(table):
    """Seen at the table: this phone, offline, taps our 1 then their 5;
    the other phone meanwhile a Missa, Undo, Missa. Back online the Bount
    counted and the Khamsa was refused, "another phone undid an event
    meanwhile": sent as made on the board's version plus one, as if the
    Bount had landed there, it was judged with the other phone's Undo but
    not the Missa that Undo took back. Both are this phone's own taps."""
    page = table.open()
    version = table.state()["version"]
    table.network.down = True
    tap(page, "1 Bount pour Nous")
    waiting(page, 1)
    page.get_by_role("button", name="5 Khamsa pour Eux", exact=True).tap(force=True)
    waiting(page, 2)
    table.event(type="missa", side=1)  # the other phone
    assert table.client.post(f"/api/games/{table.game}/undo", json={}).status_code == 200
    table.event(type="missa", side=1)
    table.network.down = False
    page.evaluate("Ronda.board.poll()")
    drained(page, version + 5)
    expect(page.locator(".refusal")).to_have_count(0)
    assert table.network.moves() == ["hit.0.1", "hit.1.5"]
    table.event(type="chain_end")
    assert table.state()["scores"] == [0, 6]


def test_a_tap_made_offline_takes_away_what_the_notice_said_of_an_earlier_one(table):
    """The other phone's Missa, also tapped here: "already recorded on
    another phone". Then offline, a Missa for them: the sentence stayed over
    it, as if said of that tap, until the board was next drawn."""
    page = table.open()
    version = table.state()["version"]
    table.network.hold = True
    tap(page, "Missa pour Nous")
    until(page, lambda: table.network.held)
    table.event(type="missa", side=0)  # the other phone, the same tap
    table.network.hold = False
    table.network.release()
    drained(page, version + 2)  # the same Missa: a record of its own, counted once
    notice = page.locator("#notice")
    expect(notice).to_contain_text("Déjà enregistré sur un autre téléphone")
    expect(notice).to_be_visible()
    table.network.down = True
    tap(page, "Missa pour Eux")
    waiting(page, 1)
    expect(notice).to_be_hidden()


def test_an_undo_made_offline_after_its_own_tap_takes_that_tap_back(table):
    """A Missa for us whose answer never came (the app has it), landed after
    the other phone's Missa for them; then Undo, offline, sent a while later:
    it means this phone's Missa, the game's last event, and takes it back.
    Both carry this phone's device: that Missa is its own."""
    page = table.open()
    version = table.state()["version"]
    table.network.hold = True
    tap(page, "Missa pour Nous")
    until(page, lambda: table.network.held)
    table.event(type="missa", side=1)  # the other phone's, first in the log
    table.network.lose_next_answer = True
    table.network.hold = False
    table.network.release()
    table.network.lose_next_answer = False  # that one answer only
    waiting(page, 1)
    table.network.down = True
    page.evaluate("Ronda.link.unreachable()")
    page.locator(".undo-button").tap()
    waiting(page, 2)
    table.network.down = False
    page.evaluate("Ronda.board.poll()")
    drained(page, version + 3)
    expect(page.locator(".refusal")).to_have_count(0)
    assert table.network.taps[-1]["device"] == table.network.taps[0]["device"]
    assert table.state()["scores"] == [0, 1]


def test_a_count_typed_offline_says_its_points_wait_for_the_server(table):
    """Offline, the count's sheet could not show the points of what was
    typed, and said nothing of it: its Confirm, kept, was taken for a count
    whose points had been checked."""
    for _ in range(5):
        table.event(type="next_deal")  # the last deal
    version = table.state()["version"]
    page = table.context.new_page()
    page.goto(table.url + "?sheet=end")
    table.network.down = True
    page.evaluate("Ronda.link.unreachable()")  # the phone's offline event
    page.locator("#cards0").fill("28")
    expect(page.locator("#link-state")).to_contain_text("Points au retour du serveur")
    # The sheet's own line too: not "type the count", nor the points of another.
    expect(page.locator(".end-sheet .gets")).to_have_text(
        "Points au retour du serveur ; Valider garde le compte")
    page.get_by_role("button", name="Valider le compte").tap(force=True)
    waiting(page, 1)
    # The waiting list names the count typed, not only "Confirm the count".
    kept = page.evaluate(f"JSON.parse(localStorage.getItem('{WAITING}')).map(e => e.label)")
    assert kept == ["Valider le compte (28)"]
    table.network.down = False
    page.evaluate("Ronda.board.poll()")
    drained(page, version + 1)
    assert table.state()["hand"] == 2


def test_a_missa_the_other_phone_recorded_before_this_phones_chain_is_that_missa(table):
    """Offline: our 1, their 5, then Missa for us (which ends that chain at
    the table); the other phone's Missa for us came first. No rule can tell
    it from another Missa: it is that Missa, counted once where the log has
    it, before the chain, which stays open; and the board says so."""
    page = table.open()
    version = table.state()["version"]
    table.network.down = True
    tap(page, "1 Bount pour Nous")
    waiting(page, 1)
    page.get_by_role("button", name="5 Khamsa pour Eux", exact=True).tap(force=True)
    tap(page, "Missa pour Nous")
    waiting(page, 3)
    table.event(type="missa", side=0)  # the other phone
    table.network.down = False
    page.evaluate("Ronda.board.poll()")
    drained(page, version + 4)
    expect(page.locator("#notice")).to_contain_text("compté une fois")
    assert table.state()["chain"] is not None and table.state()["scores"] == [1, 0]
