"""BAREME.md §7: every house rule, one value at a time, changes exactly what it
says. The presets are checked against the §7 table column by column."""

import pytest

from scorekeeper.engine import BUILT_IN_PRESETS, recorded_event, replay, rules_from_spec, to_dict
from support.engine import (
    A,
    B,
    C,
    adjust,
    announce,
    at_last_deal,
    chain,
    chain_end,
    dealer_last_trick,
    double_ronda,
    end_hand,
    gains,
    game,
    hidden_ronda,
    hit,
    invalid,
    missa,
    next_deal,
    next_deals,
    play,
    refused,
    reveal,
    ronda,
    scores_after,
    setup,
    tringa,
)

# -- the presets are the §7 table -----------------------------------------------------

APPLI_COLUMN = {
    "target": 33, "stop": "immediate", "ronda": 1, "double_ronda": 2, "tringa": 5,
    "tringa_contest": "higher", "missa": 1, "hits": (1, 5, 10), "missa_with_hit": True,
    "missa_exclusion": "last_card", "card_threshold": 20, "card_threshold_3": 13,
    "hidden_ronda_penalty": 0, "dealer_last_trick": 0, "four_card_first_deal": False,
    "chain_with_two_players": True,
}
CLASSIQUE_COLUMN = {
    **APPLI_COLUMN,
    "target": 41, "tringa": 3, "tringa_contest": "lower", "missa_exclusion": "last_deal",
    "hidden_ronda_penalty": 5, "dealer_last_trick": 5, "four_card_first_deal": True,
}


@pytest.mark.parametrize("name, column", [("appli", APPLI_COLUMN), ("classique", CLASSIQUE_COLUMN)])
def test_each_preset_has_the_values_of_its_column_in_the_table(name, column):
    rules = BUILT_IN_PRESETS[name]
    assert {key: getattr(rules, key) for key in column} == column


def test_appli_is_the_default_preset():
    assert rules_from_spec(None) == BUILT_IN_PRESETS["appli"]
    assert rules_from_spec({}).preset == "appli"


def test_a_single_rule_overrides_the_preset_and_keeps_the_rest():
    rules = rules_from_spec({"preset": "classique", "tringa": 5})
    assert rules.tringa == 5
    assert rules.target == 41 and rules.tringa_contest == "lower"


# -- target -----------------------------------------------------------------------------


@pytest.mark.parametrize("target", [21, 25, 31, 33, 41])
def test_the_game_ends_at_the_target_and_not_one_point_before(target):
    before = play(game(target=target), adjust(A, target - 1))
    assert not before.finished
    assert play(before, missa(A)).finished


def test_classique_plays_to_forty_one():
    state = play(game(preset="classique"), adjust(A, 40))
    assert not state.finished
    assert play(state, missa(A)).winner == A


# -- stop -------------------------------------------------------------------------------


def test_stop_immediate_ends_the_game_in_the_middle_of_a_hand():
    assert play(game(stop="immediate"), adjust(A, 33)).finished


def test_stop_at_the_end_of_the_hand_waits_for_the_card_count():
    state = play(game(stop="end_of_hand"), adjust(A, 33))
    assert not state.finished
    assert play(state, end_hand(20, None)).finished


# -- announcement values ---------------------------------------------------------------


def test_the_ronda_value_is_what_a_ronda_scores():
    assert scores_after(announce(ronda(A)), ronda=3) == [3, 0]


def test_the_ronda_value_feeds_the_pool():
    assert scores_after(announce(ronda(A), tringa(B)), ronda=3) == [0, 8]


def test_the_double_ronda_value_is_what_a_double_ronda_scores():
    state = play(game(4, preset="classique", double_ronda=4), announce(double_ronda(A)))
    assert state.scores == (4, 0)


def test_the_tringa_value_is_what_a_tringa_scores():
    assert scores_after(announce(tringa(A)), tringa=7) == [7, 0]


def test_classique_tringa_is_worth_three():
    assert scores_after(announce(tringa(A)), preset="classique") == [3, 0]


def test_an_announcement_worth_nothing_scores_nothing():
    state = play(game(ronda=0), announce(ronda(A)))
    assert state.scores == (0, 0)
    assert gains(state) == []


# -- Tringa against Tringa ---------------------------------------------------------------


def test_with_higher_the_higher_tringa_wins():
    assert scores_after(announce(tringa(A, 3), tringa(B, 11)), tringa_contest="higher") == [0, 10]


def test_with_lower_the_lower_tringa_wins():
    assert scores_after(announce(tringa(A, 3), tringa(B, 11)), tringa_contest="lower") == [10, 0]


def test_with_lower_a_team_is_ranked_by_its_lowest_tringa():
    state = play(game(4, tringa_contest="lower"),
                 announce(tringa(A, 2), tringa(A, 10), tringa(B, 5)))
    assert state.scores == (15, 0)


