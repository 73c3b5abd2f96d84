"""BAREME.md §3 (the hit chain: Bount, Khamsa, Âachra) and §4 (the missa),
with the API's state-machine rules for `hit`, `chain_end` and `missa`."""

import pytest

from support.engine import (
    A,
    B,
    C,
    adjust,
    announce,
    chain,
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
)

# -- §3: what a chain is worth ------------------------------------------------


def test_capturing_the_card_just_played_is_a_hit_worth_one():
    assert scores_after(hit(A, 1), chain_end()) == [1, 0]


def test_a_hit_is_not_scored_while_its_chain_is_open():
    state = play(game(), hit(A, 1))
    assert state.scores == (0, 0)
    assert chain(state) == (A, 1)


def test_the_third_copy_makes_the_chain_worth_five():
    state = play(game(), hit(A, 1), hit(B, 5))
    assert chain(state) == (B, 5)
    assert play(state, chain_end()).scores == (0, 5)


def test_the_fourth_copy_makes_the_chain_worth_ten():
    assert scores_after(hit(A, 1), hit(B, 5), hit(A, 10)) == [10, 0]


def test_only_the_last_hit_of_a_chain_scores():
    assert scores_after(hit(B, 1), hit(A, 5), chain_end()) == [5, 0]


def test_a_chain_of_ten_scores_ten_never_the_sum():
    state = play(game(), hit(B, 1), hit(A, 5), hit(B, 10))
    assert state.scores == (0, 10)
    assert gains(state) == [("hit", [0, 10])]


def test_a_chain_is_one_gain_for_its_last_player():
    state = play(game(), hit(A, 1), hit(B, 5), chain_end())
    assert gains(state) == [("hit", [0, 5])]


# -- §3: when the gain is acquired --------------------------------------------


def test_the_chain_is_acquired_when_the_next_player_plays_another_value():
    state = play(game(), hit(A, 1), chain_end())
    assert state.scores == (1, 0)
    assert state.chain is None


def test_a_new_deal_stops_the_chain_and_scores_it():
    state = play(game(), hit(A, 1), hit(B, 5), next_deal())
    assert state.scores == (0, 5)
    assert state.chain is None
    assert state.deal == 2


def test_the_end_of_the_hand_stops_the_chain_and_scores_it():
    state = play(game(), hit(B, 1), end_hand(20, None))
    assert state.scores == (0, 1)
    assert state.chain is None


def test_the_end_of_the_hand_scores_the_chain_before_the_card_bonus():
    state = play(game(), hit(B, 1), end_hand(25, None))
    assert gains(state) == [("hit", [0, 1]), ("cards", [5, 0])]


def test_the_fourth_copy_is_acquired_at_once_and_closes_the_chain():
    state = play(game(), hit(A, 1), hit(B, 5), hit(A, 10))
    assert state.chain is None
    refused(state, chain_end())


def test_a_new_bount_stops_the_open_chain_and_opens_another():
    state = play(game(), hit(A, 1), hit(B, 1))
    assert state.scores == (1, 0)
    assert chain(state) == (B, 1)


def test_a_new_bount_after_a_khamsa_scores_the_khamsa():
    state = play(game(), hit(A, 1), hit(B, 5), hit(A, 1))
    assert state.scores == (0, 5)
    assert chain(state) == (A, 1)


def test_a_reveal_leaves_the_chain_open():
    state = play(game(), announce(ronda(A), ronda(B)), hit(A, 1), reveal(7, 5))
    assert chain(state) == (A, 1)
    assert state.scores == (2, 0)


def test_an_adjust_leaves_the_chain_open():
    state = play(game(), hit(A, 1), adjust(B, 3))
    assert chain(state) == (A, 1)
    assert state.scores == (0, 3)


# -- §3: each step follows the one before it -----------------------------------


def test_each_step_of_a_chain_is_made_by_another_side_than_the_step_before():
    refused(play(game(), hit(A, 1)), hit(A, 5))


def test_the_ten_is_made_by_another_side_than_the_five():
    refused(play(game(), hit(A, 1), hit(B, 5)), hit(B, 10))


def test_a_five_needs_an_open_bount():
    refused(game(), hit(A, 5))


