"""Ranks no deck can hold: two Tringas of 5 picked on the rank
grid are a mis-tap, not a tie. The board records nothing, says why, and
keeps the ranks sheet open; ranks that can be are recorded as before.
Through the test client, as a phone without JavaScript."""

import re
from html import unescape

from scorekeeper.web.pages import resume
from support.page_forms import find_button, press, submit
from support.pages import api_state, start_game
from support.pages import text as words

SAID = ("2 Tringas de 5, c'est impossible : le jeu n'a que quatre cartes de chaque rang. "
        "Vérifiez les rangs.")


def contest(client, names=("Nous", "Eux", "")):
    """A board whose two Tringas wait for their ranks, on the ranks sheet: a
    new game each time, as from a phone of its own (the same Start again on
    one phone is its game in progress: games.same_start)."""
    client.delete_cookie(resume.COOKIE)
    board = start_game(client, names=names)
    press(client, f"{board}?a=0-tringa&a=1-tringa", "announce")
    assert api_state(client, board)["awaiting_reveal"] is True
    return board, client.get(f"{board}?sheet=ranks").get_data(as_text=True)


def test_two_tringas_of_one_rank_are_asked_again_and_nothing_is_recorded(french):
    board, sheet = contest(french)
    form, button = find_button(sheet, "reveal")
    response = submit(french, form, button, extra={"rank0": "5", "rank1": "5"})
    assert response.status_code == 303 and "sheet=ranks" in response.headers["Location"]
    shown = unescape(words(french.get(response.headers["Location"]).get_data(as_text=True)))
    assert SAID in shown and "Rangs à départager" in shown
    state = api_state(french, board)
    assert state["awaiting_reveal"] is True and state["scores"] == [0, 0]
    assert state["version"] == 1


def checked_ranks(page: str) -> list[tuple[str, str]]:
    """The ranks picked on a ranks sheet: (field, rank) of each checked radio."""
    return re.findall(r'<input type="radio" name="(rank\d)" value="(\d+)" checked>', page)


def test_the_ranks_picked_stay_picked_after_the_refusal(french):
    """A mis-tap is one rank to change: the sheet asked again keeps both picks,
    without JavaScript (the redirect) and with it (the board drawn for the script)."""
    board, sheet = contest(french)
    assert checked_ranks(sheet) == []
    form, button = find_button(sheet, "reveal")
    response = submit(french, form, button, extra={"rank0": "5", "rank1": "5"})
    asked = french.get(response.headers["Location"]).get_data(as_text=True)
    assert checked_ranks(asked) == [("rank0", "5"), ("rank1", "5")]
    # Refused again from that sheet, with other picks: those are the ones shown.
    form, button = find_button(asked, "reveal")
    response = submit(french, form, button, extra={"rank0": "7", "rank1": "7"},
                      headers={"X-Board": "1"})
    assert checked_ranks(response.get_data(as_text=True)) == [("rank0", "7"), ("rank1", "7")]
    # One rank changed, and the reveal counts.
    form, button = find_button(response.get_data(as_text=True), "reveal")
    submit(french, form, button, extra={"rank0": "7", "rank1": "6"})
    assert api_state(french, board)["awaiting_reveal"] is False


def test_ranks_that_can_be_are_recorded(french):
    board, sheet = contest(french)
    form, button = find_button(sheet, "reveal")
    submit(french, form, button, extra={"rank0": "5", "rank1": "6"})
    state = api_state(french, board)
    assert state["awaiting_reveal"] is False and state["scores"] == [0, 10]


def test_the_sentence_in_arabic_and_english(client):
    for language, said in (("ar", "2 ترينكات من 5 مستحيل"), ("en", "2 Tringas of 5 cannot be")):
        board, sheet = contest(client)
        form, button = find_button(client.get(f"{board}?sheet=ranks&lang={language}")
                                   .get_data(as_text=True), "reveal")
        response = submit(client, form, button, extra={"rank0": "5", "rank1": "5"},
                          headers={"X-Board": "1"})
        assert said in unescape(response.get_data(as_text=True)), language


def test_ranks_not_chosen_are_asked_by_the_app_not_the_browser(client):
    """Seen at the table: Confirm with no rank chosen brought up the browser's own
    bubble ("Please select one of these options.", in the browser's
    language). The grid asks nothing of the browser; the app says which side's
    rank it needs, in the page's language, and records nothing."""
    for language, said in (("fr", "Donnez le rang de la meilleure annonce de Nous."),
                           ("ar", "أعطِ رتبة أفضل إعلان لنا."),
                           ("en", "Give the rank of our best announcement.")):
        board, _ = contest(client)
        sheet = client.get(f"{board}?sheet=ranks&lang={language}").get_data(as_text=True)
        assert "required" not in sheet.split('class="rank-grid"', 1)[1].split("</form>")[0]
        form, button = find_button(sheet, "reveal")
        response = submit(client, form, button, extra={"rank1": "7"})
        assert response.status_code == 303 and "sheet=ranks" in response.headers["Location"]
        shown = unescape(words(client.get(response.headers["Location"]).get_data(as_text=True)))
        assert said in shown, (language, shown[:600])
        state = api_state(client, board)
        assert state["awaiting_reveal"] is True and state["version"] == 1


def test_whose_best_announcement_reads_right_for_default_names_and_people(client):
    """Seen at the table: "Give the rank of Nous's best announcement." A default name
    is said as the possessive it is ("our", "their", «لنا»), a person's name
    takes its own ("Ali's"), in the sheet's legends and in its refusal."""
    cases = (
        (("Nous", "Eux", ""), "en", "rank1", "Give the rank of our best announcement.",
         ("Our best Tringa", "Their best Tringa")),
        (("Us", "Them", ""), "en", "rank0", "Give the rank of their best announcement.",
         ("Our best Tringa", "Their best Tringa")),
        (("Ali", "Badr", ""), "en", "rank1", "Give the rank of Ali's best announcement.",
         ("Best Tringa of Ali", "Best Tringa of Badr")),
        (("Nous", "Eux", ""), "ar", "rank0", "أعطِ رتبة أفضل إعلان لهم.",
         ("أفضل ترينكا لنا", "أفضل ترينكا لهم")),
        (("Ali", "Badr", ""), "ar", "rank1", "أعطِ رتبة أفضل إعلان لـAli.",
         ("أفضل ترينكا لـAli",)),
        (("Eux", "Nous", ""), "fr", "rank1", "Donnez le rang de la meilleure annonce d'Eux.",
         ("Meilleure Tringa d'Eux", "Meilleure Tringa de Nous")),
    )
    for names, language, given, said, legends in cases:
        board, _ = contest(client, names)
        sheet = client.get(f"{board}?sheet=ranks&lang={language}").get_data(as_text=True)
        for legend in legends:
            assert legend in unescape(words(sheet)), (names, language, legend)
        assert "Us's" not in sheet and "Nous's" not in sheet and "Them's" not in sheet
        form, button = find_button(sheet, "reveal")
        response = submit(client, form, button, extra={given: "7"})
        shown = unescape(words(client.get(response.headers["Location"]).get_data(as_text=True)))
        assert said in shown, (names, language, shown[:600])
