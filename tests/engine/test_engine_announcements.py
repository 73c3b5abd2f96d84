"""BAREME.md §5 (announcements: Ronda, double Ronda, Tringa) and the API's
rules for `announce` and `reveal`."""

import pytest

from support.engine import (
    A,
    B,
    C,
    adjust,
    announce,
    chain,
    chain_end,
    double_ronda,
    end_hand,
    gains,
    game,
    hit,
    invalid,
    missa,
    next_deal,
    play,
    refused,
    reveal,
    ronda,
    scores_after,
    tringa,
)

# -- values ---------------------------------------------------------------------


def test_a_ronda_is_worth_one():
    assert scores_after(announce(ronda(A))) == [1, 0]


def test_a_tringa_is_worth_five():
    assert scores_after(announce(tringa(B))) == [0, 5]


def test_a_double_ronda_is_worth_two():
    state = play(game(4, preset="classique"), announce(double_ronda(A)))
    assert state.scores == (2, 0)


# -- timing -------------------------------------------------------------------------


def test_a_single_ronda_scores_at_once():
    state = play(game(), announce(ronda(A)))
    assert state.scores == (1, 0)
    assert not state.awaiting_reveal


def test_one_side_holding_the_only_tringa_scores_at_once_without_ranks():
    state = play(game(), announce(ronda(A), tringa(B)))
    assert state.scores == (0, 6)
    assert not state.awaiting_reveal


def test_rondas_against_rondas_wait_for_their_ranks():
    state = play(game(), announce(ronda(A), ronda(B)))
    assert state.scores == (0, 0)
    assert state.awaiting_reveal


def test_tringas_against_tringas_wait_for_their_ranks():
    state = play(game(), announce(tringa(A), tringa(B)))
    assert state.scores == (0, 0)
    assert state.awaiting_reveal


def test_ranks_given_with_the_announcements_are_revealed_at_once():
    state = play(game(), announce(ronda(A, 7), ronda(B, 5)))
    assert state.scores == (2, 0)
    assert not state.awaiting_reveal


def test_one_missing_rank_keeps_the_pool_waiting():
    state = play(game(), announce(ronda(A, 7), ronda(B)))
    assert state.scores == (0, 0)
    assert state.awaiting_reveal


# -- when: once per deal, at any moment of it (§5) ------------------------------------

def test_an_announcement_after_the_deals_first_hit_is_taken_and_the_hit_stays():
    # The first player took a card (a Bount) before the dealer announced his Ronda.
    state = play(game(), hit(A, 1), announce(ronda(B)))
    assert state.scores == (0, 1) and chain(state) == (A, 1)
    assert play(state, chain_end()).scores == (1, 1)


def test_an_announcement_after_the_deals_first_missa_is_taken_and_the_missa_stays():
    state = play(game(), missa(A), announce(tringa(B)))
    assert state.scores == (1, 5)


def test_a_late_announcement_contest_waits_for_its_ranks_like_any_other():
    state = play(game(), hit(A, 1), hit(B, 5), announce(ronda(A), ronda(B)))
    assert state.awaiting_reveal and state.scores == (0, 0) and chain(state) == (B, 5)
    refused(state, next_deal())
    assert play(state, reveal(7, 3)).scores == (2, 0)


def test_a_late_announcement_can_finish_the_game():
    state = play(game(), adjust(A, 32), hit(B, 1), announce(ronda(A)))
    assert state.finished and state.winner == A


def test_a_deals_announcements_are_made_together_once():
    refused(play(game(), announce(ronda(A))), announce(ronda(B)))


def test_a_deals_announcements_are_taken_once_even_late():
    refused(play(game(), hit(A, 1), announce(ronda(A)), missa(B)), announce(ronda(B)))


def test_the_next_deal_takes_announcements_again():
    state = play(game(), hit(A, 1), next_deal(), announce(ronda(B)))
    assert state.scores == (1, 1)


def test_the_next_hand_takes_announcements_again():
    state = play(game(), announce(ronda(A)), end_hand(20, None), announce(ronda(B)))
    assert state.scores == (1, 1)


