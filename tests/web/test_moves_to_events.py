"""A board's move read into the event it posts (pages/board.py's
event_for_move): a button's move says it all in its name, a sheet's move
takes its values from the form, and anything else is posted as an unknown
type for the engine to refuse."""

import pytest
from werkzeug.datastructures import MultiDict

from scorekeeper import engine
from scorekeeper.web.pages.board import event_for_move, move_for_event

THREE = engine.Setup(("Nous", "Eux", "Vous"), 3, engine.HouseRules(), 0)


@pytest.mark.parametrize("move, event", [
    ("hit.0.5", {"type": "hit", "side": 0, "value": 5}),
    ("missa.1", {"type": "missa", "side": 1}),
    ("missa_last.2", {"type": "missa", "side": 2, "last_card": True}),
    ("hidden_ronda.1.0", {"type": "hidden_ronda", "side": 1, "to": 0}),
    ("chain_end", {"type": "chain_end"}),
    ("next_deal", {"type": "next_deal"}),
    ("last_trick.missed", {"type": "dealer_last_trick", "outcome": "missed"}),
])
def test_a_buttons_move_is_its_event_and_back(move, event):
    assert event_for_move(move, MultiDict(), THREE) == event
    assert move_for_event(event) == move


def test_a_move_with_a_part_that_is_no_number_keeps_it_for_the_engine_to_refuse():
    assert event_for_move("hit.x.5", MultiDict(), THREE) == \
        {"type": "hit", "side": "x", "value": 5}


@pytest.mark.parametrize("move", ["hit.0", "missa", "missa.0.1", "hidden_ronda.1",
                                  "last_trick", "last_trick.one.two", "tap", "x" * 60])
def test_any_other_move_is_an_unknown_type_of_forty_characters_at_most(move):
    assert event_for_move(move, MultiDict(), THREE) == {"type": move[:40]}


def test_the_announcements_are_the_forms_marks_that_the_game_can_have():
    form = MultiDict([("a", "0-ronda"), ("a", "5-tringa"), ("a", "2-tringa"), ("a", "1-bad")])
    assert event_for_move("announce", form, THREE) == {"type": "announce", "announcements": [
        {"side": 0, "kind": "ronda"}, {"side": 2, "kind": "tringa"}]}


def test_the_ranks_are_one_field_a_side():
    form = MultiDict({"rank0": "12", "rank2": " 3 "})
    assert event_for_move("reveal", form, THREE) == {"type": "reveal", "ranks": [12, None, 3]}


def test_the_card_count_is_every_side_but_the_last_which_the_engine_counts():
    form = MultiDict({"cards0": "14", "cards1": "many"})
    assert event_for_move("end_hand", form, THREE) == \
        {"type": "end_hand", "cards": [14, "many", None]}


def test_a_correction_takes_its_side_points_and_note():
    form = MultiDict({"side": "1", "points": "-3", "note": "a card shown"})
    assert event_for_move("adjust", form, THREE) == \
        {"type": "adjust", "side": 1, "points": -3, "note": "a card shown"}
    assert event_for_move("adjust", MultiDict(), THREE) == \
        {"type": "adjust", "side": None, "points": None, "note": ""}
