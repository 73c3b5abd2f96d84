"""The scoreboard through the test client, as a browser without JavaScript
uses it: every action a form POST answered by a redirect (CSRF on)."""

import html
import re
from datetime import datetime, timedelta

from scorekeeper.web.views import main
from support.page_forms import find_button, forms_of, press, submit
from support.pages import api_state, start_game, text


def test_home_offers_a_new_game_and_then_resumes_the_running_one(french):
    home = french.get("/").get_data(as_text=True)
    assert "Nouvelle partie" in home and "Reprendre" not in home
    board = start_game(french)
    french.get(board)  # where the form leads
    home = french.get("/").get_data(as_text=True)
    assert "Reprendre la partie" in home and f'href="{board}"' in home
    assert "Rejoindre" not in home  # its own game, not another phone's
    other = french.application.test_client()
    other.set_cookie("lang", "fr")
    home = other.get("/").get_data(as_text=True)
    assert "Reprendre la partie" not in home
    assert f'<a class="button quiet join" href="{board}">' in home


def test_new_game_names_start_as_nous_and_eux_then_the_last_ones_used(french):
    html = french.get("/games/new").get_data(as_text=True)
    assert 'value="Nous"' in html and 'value="Eux"' in html
    french.get(start_game(french, names=("Ali", "Karim", "")))  # played on this phone
    html = french.get("/games/new").get_data(as_text=True)
    assert 'value="Ali"' in html and 'value="Karim"' in html


def test_new_game_refuses_bad_names_beside_the_form(french):
    html = french.get("/games/new").get_data(as_text=True)
    response = submit(french, forms_of(html)[0], extra={
        "players": "2", "name0": "Nous", "name1": "nous", "preset": "appli", "first_dealer": "0"})
    assert response.status_code == 400
    assert "Chaque camp doit avoir son propre nom." in response.get_data(as_text=True)
    assert french.get("/").get_data(as_text=True).count("Reprendre") == 0


def test_the_new_game_form_is_applied_once_however_often_it_is_sent(french):
    html = french.get("/games/new").get_data(as_text=True)
    form = forms_of(html)[0]
    first = submit(french, form)
    again = submit(french, form)
    assert first.headers["Location"] == again.headers["Location"]


def test_the_board_shows_scores_target_needs_hand_deal_and_dealer(french):
    board = start_game(french, dealer="1")
    page = text(french.get(board).get_data(as_text=True))
    assert "Manche 1 · Donne 1/6" in page
    assert "Donneur : Eux" in page
    assert "Partie en 33" in page
    assert page.count("encore 33") == 2


def test_a_tap_scores_and_redirects_to_the_board(french):
    board = start_game(french)
    response = press(french, board, "missa.1")
    assert response.status_code == 303 and response.headers["Location"] == board
    assert api_state(french, board)["scores"] == [0, 1]
    assert "Missa · Eux" in text(french.get(board).get_data(as_text=True))


def test_buttons_that_cannot_apply_are_disabled_and_say_why(french):
    board = start_game(french)
    html = french.get(board).get_data(as_text=True)
    _, five = find_button(html, "hit.0.5")
    # Off, and pointing to its reason (which a tap on it shows).
    assert five.attrs.get("aria-disabled") == "true" and "disabled" not in five.attrs
    hint = five.attrs["aria-describedby"]
    assert f'<p id="{hint}">Le 5 suit un 1 ouvert de l&#39;autre camp.</p>' in html
    press(french, board, "hit.0.1")
    html = french.get(board).get_data(as_text=True)
    assert not find_button(html, "hit.1.5")[1].disabled  # the other side may follow
    assert find_button(html, "hit.0.5")[1].disabled  # not the same side
    assert "Chaîne : Nous +1, pas encore compté" in text(html)
    # The deal's first card is played: the announcements stay open (BAREME §5).
    assert f'href="{board}?a=1-ronda&amp;at=1" data-swap aria-label="Ronda pour Eux"' in html


def test_the_chain_strip_ends_the_chain_for_its_last_player(french):
    board = start_game(french)
    press(french, board, "hit.0.1")
    press(french, board, "hit.1.5")
    assert api_state(french, board)["chain"] == {"side": 1, "value": 5}
    press(french, board, "chain_end")
    assert api_state(french, board)["scores"] == [0, 5]


