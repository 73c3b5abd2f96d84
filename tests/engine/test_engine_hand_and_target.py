"""BAREME.md §1 (deals of a hand), §2 (gains are definitive) and §6 (the card
count, the target and the end of the game), with the API's rules for
`next_deal`, `end_hand` and a finished game."""

import pytest

from support.engine import (
    A,
    B,
    C,
    adjust,
    announce,
    chain_end,
    end_hand,
    gains,
    game,
    hit,
    missa,
    next_deal,
    next_deals,
    play,
    refused,
    reveal,
    ronda,
    scores_after,
    tringa,
)

# -- §1: deals and hands ----------------------------------------------------------


@pytest.mark.parametrize("players, deals", [(2, 6), (3, 4), (4, 3)])
def test_a_hand_has_six_deals_with_two_players_four_with_three_three_with_four(players, deals):
    state = play(game(players), *next_deals(deals - 1))
    assert state.deal == deals
    refused(state, next_deal())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_hand_ends_with_the_card_count_and_the_next_starts_at_deal_one(players):
    sides = 3 if players == 3 else 2
    counts = [10] * (sides - 1) + [None]
    state = play(game(players), *next_deals(2), end_hand(*counts))
    assert (state.hand, state.deal) == (2, 1)


def test_the_card_count_is_accepted_on_any_deal():
    assert play(game(), end_hand(20, None)).hand == 2


# -- §2: gains are definitive ----------------------------------------------------


def test_gains_are_added_the_moment_they_are_acquired_not_at_the_end_of_the_hand():
    state = play(game(), announce(ronda(A)), missa(B), hit(A, 1), chain_end())
    assert state.scores == (2, 1)
    assert state.hand == 1


def test_gains_of_a_hand_stay_after_the_hand_ends():
    state = play(game(), missa(A), end_hand(10, None))
    assert state.scores == (1, 10)


# -- §6: the card count ---------------------------------------------------------------------


def test_twenty_cards_are_worth_nothing():
    assert scores_after(end_hand(20, None)) == [0, 0]


def test_each_card_beyond_twenty_is_worth_one_point():
    assert scores_after(end_hand(23, None)) == [3, 0]


def test_below_twenty_nothing_is_scored_and_nothing_is_lost():
    assert scores_after(missa(A), end_hand(19, None)) == [1, 1]


def test_the_other_side_counts_forty_minus_the_given_count():
    assert scores_after(end_hand(12, None)) == [0, 8]
    assert scores_after(end_hand(None, 12)) == [8, 0]


def test_forty_cards_are_worth_twenty():
    assert scores_after(end_hand(40, None)) == [20, 0]


def test_with_four_players_a_team_counts_beyond_twenty():
    assert scores_after(end_hand(None, 26), players=4) == [0, 6]


def test_with_three_players_each_card_beyond_thirteen_is_worth_one_point():
    assert scores_after(end_hand(14, 14, None), players=3) == [1, 1, 0]


def test_with_three_players_the_third_count_is_forty_minus_the_two_given():
    assert scores_after(end_hand(None, 10, 10), players=3) == [7, 0, 0]


def test_with_three_players_every_side_over_thirteen_scores_in_one_gain():
    state = play(game(3), end_hand(15, 16, None))
    assert gains(state) == [("cards", [2, 3, 0])]


def test_with_three_players_thirteen_cards_are_worth_nothing():
    assert scores_after(end_hand(13, 13, None), players=3) == [0, 0, 1]


# -- §6: the target ----------------------------------------------------------------------------


def test_the_game_stops_as_soon_as_a_side_reaches_thirty_three_alone_in_the_lead():
    state = play(game(), adjust(A, 32), missa(A))
    assert state.finished
    assert state.winner == A


def test_a_side_below_the_target_does_not_win():
    state = play(game(), adjust(A, 32))
    assert not state.finished
    assert state.winner is None


def test_the_game_stops_in_the_middle_of_a_hand():
    state = play(game(), adjust(B, 30), hit(A, 1), hit(B, 5))
    assert state.chain is not None
    assert play(state, chain_end()).finished


def test_when_the_game_stops_mid_hand_the_card_bonus_is_not_counted():
    state = play(game(), adjust(A, 32), missa(A))
    refused(state, end_hand(30, None))
    assert state.scores == (33, 0)


def test_a_missa_that_stops_a_chain_whose_hit_wins_comes_after_the_end():
    """The missa stops the other side's chain: its hit is counted first,
    wins, and the missa's own point is never added (a tie avoided is not a
    tie): the note says why the missa gave nothing."""
    state = play(game(), adjust(A, 28), adjust(B, 32), hit(B, 1), hit(A, 5), missa(B))
    assert state.finished and state.winner == A
    assert state.scores == (33, 32)
    assert [g.kind for g in state.gains] == ["hit"]
    assert state.notes == ("missa_after_end",)


def test_a_count_that_stops_a_chain_whose_hit_wins_comes_after_the_end():
    state = play(game(), adjust(A, 28), *next_deals(5), hit(B, 1), hit(A, 5),
                 end_hand(10, None))
    assert state.finished and state.scores == (33, 0)
    assert state.notes == ("cards_after_end",)


def test_a_missa_after_a_chain_that_does_not_win_counts_with_no_note():
    state = play(game(), adjust(A, 20), hit(B, 1), hit(A, 5), missa(B))
    assert state.scores == (25, 1) and not state.finished
    assert "missa_after_end" not in state.notes


