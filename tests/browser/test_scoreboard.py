"""Whole games at the table, by taps, on a phone (390×844, touch), in Chromium."""

import re

from playwright.sync_api import expect

from support.table import expect_scores, mark, open_game, start_game, tap


def without_tokens(html):
    """The board's HTML without its fresh tokens, each tag's attributes in
    one order (a board updated in place may hold them in another)."""
    html = re.sub(r'(name="(?:token|csrf_token|device)"[^>]*? value=")[^"]*"', r"\1", html)
    return re.sub(r"<(\w+)((?:\s+[\w-]+(?:=\"[^\"]*\")?)*)\s*(/?)>", lambda tag: "<%s %s%s>" % (
        tag[1], " ".join(sorted(re.findall(r'[\w-]+(?:="[^"]*")?', tag[2]))), tag[3]), html)


def play_to_33(page, screenshot=None):
    """Nous: a Ronda, three chains of 1-5-10, two missas: 1 + 30 + 2 = 33."""
    mark(page, "Ronda pour Nous", then="Annonces : Nous Ronda")
    tap(page, "Valider")
    expect_scores(page, 1, 0)
    for chain in range(3):
        tap(page, "1 Bount pour Nous")
        tap(page, "5 Khamsa pour Eux")
        if chain == 0:
            expect(page.get_by_text("Chaîne : Eux +5, pas encore compté")).to_be_visible()
            if screenshot:
                screenshot(page, "board-chain-open")
        tap(page, "10 Âachra pour Nous")
        tap(page, "Donne suivante")
    expect_scores(page, 31, 0)
    tap(page, "Missa pour Nous")
    tap(page, "Missa pour Nous")


def test_three_taps_from_home_to_the_first_scoring_tap(phone):
    phone.goto("/")
    phone.get_by_role("link", name="Nouvelle partie").tap()  # 1
    first = phone.get_by_label("Premier camp").input_value()  # the last names used
    phone.get_by_role("button", name="Commencer la partie").tap()  # 2
    tap(phone, f"Missa pour {first}")  # 3
    expect_scores(phone, 1, 0)


def test_a_two_player_game_played_by_taps_until_a_side_reaches_33(phone, screenshot):
    start_game(phone)
    screenshot(phone, "board-start")
    play_to_33(phone, screenshot)
    expect(phone.get_by_role("heading", name="Nous gagnons !")).to_be_visible()
    expect(phone.locator(".final")).to_have_text("Nous 33 – Eux 0")
    screenshot(phone, "game-over")
    phone.get_by_role("button", name="Revanche").tap()
    expect(phone.locator("#board .points").first).to_have_text("0")
    expect(phone.get_by_text("Donneur : Eux")).to_be_visible()


def test_the_same_game_with_javascript_disabled(phone_without_js):
    page = phone_without_js
    start_game(page)
    play_to_33(page)
    expect(page.get_by_role("heading", name="Nous gagnons !")).to_be_visible()


def test_a_four_player_game_with_an_announcement_contest_and_its_reveal(phone, screenshot):
    open_game(phone, players=4)
    mark(phone, "Ronda pour Nous", then="Annonces : Nous Ronda")
    mark(phone, "Ronda pour Nous", then="Annonces : Nous Ronda, Nous Ronda")  # the partner's
    mark(phone, "Ronda pour Eux", then="Annonces : Nous Ronda, Nous Ronda, Eux Ronda")
    tap(phone, "Valider")
    expect(phone.get_by_text("Rondas : le rang décide")).to_be_visible()
    expect(phone.get_by_role("button", name="Donne suivante")).to_be_disabled()
    mark(phone, "Choisir les rangs", then="Meilleure Ronda de Nous")
    screenshot(phone, "sheet-ranks")
    phone.locator("label:has(input[name=rank0][value='7'])").tap()
    phone.locator("label:has(input[name=rank1][value='10'])").tap()
    tap(phone, "Valider les rangs")
    expect_scores(phone, 0, 3)
    expect(phone.get_by_role("button", name="Donne suivante")).to_be_enabled()


def last_deal(page):
    for _ in range(5):
        tap(page, "Donne suivante")


