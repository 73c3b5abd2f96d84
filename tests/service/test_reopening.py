"""An Undo takes a finished game's win back at once only right after the
winning tap; later a page asks first, naming what reopening changes."""

from datetime import datetime, timedelta, timezone

from scorekeeper.engine import BUILT_IN_PRESETS
from scorekeeper.service import games, nights, reopening

WON_AT = datetime(2026, 3, 6, 21, 0, tzinfo=timezone.utc)


def at(seconds: float) -> str:
    return (WON_AT + timedelta(seconds=seconds)).isoformat(timespec="milliseconds")


def won_game(db, sides=("Ali", "Karim")):
    game, _ = games.create(db, {"sides": list(sides), "rules": {"target": 11}}, None, at(-300))
    games.record(db, game.id, {"type": "adjust", "side": 1, "points": 10}, None, at(-200))
    game, _ = games.record(db, game.id, {"type": "missa", "side": 1}, None, at(0))
    assert game.state.finished
    return game


def test_right_after_the_winning_tap_one_undo_takes_it_back(db):
    game = won_game(db)
    assert reopening.undo_at_once(db, game, game.version, at(1))
    assert reopening.undo_at_once(db, game, game.version, at(reopening.AT_ONCE.seconds))


def test_a_page_drawn_later_than_the_wins_answer_offers_no_one_tap_undo(db):
    """The result's page offers the one-tap Undo only when drawn as the
    winning tap's answer; opened later (the history), it asks first."""
    game = won_game(db)
    shown = reopening.SHOWN_AT_ONCE
    assert reopening.undo_at_once(db, game, game.version, at(shown.seconds), within=shown)
    assert not reopening.undo_at_once(db, game, game.version, at(shown.seconds + 1), within=shown)
    assert shown < reopening.AT_ONCE  # an Undo drawn in time may still be tapped a while later


def test_later_the_undo_asks_first(db):
    game = won_game(db)
    assert not reopening.undo_at_once(db, game, game.version, at(reopening.AT_ONCE.seconds + 1))
    assert not reopening.undo_at_once(db, game, game.version, at(3 * 24 * 3600))


def test_a_page_that_did_not_follow_the_winning_tap_asks_first(db):
    game = won_game(db)
    assert not reopening.undo_at_once(db, game, game.version - 1, at(1))
    assert not reopening.undo_at_once(db, game, None, at(1))


def test_a_game_won_by_a_correction_asks_first(db):
    game, _ = games.create(db, {"sides": ["Ali", "Karim"], "rules": {"target": 11}}, None, at(-9))
    games.record(db, game.id, {"type": "adjust", "side": 1, "points": 1}, None, at(-5))
    game, _ = games.correct(db, game.id, {"seq": 1, "event": {
        "type": "adjust", "side": 1, "points": 11}}, None, at(0))
    assert game.state.finished
    assert not reopening.undo_at_once(db, game, game.version, at(1))


def test_a_running_game_is_no_undo_of_a_win(db):
    game, _ = games.create(db, {"sides": ["Ali", "Karim"]}, None, at(-9))
    game, _ = games.record(db, game.id, {"type": "missa", "side": 1}, None, at(0))
    assert not reopening.undo_at_once(db, game, game.version, at(1))
    assert reopening.reopening(db, game) is None


def test_reopening_names_the_event_the_winner_and_the_night(db):
    game = won_game(db)
    asked = reopening.reopening(db, game)
    assert asked.undone.type == "missa" and asked.undone.side == 1
    assert asked.winner == "Karim" and asked.night is None
    night = nights.create(db, {"name": "Friday club", "date": "2026-03-06", "preset": "appli",
                               "players": 2}, at(-400), BUILT_IN_PRESETS)
    nights.add_table(db, night.id, game.id, None, at(-300))
    assert reopening.reopening(db, game).night.name == "Friday club"