def test_a_double_tap_on_one_button_scores_once(french):
    board = start_game(french)
    html = french.get(board).get_data(as_text=True)
    form, button = find_button(html, "missa.0")
    submit(french, form, button)
    submit(french, form, button)  # the same page, the same button: a double tap
    state = api_state(french, board)
    assert state["scores"] == [1, 0] and state["version"] == 1
    # Another button of the same page, tapped before its answer came back,
    # counts (tests/web/test_fast_second_tap.py); from the fresh board too.
    assert submit(french, *find_button(html, "missa.1")).status_code == 303
    assert api_state(french, board)["scores"] == [1, 1]
    submit(french, *find_button(french.get(board).get_data(as_text=True), "missa.1"))
    assert api_state(french, board)["scores"] == [1, 2]


def html_text(response) -> str:
    return html.unescape(text(response.get_data(as_text=True)))


def test_a_tap_sent_again_later_is_checked_against_the_version_it_was_made_on(french):
    """What the page's outbox sends for a tap that waited for the server: its
    own token and the version of the game it was made on (expected_version),
    judged by what it meant there (docs/BOARD.md, "Two phones")."""
    board = start_game(french)
    html = french.get(board).get_data(as_text=True)
    form, button = find_button(html, "missa.0")
    made_on = {"expected_version": "0"}
    french.post("/api" + board + "/events", json={"type": "missa", "side": 0})  # another phone
    same = submit(french, form, button, extra=made_on, headers={"X-Board": "1"})
    assert same.status_code == 200  # that very Missa: counted once, and said
    assert "Déjà enregistré sur un autre téléphone : compté une fois." in html_text(same)
    assert api_state(french, board)["scores"] == [1, 0]
    # The other side's Missa, made on the same old board, still means a Missa for them.
    other, their_missa = find_button(html, "missa.1")
    assert submit(french, other, their_missa, extra=made_on,
                  headers={"X-Board": "1"}).status_code == 200
    again = submit(french, other, their_missa, extra=made_on, headers={"X-Board": "1"})
    assert again.status_code == 200  # its key is known: answered, not applied again
    assert api_state(french, board)["version"] == 3  # the same Missa is a record of its own
    assert api_state(french, board)["scores"] == [1, 1]
    fresh = french.get(board).get_data(as_text=True)
    bad = submit(french, *find_button(fresh, "missa.1"), extra={"expected_version": "x"})
    assert bad.status_code == 303 and api_state(french, board)["version"] == 3
    future = submit(french, *find_button(fresh, "missa.1"), extra={"expected_version": "9"},
                    headers={"X-Board": "1"})
    assert future.status_code == 409 and api_state(french, board)["version"] == 3


def test_announcements_are_marked_then_confirmed_once(french):
    board = start_game(french)
    html = french.get(board).get_data(as_text=True)
    assert f'href="{board}?a=0-ronda&amp;at=0"' in html
    draft = board + "?a=0-ronda&a=1-tringa"
    page = text(french.get(draft).get_data(as_text=True))
    assert "Annonces : Nous Ronda, Eux Tringa" in page
    assert api_state(french, board)["version"] == 0  # marking changes nothing
    press(french, draft, "announce")
    assert api_state(french, board)["scores"] == [0, 6]


def test_ranks_are_asked_when_the_kind_does_not_decide(french):
    board = start_game(french)
    press(french, board + "?a=0-ronda&a=1-ronda", "announce")
    state = api_state(french, board)
    assert state["awaiting_reveal"] and state["scores"] == [0, 0]
    page = french.get(board).get_data(as_text=True)
    assert "Rondas : le rang décide" in text(page)
    assert find_button(page, "next_deal")[1].disabled
    sheet = french.get(board + "?sheet=ranks").get_data(as_text=True)
    assert "Meilleure Ronda de <bdi>Nous</bdi>" in sheet and "Cavalier" in sheet
    press(french, board + "?sheet=ranks", "reveal", {"rank0": "7", "rank1": "11"})
    state = api_state(french, board)
    assert state["scores"] == [0, 2] and not state["awaiting_reveal"]


