"""The questions the scoreboard asks the engine, so that a button is off for
the engine's own reason: what each side needs to win under every stop rule,
why an event scored less than it might have, the rematch's set-up, and
whether a button's plain-data event would be taken. The board decides none
of it."""

from hypothesis import assume, given
from hypothesis import strategies as st

from scorekeeper.engine import State, parse_event, rematch, replay
from scorekeeper.engine.moves import (
    impossible_reveal,
    outcome_of,
    timeline,
    to_win,
)
from support.engine import (
    A,
    B,
    C,
    adjust,
    announce,
    chain_end,
    end_hand,
    game,
    hit,
    missa,
    next_deal,
    next_deals,
    play,
    ronda,
    tringa,
)


def needs(state):
    return [(w.points, w.tied, w.at_hand_end) for w in to_win(state)]


# -- what each side needs to win (§6) ------------------------------------------------------

def test_each_side_needs_the_distance_to_the_target():
    assert needs(play(game(), adjust(A, 21), adjust(B, 17))) == [(12, False, False),
                                                                  (16, False, False)]


def test_tied_at_the_target_one_more_point_wins():
    # Equal Rondas share the pool: both reach 33 in one gain, and the game goes on.
    state = play(game(), adjust(A, 32), adjust(B, 32), announce(ronda(A, 5), ronda(B, 5)))
    assert not state.finished and state.scores == (33, 33)
    assert needs(state) == [(1, True, False), (1, True, False)]


def test_a_side_behind_a_tie_at_the_target_must_pass_it():
    state = play(game(3), adjust(A, 32), adjust(B, 32), adjust(C, 10),
                 announce(ronda(A, 5), ronda(B, 5), ronda(C, 2)))
    assert state.scores == (33, 33, 10)
    assert needs(state)[C] == (24, False, False)


def test_stopping_at_the_end_of_the_hand_a_side_alone_ahead_needs_nothing_more():
    # 15 of 11, alone in the lead: it wins when the hand's cards are counted.
    state = play(game(target=11, stop="end_of_hand"), adjust(A, 15), adjust(B, 9))
    assert not state.finished
    assert needs(state) == [(0, False, True), (7, False, True)]
    assert play(state, end_hand(20, None)).winner == A


def test_stopping_at_the_end_of_the_hand_two_sides_level_above_it_are_tied():
    state = play(game(target=11, stop="end_of_hand"), adjust(A, 15), adjust(B, 15))
    assert needs(state) == [(1, True, True), (1, True, True)]


@given(st.lists(st.integers(-20, 45), min_size=2, max_size=3), st.integers(0, 2))
def test_the_points_needed_are_the_fewest_that_make_the_side_win(scores, side):
    """Against the engine's own target check: `points` more win, one fewer do not."""
    side %= len(scores)
    state = game(len(scores))
    for other, score in enumerate(scores):
        if score and not state.finished:
            state = play(state, adjust(other, score))
    assume(not state.finished)
    points = to_win(state)[side].points
    assert points >= 1
    if points <= 50:
        assert play(state, adjust(side, points)).winner == side
    if 1 < points <= 51:
        assert play(state, adjust(side, points - 1)).winner != side


# -- why an event scored less than it might have ------------------------------------------

def notes_of(state, *events):
    return [step.notes for step in timeline(state.setup, [
        parse_event(e, state.setup) for e in events])]


def test_a_missa_with_the_last_card_says_why_it_scored_nothing():
    assert notes_of(game(), missa(A, last_card=True)) == [("missa_last_card",)]


def test_classique_says_a_missa_in_the_last_deal_scores_nothing():
    events = next_deals(5) + [missa(A)]
    assert notes_of(game(preset="classique"), *events)[-1] == ("missa_last_deal",)


def test_a_hit_that_opens_a_chain_counts_when_it_stops():
    assert notes_of(game(), hit(A, 1)) == [("chain_open",)]


def test_a_hit_the_open_chain_went_on_past_says_so_at_once():
    """Seen at the table: the Bount still said "counts when the chain
    stops" under the Khamsa that took its place; it never will."""
    assert notes_of(game(), hit(A, 1), hit(B, 5)) == [("chain_passed",), ("chain_open",)]


def test_once_its_chain_has_stopped_a_hit_says_whether_it_was_counted():
    """Seen at the table: "Bount (1) · Nadia — counts when the chain stops",
    long after it had. A chain counts its last hit only: a hit it went on
    past says so, where "counted when the chain stopped" read as if its 5
    had scored beside the 10."""
    counted, passed = ("chain_counted",), ("chain_passed",)
    assert notes_of(game(), hit(A, 1), hit(B, 5), chain_end()) == [passed, counted, ()]
    assert notes_of(game(), hit(A, 1), hit(B, 5), hit(A, 10)) == [passed, passed, ()]
    assert notes_of(game(), hit(A, 1), next_deal()) == [counted, ()]
    assert notes_of(game(), hit(A, 1), hit(B, 5), next_deal()) == [passed, counted, ()]
    # Another side's 1 scores the chain and opens its own, which is still open.
    assert notes_of(game(), hit(A, 1), hit(B, 1)) == [counted, ("chain_open",)]


