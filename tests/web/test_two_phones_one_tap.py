"""Two phones score one game: every board tap carries its phone (`device`)
and the version its finger saw, and the records it had not seen are merged
by one rule (docs/BOARD.md, "Two phones"): the same event is counted once,
a tap of a deal the other phone left counts in its deal, an Undo takes back
what its board showed, and what truly conflicts is refused, saying why."""

import html

from support.page_forms import find_button, forms_of, submit
from support.pages import api_state, start_game, text


def _page(client, board):
    """A phone's board, read now (the version and device its taps carry)."""
    return client.get(board).get_data(as_text=True)


def _tap(client, page, move, **kwargs):
    return submit(client, *find_button(page, move), **kwargs)


def _undo(client, page, **kwargs):
    return submit(client, [f for f in forms_of(page) if f.action.endswith("/undo")][0], **kwargs)


def _words(response):
    return text(html.unescape(response.get_data(as_text=True)))


def _api(client, board, event):
    assert client.post("/api" + board + "/events", json=event).status_code == 200


def test_every_board_form_carries_the_version_it_shows_and_its_phone(client, app):
    board = start_game(client)
    _api(client, board, {"type": "missa", "side": 0})
    page = _page(client, board)
    fields = [dict(form.fields) for form in forms_of(page)
              if form.action.endswith(("/play", "/undo"))]
    assert fields and all(f["expected_version"] == "1" for f in fields)
    devices = {f.get("device") for f in fields}
    assert len(devices) == 1 and None not in devices  # one page, one phone
    # Every page of one browser is that phone's; another browser is another phone.
    assert dict(forms_of(_page(client, board))[0].fields).get("device") in devices
    other = app.test_client()
    assert dict(forms_of(_page(other, board))[0].fields).get("device") not in devices


def test_the_same_tap_from_a_second_phone_counts_once_and_says_so(client, app):
    client.set_cookie("lang", "fr")
    board = start_game(client)
    other = app.test_client()
    other.set_cookie("lang", "fr")
    phone_a, phone_b = _page(client, board), _page(other, board)
    assert _tap(client, phone_a, "missa.0").status_code == 303
    same = _tap(other, phone_b, "missa.0", headers={"X-Board": "1"})
    assert same.status_code == 200
    # A Missa may happen again: the words say how to count another one.
    assert ("Déjà enregistré sur un autre téléphone : compté une fois. Un autre ? Touchez "
            "encore.") in _words(same)
    assert api_state(client, board)["scores"] == [1, 0]
    # Sent again (no answer came): its tap id is recorded, the game as it is.
    assert _tap(other, phone_b, "missa.0", headers={"X-Board": "1"}).status_code == 200


def test_the_second_of_two_missas_on_one_phone_counts_without_javascript(client):
    """Without the page's script, each page of a phone's browser is that
    phone's: its second Missa, tapped on the page its first brought, is a
    second Missa, not the first one again."""
    board = start_game(client)
    _tap(client, _page(client, board), "missa.0")
    _tap(client, _page(client, board), "missa.0")
    assert api_state(client, board)["scores"] == [2, 0]


def test_two_scorers_each_tapping_two_missas_count_two(client, app):
    """Two Missas happened; each phone tapped both, one phone offline: each
    record matches one of the other phone's, once."""
    board = start_game(client)
    other = app.test_client()
    offline = _page(other, board)
    _tap(client, _page(client, board), "missa.0")
    _tap(client, _page(client, board), "missa.0")
    form, button = find_button(offline, "missa.0")
    token = dict(form.fields)["token"]
    for again in ("", "-2"):  # two taps of one button: two tap ids (the page's script's)
        assert submit(other, form, button, extra={"token": token + again}).status_code == 303
    state = api_state(client, board)
    assert state["scores"] == [2, 0] and state["version"] == 4


def test_another_tap_on_an_out_of_date_board_counts(client):
    board = start_game(client)
    phone_b = _page(client, board)
    _api(client, board, {"type": "missa", "side": 0})
    assert _tap(client, phone_b, "missa.1", headers={"X-Board": "1"}).status_code == 200
    assert api_state(client, board)["scores"] == [1, 1]