def test_a_ten_needs_an_open_five():
    refused(play(game(), hit(A, 1)), hit(B, 10))


def test_a_five_cannot_follow_a_closed_chain():
    refused(play(game(), hit(A, 1), chain_end()), hit(B, 5))


def test_a_chain_cannot_be_ended_when_none_is_open():
    refused(game(), chain_end())


def test_a_new_deal_leaves_no_chain_to_follow():
    refused(play(game(), hit(A, 1), next_deal()), hit(B, 5))


def test_a_chain_can_come_back_to_the_side_that_opened_it():
    # Only the step before counts: A, B, A is a chain (two players, or two teams).
    assert scores_after(hit(A, 1), hit(B, 5), hit(A, 10)) == [10, 0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_chain_runs_the_same_with_every_number_of_players(players):
    last = C if players == 3 else A
    state = play(game(players), hit(A, 1), hit(B, 5), hit(last, 10))
    expected = [0] * len(state.scores)
    expected[last] = 10
    assert list(state.scores) == expected


def test_with_three_players_only_the_last_of_three_sides_scores():
    state = play(game(3), hit(A, 1), hit(B, 5), chain_end())
    assert state.scores == (0, 5, 0)


def test_with_four_players_the_chain_scores_for_the_last_players_team():
    state = play(game(4), hit(B, 1), hit(A, 5), chain_end())
    assert state.scores == (5, 0)


# -- §3: the missa added to the chain's last hit -------------------------------


def test_a_bount_that_clears_the_table_is_two_in_one_gain():
    state = play(game(), hit(A, 1), missa(A))
    assert state.scores == (2, 0)
    assert gains(state) == [("hit_missa", [2, 0])]
    assert state.chain is None


def test_a_khamsa_that_clears_the_table_is_six_in_one_gain():
    state = play(game(), hit(A, 1), hit(B, 5), missa(B))
    assert state.scores == (0, 6)
    assert gains(state) == [("hit_missa", [0, 6])]


def test_an_aachra_that_clears_the_table_is_eleven_the_ten_then_the_missa():
    after_ten = play(game(), hit(A, 1), hit(B, 5), hit(A, 10))
    assert gains(after_ten) == [("hit", [10, 0])]
    after_missa = play(after_ten, missa(A))
    assert after_missa.scores == (11, 0)
    assert gains(after_missa) == [("missa", [1, 0])]


def test_a_missa_by_another_side_stops_the_chain_then_scores_the_missa():
    state = play(game(), hit(B, 1), missa(A))
    assert state.scores == (1, 1)
    assert gains(state) == [("hit", [0, 1]), ("missa", [1, 0])]
    assert state.chain is None


def test_a_chain_ended_by_the_hands_last_card_still_scores_its_hit():
    state = play(game(), hit(A, 1), missa(A, last_card=True))
    assert state.scores == (1, 0)
    assert state.chain is None


def test_a_khamsa_ended_by_the_hands_last_card_scores_five_not_six():
    assert scores_after(hit(A, 1), hit(B, 5), missa(B, last_card=True)) == [0, 5]


def test_a_chain_stopped_by_the_other_sides_last_card_missa_still_scores():
    state = play(game(), hit(B, 1), missa(A, last_card=True))
    assert state.scores == (0, 1)
    assert gains(state) == [("hit", [0, 1])]


# -- §4: the missa ---------------------------------------------------------------


def test_clearing_the_table_scores_one_at_once():
    state = play(game(), missa(B))
    assert state.scores == (0, 1)
    assert gains(state) == [("missa", [0, 1])]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_missa_scores_for_its_side_with_every_number_of_players(players):
    state = play(game(players), missa(B))
    assert state.scores[B] == 1 and sum(state.scores) == 1


def test_a_missa_with_the_hands_very_last_card_scores_nothing():
    state = play(game(), *next_deals(5), missa(A, last_card=True))
    assert state.scores == (0, 0)


def test_in_appli_a_missa_of_the_last_deal_before_its_last_card_scores():
    assert scores_after(*next_deals(5), missa(A), players=2) == [1, 0]


def test_every_missa_scores_one_each_time():
    assert scores_after(missa(A), missa(B), missa(A)) == [2, 1]
