"""A tap made on a board another phone has changed since counts when it still
means what the tapping phone meant (docs/BOARD.md, "Two phones"): the rule,
on plain data, case by case."""

from scorekeeper.engine.stale import (
    ALREADY,
    ALREADY_CHAIN_OPEN,
    ALREADY_DEALT,
    ANNOUNCED,
    CHAIN,
    CHANGED,
    CORRECTED,
    DEAL_MOVED,
    HAND_ENDED,
    HAND_ENDED_SCORED,
    SAME_KIND,
    SENTENCES,
    UNDO,
    UNDONE,
    UNDONE_ALREADY,
    Record,
    stale_count,
    stale_tap,
)
from support.engine import A, B, game, hit, missa, play, setup

GAME = setup()


def events(*payloads, first=1):
    return [Record(seq, "event", payload) for seq, payload in enumerate(payloads, first)]


def reason(tap, since):
    refusal = stale_tap(GAME, tap, since)
    return None if refusal is None else refusal.reason


def test_nothing_since_is_no_reason():
    assert reason(missa(A), []) is None


def test_missa_for_us_and_missa_for_them_both_count():
    assert reason(missa(B), events(missa(A))) is None
    assert reason(missa(A), events(missa(B))) is None


def test_another_event_since_changes_nothing():
    assert reason(missa(A), events(hit(B, 1), {"type": "adjust", "side": B, "points": 2,
                                                "note": ""})) is None
    assert reason({"type": "next_deal"}, events(missa(A), hit(B, 1))) is None


def test_the_same_tap_on_both_phones_counts_once():
    assert reason(missa(A), events(missa(A))) == ALREADY
    assert reason(hit(B, 5), events(hit(B, 5))) == ALREADY
    assert reason({"type": "next_deal"}, events({"type": "next_deal"})) == ALREADY
    # Said so even when the other phone went on after it.
    assert reason(missa(A), events(missa(A), {"type": "next_deal"})) == ALREADY
    # The record it stands as: the phone's taps after it knew it as theirs.
    assert stale_tap(GAME, missa(A), events(hit(B, 1), missa(A), first=4)).stands == 5


def test_the_same_kind_for_the_same_side_recorded_otherwise_is_refused():
    assert reason(missa(A, last_card=True), events(missa(A))) == SAME_KIND
    assert reason({"type": "adjust", "side": A, "points": 3, "note": ""},
                  events({"type": "adjust", "side": A, "points": 2, "note": ""})) == SAME_KIND


def test_a_tap_after_the_other_phones_count_says_the_hand_ended_not_the_next_deal():
    """The count may have ended the game: nobody tapped Next deal. A tap
    that scores, made offline in the hand before (a chain's Bount), cannot
    be tapped again (it would count in the next hand): it says to correct."""
    count = {"type": "end_hand", "cards": [20, None]}
    for tap in (missa(B), hit(A, 1)):
        refusal = stale_tap(GAME, tap, events(count))
        assert refusal.reason == DEAL_MOVED and str(refusal) == HAND_ENDED_SCORED
    refusal = stale_tap(GAME, {"type": "next_deal"}, events(count))
    assert refusal.reason == DEAL_MOVED and str(refusal) == HAND_ENDED
    assert str(stale_tap(GAME, missa(B), events({"type": "next_deal"}))) == SENTENCES[DEAL_MOVED]


def test_the_same_next_deal_on_both_phones_says_the_deal_moved_on_once():
    """It scores nothing: the sentence says what did not happen twice, not
    that the score includes it."""
    refusal = stale_tap(GAME, {"type": "next_deal"}, events({"type": "next_deal"}))
    assert refusal.reason == ALREADY  # it stands: the other phone's is this very tap
    assert str(refusal) == ALREADY_DEALT
    assert str(stale_tap(GAME, missa(A), events(missa(A)))) == SENTENCES[ALREADY]


