"""What a table does, through the pages without JavaScript: the
card count typed is the one recorded, a hand ended early asks once, late
announcements, the hidden Ronda's receiver, the last card's missa, what each
side needs to win, the rematch, and the board's words."""

import html
import re

from support.page_forms import find_button, forms_of, press, submit
from support.pages import api_state, notice, start_game, text, words


def api(client, board, event):
    response = client.post("/api" + board + "/events", json=event)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def last_deal(client, board, deals=5):
    for _ in range(deals):
        api(client, board, {"type": "next_deal"})


# -- the card count ---------------------------------------------------------------------------

def test_the_count_sheet_starts_empty_and_cannot_be_confirmed_empty(french):
    board = start_game(french)
    last_deal(french, board)
    page = french.get(board + "?sheet=end").get_data(as_text=True)
    form, confirm = find_button(page, "end_hand")
    # Without the page's script a tap posts the fields as typed: the Confirm is
    # not drawn off (it would count at once); an empty count is refused, saying why.
    assert ("cards0", "") in form.fields and not confirm.disabled
    scripted = french.get(board + "?sheet=end", headers={"X-Board": "1"}).get_data(as_text=True)
    assert find_button(scripted, "end_hand")[1].disabled  # the script follows the typing
    response = submit(french, form, confirm)
    assert response.status_code == 303 and "sheet=end" in response.headers["Location"]
    assert "Tapez combien de cartes Nous a ramassées." in words(
        french.get(response.headers["Location"]))
    assert api_state(french, board)["version"] == 5


def test_the_count_typed_is_the_count_recorded(french):
    board = start_game(french)
    last_deal(french, board)
    # The sheet as first shown (empty), the count typed in, then Confirm: no preview between.
    page = french.get(board + "?sheet=end").get_data(as_text=True)
    # The field typed in belongs to the form that Confirm posts (not a copy of it).
    confirm_form = [f for f in re.findall(r"<form.*?</form>", page, re.S) if "end_hand" in f]
    assert len(confirm_form) == 1
    assert re.search(r'<input id="cards0" name="cards0" type="number"', confirm_form[0])
    form, confirm = find_button(page, "end_hand")
    submit(french, form, confirm, {"cards0": "17"})
    state = api_state(french, board)
    assert state["scores"] == [0, 3] and state["hand"] == 2


def test_a_count_beyond_the_deck_is_said_in_the_page_and_scores_nothing(french):
    """45 for 25, as a scorer typed: the sheet says why, shows no points
    and keeps Confirm off; posted all the same (no JavaScript, or before the
    preview came), it records nothing and says the same."""
    board = start_game(french)
    last_deal(french, board)
    for typed, said in (("45", "Nous : 40 cartes au plus, tout le jeu."),
                        ("-3", "Nous : un compte vaut 0 carte ou plus.")):
        preview = french.get(board + f"?sheet=end&cards0={typed}",
                             headers={"X-Board": "1"}).get_data(as_text=True)
        assert said in words_of(preview) and "+20" not in preview, typed
        assert f'value="{typed}"' in preview  # the count as typed, not 40
        form, confirm = find_button(preview, "end_hand")
        assert confirm.disabled, typed
        sheet = french.get(press(french, board + "?sheet=end", "end_preview",
                                 {"cards0": typed}).headers["Location"])
        assert said in words(sheet) and "Tapez combien" not in words(sheet), typed
        refused = submit(french, *find_button(
            french.get(board + "?sheet=end").get_data(as_text=True), "end_hand"),
            {"cards0": typed})
        assert said in words(french.get(refused.headers["Location"])), typed
    assert api_state(french, board)["version"] == 5


def words_of(page: str) -> str:
    return text(html.unescape(page))


def test_a_count_confirmed_before_the_last_deal_asks_once_more(french):
    board = start_game(french)
    response = press(french, board + "?sheet=end&cards0=25", "end_hand")
    assert response.headers["Location"] == board + "?sheet=end&cards0=25&hand=1&ask=early"
    assert api_state(french, board)["version"] == 0
    asked = french.get(response.headers["Location"])
    assert "La manche n'est pas finie (donne 1 sur 6) : la terminer maintenant ?" in words(asked)
    form, yes = find_button(asked.get_data(as_text=True), "end_hand")
    assert ("early", "1") in form.fields and yes.label == "Oui, terminer la manche maintenant"
    submit(french, form, yes)
    state = api_state(french, board)
    assert state["scores"] == [5, 0] and state["hand"] == 2