def test_with_lower_a_revealed_lower_tringa_wins():
    state = play(game(tringa_contest="lower"), announce(tringa(A), tringa(B)), reveal(12, 1))
    assert state.scores == (0, 10)


def test_with_lower_rondas_still_go_to_the_highest_pair():
    assert scores_after(announce(ronda(A, 3), ronda(B, 11)), tringa_contest="lower") == [0, 2]


def test_with_lower_equal_tringas_still_share():
    assert scores_after(announce(tringa(A, 6), tringa(B, 6)), tringa_contest="lower") == [5, 5]


# -- missa value ------------------------------------------------------------------------


def test_the_missa_value_is_what_a_missa_scores():
    assert scores_after(missa(A), missa=2) == [2, 0]


def test_the_missa_value_is_added_to_the_chains_last_hit():
    assert scores_after(hit(A, 1), missa(A), missa=2) == [3, 0]


def test_a_missa_worth_nothing_leaves_the_chain_its_own_value():
    assert scores_after(hit(A, 1), hit(B, 5), missa(B), missa=0) == [0, 5]


# -- hits 1/5/10 or 1/6/15 -----------------------------------------------------------------


def test_with_hits_one_six_fifteen_a_khamsa_scores_six():
    assert scores_after(hit(A, 1), hit(B, 6), chain_end(), hits=[1, 6, 15]) == [0, 6]


def test_with_hits_one_six_fifteen_an_aachra_scores_fifteen_at_once():
    state = play(game(hits=[1, 6, 15]), hit(A, 1), hit(B, 6), hit(A, 15))
    assert state.scores == (15, 0)
    assert state.chain is None


def test_with_hits_one_six_fifteen_a_khamsa_that_clears_the_table_scores_seven():
    assert scores_after(hit(A, 1), hit(B, 6), missa(B), hits=[1, 6, 15]) == [0, 7]


def test_with_hits_one_six_fifteen_a_hit_of_five_is_not_a_hit():
    invalid(play(game(hits=[1, 6, 15]), hit(A, 1)), hit(B, 5))


def test_with_hits_one_six_fifteen_the_bount_is_still_one():
    assert scores_after(hit(A, 1), chain_end(), hits=[1, 6, 15]) == [1, 0]


def test_with_hits_one_five_ten_a_hit_of_six_is_not_a_hit():
    invalid(play(game(), hit(A, 1)), hit(B, 6))


# -- missa added to the chain's last hit ----------------------------------------------------


def test_with_missa_with_hit_the_chains_last_hit_and_its_missa_are_one_gain():
    state = play(game(missa_with_hit=True), hit(A, 1), missa(A))
    assert gains(state) == [("hit_missa", [2, 0])]


def test_without_missa_with_hit_a_chain_that_clears_the_table_scores_only_its_hit():
    state = play(game(missa_with_hit=False), hit(A, 1), hit(B, 5), missa(B))
    assert state.scores == (0, 5)
    assert gains(state) == [("hit", [0, 5])]


def test_without_missa_with_hit_a_missa_without_a_chain_still_scores():
    assert scores_after(missa(A), missa_with_hit=False) == [1, 0]


def test_without_missa_with_hit_a_missa_that_stops_the_other_sides_chain_still_scores():
    assert scores_after(hit(B, 1), missa(A), missa_with_hit=False) == [1, 1]


# -- no missa point with the hand's last card (or its last deal) ----------------------------


def test_with_last_card_exclusion_the_last_card_missa_scores_nothing():
    assert scores_after(missa(A, last_card=True), missa_exclusion="last_card") == [0, 0]


def test_with_last_card_exclusion_another_missa_of_the_last_deal_scores():
    assert scores_after(*next_deals(5), missa(A), missa_exclusion="last_card") == [1, 0]


def test_with_last_deal_exclusion_any_missa_of_the_last_deal_scores_nothing():
    assert scores_after(*next_deals(5), missa(A), missa_exclusion="last_deal") == [0, 0]


@pytest.mark.parametrize("players, deals", [(2, 6), (3, 4), (4, 3)])
def test_with_last_deal_exclusion_the_deal_before_the_last_still_scores(players, deals):
    state = play(game(players, missa_exclusion="last_deal"), *next_deals(deals - 2), missa(A))
    assert state.scores[A] == 1
    state = play(state, next_deal(), missa(A))
    assert state.scores[A] == 1


def test_with_last_deal_exclusion_a_chain_ended_in_the_last_deal_keeps_its_hit():
    state = play(game(preset="classique"), *next_deals(5), hit(A, 1), hit(B, 5), missa(B))
    assert state.scores == (0, 5)


