"""One rule for two phones (docs/BOARD.md, "Two phones"), on plain data:
each row of its table, as sentences."""

import pytest

from scorekeeper.engine import replay
from scorekeeper.engine.events import recorded_event
from scorekeeper.engine.merge import (
    AFTER,
    ANNOUNCED_OTHERWISE,
    APPLY,
    CHAIN_CLOSED,
    COUNTED_OTHERWISE,
    DEPENDS,
    DONE,
    HAND_UNDONE,
    JOIN,
    LATER,
    PLACE,
    SAME,
    SENTENCES,
    UNDO,
    MergeRefused,
    Record,
    Tap,
    merge_tap,
)
from support.engine import setup

GAME = setup()
NEXT = {"type": "next_deal"}


def missa(side, last_card=False):
    return {"type": "missa", "side": side, "last_card": last_card}


def hit(side, value):
    return {"type": "hit", "side": side, "value": value}


def ronda(side):
    return {"type": "announce", "announcements": [{"side": side, "kind": "ronda", "rank": None}]}


def log(*made):
    """Records of the log, seq 1…: (device, event) each."""
    return [Record(seq, event, device) for seq, (device, event) in enumerate(made, 1)]


def test_a_record_its_phones_previous_tap_saw_is_not_this_tap():
    records = log(("a", missa(0)), ("b", hit(1, 1)))
    assert merge_tap(GAME, records, Tap("b", 2, missa(0), since=1)).action == APPLY


def test_the_other_phones_same_event_drawn_just_before_the_finger_is_that_event():
    """The second scorer's finger comes down just after the first phone's
    Missa was drawn on its board: that Missa is still new to its phone (its
    previous tap saw none of it), so it is this very tap, counted once."""
    records = log(("b", hit(1, 1)), ("a", missa(0)))
    decided = merge_tap(GAME, records, Tap("b", 2, missa(0), since=0))
    assert (decided.action, decided.seq) == (SAME, 2)


def test_taps_kept_offline_are_new_to_nothing_their_phone_had_seen():
    """Offline, a phone's taps all carry the board it last saw: its Missa
    after its Bount, both tapped once that board showed the other phone's
    Missa, is another Missa."""
    records = log(("a", missa(0)), ("b", hit(1, 1)))
    assert merge_tap(GAME, records, Tap("b", 1, missa(0), since=1)).action == APPLY


def test_a_phones_first_tap_may_be_the_last_record_its_board_showed():
    records = log(("a", missa(0)), ("a", missa(0)))
    assert merge_tap(GAME, records, Tap("b", 2, missa(0))).seq == 2
    assert merge_tap(GAME, records[:1] + [Record(2, hit(1, 1), "a")],
                     Tap("b", 2, missa(0))).action == APPLY


def test_the_same_close_drawn_just_before_the_finger_is_that_close():
    """Both scorers tap Next deal; the second board drew the first one's
    just before its finger came down: one Next deal, not two."""
    records = log(("a", missa(0)), ("b", missa(0)), ("a", NEXT))
    matched = [Record(1, missa(0), "a", matched=("b",)), records[2]]
    decided = merge_tap(GAME, matched, Tap("b", 3, NEXT, since=1))
    assert (decided.action, decided.seq) == (SAME, 3)


def test_a_tap_of_no_known_phone_is_judged_on_what_it_saw():
    assert merge_tap(GAME, log(("a", missa(0))), Tap(None, 1, missa(0))).action == APPLY
    assert merge_tap(GAME, log(("a", missa(0))), Tap(None, 0, missa(0))).action == SAME


def test_the_other_phones_same_event_in_the_same_deal_is_that_event():
    decided = merge_tap(GAME, log(("a", missa(0))), Tap("b", 0, missa(0)))
    assert (decided.action, decided.seq) == (SAME, 1)


