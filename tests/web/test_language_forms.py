"""Numbers and dates as each language says them. A count of cards in the
language's own plural: Arabic says 3 to 10 cards with the plural (أوراق) and
11 and up with the singular (ورقة); French says 1 card in the singular (a
table read "Salma: 10 ورقة" as a slip). A day and its hour joined by the
language's own comma."""

import re

import pytest

from support.pages import text


def _game_at_its_last_deal(api) -> str:
    game = api.new_game(sides=["Salma", "Karim"])["id"]
    for _ in range(5):
        api.event(game, type="next_deal")
    return game


@pytest.mark.parametrize("language, cards, said", [
    ("ar", 30, "Karim: 10 أوراق (باقي الـ40)"),
    ("ar", 26, "Karim: 14 ورقة (باقي الـ40)"),
    ("fr", 39, "Karim : 1 carte (le reste des 40)"),
    ("fr", 30, "Karim : 10 cartes (le reste des 40)"),
    ("en", 39, "Karim: 1 card (the rest of the 40)"),
])
def test_the_count_sheet_says_the_rest_in_the_languages_plural(client, api, language, cards,
                                                                said):
    game = _game_at_its_last_deal(api)
    page = client.get(f"/games/{game}?sheet=end&cards0={cards}&lang={language}")
    assert said in text(page.get_data(as_text=True))


@pytest.mark.parametrize("language, said", [("ar", "Salma 30 ورقة، Karim 10 أوراق"),
                                            ("fr", "Salma 30 cartes, Karim 10 cartes")])
def test_the_last_events_say_a_count_in_the_languages_plural(client, api, language, said):
    game = _game_at_its_last_deal(api)
    api.event(game, type="end_hand", cards=[30, None])
    page = client.get(f"/games/{game}?lang={language}")
    assert said in text(page.get_data(as_text=True))


@pytest.mark.parametrize("language, joined", [("ar", "، "), ("fr", ", "), ("en", ", ")])
def test_a_games_day_and_hour_are_joined_as_the_language_joins_them(client, api, language,
                                                                      joined):
    """Arabic wrote "الأربعاء 2 ديسمبر 2026, 12:52" with a Latin comma."""
    api.new_game(sides=["Salma", "Karim"])
    page = client.get(f"/games?lang={language}").get_data(as_text=True)
    times = re.findall(r"<time datetime=\"[^\"]+\">([^<]+)</time>", page)
    assert times and all(re.search(rf"\d{{4}}{joined}\d\d:\d\d$", t) for t in times), times