def test_a_chain_the_game_ended_before_says_it_was_never_counted():
    events = [adjust(B, 32), hit(A, 1), adjust(B, 1)]
    assert notes_of(game(), *events)[1:] == [("chain_lost",), ()]


def test_a_pool_that_waits_for_its_ranks_says_so():
    assert notes_of(game(), announce(ronda(A), ronda(B))) == [("awaiting_ranks",)]
    assert notes_of(game(), announce(ronda(A), tringa(B))) == [()]


def test_a_card_count_that_gives_no_bonus_says_so():
    assert notes_of(game(), end_hand(20, None)) == [("cards_none_over",)]
    assert notes_of(game(), end_hand(23, None)) == [()]


# -- the rematch -------------------------------------------------------------------------

def test_the_rematch_keeps_sides_and_rules_and_the_deal_passes_on():
    state = play(game(3, first_dealer=B, target=50), end_hand(14, 14, None),
                 end_hand(14, 14, None))
    assert state.hand == 3 and state.dealer == A
    setup = rematch(state)
    assert (setup.sides, setup.players, setup.rules) == (
        state.setup.sides, state.setup.players, state.setup.rules)
    assert setup.first_dealer == B  # who would have dealt hand 4


# -- a button's event, as plain data -------------------------------------------------------

def test_a_button_is_off_for_a_malformed_event_too():
    # One announcement per player: a second Ronda for one player's side is a 400.
    state = game()
    _, error = outcome_of(state, {"type": "announce", "announcements": [
        {"side": A, "kind": "ronda"}, {"side": A, "kind": "ronda"}]})
    assert error is not None and "A" in str(error)
    after, error = outcome_of(state, {"type": "missa", "side": A})
    assert error is None and after.scores == (1, 0)


# -- ranks no deck can hold (a mis-tap on the rank grid at the table) ----------------------

def reveal_data(*ranks):
    return {"type": "reveal", "ranks": list(ranks)}


def test_two_tringas_of_one_rank_cannot_be():
    state = play(game(), announce(tringa(A), tringa(B)))
    assert impossible_reveal(state, reveal_data(5, 5)) == (5, 2)  # six 5s
    assert impossible_reveal(state, reveal_data(5, 6)) is None


def test_three_rondas_of_one_rank_cannot_be_two_can():
    state = play(game(3), announce(ronda(A), ronda(B), ronda(C)))
    assert impossible_reveal(state, reveal_data(4, 4, 4)) == (4, 3)  # six 4s
    assert impossible_reveal(state, reveal_data(4, 4, 2)) is None  # four 4s: a tie
    two = play(game(), announce(ronda(A), ronda(B)))
    assert impossible_reveal(two, reveal_data(7, 7)) is None


def test_a_rank_the_announcement_already_gave_counts_too():
    state = play(game(3), announce(ronda(A, 4), ronda(B), ronda(C)))
    assert impossible_reveal(state, reveal_data(None, 4, 4)) == (4, 3)


def test_only_a_reveal_that_is_awaited_is_judged():
    assert impossible_reveal(game(), reveal_data(5, 5)) is None  # nothing awaits ranks
    state = play(game(), announce(tringa(A), tringa(B)))
    assert impossible_reveal(state, {"type": "missa", "side": 0}) is None
    assert impossible_reveal(state, reveal_data(5, "five")) is None  # the engine refuses it


def test_the_api_still_takes_what_the_board_asks_again():
    """API.md: the API does not check that announcements are possible; the
    engine scores a reveal of two Tringas of 5 as the tie it says."""
    state = play(game(), announce(tringa(A), tringa(B)))
    after, error = outcome_of(state, reveal_data(5, 5))
    assert error is None and after.scores == (5, 5)


# -- the hand's very last card (at the table its Missa was recorded again and again) --------

def last_card_done(*events):
    state = play(game(), *events)
    # The state carries it: a snapshot reads it back, a replay agrees.
    assert State.from_snapshot(state.snapshot(), state.setup).last_card == state.last_card
    assert replay(state.setup, [parse_event(e, state.setup) for e in events]) == state
    return state.last_card


def test_the_hands_last_card_missa_is_recorded_once_a_hand():
    assert not last_card_done(*next_deals(5))
    assert last_card_done(*next_deals(5), missa(B, last_card=True))
    assert last_card_done(*next_deals(5), missa(A, last_card=True), hit(B, 1))  # any side's
    assert not last_card_done(*next_deals(5), missa(A))  # an ordinary missa is no last card
    # The next hand has its own last card.
    assert not last_card_done(*next_deals(5), missa(B, last_card=True), end_hand(20, None))


def test_the_engine_still_takes_a_second_last_card_missa_as_stored_games_hold():
    """API.md: `last_card` is accepted on any deal, with no 409 for a second;
    a stored game with two replays to the scores it had (the second closes
    the chain it ends, scoring its hit)."""
    state = play(game(), *next_deals(5), missa(B, last_card=True), hit(A, 1),
                 missa(B, last_card=True))
    assert state.scores == (1, 0)