def test_each_record_matches_once():
    records = log(("a", missa(0)), ("a", missa(0)))
    matched = [Record(1, missa(0), "a", matched=("b",)), records[1]]
    assert merge_tap(GAME, matched, Tap("b", 0, missa(0))).seq == 2
    both = [Record(1, missa(0), "a", matched=("b",)), Record(2, missa(0), "a", matched=("b",))]
    assert merge_tap(GAME, both, Tap("b", 0, missa(0))).action == APPLY


def test_a_phones_own_records_are_never_the_other_phones():
    assert merge_tap(GAME, log(("b", missa(0))), Tap("b", 0, missa(0))).action == APPLY


def test_missa_for_us_and_missa_for_them_both_count():
    assert merge_tap(GAME, log(("a", missa(1))), Tap("b", 0, missa(0))).action == APPLY


def test_a_missa_with_the_last_card_is_not_a_plain_missa():
    assert merge_tap(GAME, log(("a", missa(0, True))), Tap("b", 0, missa(0))).action == APPLY


def test_the_same_event_after_the_deal_moved_on_is_another_one():
    """The other phone's Missa of deal 2 is not this Missa of deal 1: this
    one is placed in deal 1."""
    records = log(("a", NEXT), ("a", missa(0)))
    decided = merge_tap(GAME, records, Tap("b", 0, missa(0)))
    assert (decided.action, decided.seq) == (PLACE, 1)
    assert decided.state.scores == (2, 0) and decided.state.deal == 2


def test_a_tap_of_a_deal_the_other_phone_left_is_placed_before_its_close():
    records = log(("a", hit(1, 1)), ("a", NEXT), ("a", missa(1)))
    decided = merge_tap(GAME, records, Tap("b", 0, ronda(0)))
    assert (decided.action, decided.seq) == (PLACE, 2)
    events = [recorded_event(e, GAME) for e in (hit(1, 1), ronda(0), NEXT, missa(1))]
    assert decided.state == replay(GAME, events)


def test_a_close_that_had_not_seen_the_other_phones_taps_of_its_deal_says_so():
    """A Missa and a Next deal, neither phone seeing the other's: whichever
    reaches the server first, the Missa counts in the deal and the close
    after it. The Missa arriving second is placed and said; so is the close
    arriving second (the deal closed with taps its board had not shown)."""
    assert merge_tap(GAME, log(("b", NEXT)), Tap("a", 0, missa(0))).action == PLACE
    assert merge_tap(GAME, log(("a", missa(0))), Tap("b", 0, NEXT)).action == AFTER
    count = {"type": "end_hand", "cards": [15, None]}
    assert merge_tap(GAME, log(("a", missa(0))), Tap("b", 0, count)).action == AFTER
    # Seen, its own, or matched with its own: nothing to say.
    assert merge_tap(GAME, log(("a", missa(0))), Tap("b", 1, NEXT)).action == APPLY
    matched = [Record(1, missa(0), "a", matched=("b",))]
    assert merge_tap(GAME, matched, Tap("b", 0, NEXT)).action == APPLY
    # The other phone's taps of a deal before the close's: not of its deal.
    assert merge_tap(GAME, log(("a", missa(0)), ("b", NEXT)), Tap("b", 0, NEXT)).action == APPLY


def test_the_phones_own_taps_after_its_seen_version_place_it_in_their_deal():
    """Offline: this phone tapped Next deal, then a Missa; the other phone's
    Next deal reached the server first. Both Next deals are one (matched);
    the Missa is of deal 2, the game's deal now: it counts there."""
    records = [Record(1, NEXT, "a", matched=("b",)), Record(2, missa(1), "a")]
    assert merge_tap(GAME, records, Tap("b", 0, missa(0))).action == APPLY