# -- the best announcement takes the pool ---------------------------------------------


def test_a_tringa_takes_the_value_of_the_rondas():
    assert scores_after(announce(ronda(A), tringa(B))) == [0, 6]


def test_the_higher_ronda_takes_both_when_revealed():
    state = play(game(), announce(ronda(A), ronda(B)), reveal(7, 5))
    assert state.scores == (2, 0)
    assert gains(state) == [("ronda", [2, 0])]


def test_a_ronda_of_twelves_beats_a_ronda_of_tens():
    assert scores_after(announce(ronda(A, 10), ronda(B, 12))) == [0, 2]


def test_the_higher_tringa_takes_both_when_revealed():
    state = play(game(), announce(tringa(A), tringa(B)), reveal(3, 11))
    assert state.scores == (0, 10)


def test_the_pool_is_one_gain():
    state = play(game(), announce(ronda(A, 2), tringa(B)))
    assert gains(state) == [("tringa", [0, 6])]


# -- perfect ties --------------------------------------------------------------------------


def test_equal_rondas_share_the_pool():
    assert scores_after(announce(ronda(A, 5), ronda(B, 5))) == [1, 1]


def test_equal_tringas_share_the_pool():
    assert scores_after(announce(tringa(A, 4), tringa(B, 4))) == [5, 5]


def test_a_shared_pool_is_one_gain():
    state = play(game(), announce(ronda(A, 5), ronda(B, 5)))
    assert gains(state) == [("ronda", [1, 1])]


def test_three_players_two_equal_rondas_share_and_the_rounding_is_lost():
    state = play(game(3), announce(ronda(A, 4), ronda(B, 4), ronda(C, 2)))
    assert state.scores == (1, 1, 0)


def test_three_players_three_equal_rondas_share_one_each():
    assert scores_after(announce(ronda(A, 6), ronda(B, 6), ronda(C, 6)), players=3) == [1, 1, 1]


def test_three_players_equal_tringas_share_the_rondas_too_rounded_down():
    # Pool 5 + 5 + 1 = 11, shared by two: 5 each, 1 lost.
    state = play(game(3), announce(tringa(A, 7), tringa(B, 7), ronda(C, 12)))
    assert state.scores == (5, 5, 0)


def test_a_revealed_perfect_tie_shares_the_pool():
    state = play(game(3), announce(ronda(A), ronda(B), ronda(C)), reveal(3, 11, 11))
    assert state.scores == (0, 1, 1)


# -- partners (4 players) ----------------------------------------------------------------------


def test_partners_do_not_compete_their_best_announcement_represents_the_team():
    state = play(game(4), announce(ronda(A, 7), ronda(A, 3), ronda(B, 10)))
    assert state.scores == (0, 3)


def test_the_pool_holds_both_partners_announcements():
    state = play(game(4), announce(ronda(A, 7), ronda(A, 3), ronda(B, 5)))
    assert state.scores == (3, 0)


def test_a_teams_rondas_alone_score_at_once_without_ranks():
    state = play(game(4), announce(ronda(A), ronda(A)))
    assert state.scores == (2, 0)
    assert not state.awaiting_reveal


def test_a_team_holding_the_only_tringas_scores_at_once():
    state = play(game(4), announce(tringa(A), tringa(A), ronda(B)))
    assert state.scores == (11, 0)


def test_four_players_tie_on_the_best_pair_shares_the_pool_rounded_down():
    # BAREME §5: A1 Ronda of 5s, B1 Ronda of 5s, B2 Ronda of 2s: pool 3, A +1, B +1.
    state = play(game(4), announce(ronda(A, 5), ronda(B, 5), ronda(B, 2)))
    assert state.scores == (1, 1)


def test_a_team_of_two_tringas_is_ranked_by_its_best():
    state = play(game(4), announce(tringa(A, 2), tringa(A, 10), tringa(B, 7)))
    assert state.scores == (15, 0)