def test_announcements_confirmed_otherwise_are_refused_with_the_way_to_add_them():
    """Confirmed once a deal: Confirm again is refused, so the sentence says
    how to add these (undo the other phone's, then confirm them all)."""
    announce = {"type": "announce", "announcements": [{"side": A, "kind": "ronda"}]}
    other = {"type": "announce", "announcements": [{"side": B, "kind": "ronda"}]}
    refusal = stale_tap(GAME, announce, events(other))
    assert refusal.reason == ANNOUNCED
    assert "Undo theirs to confirm all" in str(refusal)
    assert refusal.kept == other  # theirs, for the page to mark with these
    assert reason(announce, events(announce)) == ALREADY  # the same, on both phones: once


def test_a_tap_of_the_deal_before_is_refused_once_the_deal_moved_on():
    assert reason(missa(B), events(missa(A), {"type": "next_deal"})) == DEAL_MOVED
    assert reason(missa(B), events({"type": "end_hand", "cards": [20, None]})) == DEAL_MOVED
    assert reason({"type": "end_hand", "cards": [22, None]},
                  events({"type": "next_deal"})) == DEAL_MOVED


def test_an_undo_or_a_correction_since_changes_what_the_board_showed():
    assert reason(missa(B), [Record(5, "undo", {"undoes": 4})]) == UNDONE
    assert reason(missa(B), [Record(5, "correction", {"corrects": 2, "event": None})]) == CORRECTED


def test_the_same_tap_made_then_undone_on_the_other_phone_is_not_already_recorded():
    since = events(missa(A), first=5) + [Record(6, "undo", {"undoes": 5})]
    assert reason(missa(A), since) == UNDONE


def test_an_event_made_and_undone_since_changes_nothing():
    """The other phone tapped Next deal by mistake and undid it: a Khamsa
    tapped here on the deal shown is of the deal the game is in again."""
    next_deal = events({"type": "next_deal"}, first=5)
    assert reason(hit(B, 5), next_deal) == DEAL_MOVED
    undone = next_deal + [Record(6, "undo", {"undoes": 5})]
    assert reason(hit(B, 5), undone) is None
    assert reason(missa(B), undone) is None
    # An undo here takes back the last event the board showed, which is the last again.
    assert reason(UNDO, undone) is None
    # Still refused: an undo of an event the board showed, or another event that stands.
    assert reason(missa(B), undone + [Record(7, "undo", {"undoes": 4})]) == UNDONE
    assert reason(UNDO, undone + [Record(7, "undo", {"undoes": 4})]) == UNDONE_ALREADY
    assert reason(missa(B), undone + events({"type": "next_deal"}, first=7)) == DEAL_MOVED


def test_the_same_tap_whose_record_was_removed_since_is_not_already_recorded():
    since = events(missa(A), first=5) + [Record(6, "correction", {"corrects": 5, "event": None})]
    assert reason(missa(A), since) == CORRECTED


def test_a_step_of_the_chain_is_refused_when_the_chain_changed():
    # The board showed A's Bount open; meanwhile the other phone ended it.
    assert reason(hit(B, 5), events({"type": "chain_end"})) == CHAIN
    assert reason(hit(B, 5), events(hit(A, 1))) == CHAIN  # a new chain: not the one seen
    assert reason({"type": "chain_end"}, events(missa(B))) == CHAIN
    # A first hit opens a chain of its own: another side's Bount since is no reason.
    assert reason(hit(B, 1), events(hit(A, 1))) is None
    # Something that leaves the chain as it was is no reason either.
    assert reason(hit(B, 5), events({"type": "adjust", "side": A, "points": 1,
                                     "note": ""})) is None