def test_a_chain_step_or_over_of_a_deal_closed_is_placed_in_its_chain():
    four = setup(players=4)
    records = log(("a", hit(0, 1)), ("a", NEXT))
    khamsa = merge_tap(four, records, Tap("b", 1, hit(1, 5)))
    assert (khamsa.action, khamsa.seq, khamsa.state.scores) == (PLACE, 2, (0, 5))
    over = merge_tap(four, records, Tap("b", 1, {"type": "chain_end"}))
    assert (over.action, over.state.scores) == (PLACE, (1, 0))


def test_a_chain_step_or_over_whose_chain_ended_before_its_deal_closed_is_refused():
    records = log(("a", hit(0, 1)), ("a", missa(1)), ("a", NEXT))
    for tap in (hit(1, 5), {"type": "chain_end"}):
        with pytest.raises(MergeRefused) as refused:
            merge_tap(setup(players=4), records, Tap("b", 1, tap))
        assert refused.value.reason == CHAIN_CLOSED


def test_a_placed_tap_the_records_since_cannot_stand_with_is_refused():
    """A Missa placed in deal 1 that reaches the target: the game was over
    before the other phone's taps since."""
    near = setup(target=11)
    records = log(("a", {"type": "adjust", "side": 0, "points": 10, "note": ""}), ("a", NEXT),
                  ("a", missa(1)))
    with pytest.raises(MergeRefused) as refused:
        merge_tap(near, records, Tap("b", 1, missa(0)))
    assert refused.value.reason == LATER


def test_a_first_hit_of_a_deal_closed_opens_its_chain_there():
    records = log(("a", NEXT))
    assert merge_tap(GAME, records, Tap("b", 0, hit(0, 1))).action == PLACE


def test_another_count_of_the_same_hand_is_refused_keeping_the_one_recorded():
    count = {"type": "end_hand", "cards": [15, None]}
    records = log(*[("a", NEXT)] * 5, ("a", count))
    with pytest.raises(MergeRefused) as refused:
        merge_tap(GAME, records, Tap("b", 5, {"type": "end_hand", "cards": [16, None]}, hand=1))
    assert (refused.value.reason, refused.value.kept) == (COUNTED_OTHERWISE, count)
    assert merge_tap(GAME, records, Tap("b", 5, count, hand=1)).action == SAME
    # A sheet that followed the other phone names its hand: that count is
    # this tap, recorded once (its phone's previous tap had seen it: done).
    assert merge_tap(GAME, records, Tap("b", 6, count, hand=1)).action == SAME
    mine = records + [Record(7, missa(0), "b")]
    assert merge_tap(GAME, mine, Tap("b", 7, count, hand=1, since=6)).action == DONE


def test_a_count_of_a_hand_the_game_is_back_before_is_refused():
    with pytest.raises(MergeRefused) as refused:
        merge_tap(GAME, log(("a", NEXT)), Tap("b", 9, {"type": "end_hand", "cards": [15, None]},
                                                hand=2))
    assert refused.value.reason == HAND_UNDONE


def test_announcements_confirmed_otherwise_join_theirs_in_the_deals_one_record():
    """Each phone confirmed its side's: the deal's record holds both, and
    the game is folded again with it (a Ronda each: the ranks decide)."""
    decided = merge_tap(GAME, log(("a", ronda(1))), Tap("b", 0, ronda(0)))
    both = {"type": "announce", "announcements": [ronda(0)["announcements"][0],
                                                  ronda(1)["announcements"][0]]}
    assert (decided.action, decided.seq, decided.event) == (JOIN, 1, both)
    assert decided.state == replay(GAME, [recorded_event(both, GAME)])
    assert decided.state.awaiting_reveal and decided.state.scores == (0, 0)


def test_what_both_phones_marked_is_joined_once():
    theirs = {"type": "announce", "announcements": [
        {"side": 0, "kind": "ronda", "rank": None}, {"side": 1, "kind": "tringa", "rank": None}]}
    decided = merge_tap(GAME, log(("a", theirs)), Tap("b", 0, ronda(0)))
    assert decided.event == theirs