def test_a_teams_rank_is_known_only_when_each_partners_announcement_has_one():
    state = play(game(4), announce(ronda(A, 7), ronda(A), ronda(B, 5)))
    assert state.awaiting_reveal
    after = play(state, reveal(7, None))
    assert after.scores == (3, 0)


# -- the kind decides before the rank --------------------------------------------------------------


def test_any_tringa_beats_any_ronda_whatever_the_ranks():
    assert scores_after(announce(ronda(A, 12), tringa(B, 1))) == [0, 6]


def test_rondas_ranks_are_not_needed_when_a_single_side_has_tringas():
    state = play(game(3), announce(ronda(A), ronda(B), tringa(C)))
    assert state.scores == (0, 0, 7)


def test_only_the_tringas_ranks_are_needed_when_tringas_contest():
    state = play(game(4), announce(tringa(A, 3), ronda(A), tringa(B, 6)))
    assert not state.awaiting_reveal
    assert state.scores == (0, 11)


# -- double Ronda (the four-card hand) --------------------------------------------------------------


def test_a_double_ronda_is_ranked_by_its_higher_pair():
    state = play(game(4, preset="classique"), announce(double_ronda(A, 7), ronda(B, 10)))
    assert state.scores == (0, 3)


def test_a_double_ronda_beats_a_lower_single_ronda():
    state = play(game(4, preset="classique"), announce(double_ronda(A, 7), ronda(B, 6)))
    assert state.scores == (3, 0)


def test_a_double_ronda_and_a_single_ronda_of_the_same_rank_are_a_perfect_tie():
    state = play(game(4, preset="classique"), announce(double_ronda(A, 7), ronda(B, 7)))
    assert state.scores == (1, 1)


def test_a_tringa_beats_a_double_ronda():
    state = play(game(4, preset="classique"), announce(double_ronda(A, 12), tringa(B)))
    assert state.scores == (0, 5)  # classique: double Ronda 2 + Tringa 3


def test_a_double_ronda_is_refused_outside_a_four_card_hand():
    refused(game(4), announce(double_ronda(A)))  # appli deals 3 cards + 4 on the table


def test_a_double_ronda_is_refused_after_the_first_deal():
    refused(play(game(4, preset="classique"), next_deal()), announce(double_ronda(A)))


@pytest.mark.parametrize("players", [2, 3])
def test_a_double_ronda_is_refused_without_four_players(players):
    refused(game(players, preset="classique"), announce(double_ronda(A)))


# -- reveal ------------------------------------------------------------------------------------------


def test_a_reveal_must_give_every_missing_rank():
    invalid(play(game(), announce(ronda(A), ronda(B))), reveal(3, None))


def test_a_reveal_need_not_repeat_a_rank_already_known():
    state = play(game(), announce(ronda(A, 3), ronda(B)), reveal(None, 2))
    assert state.scores == (2, 0)


def test_a_rank_given_by_a_reveal_replaces_the_announced_one():
    state = play(game(), announce(ronda(A, 7), ronda(B)), reveal(3, 5))
    assert state.scores == (0, 2)


def test_a_reveal_ignores_the_sides_that_do_not_contend():
    state = play(game(3), announce(tringa(A), tringa(B), ronda(C)), reveal(5, 4, 12))
    assert state.scores == (11, 0, 0)


def test_a_reveal_when_nothing_awaits_is_refused():
    refused(game(), reveal(3, 5))
    refused(play(game(), announce(ronda(A, 3), ronda(B, 5))), reveal(3, 5))


def test_a_second_reveal_is_refused():
    state = play(game(), announce(ronda(A), ronda(B)), reveal(3, 5))
    refused(state, reveal(3, 5))


def test_the_deal_cannot_end_before_the_ranks_are_revealed():
    state = play(game(), announce(ronda(A), ronda(B)))
    refused(state, next_deal())
    refused(state, end_hand(20, None))


def test_play_goes_on_while_the_ranks_are_awaited():
    state = play(game(), announce(ronda(A), ronda(B)), hit(B, 1), missa(B))
    assert state.scores == (0, 2)
    assert state.awaiting_reveal