def test_a_step_the_board_could_not_take_means_the_chain_opened_since():
    """The other phone recorded the Bount; this phone, whose board had no
    chain open (its Khamsa off), tapped the Khamsa that follows it at the
    table: it can mean nothing but that chain."""
    bount = hit(A, 1)
    no_chain = game()
    assert stale_tap(GAME, hit(B, 5), events(bount), seen=no_chain) is None
    assert stale_tap(GAME, {"type": "chain_end"}, events(bount), seen=no_chain) is None
    # A board that had a chain open: the step meant that one, which changed.
    open_before = play(game(), hit(B, 1))
    assert stale_tap(GAME, hit(A, 5), events({"type": "chain_end"}, hit(B, 1)),
                     seen=open_before).reason == CHAIN
    assert stale_tap(GAME, hit(B, 5), events(bount), seen=play(game(), hit(A, 1))).reason == CHAIN
    # Other reasons still come first: the same step recorded since counts once.
    assert stale_tap(GAME, hit(B, 5), events(bount, hit(B, 5)), seen=no_chain).reason == ALREADY


def test_a_step_after_the_phones_own_bount_means_the_chain_that_bount_opened():
    """Offline, this phone tapped their 1 then our 5 (its own Bount, record
    4, is not among `since`: `mine`); the other phone's Missa, Undo, Missa
    came before that Bount in the log: the chain is the one the finger saw."""
    with_bount = play(game(), missa(B), hit(A, 1))
    since = [*events(missa(B)), Record(2, "undo", {"undoes": 1}), *events(missa(B), first=3)]
    assert stale_tap(GAME, hit(B, 5), since, seen=with_bount, mine=4) is None
    # Without knowing that record as its own, a Missa since changed the chain.
    assert stale_tap(GAME, hit(B, 5), since, seen=with_bount).reason == CHAIN
    # The other phone's hit or end of chain after that Bount did change it.
    after = [*since, *events({"type": "chain_end"}, first=5)]
    assert stale_tap(GAME, hit(B, 5), after, seen=with_bount, mine=4).reason == CHAIN


def test_a_missa_already_recorded_before_the_phones_own_chain_says_the_chain_is_open():
    """Offline, this phone tapped our 1, their 5, then Missa for us (which
    ends that chain); the other phone's Missa for us came first in the log,
    before the chain. Counted once where the log has it, it ended no chain:
    the sentence says the chain is still open, not only "the score includes
    it"."""
    chain = play(game(), missa(A), hit(A, 1), hit(B, 5))
    refusal = stale_tap(GAME, missa(A), events(missa(A)), seen=chain, mine=3)
    assert refusal.reason == ALREADY and str(refusal) == ALREADY_CHAIN_OPEN
    assert refusal.stands == 1
    # Recorded after this phone's chain, or with no chain open: as ever.
    assert str(stale_tap(GAME, missa(A), events(missa(A), first=4), seen=chain, mine=3)) == \
        SENTENCES[ALREADY]
    assert str(stale_tap(GAME, missa(A), events(missa(A)), seen=play(game(), missa(A)),
                         mine=3)) == SENTENCES[ALREADY]


def test_the_same_tap_after_the_deal_moved_on_is_another_one():
    """Seen at the table: this phone, offline, tapped a Missa for us in deal 3;
    the other phone tapped Next deal, then a real second Missa for us in deal
    4. This phone's Missa was dropped as "already recorded" and its point
    lost: a Missa of another deal is not that tap. It is of the deal before."""
    next_deal = {"type": "next_deal"}
    assert reason(missa(A), events(next_deal, missa(A))) == DEAL_MOVED
    assert reason(hit(A, 1), events(next_deal, hit(A, 1))) == DEAL_MOVED
    # Still that very tap when it came before the deal moved on, and Next deal itself.
    assert reason(missa(A), events(missa(A), next_deal, missa(A))) == ALREADY
    assert reason(next_deal, events(next_deal, missa(A))) == ALREADY
    assert reason(next_deal, events(next_deal, next_deal)) == ALREADY


def test_a_stale_undo_takes_back_nothing_it_did_not_show():
    assert reason(UNDO, []) is None
    assert reason(UNDO, [Record(7, "undo", {"undoes": 6})]) == UNDONE_ALREADY
    assert reason(UNDO, events(missa(A), first=7)) == CHANGED
    assert reason(UNDO, [Record(7, "undo", {"undoes": 6}), Record(8, "undo",
                                                                  {"undoes": 5})]) == CHANGED