def test_the_early_ends_question_opened_again_after_its_yes_counts_nothing(french):
    """A reload of the question's address after its Yes (the page seemed not
    to answer), or Back to it: the hand it asked about is over, and the next
    one must not be ended with its count."""
    board = start_game(french)
    asked_at = press(french, board + "?sheet=end&cards0=25", "end_hand").headers["Location"]
    asked = french.get(asked_at).get_data(as_text=True)
    form, yes = find_button(asked, "end_hand")
    assert submit(french, form, yes).headers["Location"] == board
    assert api_state(french, board)["hand"] == 2
    again = french.get(asked_at)
    assert again.status_code == 200
    page = again.get_data(as_text=True)
    assert 'name="early"' not in page and "end-sheet" not in page and 'value="25"' not in page
    assert "La manche n'est pas finie" not in words(again)
    # Its form from before (Back to the page as it was) is of a board that is gone.
    submit(french, form, yes)
    state = api_state(french, board)
    assert (state["hand"], state["scores"]) == (2, [5, 0])


def test_a_count_of_this_hand_stays_on_its_sheet(french):
    board = start_game(french)
    stepped = press(french, board + "?sheet=end&cards0=25", "end_step.0.1").headers["Location"]
    assert stepped == board + "?sheet=end&cards0=26&hand=1"
    page = french.get(stepped).get_data(as_text=True)
    assert "end-sheet" in page and 'value="26"' in page


def test_on_the_last_deal_the_count_is_not_asked_twice(french):
    board = start_game(french)
    last_deal(french, board)
    press(french, board + "?sheet=end&cards0=25", "end_hand")
    assert api_state(french, board)["hand"] == 2


# -- announcements ------------------------------------------------------------------------------

def test_announcements_stay_open_for_the_whole_deal_until_confirmed(french):
    board = start_game(french)
    api(french, board, {"type": "hit", "side": 0, "value": 1})
    api(french, board, {"type": "missa", "side": 1})
    press(french, board + "?a=0-tringa", "announce")
    assert api_state(french, board)["scores"] == [6, 1]  # the hit, the missa, the Tringa
    page = french.get(board).get_data(as_text=True)
    assert "Les annonces de cette donne sont enregistrées." in html.unescape(page)
    assert 'aria-disabled="true" aria-describedby' in page.split('class="pads"')[1].split(
        "Tringa")[0]  # once recorded, the deal's announcement buttons are off


def test_announcements_confirmed_on_two_phones_at_once_are_the_deals_together(french,
                                                                              second_phone):
    """One phone confirmed our Ronda, the other their Tringa at the same
    moment: the second joins the first, as the table meant (the deal's one
    record corrected to hold both), and the board says so."""
    board = start_game(french)
    second = second_phone.get(board + "?a=1-tringa").get_data(as_text=True)
    press(french, board + "?a=0-ronda", "announce")  # the first phone
    assert api_state(french, board)["scores"] == [1, 0]
    joined = submit(second_phone, *find_button(second, "announce"))
    assert joined.headers["Location"] == board  # no mark left
    assert notice(second_phone.get(joined.headers["Location"])).startswith(
        "Ajoutées aux annonces")
    assert api_state(french, board)["scores"] == [0, 6]  # the Tringa takes both: 1 + 5


def test_the_same_announcements_confirmed_on_two_phones_leave_no_draft_on_the_second(
        french, second_phone):
    """Both phones marked and confirmed the same Tringa: the second Confirm
    is that very tap, already recorded, so its marks are done, not left
    waiting for a Confirm or Clear before the next deal."""
    board = start_game(french)
    second = second_phone.get(board + "?a=1-tringa").get_data(as_text=True)
    press(french, board + "?a=1-tringa", "announce")  # the first phone
    refused = submit(second_phone, *find_button(second, "announce"))
    assert refused.headers["Location"] == board
    shown = second_phone.get(refused.headers["Location"])
    # A deal has one Confirm: nothing to tap again.
    said = notice(shown)
    assert said.startswith("Déjà enregistré sur un autre téléphone") and "Un autre" not in said
    assert 'value="announce"' not in shown.get_data(as_text=True)  # no draft to confirm
    assert not find_button(shown.get_data(as_text=True), "next_deal")[1].disabled
    scripted = submit(second_phone, *find_button(second, "announce"), headers={"X-Board": "1"})
    assert scripted.headers["X-Board-URL"] == board
    assert 'value="announce"' not in scripted.get_data(as_text=True)
    assert api_state(french, board)["scores"] == [0, 5]