def test_a_missing_rank_is_refused_with_a_sentence(french):
    board = start_game(french)
    press(french, board + "?a=0-ronda&a=1-ronda", "announce")
    response = press(french, board + "?sheet=ranks", "reveal", {"rank0": "7"})
    assert response.status_code == 303
    page = french.get(response.headers["Location"]).get_data(as_text=True)
    assert "Donnez le rang de la meilleure annonce d'Eux." in html.unescape(page)
    assert api_state(french, board)["awaiting_reveal"]


def test_the_end_of_hand_sheet_shows_the_complement_and_the_points(french):
    board = start_game(french)
    for _ in range(5):
        press(french, board, "next_deal")  # the hand's last deal
    page = text(french.get(board + "?sheet=end&cards0=23").get_data(as_text=True))
    assert "Eux : 17 cartes (le reste des 40)" in page
    assert "Nous +3 · Eux +0" in page
    press(french, board + "?sheet=end&cards0=23", "end_hand")
    state = api_state(french, board)
    assert state["scores"] == [3, 0] and state["hand"] == 2 and state["deal"] == 1


def test_the_end_of_hand_stepper_moves_one_card_at_a_time(french):
    board = start_game(french)
    response = press(french, board + "?sheet=end&cards0=23", "end_step.0.1")
    assert response.headers["Location"] == board + "?sheet=end&cards0=24&hand=1"
    # The typed count, not the one the page was drawn with, is the one stepped.
    response = press(french, board + "?sheet=end&cards0=23", "end_step.0.-1", {"cards0": "12"})
    assert response.headers["Location"] == board + "?sheet=end&cards0=11&hand=1"
    # An empty count steps from 20, the count worth nothing.
    response = press(french, board + "?sheet=end", "end_step.0.1")
    assert response.headers["Location"] == board + "?sheet=end&cards0=21&hand=1"
    assert api_state(french, board)["version"] == 0


def test_three_sides_give_two_counts_and_the_third_is_computed(french):
    board = start_game(french, players="3", names=("A", "B", "C"))
    for _ in range(3):
        press(french, board, "next_deal")  # the hand's last deal
    page = text(french.get(board + "?sheet=end&cards0=14&cards1=14").get_data(as_text=True))
    assert "C : 12 cartes" in page and "A +1 · B +1 · C +0" in page
    press(french, board + "?sheet=end&cards0=14&cards1=14", "end_hand")
    assert api_state(french, board)["scores"] == [1, 1, 0]


def test_undo_says_what_it_undoes_and_steps_back(french):
    board = start_game(french)
    press(french, board, "missa.1")
    html = french.get(board).get_data(as_text=True)
    assert "Annuler : Missa · <bdi>\u2068Eux\u2069</bdi>" in html
    form = [f for f in forms_of(html) if f.action.endswith("/undo")][0]
    submit(french, form)
    assert api_state(french, board)["scores"] == [0, 0]


def test_an_undo_from_an_out_of_date_screen_takes_back_what_it_showed(french):
    """The Undo of a board that showed our Missa takes back our Missa, whatever
    another phone tapped since: the other phone's Missa stands."""
    board = start_game(french)
    press(french, board, "missa.0")
    stale = french.get(board).get_data(as_text=True)
    french.post("/api" + board + "/events", json={"type": "missa", "side": 1})  # another phone
    form = [f for f in forms_of(stale) if f.action.endswith("/undo")][0]
    submit(french, form)
    assert api_state(french, board)["scores"] == [0, 1]


def test_an_undo_already_made_on_another_phone_is_not_made_twice(french):
    board = start_game(french)
    press(french, board, "missa.0")
    press(french, board, "missa.1")
    stale = french.get(board).get_data(as_text=True)
    french.post("/api" + board + "/undo", json={})  # another phone undoes the same Missa
    form = [f for f in forms_of(stale) if f.action.endswith("/undo")][0]
    response = submit(french, form)
    assert api_state(french, board)["scores"] == [1, 0]
    raw = french.get(response.headers["Location"]).get_data(as_text=True)
    assert "Déjà annulé sur un autre téléphone : pas annulé deux fois." in html.unescape(text(raw))
    # French typography: the colon keeps to its word (a no-break space), so
    # the notice's narrow box never starts a line with it.
    assert "Déjà annulé sur un autre téléphone\u00a0: pas" in raw


