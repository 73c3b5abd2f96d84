"""Two phones tapping the same thing at once count it once, as a real table does;
two phones tapping two different things both count: every board tap
carries the version its board showed, and a tap made on a board another
phone has changed since is judged by what it meant there (docs/BOARD.md,
"Two phones"), refused (409) when its meaning changed, saying why."""


from scorekeeper.service import scoreboard
from support.page_forms import find_button, forms_of, submit
from support.pages import api_state, start_game, words


def _board_form(client, board, value):
    page = client.get(board).get_data(as_text=True)
    return find_button(page, value)


def test_every_board_form_carries_the_version_it_shows(client):
    board = start_game(client)
    client.post("/api" + board + "/events", json={"type": "missa", "side": 0})
    form, _ = _board_form(client, board, "missa.1")
    assert ("expected_version", "1") in form.fields


def test_the_same_tap_from_a_second_phone_counts_once_and_says_so(client):
    client.set_cookie("lang", "fr")
    board = start_game(client)
    phone_a = _board_form(client, board, "missa.0")
    phone_b = _board_form(client, board, "missa.0")  # the same board, on another phone
    assert submit(client, *phone_a).status_code == 303
    refused = submit(client, *phone_b, headers={"X-Board": "1"})
    assert refused.status_code == 409
    assert "Déjà enregistré sur un autre téléphone" in words(refused)
    # That very tap stands: the outbox keeps the versions of the taps after it.
    assert refused.headers.get("X-Tap-Stands") == "1"  # as record 1, phone A's
    assert api_state(client, board)["scores"] == [1, 0]
    # Without the page's script: the fresh board, the sentence in its notice.
    again = submit(client, *_board_form(client, board, "next_deal"))
    stale = submit(client, *phone_b, follow_redirects=True)
    assert "Déjà enregistré sur un autre téléphone" in words(stale)
    assert again.status_code == 303 and api_state(client, board)["scores"] == [1, 0]


def test_another_tap_on_an_out_of_date_board_counts(client):
    client.set_cookie("lang", "en")
    board = start_game(client)
    phone_b = _board_form(client, board, "missa.1")
    client.post("/api" + board + "/events", json={"type": "missa", "side": 0})
    counted = submit(client, *phone_b, headers={"X-Board": "1"})
    assert counted.status_code == 200
    assert api_state(client, board)["scores"] == [1, 1]


def test_a_tap_of_the_deal_before_is_refused_saying_the_deal_moved_on(client):
    client.set_cookie("lang", "en")
    board = start_game(client)
    phone_b = _board_form(client, board, "missa.1")
    client.post("/api" + board + "/events", json={"type": "next_deal"})
    refused = submit(client, *phone_b, headers={"X-Board": "1"})
    assert refused.status_code == 409
    assert "Another phone moved on to the next deal: not counted." in words(refused)
    # A Missa of the deal before happened all the same: the scorer may tap it again.
    assert "Check the score, tap again if needed." in words(refused)
    assert "X-Tap-Stands" not in refused.headers  # this tap is not in the game
    assert api_state(client, board)["scores"] == [0, 0]


def test_the_api_still_refuses_any_version_but_the_current_one(client):
    """API.md: with expected_version, any other version is a 409."""
    board = start_game(client)
    client.post("/api" + board + "/events", json={"type": "missa", "side": 0})
    stale = client.post("/api" + board + "/events",
                        json={"type": "missa", "side": 1, "expected_version": 0})
    assert stale.status_code == 409 and api_state(client, board)["scores"] == [1, 0]


def test_a_tap_undone_on_the_other_phone_is_no_reason_to_say_already_recorded(client):
    client.set_cookie("lang", "en")
    board = start_game(client)
    phone_b = _board_form(client, board, "missa.0")
    client.post("/api" + board + "/events", json={"type": "missa", "side": 0})
    client.post("/api" + board + "/undo", json={})
    refused = submit(client, *phone_b, headers={"X-Board": "1"})
    assert refused.status_code == 409 and "Already recorded" not in words(refused)