def test_a_missa_of_the_deal_the_other_phone_left_counts_in_its_deal(client):
    client.set_cookie("lang", "en")
    board = start_game(client)
    deal_one = _page(client, board)
    _api(client, board, {"type": "next_deal"})
    _api(client, board, {"type": "missa", "side": 0})  # deal 2's Missa, another one
    placed = _tap(client, deal_one, "missa.0", headers={"X-Board": "1"})
    assert placed.status_code == 200
    assert "Counted in the deal it was tapped in: another phone had moved on" in _words(placed)
    state = api_state(client, board)
    assert (state["deal"], state["scores"]) == (2, [2, 0])


def test_a_next_deal_that_had_not_seen_the_other_phones_missa_says_so(client):
    """The mirror of the Missa placed in the deal left: the Missa counts in
    the deal and the Next deal after it whichever arrives first, and the
    board of the one arriving second says so."""
    client.set_cookie("lang", "fr")
    board = start_game(client)
    deal_one = _page(client, board)
    _api(client, board, {"type": "missa", "side": 0})
    closed = _tap(client, deal_one, "next_deal", headers={"X-Board": "1"})
    assert closed.status_code == 200
    assert "Donne close après les touches de l'autre téléphone, qui y comptent." in _words(closed)
    state = api_state(client, board)
    assert (state["deal"], state["scores"]) == (2, [1, 0])


def test_a_late_ronda_of_the_deal_left_is_that_deals(client):
    """The Ronda of deal 1, confirmed after the other phone's Next deal:
    deal 1's announcement, so deal 2 keeps its own."""
    board = start_game(client)
    deal_one = client.get(board + "?a=0-ronda").get_data(as_text=True)
    _api(client, board, {"type": "next_deal"})
    assert _tap(client, deal_one, "announce", headers={"X-Board": "1"}).status_code == 200
    assert api_state(client, board)["scores"] == [1, 0]
    deal_two = client.get(board + "?a=1-ronda").get_data(as_text=True)
    assert _tap(client, deal_two, "announce").status_code == 303
    assert api_state(client, board)["scores"] == [1, 1]


def test_a_step_of_a_chain_its_deal_closed_counts_in_that_chain(client):
    """The Khamsa of a chain the other phone's Next deal closed: the chain
    was 5 at the table, and the close scores it so."""
    board = start_game(client, players="4")
    _api(client, board, {"type": "hit", "side": 0, "value": 1})
    chain = _page(client, board)
    _api(client, board, {"type": "next_deal"})
    assert _tap(client, chain, "hit.1.5", headers={"X-Board": "1"}).status_code == 200
    state = api_state(client, board)
    assert (state["deal"], state["scores"]) == (2, [0, 5])


def test_a_step_of_a_chain_closed_otherwise_in_its_deal_is_refused_saying_why(client):
    client.set_cookie("lang", "en")
    board = start_game(client, players="4")
    _api(client, board, {"type": "hit", "side": 0, "value": 1})
    chain = _page(client, board)
    _api(client, board, {"type": "chain_end"})  # the other phone's Over, then its Next deal
    _api(client, board, {"type": "next_deal"})
    refused = _tap(client, chain, "hit.1.5", headers={"X-Board": "1"})
    assert refused.status_code == 409
    assert "Another phone changed the open chain meanwhile: not counted." in _words(refused)
    assert api_state(client, board)["version"] == 3


def test_an_undo_takes_back_what_its_board_showed_whatever_came_since(client):
    """Phone 1 records a wrong Missa, phone 2 taps a Bount, phone 1 taps
    Undo: its Missa is taken back, the Bount stands."""
    board = start_game(client)
    _tap(client, _page(client, board), "missa.0")
    phone_1 = _page(client, board)
    _api(client, board, {"type": "hit", "side": 1, "value": 1})
    assert _undo(client, phone_1, headers={"X-Board": "1"}).status_code == 200
    state = api_state(client, board)
    assert state["scores"] == [0, 0] and state["chain"] is not None


def test_an_undo_the_later_events_need_is_refused_saying_why(client):
    client.set_cookie("lang", "en")
    board = start_game(client)
    _tap(client, _page(client, board), "hit.0.1")
    phone_1 = _page(client, board)
    _api(client, board, {"type": "hit", "side": 1, "value": 5})  # follows that Bount
    refused = _undo(client, phone_1, headers={"X-Board": "1"})
    assert refused.status_code == 409
    assert "Events since depend on it: nothing undone." in _words(refused)
    assert api_state(client, board)["version"] == 2