def test_marks_made_before_the_other_phones_next_deal_are_confirmed_in_their_deal(french):
    """Ronda marked in deal 1; the other phone moves on before Confirm (the
    board follows it, the marks kept): the Ronda is deal 1's, placed there,
    and deal 2 still takes its own announcements."""
    board = start_game(french)
    page = french.get(board).get_data(as_text=True)
    link = re.search(r'href="([^"]*a=0-ronda[^"]*)" data-swap aria-label="Ronda pour Nous"', page)
    marked = html.unescape(link[1])
    assert "at=0" in marked  # the version the mark was made on
    api(french, board, {"type": "next_deal"})  # the other phone
    confirmed = press(french, marked, "announce")
    assert confirmed.status_code == 303
    shown = french.get(confirmed.headers["Location"])
    assert notice(shown).startswith("Compté dans la donne où il a été touché")
    assert api_state(french, board)["scores"] == [1, 0]
    # Deal 2's own announcements: confirmed in deal 1, the Ronda left deal 2 free.
    api(french, board, {"type": "announce", "announcements": [{"side": 1, "kind": "ronda"}]})
    assert api_state(french, board)["scores"] == [1, 1]


def _marked(client, board, mark: str, label: str) -> str:
    """The board's link that marks `mark` (side-kind), named `label`."""
    page = client.get(board).get_data(as_text=True)
    link = re.search(rf'href="([^"]*a={mark}[^"]*)" data-swap aria-label="{label}"', page)
    return html.unescape(link[1])


def test_marks_made_before_the_other_phone_confirmed_theirs_join_them(french):
    """Each phone marks its own side's Ronda; the other confirms first and
    this board follows it before the finger comes down: its Confirm is still
    a tap (not "already recorded", its marks stranded), and the deal's
    announcements are both phones': a Ronda each, the ranks decide."""
    board = start_game(french)
    marked = _marked(french, board, "1-ronda", "Ronda pour Eux")
    api(french, board, {"type": "announce", "announcements": [{"side": 0, "kind": "ronda"}]})
    confirmed = press(french, marked, "announce")  # the page drawn after the other's Confirm
    assert "a=" not in confirmed.headers["Location"]
    shown = french.get(confirmed.headers["Location"])
    assert notice(shown).startswith("Ajoutées aux annonces confirmées sur un autre téléphone")
    state = api_state(french, board)
    assert state["scores"] == [0, 0] and state["pending_announcements"]["contenders"] == [0, 1]


def test_a_lone_tringa_that_won_is_joined_by_the_other_phones_and_the_game_goes_on(french):
    board = start_game(french)
    api(french, board, {"type": "adjust", "side": 1, "points": 30, "note": "earlier"})
    marked = french.get(_marked(french, board, "0-tringa", "Tringa pour Nous"))
    api(french, board, {"type": "announce", "announcements": [{"side": 1, "kind": "tringa"}]})
    assert api_state(french, board)["finished"]  # their Tringa alone reached 33
    joined = submit(french, *find_button(marked.get_data(as_text=True), "announce"))
    assert joined.status_code == 303
    state = api_state(french, board)
    assert not state["finished"] and state["pending_announcements"]["contenders"] == [0, 1]


def test_the_same_marks_the_other_phone_confirmed_count_once_and_leave_no_draft(french):
    board = start_game(french)
    marked = _marked(french, board, "0-ronda", "Ronda pour Nous")
    api(french, board, {"type": "announce", "announcements": [{"side": 0, "kind": "ronda"}]})
    confirmed = press(french, marked, "announce")
    assert "a=" not in confirmed.headers["Location"]  # no mark left to hold Next deal
    assert notice(french.get(confirmed.headers["Location"])).startswith(
        "Déjà enregistré sur un autre téléphone")
    assert api_state(french, board)["scores"] == [1, 0]
    press(french, confirmed.headers["Location"], "next_deal")
    assert api_state(french, board)["deal"] == 2