def test_a_tap_on_a_board_that_had_just_followed_the_same_tap_counts_once(client):
    """With the page's script a board that followed the other phone's taps
    too shortly before the touch to have been seen says so (followed_from):
    that very tap among them is the same tap; anything else is judged on the
    board as it was (a Khamsa on the Bount it had just shown counts)."""
    client.set_cookie("lang", "en")
    board = start_game(client)
    client.post("/api" + board + "/events", json={"type": "missa", "side": 0})  # phone A
    followed = _board_form(client, board, "missa.0")  # phone B, followed: version 1
    refused = submit(client, *followed, extra={"followed_from": "0"}, headers={"X-Board": "1"})
    assert refused.status_code == 409 and "Already recorded" in words(refused)
    assert api_state(client, board)["scores"] == [1, 0]
    client.post("/api" + board + "/events", json={"type": "hit", "side": 0, "value": 1})
    khamsa = _board_form(client, board, "hit.1.5")  # on the Bount just shown: version 2
    counted = submit(client, *khamsa, extra={"followed_from": "1"}, headers={"X-Board": "1"})
    assert counted.status_code == 200 and api_state(client, board)["version"] == 3
    # Without it (or past the moment), a second Missa is a second Missa.
    again = submit(client, *_board_form(client, board, "missa.0"), headers={"X-Board": "1"})
    assert again.status_code == 200 and api_state(client, board)["version"] == 4


def test_a_khamsa_tapped_on_a_board_without_the_bount_the_other_phone_recorded_counts(client):
    """At the table their 1, then our 5: phone B records the Bount, phone A,
    whose board has no chain open yet, the Khamsa. It can mean nothing but
    that chain: it counts (a board that had a chain open is judged as before)."""
    client.set_cookie("lang", "en")
    board = start_game(client)
    phone_a = _board_form(client, board, "hit.1.5")
    client.post("/api" + board + "/events", json={"type": "hit", "side": 0, "value": 1})
    counted = submit(client, *phone_a, headers={"X-Board": "1"})
    assert counted.status_code == 200, words(counted)
    client.post("/api" + board + "/events", json={"type": "chain_end"})
    assert api_state(client, board)["scores"] == [0, 5]


def test_an_undo_tapped_right_after_the_board_showed_the_other_phones_tap_undoes_nothing(client):
    """A Missa for us by mistake here, the other phone's Missa for them, and
    this phone's Undo 0.4 s after its board followed it (followed_from, the
    version before): it took back the other phone's right tap."""
    client.set_cookie("lang", "en")
    board = start_game(client)
    submit(client, *_board_form(client, board, "missa.0"))  # the mistake, this phone
    before = api_state(client, board)["version"]
    client.post("/api" + board + "/events", json={"type": "missa", "side": 1})  # the other phone
    page = client.get(board).get_data(as_text=True)
    undo = [form for form in forms_of(page) if form.action.endswith("/undo")][0]
    refused = submit(client, undo, extra={"followed_from": str(before)},
                     headers={"X-Board": "1"})
    assert refused.status_code == 409
    assert "Changed on another phone: nothing undone." in words(refused)
    assert "Earlier events: Options, then Review and correct." in words(refused)  # not "undo again"
    assert api_state(client, board)["scores"] == [1, 1]
    # Seen (no followed_from): the Undo takes back what it names.
    undo = [form for form in forms_of(client.get(board).get_data(as_text=True))
            if form.action.endswith("/undo")][0]
    assert submit(client, undo, headers={"X-Board": "1"}).status_code == 200
    assert api_state(client, board)["scores"] == [1, 0]


def _bount_and_khamsa(client, board):
    """Their 1 and our 5 from one board (one page: one token)."""
    page = client.get(board).get_data(as_text=True)
    bount, khamsa = find_button(page, "hit.0.1"), find_button(page, "hit.1.5")
    token = dict(khamsa[0].fields)["token"]
    assert dict(bount[0].fields)["token"] == token
    return bount, khamsa, token


def test_a_waiting_khamsa_after_its_own_bount_counts_however_the_other_phones_taps_landed(
        client, monkeypatch):
    """Seen at the table: phone A, offline, taps their 1 then our 5 (the
    board's version v); phone B meanwhile a Missa, Undo, Missa. Back online
    the Bount counted and the Khamsa was refused, "another phone undid an
    event": it was sent with version v + 1, as if the Bount had landed
    there, and B's Undo was judged without the Missa it took back. A
    waiting tap is sent with its board's version and the tokens of the
    boards its phone's taps before it were made on: those are its own,
    wherever the log put them, however long the first one waited for the
    scorer."""
    client.set_cookie("lang", "en")
    board = start_game(client)
    bount, khamsa, token = _bount_and_khamsa(client, board)
    missa = {"type": "missa", "side": 1}
    assert client.post("/api" + board + "/events", json=missa).status_code == 200
    assert client.post("/api" + board + "/undo", json={}).status_code == 200
    assert client.post("/api" + board + "/events", json=missa).status_code == 200
    assert submit(client, *bount, extra={"after": ""}, headers={"X-Board": "1"}).status_code == 200
    monkeypatch.setattr(scoreboard, "OWN_SECONDS", -1)  # the Khamsa sent a while after
    # The way it was sent before: the board's version plus the tap before it.
    old_way = submit(client, *khamsa, extra={"expected_version": "1"}, headers={"X-Board": "1"})
    assert old_way.status_code == 409 and "undid an event" in words(old_way)
    counted = submit(client, *khamsa, extra={"after": token}, headers={"X-Board": "1"})
    assert counted.status_code == 200, words(counted)
    client.post("/api" + board + "/events", json={"type": "chain_end"})
    assert api_state(client, board)["scores"] == [0, 6]