def test_a_tap_undone_on_the_other_phone_is_no_reason_to_say_already_recorded(client):
    board = start_game(client)
    phone_b = _page(client, board)
    _tap(client, _page(client, board), "missa.0")
    client.post("/api" + board + "/undo", json={})
    assert _tap(client, phone_b, "missa.0", headers={"X-Board": "1"}).status_code == 200
    assert api_state(client, board)["scores"] == [1, 0]


def test_a_khamsa_tapped_on_a_board_without_the_bount_the_other_phone_recorded_counts(client):
    board = start_game(client)
    phone_b = _page(client, board)
    _api(client, board, {"type": "hit", "side": 0, "value": 1})
    assert _tap(client, phone_b, "hit.1.5", headers={"X-Board": "1"}).status_code == 200
    assert api_state(client, board)["chain"] is not None


def test_a_phones_own_taps_made_offline_count_however_the_other_phones_landed(client):
    """A Bount then a Khamsa, made offline on one board (one device, one
    version), sent after the other phone's Missa: both its own, in order."""
    board = start_game(client)
    offline = _page(client, board)
    _api(client, board, {"type": "missa", "side": 1})
    _tap(client, offline, "hit.0.1", headers={"X-Board": "1"})
    assert _tap(client, offline, "hit.1.5", headers={"X-Board": "1"}).status_code == 200
    state = api_state(client, board)
    assert state["scores"] == [0, 1] and state["chain"] is not None


def test_the_api_still_refuses_any_version_but_the_current_one(client):
    board = start_game(client)
    _api(client, board, {"type": "missa", "side": 0})
    stale = client.post("/api" + board + "/events",
                        json={"type": "missa", "side": 1, "expected_version": 0})
    assert stale.status_code == 409
    assert api_state(client, board)["scores"] == [1, 0]


def test_a_device_id_is_checked(client):
    board = start_game(client)
    form, button = find_button(_page(client, board), "missa.0")
    refused = submit(client, form, button, extra={"device": "<script>"})
    assert refused.status_code == 303 and api_state(client, board)["version"] == 0


def test_an_api_client_naming_its_phone_gets_the_same_rule(client):
    """A JSON client that sends its device and a tap id (Idempotency-Key)
    is merged as a board is; without a device, the contract's strict 409."""
    board = start_game(client)
    api = "/api" + board
    missa = {"type": "missa", "side": 0, "expected_version": 0}
    first = client.post(api + "/events", json={**missa, "device": "phone-a"},
                        headers={"Idempotency-Key": "a-1"})
    second = client.post(api + "/events", json={**missa, "device": "phone-b"},
                         headers={"Idempotency-Key": "b-1"})
    assert (first.status_code, second.status_code) == (200, 200)
    assert second.get_json()["scores"] == [1, 0] and second.get_json()["version"] == 2
    strict = client.post(api + "/events", json=missa, headers={"Idempotency-Key": "c-1"})
    assert strict.status_code == 409
    bad = client.post(api + "/events", json={**missa, "device": "<b>"},
                      headers={"Idempotency-Key": "d-1"})
    assert bad.status_code == 400 and api_state(client, board)["version"] == 2
    undone = client.post(api + "/undo", json={"expected_version": 1, "device": "phone-a"},
                         headers={"Idempotency-Key": "a-2"})
    assert undone.status_code == 200 and undone.get_json()["scores"] == [0, 0]


def test_the_count_of_the_hand_now_played_counts_from_its_sheet(client):
    """A count names its hand; the hand now played (the second here) is no
    other phone's: it counts."""
    board = start_game(client)
    for _ in range(5):
        _api(client, board, {"type": "next_deal"})
    _api(client, board, {"type": "end_hand", "cards": [20, None]})
    for _ in range(5):
        _api(client, board, {"type": "next_deal"})
    sheet = client.get(board + "?sheet=end&hand=2").get_data(as_text=True)
    form, button = find_button(sheet, "end_hand")
    assert submit(client, form, button, extra={"cards0": "25"}).status_code == 303
    state = api_state(client, board)
    assert state["hand"] == 3 and state["scores"] == [5, 0], state
