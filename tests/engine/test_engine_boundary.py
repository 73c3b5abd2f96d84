"""The engine's edges: the input it refuses as malformed (InvalidInput, a
400, whatever the game's state), and the plain forms it stores (events'
`to_dict`, states' `snapshot`). What it imports: the import-linter
contracts of pyproject.toml."""

import json

import pytest

from scorekeeper.engine import (
    InvalidInput,
    State,
    parse_event,
    parse_new_game,
    rules_from_spec,
    to_dict,
)
from support.engine import (
    A,
    B,
    adjust,
    announce,
    at_last_deal,
    end_hand,
    game,
    hit,
    invalid,
    missa,
    next_deal,
    play,
    refused,
    reveal,
    ronda,
    setup,
    tringa,
)

# -- events: malformed input is a 400 whatever the state ---------------------------------


@pytest.mark.parametrize("data", [
    None, [], "missa", 3,
    {},
    {"type": "slam"},
    {"type": None},
    {"type": "missa", "side": 0, "colour": "red"},
])
def test_an_event_that_is_not_a_known_object_is_malformed(data):
    with pytest.raises(InvalidInput):
        parse_event(data, setup())


@pytest.mark.parametrize("side", [2, -1, "0", 0.0, 1.0, True, False, None, [0]])
def test_a_side_is_a_whole_number_naming_a_side(side):
    invalid(game(), {"type": "missa", "side": side})


def test_a_third_side_exists_only_with_three_players():
    invalid(game(2), missa(2))
    assert play(game(3), missa(2)).scores == (0, 0, 1)


@pytest.mark.parametrize("value", [0, 2, 3, 15, "1", 1.0, True, None])
def test_a_hit_is_worth_one_five_or_ten(value):
    invalid(game(), {"type": "hit", "side": A, "value": value})


@pytest.mark.parametrize("last_card", [1, 0, "true", "false"])
def test_last_card_is_true_or_false(last_card):
    invalid(game(), {"type": "missa", "side": A, "last_card": last_card})


def test_an_optional_field_given_as_null_is_absent():
    state = play(game(), {"type": "missa", "side": A, "last_card": None})
    assert state.scores == (1, 0)
    state = play(game(), announce({"side": A, "kind": "ronda", "rank": None}))
    assert state.scores == (1, 0)


@pytest.mark.parametrize("rank", [0, 8, 9, 13, -1, "7", 7.0, True])
def test_a_rank_is_one_to_seven_ten_eleven_or_twelve(rank):
    invalid(game(), announce(ronda(A, rank)))


@pytest.mark.parametrize("rank", [1, 2, 3, 4, 5, 6, 7, 10, 11, 12])
def test_every_rank_of_the_deck_is_taken(rank):
    assert play(game(), announce(ronda(A, rank))).scores == (1, 0)


@pytest.mark.parametrize("kind", ["straight", "Ronda", "tringla", None, 1])
def test_an_announcements_kind_is_ronda_double_ronda_or_tringa(kind):
    invalid(game(), announce({"side": A, "kind": kind}))


@pytest.mark.parametrize("announcements", [[], None, "ronda", {"side": 0, "kind": "ronda"}])
def test_announcements_are_a_list_of_one_to_four(announcements):
    invalid(game(), {"type": "announce", "announcements": announcements})


def test_five_announcements_are_too_many():
    invalid(game(4), announce(*[ronda(A)] * 2, *[ronda(B)] * 2, ronda(A)))


def test_an_announcement_with_an_unknown_field_is_malformed():
    invalid(game(), announce({"side": A, "kind": "ronda", "suit": "cups"}))


@pytest.mark.parametrize("players", [2, 3])
def test_a_side_of_one_player_announces_at_most_once(players):
    invalid(game(players), announce(ronda(A), tringa(A)))


def test_a_side_of_two_partners_announces_at_most_twice():
    assert play(game(4), announce(ronda(A), ronda(A))).scores == (2, 0)
    invalid(game(4), announce(ronda(A), ronda(A), tringa(A)))


def test_a_malformed_announce_is_a_400_even_when_it_is_also_too_late():
    invalid(play(game(), hit(A, 1)), announce(ronda(A), ronda(A)))


@pytest.mark.parametrize("ranks", [[3], [3, 5, 7], None, "3,5", [3, 8]])
def test_a_reveal_gives_one_rank_or_null_per_side(ranks):
    invalid(play(game(), announce(ronda(A), ronda(B))), {"type": "reveal", "ranks": ranks})


def test_a_malformed_reveal_is_a_400_even_when_nothing_awaits():
    invalid(game(), reveal(3))


@pytest.mark.parametrize("cards", [
    [41, None], [-1, None], [None, None], [10, 10], [2.5, None], ["20", None], [True, None],
    [10], [10, None, None], None, [30, 20, None],
])
def test_a_card_count_is_checked(cards):
    sides = 3 if cards is not None and len(cards) == 3 else 2
    invalid(game(sides), {"type": "end_hand", "cards": cards})


def test_with_three_sides_two_counts_over_forty_are_refused():
    invalid(game(3), end_hand(30, 11, None))
    assert play(game(3), end_hand(30, 10, None)).scores == (17, 0, 0)


@pytest.mark.parametrize("points", [0, 51, -51, 1.5, "3", True, None])
def test_a_correction_is_a_whole_number_from_minus_fifty_to_fifty_not_zero(points):
    invalid(game(), {"type": "adjust", "side": A, "points": points})


@pytest.mark.parametrize("points", [50, -50, 1, -1])
def test_a_correction_at_the_limits_is_taken(points):
    assert play(game(target=101), adjust(A, points)).scores[A] == points