def test_a_tap_counted_once_is_said_as_news_not_as_an_error(french):
    """The page's script gets the board itself: its notice says what
    happened in the colour of news, as the flash says it without JavaScript."""
    board = start_game(french)
    marked = _marked(french, board, "0-ronda", "Ronda pour Nous")
    api(french, board, {"type": "announce", "announcements": [{"side": 0, "kind": "ronda"}]})
    scripted = press(french, marked, "announce", headers={"X-Board": "1"})
    assert re.search(r'<p id="notice" class="notice shown info"[^>]*>Déjà enregistré',
                     scripted.get_data(as_text=True))
    # A refusal keeps the colour of an error: Next deal while a mark waits.
    form, next_deal = find_button(french.get(board + "?a=1-ronda").get_data(as_text=True),
                                  "next_deal")
    refused = submit(french, form, next_deal, headers={"X-Board": "1"})
    assert re.search(r'<p id="notice" class="notice shown"[^>]*>.', refused.get_data(as_text=True))


def test_a_draft_keeps_the_version_it_was_first_marked_on(french):
    board = start_game(french)
    first = french.get(board + "?a=0-ronda&at=0")
    api(french, board, {"type": "missa", "side": 1})
    page = french.get(board + "?a=0-ronda&at=0").get_data(as_text=True)
    assert 'href="%s?a=0-ronda&amp;a=1-ronda&amp;at=0"' % board in page  # a second mark: still 0
    assert first.status_code == 200
    # No board showed a version beyond the game's: such an `at` is not the draft's.
    page = french.get(board + "?a=0-ronda&at=99").get_data(as_text=True)
    assert 'href="%s?a=0-ronda&amp;a=1-ronda&amp;at=1"' % board in page  # the version shown


def test_one_sides_ronda_tapped_twice_is_no_second_announcement(french):
    board = start_game(french)
    page = french.get(board + "?a=0-ronda").get_data(as_text=True)
    link = re.search(r'<a class="button kind-ronda" href="([^"]+)"[^>]*aria-label="Ronda pour Nous"',
                     page)
    assert link and "why=0-ronda" in link[1] and 'aria-disabled="true"' in link[0]
    # Without JavaScript the tap shows why, in the board's notice, and keeps the draft.
    shown = words(french.get(html.unescape(link[1])))
    assert "Nous avons déjà annoncé : chaque joueur annonce une fois par donne." in shown
    assert "Annonces : Nous Ronda" in shown
    # Partners: a second tap for one team is the partner's announcement; a third is refused.
    team = start_game(french, players="4")
    assert "a=0-ronda&amp;a=0-ronda" in french.get(team + "?a=0-ronda").get_data(as_text=True)
    assert "why=0-ronda" in french.get(team + "?a=0-ronda&a=0-ronda").get_data(as_text=True)


# -- the hidden Ronda and the last card ---------------------------------------------------------

def test_the_hidden_ronda_buttons_say_who_gets_the_points(french):
    two = start_game(french, preset="classique")
    sheet = words(french.get(two + "?sheet=more"))
    assert "Nous avons caché une Ronda → +5 pour Eux" in sheet
    three = start_game(french, players="3", names=("Ali", "Badr", "Chama"), preset="classique")
    page = french.get(three + "?sheet=more").get_data(as_text=True)
    for side, to in [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]:
        assert find_button(page, f"hidden_ronda.{side}.{to}")
    assert "Badr a caché une Ronda → +5 pour Chama" in words(french.get(three + "?sheet=more"))
    press(french, three + "?sheet=more", "hidden_ronda.1.2")
    assert api_state(french, three)["scores"] == [0, 0, 5]
    # The side buttons give their own side points: the penalty is not among them.
    assert "hidden_ronda" not in french.get(three).get_data(as_text=True).split(
        'class="actions"')[0]


def test_the_last_deal_offers_a_missa_with_the_hands_very_last_card(french):
    board = start_game(french, dealer="1")
    assert "missa_last" not in french.get(board + "?sheet=end").get_data(as_text=True)
    last_deal(french, board)
    api(french, board, {"type": "hit", "side": 0, "value": 1})
    sheet = french.get(board + "?sheet=end").get_data(as_text=True)
    _, button = find_button(sheet, "missa_last.1")  # the dealer plays the very last card
    assert button.label == "Missa avec la dernière carte · Eux"
    response = press(french, board + "?sheet=end", "missa_last.1")
    assert response.headers["Location"] == board + "?sheet=end"  # then the count
    assert api_state(french, board)["scores"] == [1, 0]  # the chain scores, the missa not
    assert "dernière carte : 0" in words(french.get(board))


