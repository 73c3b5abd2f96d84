"""The correction form read into an event, kind by kind (views/history.py's
changed_event): each kind takes its own fields and leaves the others as stored."""

from werkzeug.datastructures import MultiDict

from scorekeeper.web.views.history import changed_event


def test_a_hit_takes_its_side_and_value_as_whole_numbers():
    stored = {"type": "hit", "side": 0, "value": 1}
    assert changed_event(stored, MultiDict({"side": " 1 ", "value": "5"}), 2) == \
        {"type": "hit", "side": 1, "value": 5}
    assert stored == {"type": "hit", "side": 0, "value": 1}  # the stored form is left as it is


def test_a_field_that_is_no_number_is_kept_for_the_engine_to_refuse():
    changed = changed_event({"type": "hit", "side": 0, "value": 1},
                            MultiDict({"value": "five", "side": ""}), 2)
    assert changed == {"type": "hit", "side": None, "value": "five"}


def test_a_field_the_event_does_not_have_is_not_added():
    changed = changed_event({"type": "missa", "side": 0}, MultiDict({"value": "5"}), 2)
    assert changed == {"type": "missa", "side": 0, "last_card": False}


def test_a_missa_with_the_last_card_is_a_box_ticked():
    assert changed_event({"type": "missa", "side": 1}, MultiDict({"last_card": "1"}), 2) == \
        {"type": "missa", "side": 1, "last_card": True}


def test_an_adjustment_keeps_its_note_unless_the_form_has_one():
    stored = {"type": "adjust", "side": 0, "points": 2, "note": "late"}
    assert changed_event(stored, MultiDict({"points": "-3"}), 2)["note"] == "late"
    assert changed_event(stored, MultiDict({"note": ""}), 2)["note"] == ""


def test_the_dealers_last_trick_takes_its_outcome_when_given():
    stored = {"type": "dealer_last_trick", "outcome": "twelve"}
    assert changed_event(stored, MultiDict({"outcome": "missed"}), 2)["outcome"] == "missed"
    assert changed_event(stored, MultiDict(), 2)["outcome"] == "twelve"


def test_a_card_count_takes_every_side_but_the_last_which_the_engine_counts():
    changed = changed_event({"type": "end_hand", "cards": [20, None]},
                            MultiDict({"cards0": "17", "cards1": "9"}), 3)
    assert changed["cards"] == [17, 9, None]


def test_the_ranks_shown_take_one_field_a_side():
    changed = changed_event({"type": "reveal", "ranks": [3, None]},
                            MultiDict({"rank0": "12", "rank1": ""}), 2)
    assert changed["ranks"] == [12, None]


def test_with_two_sides_a_hidden_rondas_penalty_goes_to_the_other_side():
    stored = {"type": "hidden_ronda", "side": 0, "to": 1}
    assert changed_event(stored, MultiDict({"side": "1", "to": "1"}), 2)["to"] == 0
    # Recorded before the receiver was named: it stays so.
    unnamed = {"type": "hidden_ronda", "side": 0, "to": None}
    assert changed_event(unnamed, MultiDict({"side": "1"}), 2)["to"] is None


def test_with_three_sides_a_hidden_rondas_receiver_is_the_one_picked():
    stored = {"type": "hidden_ronda", "side": 1, "to": 0}
    assert changed_event(stored, MultiDict({"to": "2"}), 3)["to"] == 2
    assert changed_event(stored, MultiDict(), 3)["to"] == 0


def test_announcements_are_the_rows_with_a_kind_and_one_more_row_adds_one():
    stored = {"type": "announce", "announcements": [
        {"side": 0, "kind": "ronda", "rank": 3}]}
    form = MultiDict({"a0_side": "0", "a0_kind": "", "a0_rank": "3",
                      "a1_side": "1", "a1_kind": "tringa", "a1_rank": "12",
                      "a2_side": "0", "a2_kind": "ronda", "a2_rank": "4"})
    # Row 0 emptied of its kind is taken out; row 1 is the one more row; row 2
    # is beyond the rows offered.
    assert changed_event(stored, form, 2)["announcements"] == [
        {"side": 1, "kind": "tringa", "rank": 12}]