def test_a_refused_tap_shows_the_engines_sentence_and_changes_nothing(french):
    board = start_game(french)
    html = french.get(board).get_data(as_text=True)
    form, _ = find_button(html, "missa.0")
    response = submit(french, form, extra={"move": "hit.0.5"})
    assert response.status_code == 303
    page = french.get(response.headers["Location"]).get_data(as_text=True)
    assert "Le 5 suit un 1 ouvert de l&#39;autre camp." in page
    assert api_state(french, board)["version"] == 0


def test_the_page_script_gets_the_board_alone(french):
    board = start_game(french)
    html = french.get(board).get_data(as_text=True)
    form, button = find_button(html, "missa.0")
    response = submit(french, form, button, headers={"X-Board": "1"})
    assert response.status_code == 200 and response.headers["X-Board-URL"] == board
    body = response.get_data(as_text=True)
    assert body.lstrip().startswith('<div id="board"') and "<html" not in body
    assert 'data-version="1"' in body


def test_a_correction_is_a_gain_like_the_others(french):
    board = start_game(french)
    press(french, board + "?sheet=more", "adjust", {"side": "1", "points": "-3", "note": "faute"})
    assert api_state(french, board)["scores"] == [0, -3]
    assert "Correction -3 · Eux (faute)" in text(french.get(board).get_data(as_text=True))


def test_the_game_over_page_names_the_winner_and_offers_a_rematch(french):
    board = start_game(french, names=("Ali", "Karim", ""), preset="classique")
    press(french, board + "?sheet=more", "adjust", {"side": "1", "points": "40"})
    press(french, board, "missa.1")
    page = text(french.get(board).get_data(as_text=True))
    assert "Karim gagne !" in page and "Ali 0 – Karim 41" in page
    response = press(french, board, "rematch")
    rematch = response.headers["Location"]
    assert rematch != board
    state = api_state(french, rematch)
    assert state["sides"] == ["Ali", "Karim"] and state["rules"]["preset"] == "classique"
    assert state["rules"]["target"] == 41 and state["first_dealer"] == 1
    assert state["version"] == 0


def test_undo_from_the_result_reopens_the_game(french):
    board = start_game(french)
    press(french, board + "?sheet=more", "adjust", {"side": "0", "points": "33"})
    assert api_state(french, board)["finished"]
    html = french.get(board).get_data(as_text=True)
    submit(french, [f for f in forms_of(html) if f.action.endswith("/undo")][0])
    assert not api_state(french, board)["finished"]


def test_double_ronda_is_offered_only_where_a_four_card_hand_exists(french):
    classique = start_game(french, players="4", preset="classique")
    assert "Double Ronda" in french.get(classique).get_data(as_text=True)
    appli = start_game(french, players="4", preset="appli")
    assert "Double Ronda" not in french.get(appli).get_data(as_text=True)


def test_house_rule_buttons_show_only_when_the_rule_is_on(french):
    appli = start_game(french)
    html = french.get(appli + "?sheet=more").get_data(as_text=True)
    # No button of either (the options say the last trick scores nothing: below).
    assert "Ronda cachée" not in html
    assert 'value="hidden_ronda.' not in html and 'value="last_trick.' not in html
    classique = start_game(french, preset="classique")
    press(french, classique + "?sheet=more", "hidden_ronda.0.1")
    assert api_state(french, classique)["scores"] == [0, 5]
    to_the_last_deal(french, classique)
    press(french, classique + "?sheet=more", "last_trick.twelve")
    assert api_state(french, classique)["scores"] == [5, 5]  # Nous deals the first hand


def to_the_last_deal(client, board):
    """Next deal until the hand's last one, where the dealer's last trick is played."""
    while not api_state(client, board)["last_deal"]:
        press(client, board, "next_deal")