def test_the_last_cards_missa_is_taken_once_a_hand_then_off_with_its_reason(french):
    """Seen at the table: three taps 1.2 s apart made three events. The button stays
    (nothing moves), off, says why; posted all the same, nothing is recorded."""
    board = start_game(french, dealer="1")
    last_deal(french, board)
    tapped = find_button(french.get(board + "?sheet=end").get_data(as_text=True), "missa_last.1")
    submit(french, *tapped)
    version = api_state(french, board)["version"]
    # The same tap sent again (its answer lost): answered as the first, not refused.
    again = submit(french, *tapped)
    assert notice(french.get(again.headers["Location"])) == ""
    assert api_state(french, board)["version"] == version
    sheet = french.get(board + "?sheet=end").get_data(as_text=True)
    form, button = find_button(sheet, "missa_last.1")
    # Off, and marked as recorded: the sheet covers the scores.
    assert button.disabled and button.label == "✓ Missa avec la dernière carte · Eux"
    said = ("La Missa avec la dernière carte de cette manche est déjà enregistrée : annulez-la "
            "pour la changer.")
    hint = re.search(r'id="%s"[^>]*>([^<]*)<' % button.attrs["aria-describedby"], sheet)
    assert html.unescape(hint.group(1)) == said
    response = submit(french, form, button)  # a page without JavaScript posts it all the same
    assert response.status_code == 303 and response.headers["Location"] == board + "?sheet=end"
    assert notice(french.get(response.headers["Location"])) == said
    assert api_state(french, board)["version"] == version
    # The next hand's last deal offers it again.
    api(french, board, {"type": "end_hand", "cards": [20, None]})
    last_deal(french, board)
    assert not find_button(french.get(board + "?sheet=end").get_data(as_text=True),
                           "missa_last.0")[1].disabled


def test_the_api_still_takes_a_second_last_card_missa(french):
    """API.md: `last_card` is accepted on any deal; stored games may hold two."""
    board = start_game(french, dealer="1")
    last_deal(french, board)
    for _ in range(2):
        api(french, board, {"type": "missa", "side": 1, "last_card": True})
    assert api_state(french, board)["version"] == 7


def test_a_zero_point_missa_says_why(french):
    board = start_game(french, preset="classique")
    last_deal(french, board)
    api(french, board, {"type": "missa", "side": 0})
    recent = words(french.get(board)).split("Derniers coups")[1]
    assert recent.startswith(" Missa · Nous dernière donne : 0")


# -- what each side needs ---------------------------------------------------------------------

def test_stopping_at_the_end_of_the_hand_a_side_ahead_is_not_shown_tied(french):
    game = french.post("/api/games", json={"sides": ["Nous", "Eux"], "rules": {
        "target": 11, "stop": "end_of_hand"}}).get_json()["id"]
    board = f"/games/{game}"
    api(french, board, {"type": "adjust", "side": 0, "points": 15})
    api(french, board, {"type": "adjust", "side": 1, "points": 9})
    page = words(french.get(board))
    assert "égalité" not in page
    assert "en tête : gagne au compte" in page and "encore 7" in page


def test_a_tie_at_the_target_says_what_decides_under_each_stop_rule(french):
    """Stopping at once, one more point wins a tie; stopping at the end of the
    hand it does not: the count decides. The tie's line says which, under
    either rule."""
    said = {}
    for stop in ("immediate", "end_of_hand"):
        game = french.post("/api/games", json={"sides": ["Nous", "Eux"], "rules": {
            "target": 11, "stop": stop}}).get_json()["id"]
        board = f"/games/{game}"
        api(french, board, {"type": "adjust", "side": 0, "points": 10})
        api(french, board, {"type": "adjust", "side": 1, "points": 10})
        api(french, board, {"type": "announce", "announcements": [  # shared: 11 – 11
            {"side": 0, "kind": "ronda", "rank": 5}, {"side": 1, "kind": "ronda", "rank": 5}]})
        said[stop] = words(french.get(board))
    assert said["immediate"].count("égalité : un de plus gagne") == 2
    assert "compte" not in said["immediate"].split("Derniers coups")[0]
    assert said["end_of_hand"].count("égalité : le compte décide") == 2
    assert "un de plus" not in said["end_of_hand"]