def test_a_correction_note_takes_up_to_two_hundred_characters():
    assert play(game(), adjust(A, 1, "x" * 200)).scores == (1, 0)
    invalid(game(), adjust(A, 1, "x" * 201))
    invalid(game(), {"type": "adjust", "side": A, "points": 1, "note": 5})


@pytest.mark.parametrize("outcome", ["twelve", "one", "missed"])
def test_the_dealers_last_trick_takes_one_of_three_outcomes(outcome):
    assert sum(play(at_last_deal(game(dealer_last_trick=5)),
                    {"type": "dealer_last_trick", "outcome": outcome}).scores) == 5


@pytest.mark.parametrize("outcome", ["ten", None, 12])
def test_the_dealers_last_trick_refuses_other_outcomes(outcome):
    invalid(game(dealer_last_trick=5), {"type": "dealer_last_trick", "outcome": outcome})


def test_malformed_input_is_a_400_even_in_a_finished_game():
    over = play(game(), adjust(A, 33))
    invalid(over, missa(5))
    refused(over, missa(A))


# -- new games -----------------------------------------------------------------------------


@pytest.mark.parametrize("body", [
    None, [], {"sides": ["A"]}, {"sides": ["A", "B", "C", "D"]}, {"sides": "AB"},
    {"sides": ["A", "a"]}, {"sides": ["A", " "]}, {"sides": ["A", 2]},
    {"sides": ["A", "x" * 41]},
    {"sides": ["A", "B", "C"], "players": 4}, {"sides": ["A", "B"], "players": 3},
    {"sides": ["A", "B"], "players": 5}, {"sides": ["A", "B"], "players": 2.0},
    {"sides": ["A", "B"], "players": "2"}, {"sides": ["A", "B"], "players": True},
    {"sides": ["A", "B"], "colour": "red"},
    {"sides": ["A", "B"], "rules": []},
    {"sides": ["A", "B"], "rules": {"preset": "nope"}},
    {"sides": ["A", "B"], "rules": {"fun": True}},
    {"sides": ["A", "B"], "rules": {"target": 10}},
    {"sides": ["A", "B"], "rules": {"target": 102}},
    {"sides": ["A", "B"], "rules": {"target": 33.0}},
    {"sides": ["A", "B"], "rules": {"target": "33"}},
    {"sides": ["A", "B"], "rules": {"ronda": 21}},
    {"sides": ["A", "B"], "rules": {"double_ronda": -1}},
    {"sides": ["A", "B"], "rules": {"tringa": True}},
    {"sides": ["A", "B"], "rules": {"missa": 21}},
    {"sides": ["A", "B"], "rules": {"tringa_contest": "HIGHER"}},
    {"sides": ["A", "B"], "rules": {"stop": "never"}},
    {"sides": ["A", "B"], "rules": {"card_threshold": 41}},
    {"sides": ["A", "B"], "rules": {"card_threshold_3": -1}},
])
def test_a_malformed_new_game_is_refused(body):
    with pytest.raises(InvalidInput):
        parse_new_game(body)


def test_side_names_are_stored_trimmed():
    assert parse_new_game({"sides": ["  Nous ", "Eux"]}).sides == ("Nous", "Eux")


def test_a_side_name_takes_forty_characters_after_trimming():
    name = "x" * 40
    assert parse_new_game({"sides": [f"  {name}  ", "B"]}).sides == (name, "B")


def test_side_names_are_unique_ignoring_case_after_trimming():
    with pytest.raises(InvalidInput):
        parse_new_game({"sides": ["Nous", " NOUS "]})


def test_players_default_to_the_number_of_sides():
    assert parse_new_game({"sides": ["A", "B"]}).players == 2
    assert parse_new_game({"sides": ["A", "B", "C"]}).players == 3
    assert parse_new_game({"sides": ["A", "B"], "players": None}).players == 2


@pytest.mark.parametrize("key, low, high", [
    ("target", 11, 101), ("ronda", 0, 20), ("double_ronda", 0, 20), ("tringa", 0, 20),
    ("missa", 0, 20), ("card_threshold", 0, 40), ("card_threshold_3", 0, 40),
])
def test_each_rule_takes_its_whole_range(key, low, high):
    assert getattr(rules_from_spec({key: low}), key) == low
    assert getattr(rules_from_spec({key: high}), key) == high


# -- stored forms ---------------------------------------------------------------------------

EVERY_KIND_OF_EVENT = [
    announce(ronda(A), tringa(B, 3)), reveal(None, 4), hit(A, 1), {"type": "chain_end"},
    missa(B, last_card=True), next_deal(), end_hand(None, 22), adjust(A, -3, "scorer slip"),
    {"type": "hidden_ronda", "side": A}, {"type": "dealer_last_trick", "outcome": "one"},
]


@pytest.mark.parametrize("data", EVERY_KIND_OF_EVENT, ids=lambda d: d["type"])
def test_an_events_stored_form_reads_back_as_the_same_event(data):
    rules = setup(preset="classique")
    event = parse_event(data, rules)
    stored = json.loads(json.dumps(to_dict(event)))
    assert parse_event(stored, rules) == event


def test_a_states_snapshot_reads_back_as_the_same_state():
    state = play(game(4, preset="classique"), announce(ronda(A), ronda(B)), hit(A, 1),
                 hit(B, 5), missa(A))
    assert state.awaiting_reveal and state.gains
    stored = json.loads(json.dumps(state.snapshot()))
    assert State.from_snapshot(stored, state.setup) == state