def test_every_event_is_refused_once_the_game_is_over():
    state = play(game(), adjust(B, 33))
    for event in (missa(A), hit(A, 1), announce(ronda(A)), adjust(A, 1), next_deal(),
                  end_hand(20, None)):
        refused(state, event)


def test_a_tie_in_the_lead_at_the_target_goes_on():
    state = play(game(), adjust(A, 32), adjust(B, 32), announce(ronda(A, 5), ronda(B, 5)))
    assert state.scores == (33, 33)
    assert not state.finished


def tied_at_34(players=2):
    """A and B tied in the lead at 34, through two shared Ronda pools."""
    tie = announce(ronda(A, 5), ronda(B, 5))
    return play(game(players), adjust(A, 32), adjust(B, 32), tie, next_deal(), tie)


def test_a_tie_above_the_target_goes_on():
    state = tied_at_34()
    assert state.scores == (34, 34)
    assert not state.finished


def test_a_tie_goes_on_until_one_side_is_ahead():
    state = play(tied_at_34(), missa(B))
    assert state.finished
    assert state.winner == B


def test_with_three_sides_a_side_at_the_target_behind_others_does_not_win():
    state = play(tied_at_34(players=3), adjust(C, 33))
    assert state.scores == (34, 34, 33)
    assert not state.finished
    state = play(state, adjust(C, 2))
    assert state.finished and state.winner == C


def test_a_shared_pool_is_one_gain_the_target_is_checked_after_all_of_it():
    # If A's share were checked before B's, A would lead 33 to 32 alone.
    state = play(game(), adjust(A, 32), adjust(B, 32), announce(ronda(A, 5), ronda(B, 5)))
    assert not state.finished


def test_a_three_side_card_count_is_one_gain_the_target_is_checked_after_all_of_it():
    state = play(game(3), adjust(A, 31), adjust(B, 30), end_hand(15, 16, None))
    assert state.scores == (33, 33, 0)
    assert not state.finished


def test_a_manual_correction_is_a_gain_checked_against_the_target():
    state = play(game(), adjust(A, 33))
    assert state.finished and state.winner == A


def test_a_correction_down_can_leave_a_side_alone_in_the_lead_at_the_target():
    state = play(tied_at_34(), adjust(B, -1))
    assert state.finished and state.winner == A


def test_a_correction_can_take_a_score_below_zero():
    assert scores_after(adjust(A, -5)) == [-5, 0]


def test_the_score_is_checked_after_every_gain_within_one_event():
    # B's missa first stops A's chain (A reaches 33 alone): B's missa is not counted.
    state = play(game(), adjust(A, 32), hit(A, 1), missa(B))
    assert state.finished and state.winner == A
    assert state.scores == (33, 0)


def test_a_gain_that_ends_the_game_in_a_new_deal_leaves_the_deal_as_it_was():
    state = play(game(), adjust(A, 32), hit(A, 1), next_deal())
    assert state.finished
    assert state.deal == 1


def test_a_gain_that_ends_the_game_at_the_card_count_leaves_the_hand_as_it_was():
    state = play(game(), adjust(A, 30), end_hand(25, None))
    assert state.finished
    assert (state.hand, state.deal) == (1, 1)


def test_a_chain_that_ends_the_game_at_the_card_count_leaves_out_the_card_bonus():
    state = play(game(), adjust(B, 32), hit(B, 1), end_hand(None, 30))
    assert state.scores == (0, 33)
    assert state.hand == 1


def test_a_finished_game_awaits_no_reveal():
    state = play(game(), adjust(A, 32), announce(ronda(A), ronda(B)), missa(A))
    assert state.finished
    assert not state.awaiting_reveal


def test_an_announcement_can_end_the_game():
    state = play(game(), adjust(B, 28), announce(ronda(A, 2), tringa(B)))
    assert state.finished and state.winner == B


def test_a_revealed_pool_can_end_the_game():
    state = play(game(), adjust(A, 31), announce(ronda(A), ronda(B)), reveal(12, 1))
    assert state.finished and state.winner == A


# -- §6: stop at the end of the hand -------------------------------------------------------------


def test_at_the_end_of_the_hand_the_target_waits_for_the_card_count():
    state = play(game(stop="end_of_hand"), adjust(A, 35), missa(A))
    assert state.scores == (36, 0)
    assert not state.finished


def test_at_the_end_of_the_hand_the_card_bonus_is_counted_before_the_check():
    state = play(game(stop="end_of_hand"), adjust(A, 30), end_hand(25, None))
    assert state.finished and state.winner == A
    assert state.scores == (35, 0)


def test_at_the_end_of_the_hand_the_card_bonus_can_overtake_the_leader():
    state = play(game(stop="end_of_hand"), adjust(A, 34), adjust(B, 30), end_hand(None, 26))
    assert state.finished and state.winner == B


def test_at_the_end_of_the_hand_a_tie_in_the_lead_goes_on_to_the_next_hand():
    state = play(game(stop="end_of_hand"), adjust(A, 34), adjust(B, 34), end_hand(20, None))
    assert not state.finished
    assert state.hand == 2


def test_at_the_end_of_the_hand_a_side_below_the_target_does_not_win():
    state = play(game(stop="end_of_hand"), adjust(A, 10), end_hand(25, None))
    assert not state.finished


def test_at_the_end_of_the_hand_a_finished_game_keeps_its_hand_number():
    state = play(game(stop="end_of_hand"), adjust(A, 40), end_hand(20, None))
    assert state.finished
    assert state.hand == 1