# -- the rematch ------------------------------------------------------------------------------

def test_a_second_rematch_is_the_same_game(french):
    board = start_game(french)
    api(french, board, {"type": "adjust", "side": 0, "points": 33})
    other_phone = french.get(board).get_data(as_text=True)  # shown before the rematch
    first = press(french, board, "rematch").headers["Location"]
    assert french.get("/api" + board).get_json()["rematch"] == first.rsplit("/", 1)[1]
    page = french.get(board).get_data(as_text=True)
    assert f'href="{first}"' in page and "La revanche a commencé : y aller" in html.unescape(page)
    again = submit(french, *find_button(other_phone, "rematch"))
    assert again.headers["Location"] == first


def test_the_rematch_of_a_game_whose_preset_is_gone_keeps_its_rules(french):
    preset = forms_of(french.get("/settings/presets/new?from=classique").get_data(as_text=True))[0]
    submit(french, preset, extra={"name": "Maison", "rule_target": "21"})
    board = start_game(french, preset="Maison")
    preset_id = re.search(r'/settings/presets/(\w+)/delete', french.get("/settings").get_data(
        as_text=True))[1]
    delete = forms_of(french.get(f"/settings/presets/{preset_id}/delete").get_data(
        as_text=True))
    submit(french, [f for f in delete if f.method == "post"][0])
    assert "Maison" not in french.get("/games/new").get_data(as_text=True)
    api(french, board, {"type": "adjust", "side": 1, "points": 21})
    rematch = press(french, board, "rematch")
    assert rematch.status_code == 303
    state = french.get("/api" + rematch.headers["Location"]).get_json()
    assert state["rules"]["target"] == 21 and state["rules"]["preset"] == "Maison"
    assert state["first_dealer"] == 1


# -- where things are -------------------------------------------------------------------------

def test_the_house_rules_are_linked_from_home_and_from_the_boards_more_sheet(french):
    assert 'href="/settings"' in french.get("/").get_data(as_text=True)
    board = start_game(french)
    assert 'href="/settings"' in french.get(board + "?sheet=more").get_data(as_text=True)


def test_a_refusal_is_said_in_the_boards_notice_not_above_the_board(french):
    board = start_game(french)
    form, _ = find_button(french.get(board).get_data(as_text=True), "missa.0")
    response = submit(french, form, extra={"move": "hit.0.5"})
    page = french.get(response.headers["Location"]).get_data(as_text=True)
    assert re.search(r'<p id="notice" class="notice shown" role="alert">Le 5 suit', page)
    assert page.count('role="alert"') == 1  # no message above the board


# -- words ------------------------------------------------------------------------------------

def test_the_first_dealer_is_picked_by_the_sides_names(french):
    french.get(start_game(french, names=("Ali", "Karim", "")))  # played on this phone
    page = french.get("/games/new").get_data(as_text=True)
    assert re.search(r'name="first_dealer"[^>]*value="0"[^>]*> <span data-name-of="name0"'
                     r'[^>]*><bdi>Ali</bdi></span>', page)


def test_a_third_dealer_is_refused_with_two_players(french):
    form = forms_of(french.get("/games/new").get_data(as_text=True))[0]
    response = submit(french, form, extra={"players": "2", "first_dealer": "2"})
    assert response.status_code == 400
    assert "À deux camps, l'un des deux donne en premier" in words(response)
    assert "Reprendre" not in french.get("/").get_data(as_text=True)


def test_three_players_hear_of_another_side_not_the_other(french):
    board = start_game(french, players="3", names=("A", "B", "C"))
    assert "Le 5 suit un 1 ouvert d&#39;un autre camp." in french.get(board).get_data(as_text=True)


def test_arabic_lists_are_joined_with_the_arabic_comma(client):
    client.set_cookie("lang", "ar")
    board = start_game(client)
    page = html.unescape(client.get(board + "?a=0-ronda&a=1-tringa").get_data(as_text=True))
    assert "<bdi>Nous</bdi> روندا، <bdi>Eux</bdi> ترينكا" in page.split('draft-strip')[1].split("</p>")[0]