def test_with_no_exclusion_the_last_card_missa_scores():
    assert scores_after(missa(A, last_card=True), missa_exclusion="none") == [1, 0]


def test_with_no_exclusion_a_chain_ended_by_the_last_card_scores_its_missa_too():
    assert scores_after(hit(A, 1), missa(A, last_card=True), missa_exclusion="none") == [2, 0]


# -- the chain with two players ----------------------------------------------------------------


def test_with_chains_for_two_players_a_khamsa_follows_a_bount():
    assert scores_after(hit(A, 1), hit(B, 5), chain_end(), chain_with_two_players=True) == [0, 5]


def test_without_chains_for_two_players_a_chain_stops_at_its_bount():
    state = play(game(2, chain_with_two_players=False), hit(A, 1))
    refused(state, hit(B, 5))
    assert play(state, chain_end()).scores == (1, 0)


@pytest.mark.parametrize("players", [3, 4])
def test_without_chains_for_two_players_more_players_still_chain(players):
    state = play(game(players, chain_with_two_players=False), hit(A, 1), hit(B, 5))
    assert chain(state) == (B, 5)


# -- card bonus threshold ------------------------------------------------------------------------


def test_the_card_threshold_sets_where_the_bonus_starts():
    assert scores_after(end_hand(25, None), card_threshold=15) == [10, 0]


def test_a_low_card_threshold_lets_both_sides_score_in_one_gain():
    state = play(game(card_threshold=10), end_hand(25, None))
    assert gains(state) == [("cards", [15, 5])]


def test_a_card_threshold_of_forty_gives_no_bonus():
    assert scores_after(end_hand(40, None), card_threshold=40) == [0, 0]


def test_the_two_side_threshold_does_not_change_three_sides():
    assert scores_after(end_hand(20, 10, None), players=3, card_threshold=5) == [7, 0, 0]


def test_the_three_side_threshold_sets_where_their_bonus_starts():
    state = play(game(3, card_threshold_3=10), end_hand(15, 15, None))
    assert gains(state) == [("cards", [5, 5, 0])]


def test_the_three_side_threshold_does_not_change_two_sides():
    assert scores_after(end_hand(25, None), card_threshold_3=5) == [5, 0]


@pytest.mark.parametrize("players", [2, 4])
def test_four_players_count_with_the_two_side_threshold(players):
    assert scores_after(end_hand(25, None), players=players, card_threshold=22) == [3, 0]


# -- hidden Ronda found out --------------------------------------------------------------------


def test_without_a_hidden_ronda_penalty_there_is_nothing_to_enter():
    refused(game(), hidden_ronda(A))


@pytest.mark.parametrize("penalty", [1, 5])
def test_a_hidden_ronda_found_out_gives_the_penalty_to_the_opponents(penalty):
    state = play(game(hidden_ronda_penalty=penalty), hidden_ronda(A))
    assert state.scores == (0, penalty)
    assert gains(state) == [("hidden_ronda", [0, penalty])]


def test_classique_hidden_ronda_penalty_is_five():
    assert scores_after(hidden_ronda(B), preset="classique") == [5, 0]


def test_with_three_sides_the_one_opponent_named_gets_the_penalty():
    # Seed 000: the 5 points go to the opponent holding the biggest Ronda.
    state = play(game(3, hidden_ronda_penalty=5), hidden_ronda(B, to=C))
    assert gains(state) == [("hidden_ronda", [0, 0, 5])]
    assert play(game(3, hidden_ronda_penalty=5), hidden_ronda(C, to=A)).scores == (5, 0, 0)


def test_with_three_sides_the_receiver_must_be_named():
    assert "to" in invalid(game(3, hidden_ronda_penalty=5), hidden_ronda(B))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_side_that_hid_it_cannot_receive_the_penalty(players):
    invalid(game(players, hidden_ronda_penalty=5), hidden_ronda(A, to=A))


@pytest.mark.parametrize("players", [2, 4])
def test_with_two_sides_the_receiver_may_be_named_and_is_the_other_side(players):
    named = play(game(players, hidden_ronda_penalty=5), hidden_ronda(A, to=B))
    unnamed = play(game(players, hidden_ronda_penalty=5), hidden_ronda(A))
    assert named.scores == unnamed.scores == (0, 5)
    invalid(game(players, hidden_ronda_penalty=5), hidden_ronda(A, to=2))


def test_a_missing_receiver_is_a_400_before_the_rule_being_off_is_a_409():
    invalid(game(3), hidden_ronda(B))


def test_a_three_side_event_stored_without_a_receiver_gives_each_opponent_the_penalty():
    # Stored before `to` existed: its meaning then, on every replay.
    setup = game(3, hidden_ronda_penalty=5).setup
    event = recorded_event({"type": "hidden_ronda", "side": B}, setup)
    assert to_dict(event) == {"type": "hidden_ronda", "side": B}  # kept as it was stored
    assert replay(setup, [event]).scores == (5, 0, 5)