def test_an_end_of_hand_with_the_40_complement(phone, screenshot):
    open_game(phone)
    last_deal(phone)
    mark(phone, "Fin de manche", then="Cartes ramassées par Nous")
    expect(phone.get_by_label("Cartes ramassées par Nous")).to_have_value("")
    for count in (21, 22, 23):  # an empty count steps from 20
        phone.get_by_role("button", name="Une carte de plus pour Nous").tap()
        expect(phone.get_by_label("Cartes ramassées par Nous")).to_have_value(str(count))
    expect(phone.get_by_text("Eux : 17 cartes (le reste des 40)")).to_be_visible()
    expect(phone.locator(".gets")).to_have_text("Nous +3 · Eux +0")
    screenshot(phone, "sheet-end-of-hand")
    tap(phone, "Valider le compte")
    expect_scores(phone, 3, 0)
    expect(phone.get_by_text("Manche 2 · Donne 1/6")).to_be_visible()


def test_typing_the_card_count_updates_the_preview(phone):
    open_game(phone)
    last_deal(phone)
    mark(phone, "Fin de manche", then="Cartes ramassées par Nous")
    phone.get_by_label("Cartes ramassées par Nous").fill("12")
    expect(phone.locator(".gets")).to_have_text("Nous +0 · Eux +8")
    tap(phone, "Valider le compte")
    expect_scores(phone, 0, 8)


def test_undo_says_what_it_undoes_and_takes_it_back(phone):
    open_game(phone)
    tap(phone, "Missa pour Eux")
    expect_scores(phone, 0, 1)
    undo = phone.get_by_role("button", name="↶ Annuler : Missa · \u2068Eux\u2069")
    expect(undo).to_be_visible()
    tap(phone, "↶ Annuler : Missa · \u2068Eux\u2069")
    expect_scores(phone, 0, 0)
    expect(phone.get_by_role("button", name="↶ Rien à annuler")).to_be_disabled()


def test_reloading_mid_game_resumes_exactly(phone):
    open_game(phone)
    tap(phone, "Missa pour Nous")
    tap(phone, "Donne suivante")
    tap(phone, "1 Bount pour Eux")
    before = phone.locator("#board").inner_html()
    phone.reload()
    expect(phone.locator("#board")).to_be_visible()
    assert phone.locator("#board").inner_html().count("Chaîne : <bdi>Eux</bdi> +1") == 1
    expect_scores(phone, 1, 0)
    expect(phone.get_by_text("Manche 1 · Donne 2/6")).to_be_visible()
    # Everything but the fresh tokens (one-time and CSRF) is the same board;
    # the button just recorded, on a whole page, holds longer ("long").
    reloaded = phone.locator("#board").inner_html().replace('"settling long"', '"settling"')
    assert without_tokens(reloaded) == without_tokens(before)


def test_a_tap_gives_a_haptic_tick_and_the_screen_stays_awake(new_phone):
    page = new_phone()
    page.add_init_script("""
        window.__ticks = []; window.__locks = [];
        navigator.vibrate = ms => { window.__ticks.push(ms); return true; };
        Object.defineProperty(navigator, 'wakeLock', {value: {request: type => {
            window.__locks.push(type);
            return Promise.resolve({addEventListener() {}});
        }}});
    """)
    open_game(page)
    assert page.evaluate("window.__locks") == ["screen"]
    tap(page, "Missa pour Nous")
    assert len(page.evaluate("window.__ticks")) == 1


def test_the_common_case_fits_a_360_by_640_screen(new_phone):
    page = new_phone(viewport={"width": 360, "height": 640})
    open_game(page)
    tap(page, "1 Bount pour Nous")  # a chain strip is open: the common case mid-deal
    for name in ("Missa pour Nous", "Missa pour Eux", "Donne suivante", "10 Âachra pour Eux"):
        box = page.get_by_role("button", name=name, exact=True).bounding_box()
        assert box["y"] + box["height"] <= 640, name
    for button in page.locator("#board button:visible, #board a.button:visible").all():
        box = button.bounding_box()
        assert box["height"] >= 48 and box["width"] >= 40, button.inner_text()