def test_plurals_and_genders_in_french(french):
    for _ in range(2):
        french.post("/api/games", json={"sides": ["A", "B"]})
    page = words(french.get("/games"))
    assert "aucune manche comptée" in page and "0 manche" not in page
    game = french.post("/api/games", json={"sides": ["A", "B"]}).get_json()["id"]
    assert "La garder" in words(french.get(f"/games/{game}/delete"))


def test_a_missa_after_the_winning_hit_says_it_was_not_counted(french):
    """The Missa stops the other side's chain, whose hit wins: the last
    events say why the Missa gave nothing, in the page's language."""
    board = start_game(french)
    for event in ({"type": "adjust", "side": 0, "points": 28},
                  {"type": "adjust", "side": 1, "points": 32},
                  {"type": "hit", "side": 1, "value": 1}, {"type": "hit", "side": 0, "value": 5},
                  {"type": "missa", "side": 1}):
        api(french, board, event)
    assert api_state(french, board)["scores"] == [33, 32]
    assert "Nous +5 · la Missa : pas comptée, la partie était déjà finie" in words(
        french.get(board))
    assert "the Missa: not counted, the game was over first" in words(
        french.get(board + "?lang=en"))


# -- one hand, counted on two phones ----------------------------------------------------------

def test_a_count_confirmed_on_two_phones_ends_one_hand_once(french):
    """Both scorers typed the count of hand 1 on their sheets. The second
    Confirm comes once the first has ended the hand: it must not end hand 2
    (nor ask whether to end it early), whether its numbers are the same
    (already recorded) or not (refused: the table checks the score)."""
    board = start_game(french)
    last_deal(french, board)
    link = re.search(r'href="([^"]*sheet=end)"', french.get(board).get_data(as_text=True))
    sheet_at = html.unescape(link.group(1))
    assert "hand=1" in sheet_at  # the sheet's address says the hand it counts
    first = french.get(sheet_at).get_data(as_text=True)
    # The other phone's sheet, drawn before the count (twice: each tap its own page's).
    others = [french.get(sheet_at).get_data(as_text=True) for _ in range(3)]
    assert submit(french, *find_button(first, "end_hand"), {"cards0": "15"}).status_code == 303
    counted = api_state(french, board)
    assert (counted["hand"], counted["scores"]) == (2, [0, 5])
    for second, typed, said in ((others[0], "15", "Déjà enregistré sur un autre téléphone"),
                                # which count stands, not "tap again": End of hand counted
                                # the next hand
                                (others[1], "16", "Compté autrement sur un autre téléphone "
                                                  "(15 – 25 cartes) : pas compté.")):
        response = submit(french, *find_button(second, "end_hand"), {"cards0": typed})
        assert response.status_code == 303 and "ask=early" not in response.headers["Location"]
        shown = french.get(response.headers["Location"])
        assert said in words(shown), typed
        assert "end-sheet" not in shown.get_data(as_text=True)  # the count's hand is over
        now = api_state(french, board)  # the same count is a record of its own: counted once
        assert (now["hand"], now["scores"]) == (counted["hand"], counted["scores"]), typed
    counted = api_state(french, board)
    # Its early end's Yes (the question asked before this change) is refused the same way.
    submit(french, *find_button(others[2], "end_hand"), {"cards0": "16", "early": "1"})
    assert api_state(french, board) == counted
    # The sheet of hand 1 opened again (a reload, Back, the script's next poll): the board alone.
    again = french.get(sheet_at).get_data(as_text=True)
    assert "end-sheet" not in again and 'name="early"' not in again


