"""What a new game's sides are called, and the names a phone starts from."""

from scorekeeper.service import games, side_names

DEFAULTS = ["Nous", "Eux", "Vous"]
NOW = "2026-03-06T21:00:00.000+00:00"


def test_a_typed_name_is_the_sides_name():
    assert side_names.side_names(["Ali", "Karim"], ["Nous", "Eux"], None, DEFAULTS) == [
        "Ali", "Karim"]


def test_a_side_left_empty_takes_its_default_name():
    assert side_names.side_names(["", " "], ["Nous", "Eux"], None, DEFAULTS) == ["Nous", "Eux"]
    assert side_names.side_names(["Ali", "", ""], ["", "", ""], None, DEFAULTS) == [
        "Ali", "Eux", "Vous"]


def test_a_team_still_under_the_offered_name_or_none_takes_its_partners_names():
    partners = [["Karim", "Salma"], ["Omar", ""]]
    assert side_names.side_names(["Nous", ""], ["Nous", "Eux"], partners, DEFAULTS) == [
        "Karim & Salma", "Omar"]


def test_a_teams_own_name_typed_over_the_offered_one_stays():
    partners = [["Karim", "Salma"], ["", ""]]
    assert side_names.side_names(["Les Lions", "Eux"], ["Nous", "Eux"], partners,
                                 DEFAULTS) == ["Les Lions", "Eux"]


def test_a_long_team_name_is_cut_to_a_sides_length():
    partners = [["Abdelkader Benabdallah", "Mohammed-Amine Rahmouni"], []]
    name = side_names.side_names(["", "Eux"], ["Nous", "Eux"], partners, DEFAULTS)[0]
    assert len(name) == 40 and name.endswith("…") and name.startswith("Abdelkader Benabdallah &")


def test_a_phone_starts_from_its_own_last_game_of_that_count(db):
    game, _ = games.create(db, {"sides": ["Hassan", "Mounir"]}, None, NOW)
    assert side_names.names_played(db, game.id, 2) == ["Hassan", "Mounir"]
    assert side_names.names_played(db, game.id, 3) == []  # another number of players
    assert side_names.names_played(db, None, 2) == []  # a phone that never played
    assert side_names.names_played(db, "nosuchgame", 2) == []