def test_the_dealers_last_trick_is_off_before_the_hands_last_deal_and_says_why(french):
    """It was taken at any deal (deal 1/6 scored at once), yet the last trick
    is played on the hand's last deal: the Options sheet shows its buttons
    off, saying why, and a tap on one (without JavaScript, a POST) is
    refused with that sentence and changes nothing."""
    board = start_game(french, preset="classique")
    why = "Le dernier pli se joue à la dernière donne de la manche (donne 6) : saisissez-le là."
    for _ in range(1, 6):
        page = french.get(board + "?sheet=more").get_data(as_text=True)
        for outcome in ("twelve", "one", "missed"):
            form, button = find_button(page, f"last_trick.{outcome}")
            assert button.disabled
            hint = re.search(rf'id="{button.attrs["aria-describedby"]}"[^>]*>([^<]*)<', page)
            assert html.unescape(hint[1]) == why
        refused = submit(french, form, button)
        assert why in text(french.get(refused.headers["Location"]).get_data(as_text=True))
        assert api_state(french, board)["scores"] == [0, 0]
        press(french, board, "next_deal")
    press(french, board + "?sheet=more", "last_trick.missed")
    assert api_state(french, board)["scores"] == [0, 5]


ISOLATES = dict.fromkeys(range(0x2066, 0x206A))


def last_trick_buttons(client, board, language="fr"):
    page = client.get(f"{board}?sheet=more&lang={language}").get_data(as_text=True)
    return {value: " ".join(html.unescape(re.sub(r"<[^>]+>", "", label)).translate(
                ISOLATES).split())
            for value, label in re.findall(
                r'<button[^>]*value="(last_trick\.\w+)"[^>]*>(.*?)</button>', page, re.S)}


def test_the_dealers_last_trick_buttons_say_who_scores_and_how_much(client, french):
    """Seen at the table: "Pris avec un 12", "Manqué" did not say who scores. As the
    hidden Ronda's: the side (or both opponents, with three) and the points,
    from the game's rules; still said once recorded, when the buttons are off."""
    classique = start_game(french, preset="classique")  # Nous deals, the trick is worth 5
    to_the_last_deal(french, classique)
    assert last_trick_buttons(french, classique) == {
        "last_trick.twelve": "Pris avec un 12 → +5 pour Nous",
        "last_trick.one": "Pris avec un 1 → +5 pour Eux",
        "last_trick.missed": "Manqué → +5 pour Eux"}
    press(french, classique + "?sheet=more", "last_trick.one")
    assert api_state(french, classique)["scores"] == [0, 5]
    assert last_trick_buttons(french, classique)["last_trick.twelve"] == \
        "Pris avec un 12 → +5 pour Nous"
    three = start_game(french, players="3", names=("Ali", "Badr", "Chama"), preset="classique",
                       dealer="1")
    to_the_last_deal(french, three)
    assert last_trick_buttons(french, three) == {
        "last_trick.twelve": "Pris avec un 12 → +5 pour Badr",
        "last_trick.one": "Pris avec un 1 → +5 chacun pour Ali et Chama",
        "last_trick.missed": "Manqué → +5 chacun pour Ali et Chama"}
    assert last_trick_buttons(french, three, "en")["last_trick.missed"] == \
        "Missed → +5 each to Ali and Chama"
    assert last_trick_buttons(french, three, "ar")["last_trick.twelve"] == \
        "أُخذت بورقة 12 ← \u200e+5 لـBadr"
    press(french, three + "?sheet=more", "last_trick.missed")
    assert api_state(french, three)["scores"] == [5, 0, 5]


def test_every_board_page_and_sheet_renders(french):
    board = start_game(french)
    for query in ("", "?sheet=end", "?sheet=more", "?sheet=ranks", "?sheet=nope",
                  "?a=9-ronda&a=x", "?sheet=end&cards0=abc", "?sheet=end&cards0=99"):
        assert french.get(board + query).status_code == 200, query


def test_an_unknown_game_is_a_page_not_a_traceback(french):
    response = french.get("/games/nope")
    assert response.status_code == 404 and "Erreur 404" in response.get_data(as_text=True)
    response = french.post("/games/nope/play", data={"move": "missa.0"})
    assert response.status_code in (400, 404)