def test_a_sheet_stepped_after_the_other_phones_count_stays_of_its_hand(french):
    """The other phone counted hand 1 while this one's sheet of hand 1 was
    open. A stepper tapped then kept the count of hand 1 (it made it the
    count of hand 2, and its Confirm ended that hand too): with the script,
    the sheet stays where it is and its Confirm is refused; without it, the
    page says the hand is already counted."""
    board = start_game(french)
    last_deal(french, board)
    sheet = french.get(board + "?hand=1&sheet=end&cards0=15").get_data(as_text=True)
    press(french, board + "?sheet=end", "end_hand", {"cards0": "15"})  # the other phone
    counted = api_state(french, board)
    assert counted["hand"] == 2
    form, plus = find_button(sheet, "end_step.0.1")
    scripted = submit(french, form, plus, headers={"X-Board": "1"})
    assert scripted.headers["X-Board-URL"] == board + "?sheet=end&cards0=16&hand=1"
    drawn = scripted.get_data(as_text=True)
    assert "end-sheet" in drawn and 'value="16"' in drawn
    form, confirm = find_button(drawn, "end_hand")
    # Nothing predicted of hand 2 from it; its Confirm left to the server to refuse.
    assert "data-scores" not in re.search(r'<button[^>]*value="end_hand"[^>]*>', drawn).group(0)
    assert not confirm.disabled and "La manche 1 est déjà comptée" in words(scripted)
    refused = submit(french, form, confirm, headers={"X-Board": "1"})
    assert "Compté autrement sur un autre téléphone (15 – 25 cartes)" in words(refused)
    assert "end-sheet" not in refused.get_data(as_text=True)
    assert api_state(french, board) == counted
    # Without the script: the stepper's page, its sheet closed, says why.
    form, plus = find_button(sheet, "end_step.0.1")
    stepped = submit(french, form, plus)
    assert stepped.headers["Location"] == board + "?sheet=end&cards0=16&hand=1"
    shown = french.get(stepped.headers["Location"])
    assert "end-sheet" not in shown.get_data(as_text=True)
    assert notice(shown) == ("La manche 1 est déjà comptée : rien n'est compté de nouveau. "
                             "Vérifiez le score.")
    assert api_state(french, board) == counted


def test_a_count_of_a_hand_the_other_phone_took_back_is_refused(french):
    """The other phone counted hand 1, this one opened the count of hand 2,
    then the other undid its count: this sheet's count is of no hand now."""
    board = start_game(french)
    last_deal(french, board)
    press(french, board + "?sheet=end", "end_hand", {"cards0": "15"})
    last_deal(french, board)
    sheet = french.get(board + "?hand=2&sheet=end").get_data(as_text=True)
    french.post("/api" + board + "/undo", json={})  # the other phone's Undo: the 6th next deal
    french.post("/api" + board + "/undo", json={})
    french.post("/api" + board + "/undo", json={})
    french.post("/api" + board + "/undo", json={})
    french.post("/api" + board + "/undo", json={})
    taken_back = french.post("/api" + board + "/undo", json={}).get_json()  # hand 1's count
    assert taken_back["hand"] == 1
    response = submit(french, *find_button(sheet, "end_hand"), {"cards0": "22", "early": "1"})
    assert "Un autre téléphone a annulé" in words(french.get(response.headers["Location"]))
    assert api_state(french, board) == taken_back


def test_without_the_script_a_count_typed_again_after_its_points_shows_them_first(french):
    """The points of 23 shown ("Update the points"), then 32 typed by
    mistake and Confirm: it recorded 32 at once, points never seen, and the
    scorer found out in the review. The points of 32 are shown first."""
    board = start_game(french)
    last_deal(french, board)
    before = api_state(french, board)["version"]
    shown = french.get(press(french, board + "?sheet=end", "end_preview",
                             {"cards0": "23"}).headers["Location"])
    assert "Nous +3" in words(shown)
    form, confirm = find_button(shown.get_data(as_text=True), "end_hand")
    asked = submit(french, form, confirm, {"cards0": "32"})
    assert api_state(french, board)["version"] == before  # nothing recorded
    page = french.get(asked.headers["Location"])
    assert "Le compte a changé depuis ses points affichés : vérifiez-les, puis confirmez." \
        in words(page)
    assert "Nous +12" in words(page) and 'value="32"' in page.get_data(as_text=True)
    submit(french, *find_button(page.get_data(as_text=True), "end_hand"))
    assert api_state(french, board)["scores"] == [12, 0]


def test_without_the_script_the_count_whose_points_are_shown_is_confirmed_at_once(french):
    board = start_game(french)
    last_deal(french, board)
    shown = french.get(press(french, board + "?sheet=end", "end_preview",
                             {"cards0": "23"}).headers["Location"])
    submit(french, *find_button(shown.get_data(as_text=True), "end_hand"))
    assert api_state(french, board)["scores"] == [3, 0]
    # With the script, the sheet follows the typing: no count to check against.
    preview = french.get(board + "?sheet=end&cards0=25", headers={"X-Board": "1"})
    assert 'name="shown"' not in preview.get_data(as_text=True)