def test_a_lone_tringa_that_ended_the_game_is_joined_by_the_other_sides_and_it_goes_on():
    """Their Tringa alone reached the target; ours, confirmed second, makes
    the ranks decide: the game is not over on one phone's half of the deal."""
    tringa = {"type": "announce", "announcements": [{"side": 1, "kind": "tringa", "rank": None}]}
    near = log(*[("a", {"type": "adjust", "side": 1, "points": 30, "note": "x"})], ("a", tringa))
    over = replay(GAME, [recorded_event(entry.event, GAME) for entry in near])
    assert over.finished
    ours = {"type": "announce", "announcements": [{"side": 0, "kind": "tringa", "rank": None}]}
    decided = merge_tap(GAME, near, Tap("b", 1, ours))
    assert decided.action == JOIN and not decided.state.finished and decided.state.awaiting_reveal


def test_announcements_the_engine_cannot_join_are_refused_keeping_theirs():
    """Their Ronda and our Tringa for the same one player: one of the two
    is wrong, and only the table knows which; the choice is the scorer's."""
    tringa = {"type": "announce", "announcements": [{"side": 0, "kind": "tringa", "rank": None}]}
    with pytest.raises(MergeRefused) as refused:
        merge_tap(GAME, log(("a", ronda(0))), Tap("b", 0, tringa))
    assert (refused.value.reason, refused.value.kept) == (ANNOUNCED_OTHERWISE, ronda(0))


def test_an_undo_takes_back_the_last_event_its_phone_knew_whatever_came_since():
    records = log(("b", missa(0)), ("a", hit(1, 1)))
    decided = merge_tap(GAME, records, Tap("b", 1))
    assert (decided.action, decided.seq) == (UNDO, 1)
    assert decided.state == replay(GAME, [recorded_event(hit(1, 1), GAME)])


def test_an_undo_names_its_record():
    records = log(("b", missa(0)), ("b", missa(1)), ("a", missa(0)))
    decided = merge_tap(GAME, records, Tap("b", 3, undoes=2))
    assert (decided.action, decided.seq) == (UNDO, 2) and decided.state.scores == (2, 0)


def test_an_undo_of_the_last_event_leaves_the_fold_to_the_service():
    decided = merge_tap(GAME, log(("b", missa(0))), Tap("b", 1))
    assert (decided.action, decided.seq, decided.state) == (UNDO, 1, None)


def test_an_undo_already_made_on_the_other_phone_is_done():
    records = [Record(1, missa(0), "b", undone_at=2, undone_from="a")]
    assert merge_tap(GAME, records, Tap("b", 1)).action == DONE


def test_an_undo_after_the_phones_own_undo_takes_back_the_event_before():
    records = [Record(1, missa(1), "b"), Record(2, missa(0), "b", undone_at=3, undone_from="b")]
    assert merge_tap(GAME, records, Tap("b", 1)).seq == 1


def test_an_undo_the_later_records_need_is_refused():
    records = log(("b", hit(0, 1)), ("a", hit(1, 5)))
    with pytest.raises(MergeRefused) as refused:
        merge_tap(GAME, records, Tap("b", 1))
    assert refused.value.reason == DEPENDS


def test_an_event_undone_on_the_other_phone_matches_nothing():
    records = [Record(1, missa(0), "a", undone_at=2, undone_from="a")]
    assert merge_tap(GAME, records, Tap("b", 0, missa(0))).action == APPLY


def test_every_refusal_is_a_sentence_of_its_own():
    assert len(set(SENTENCES.values())) == len(SENTENCES)
    assert all(sentence.endswith(".") for sentence in SENTENCES.values())


def test_a_third_phones_same_count_is_that_count_too():
    count = {"type": "end_hand", "cards": [15, None]}
    records = [*log(*[("a", NEXT)] * 5), Record(6, count, "a", matched=("b",))]
    assert merge_tap(GAME, records, Tap("c", 5, count)).action == SAME