def test_a_hidden_ronda_penalty_is_a_gain_checked_against_the_target():
    state = play(game(hidden_ronda_penalty=5), adjust(B, 30), hidden_ronda(A))
    assert state.finished and state.winner == B


def test_a_hidden_ronda_penalty_leaves_the_chain_open():
    state = play(game(hidden_ronda_penalty=1), hit(A, 1), hidden_ronda(A))
    assert chain(state) == (A, 1)


# -- the dealer's last trick ---------------------------------------------------------------------


def test_without_the_dealers_last_trick_there_is_nothing_to_enter():
    refused(game(), dealer_last_trick("twelve"))


def test_the_dealer_taking_the_last_trick_with_a_twelve_scores_for_the_dealer():
    state = play(at_last_deal(game(dealer_last_trick=5)), dealer_last_trick("twelve"))
    assert state.scores == (5, 0)  # side A deals the first hand


@pytest.mark.parametrize("outcome", ["one", "missed"])
def test_the_dealer_missing_the_last_trick_or_taking_it_with_a_one_scores_for_the_opponents(outcome):
    state = play(at_last_deal(game(dealer_last_trick=5)), dealer_last_trick(outcome))
    assert state.scores == (0, 5)


def test_the_dealers_last_trick_value_is_what_it_scores():
    state = play(at_last_deal(game(dealer_last_trick=2)), dealer_last_trick("twelve"))
    assert state.scores == (2, 0)


def test_the_dealers_last_trick_is_entered_once_per_hand():
    state = play(at_last_deal(game(preset="classique")), dealer_last_trick("twelve"))
    refused(state, dealer_last_trick("missed"))
    state = play(state, end_hand(20, None))
    state = play(at_last_deal(state), dealer_last_trick("twelve"))
    assert state.scores == (5, 5)  # the deal passed to side B in the second hand


def test_the_first_dealer_is_the_one_the_game_names():
    state = play(at_last_deal(game(first_dealer=B, dealer_last_trick=5)),
                 dealer_last_trick("twelve"))
    assert state.scores == (0, 5)


def test_with_three_sides_both_opponents_of_the_dealer_score_when_it_misses():
    state = play(game(3, dealer_last_trick=5), end_hand(14, 13, None))
    state = play(at_last_deal(state), dealer_last_trick("missed"))
    assert state.scores == (1 + 5, 0, 5)  # side B deals hand 2: A and C score


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_last_trick_is_refused_before_the_hands_last_deal(players):
    state = game(players, dealer_last_trick=5)
    for _ in range(state.setup.deals_per_hand - 1):
        sentence = refused(state, dealer_last_trick("twelve"))
        assert "last deal" in sentence
        state = play(state, next_deal())
    assert sum(play(state, dealer_last_trick("twelve")).scores) == 5


def test_a_last_trick_recorded_before_the_last_deal_keeps_the_meaning_it_had():
    # Earlier versions took it on any deal: a game's log may hold one on
    # deal 1, and its replay must give the score it gave then.
    rules = setup(dealer_last_trick=5)
    stored = [dealer_last_trick("one"), hit(A, 1), next_deal()]
    state = replay(rules, [recorded_event(event, rules) for event in stored])
    assert state.scores == (1, 5) and state.last_trick_done
    refused(state, dealer_last_trick("twelve"))  # still once a hand
    assert to_dict(recorded_event(stored[0], rules)) == stored[0]  # stored as it was


# -- first deal with four players --------------------------------------------------------------


def test_with_four_cards_on_the_first_deal_a_double_ronda_can_be_announced():
    state = play(game(4, four_card_first_deal=True), announce(double_ronda(A, 5), ronda(B, 4)))
    assert state.scores == (3, 0)


def test_with_three_cards_and_four_on_the_table_a_double_ronda_is_refused():
    refused(game(4, four_card_first_deal=False), announce(double_ronda(A)))


def test_four_cards_on_the_first_deal_do_not_change_the_number_of_deals():
    state = play(game(4, four_card_first_deal=True), *next_deals(2))
    refused(state, next_deal())


def test_four_cards_on_the_first_deal_bring_double_rondas_back_each_hand():
    state = play(game(4, preset="classique"), end_hand(20, None), announce(double_ronda(A)))
    assert state.scores == (2, 0)


# -- a game keeps its rules ---------------------------------------------------------------------


def test_a_game_keeps_the_rules_it_was_started_with():
    started = setup(target=21)
    assert started.rules.target == 21
    # Rules are frozen values: nothing can change a game's copy in place.
    with pytest.raises(AttributeError):
        started.rules.target = 33  # type: ignore[misc]
