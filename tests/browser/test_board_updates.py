"""With JavaScript, a tap updates the board in place (fast, docs/PERFORMANCE.md):
the same elements, only what changed, the address following the open sheet."""

import re

from playwright.sync_api import expect

from support.table import expect_scores, mark, open_game, tap


def test_a_tap_changes_the_board_in_place_and_posts_a_url_encoded_form(phone):
    open_game(phone)
    phone.evaluate("document.getElementById('board').kept = true")  # a property: no attribute
    posted = []
    phone.on("request", lambda request: posted.append(request) if request.method == "POST"
             else None)
    tap(phone, "Missa pour Nous")
    expect_scores(phone, 1, 0)
    tap(phone, "1 Bount pour Eux")
    assert phone.evaluate("document.getElementById('board').kept") is True  # not a new board
    assert [r.headers["content-type"] for r in posted] == \
        ["application/x-www-form-urlencoded;charset=UTF-8"] * 2
    assert "move=missa.0" in posted[0].post_data


def test_the_address_follows_the_sheet_that_opens_and_closes(phone):
    open_game(phone)
    mark(phone, "Fin de manche", then="Cartes ramassées par Nous")
    assert re.search(r"/games/\w+\?hand=1&sheet=end$", phone.url)  # the hand it counts
    phone.get_by_label("Cartes ramassées par Nous").fill("20")
    phone.get_by_role("button", name="Valider le compte").tap()  # before the last deal: asked
    expect(phone.get_by_role("button", name="Oui, terminer la manche maintenant")).to_be_visible()
    assert re.search(r"/games/\w+\?sheet=end&cards0=20&hand=1&ask=early$", phone.url)
    tap(phone, "Oui, terminer la manche maintenant")
    # The sheet's entry is gone back over (board.js: place), a moment after the board is drawn.
    expect(phone).to_have_url(re.compile(r"/games/\w+$"))
    expect_scores(phone, 0, 0)