def test_a_waiting_khamsa_is_refused_when_the_other_phone_changed_its_chain_after_its_bount(
        client, monkeypatch):
    """The other phone's hit after this phone's own Bount in the log: the
    chain the Khamsa continued is not the one open now."""
    client.set_cookie("lang", "en")
    board = start_game(client)
    bount, khamsa, token = _bount_and_khamsa(client, board)
    assert submit(client, *bount, headers={"X-Board": "1"}).status_code == 200
    client.post("/api" + board + "/events", json={"type": "chain_end"})
    monkeypatch.setattr(scoreboard, "OWN_SECONDS", -1)
    refused = submit(client, *khamsa, extra={"after": token}, headers={"X-Board": "1"})
    assert refused.status_code == 409 and "changed the open chain" in words(refused)
    assert api_state(client, board)["scores"] == [1, 0]


def test_a_second_missa_that_waited_behind_the_first_counts_however_late_it_is_sent(
        client, monkeypatch):
    """Offline, Missa for us twice on one board (the second with a token of
    its own that begins with the page's, as the outbox makes it): the
    second is sent with the board's version, the first already in the log.
    It is this phone's own: a second Missa, not the same one recorded."""
    client.set_cookie("lang", "en")
    board = start_game(client)
    form, button = _board_form(client, board, "missa.0")
    token = dict(form.fields)["token"]
    assert submit(client, form, button, headers={"X-Board": "1"}).status_code == 200
    monkeypatch.setattr(scoreboard, "OWN_SECONDS", -1)  # sent a while after the first
    again = {"token": token + ".second"}
    refused = submit(client, form, button, extra=again, headers={"X-Board": "1"})
    assert refused.status_code == 409 and "Already recorded" in words(refused)
    counted = submit(client, form, button, extra={**again, "after": token},
                     headers={"X-Board": "1"})
    assert counted.status_code == 200, words(counted)
    assert api_state(client, board)["scores"] == [2, 0]


def test_a_waiting_taps_list_of_boards_is_checked(client):
    board = start_game(client)
    missa = _board_form(client, board, "missa.0")
    for extra in ({"after": "<script>"}, {"known": "1 two"}, {"known": "9" * 12}):
        refused = submit(client, *missa, extra=extra, headers={"X-Board": "1"})
        assert refused.status_code == 400, extra
    assert api_state(client, board)["scores"] == [0, 0]


def test_an_undo_that_waited_behind_its_own_missa_takes_it_back_whatever_came_before(
        client, monkeypatch):
    """A Missa for us whose answer was lost, then Undo offline; meanwhile the
    other phone's Missa for them landed before this phone's Missa. The Undo
    means this phone's Missa, the game's last event: sent with the board's
    version and its page, it takes it back however late it comes."""
    client.set_cookie("lang", "en")
    board = start_game(client)
    page = client.get(board).get_data(as_text=True)
    missa, undo = find_button(page, "missa.0"), forms_of(page)
    undo = next((form, None) for form in undo if form.action.endswith("/undo"))
    token = dict(missa[0].fields)["token"]
    assert client.post("/api" + board + "/events", json={"type": "missa", "side": 1}).status_code \
        == 200  # the other phone's
    assert submit(client, *missa, headers={"X-Board": "1"}).status_code == 200
    monkeypatch.setattr(scoreboard, "OWN_SECONDS", -1)  # the Undo sent a while after
    old_way = submit(client, *undo, extra={"expected_version": "1"}, headers={"X-Board": "1"})
    assert old_way.status_code == 409 and "nothing undone" in words(old_way)
    undone = submit(client, *undo, extra={"after": token}, headers={"X-Board": "1"})
    assert undone.status_code == 200, words(undone)
    assert api_state(client, board)["scores"] == [0, 1]