def test_an_undo_right_after_the_board_followed_the_other_phone_takes_back_nothing():
    """Seen at the table: a Missa for us by mistake, the other phone's Missa
    for them, and this phone's Undo 0.4 s after its board showed that one:
    the Undo, named after it by then, took back the other phone's right tap
    and left the mistake. Its last event was not one the finger saw."""
    theirs = events(missa(B), first=7)
    assert stale_tap(GAME, UNDO, [], unseen=theirs).reason == CHANGED
    assert stale_tap(GAME, UNDO, [], unseen=[]) is None


def test_a_chain_tap_of_the_deal_before_says_to_correct_not_to_tap_again():
    """Seen at the table: a Khamsa of the deal before, refused, said to tap
    again; tapped again, it was refused (the other phone's Next deal closed
    its chain). It says to correct the score instead, a Missa to tap again."""
    moved = events({"type": "next_deal"})
    khamsa, missa_b = stale_tap(GAME, hit(B, 5), moved), stale_tap(GAME, missa(B), moved)
    assert khamsa.reason == missa_b.reason == DEAL_MOVED
    assert "More" in khamsa.sentence() and "tap again" not in khamsa.sentence()
    assert "tap again" in missa_b.sentence()
    assert stale_tap(GAME, {"type": "chain_end"}, moved).sentence() == khamsa.sentence()


def test_every_refusal_is_a_sentence_of_its_own():
    seen = set()
    for tap, since in [(missa(A), events(missa(A))), (missa(B), events({"type": "next_deal"})),
                       (UNDO, [Record(2, "undo", {"undoes": 1})])]:
        refusal = stale_tap(GAME, tap, since)
        assert refusal.sentence() not in seen and refusal.sentence().endswith(".")
        seen.add(refusal.sentence())


def unseen_reason(tap, unseen, since=()):
    refusal = stale_tap(GAME, tap, list(since), unseen)
    return None if refusal is None else refusal.reason


def test_what_the_board_had_just_followed_counts_only_as_that_very_tap():
    """The board followed the other phone a moment before the finger came
    down: its records were on the board, too shortly to have been seen."""
    assert unseen_reason(missa(A), events(missa(A))) == ALREADY
    assert unseen_reason(missa(B), events(missa(A))) is None
    # A Khamsa on the Bount the board had just shown is what that board meant.
    assert unseen_reason(hit(B, 5), events(hit(A, 1))) is None
    assert unseen_reason({"type": "next_deal"}, events({"type": "next_deal"})) == ALREADY
    assert unseen_reason(missa(A), events({"type": "next_deal"})) is None


def test_a_tap_just_seen_then_undone_is_not_already_recorded():
    unseen = events(missa(A), first=5)
    assert unseen_reason(missa(A), unseen, [Record(6, "undo", {"undoes": 5})]) == UNDONE


def test_a_count_is_of_the_hand_its_sheet_showed_never_of_the_next():
    """Two phones confirm the count of hand 1; the second one comes once the
    game is in hand 2, whatever version its board had followed to."""
    count = {"type": "end_hand", "cards": [15, None]}
    other = {"type": "end_hand", "cards": [16, None]}

    def why(tap, seen, now, counted):
        refusal = stale_count(tap, seen, now, counted)
        return None if refusal is None else refusal.reason

    assert why(count, 1, 1, None) is None  # the hand it showed: judged as any tap
    assert why(count, 1, 2, count) == ALREADY  # the same count, on both phones: once
    assert why(count, 1, 2, other) == SAME_KIND  # another count of that hand: refused
    assert why(count, 3, 2, None) == UNDONE  # the other phone undid the count before it
    assert why({"type": "next_deal"}, 1, 2, count) is None  # only a count says its hand
    assert stale_count(count, 1, 2, other).kept == other  # what stands, for the page