def test_a_chains_hits_say_whether_they_were_counted_once_it_stopped(french, api):
    """Seen at the table: the Bount's row still said "compte quand la chaîne s'arrête"
    after the chain was scored, on the board and in the review. Then the Bount
    said "compté" too, though the chain counted only its last hit, the 5."""
    game = api.new_game(sides=["Nadia", "Samir"])["id"]
    for event in ({"type": "hit", "side": 0, "value": 1}, {"type": "hit", "side": 1, "value": 5}):
        api.event(game, **event)
    board = french.get(f"/games/{game}").get_data(as_text=True)
    # The Bount under the Khamsa that took its place never counts: said at once.
    assert board.count("compte quand la chaîne s&#39;arrête") == 1
    assert board.count("pas compté : la chaîne a continué") == 1
    api.event(game, type="chain_end")
    for page in (f"/games/{game}", f"/games/{game}/review"):
        html = french.get(page).get_data(as_text=True)
        assert "quand la chaîne s&#39;arrête" not in html, page
        assert html.count("compté quand la chaîne s&#39;est arrêtée") == 1, page
        assert html.count("pas compté : la chaîne a continué") == 1, page


def test_the_options_say_when_these_rules_leave_the_dealers_last_trick_out(french):
    """Looked for in the options and not found, it seemed missing: where the
    game's rules give it nothing, the options say so."""
    off = text(french.get(start_game(french) + "?sheet=more").get_data(as_text=True))
    assert "Dernier pli du donneur" in off
    assert "Il ne marque rien dans les règles de cette partie." in off
    on = french.get(start_game(french, preset="classique") + "?sheet=more").get_data(as_text=True)
    assert 'value="last_trick.' in on
    assert "Il ne marque rien dans les règles de cette partie." not in text(on)


def test_a_score_below_zero_has_a_real_minus_sign_in_the_running_score(french, api):
    """Seen at the table: "3 – -1", a hyphen beside the dash."""
    game = api.new_game(sides=["Nadia", "Samir"])["id"]
    api.event(game, type="adjust", side=1, points=-1, note="")
    for page in (f"/games/{game}", f"/games/{game}/review"):
        words = re.sub("[\u2066-\u2069]", "", text(html.unescape(
            french.get(page).get_data(as_text=True))))
        assert "0 – \u22121" in words and "– -1" not in words, page


def test_a_correction_can_be_typed_below_zero_on_a_phone(french, api):
    """A number pad (inputmode="numeric") may have no minus sign: a
    correction takes points away too."""
    game = api.new_game(sides=["Nadia", "Samir"])["id"]
    api.event(game, type="adjust", side=1, points=2, note="")
    review = french.get(f"/games/{game}/review").get_data(as_text=True)
    correct = re.findall(r'href="(/games/[^"]+/events/\d+/correct)"', review)
    assert len(correct) == 1, correct
    for page in (f"/games/{game}?sheet=more", correct[0]):
        field = re.search(r'<input id="points"[^>]*>', french.get(page).get_data(as_text=True))
        assert field, page
        assert 'type="number"' in field.group(0) and "inputmode" not in field.group(0), page
        assert 'min="-' in field.group(0), page


def test_the_games_to_join_say_how_long_ago_each_last_changed(french, monkeypatch):
    # At a club night many tables keep the default names: the last tap's age
    # tells them apart.
    board = start_game(french)
    press(french, board, "missa.0")
    other = french.application.test_client()
    other.set_cookie("lang", "fr")
    home = lambda: html.unescape(text(other.get("/").get_data(as_text=True)))  # noqa: E731
    assert "dernier coup à l'instant" in home()
    stored = api_state(french, board)["updated_at"]
    later = (datetime.fromisoformat(stored) + timedelta(minutes=7, seconds=10)).isoformat()
    monkeypatch.setattr(main, "utc_now", lambda: later)
    assert "dernier coup il y a 7 minutes" in home()
    other.set_cookie("lang", "ar")
    assert "آخر تسجيل قبل 7 دقائق" in home()
    # A game nobody has tapped yet was started then, not tapped.
    other.set_cookie("lang", "fr")
    start_game(french.application.test_client())
    page = home()
    assert "commencée il y a 7 minutes" in page and "dernier coup il y a 7 minutes" in page


def test_a_game_to_join_whose_time_cannot_be_read_is_offered_all_the_same(french, db):
    """A store edited by hand may hold a time without its time zone, or none."""
    start_game(french)
    other = french.application.test_client()
    other.set_cookie("lang", "fr")
    for stamp in ("2026-12-01T10:00:00", "yesterday"):
        db.execute("UPDATE games SET updated_at = ?", [stamp])
        db.conn.commit()
        response = other.get("/")
        page = response.get_data(as_text=True)
        assert response.status_code == 200 and "Rejoindre" in page and "dernier coup" not in page
