"""Tournaments' pairing rules (docs/PLAYERS.md, "Tournaments"): the worked
examples of the document, then properties over random evenings: a knockout
has exactly one winner, every entrant plays each Swiss round or has its one
bye, and no pair meets twice while that can be avoided."""

from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.tournament import (
    MatchGame,
    Pairing,
    bracket_size,
    knockout,
    seed_lines,
    swiss_matches,
    swiss_pairing,
    swiss_rounds,
    swiss_standings,
)

FAST = settings(max_examples=150, deadline=None)

# Entrants in the documents' examples: seeds 1 to 8 are entrants 0 to 7.
A, B, C, D, E, F, G, H = range(8)


# -- the worked examples -----------------------------------------------------------------------

def test_a_bracket_of_eight_keeps_the_first_two_seeds_apart_until_the_final():
    assert seed_lines(8) == [A, H, D, E, B, G, C, F]  # 1–8, 4–5, 2–7, 3–6
    assert bracket_size(5) == 8 and bracket_size(8) == 8 and bracket_size(9) == 16


def test_five_entrants_give_the_three_top_seeds_a_bye():
    bracket = knockout(5, [])
    first = bracket.rounds[0]
    assert [m.entrants for m in first] == [(A, None), (D, E), (B, None), (C, None)]
    assert [m.bye for m in first] == [True, False, True, True]
    assert [m.winner for m in first] == [A, None, B, C]
    semis = bracket.rounds[1]
    assert [m.entrants for m in semis] == [(A, None), (B, C)]  # A waits for D or E
    assert semis[1].ready and not semis[0].ready
    assert bracket.champion is None and len(bracket.rounds) == 3


def test_a_result_sends_its_winner_on_at_once():
    bracket = knockout(5, [MatchGame(1, 2, (D, E), winner=E, margin=12)])
    assert bracket.rounds[0][1].winner == E
    assert bracket.rounds[1][0].entrants == (A, E) and bracket.rounds[1][0].ready


def test_the_best_of_three_goes_to_the_first_with_two_wins():
    games = [MatchGame(1, 1, (A, B), winner=A, margin=5), MatchGame(1, 1, (B, A), winner=B, margin=9)]
    final = knockout(2, games, best_of=3).rounds[0][0]
    assert final.wins == (1, 1) and final.winner is None and final.ready
    games.append(MatchGame(1, 1, (A, B), winner=A, margin=3))
    bracket = knockout(2, games, best_of=3)
    assert bracket.rounds[0][0].wins == (2, 1) and bracket.champion == A


def test_a_game_played_after_the_match_was_won_is_not_of_it():
    games = [MatchGame(1, 1, (A, B), winner=A, margin=5), MatchGame(1, 1, (A, B), winner=A, margin=2),
             MatchGame(1, 1, (A, B), winner=B, margin=30), MatchGame(1, 1, (A, B))]
    final = knockout(2, games, best_of=3).rounds[0][0]
    assert final.wins == (2, 0) and final.margins == (7, 0) and final.games == 2
    assert final.winner == A and not final.running


def test_a_running_game_is_shown_and_decides_nothing():
    match = knockout(2, [MatchGame(1, 1, (A, B))]).rounds[0][0]
    assert match.running and match.winner is None


def test_a_corrected_result_moves_the_bracket_and_leaves_the_next_game_stale():
    """E won, then played A; the first result is corrected: D won. A's match
    is now against D, and the game against E no longer counts."""
    games = [MatchGame(1, 2, (D, E), winner=D, margin=3), MatchGame(2, 1, (A, E), winner=E, margin=8)]
    bracket = knockout(5, games)
    semi = bracket.rounds[1][0]
    assert semi.entrants == (A, D) and semi.winner is None and semi.ready
    assert bracket.stale == (games[1],)


def test_the_first_swiss_round_meets_the_top_half_against_the_bottom_half():
    assert swiss_pairing([A, B, C, D, E], set(), set(), first_round=True) == (
        [(A, C), (B, D)], E)


def test_the_second_swiss_round_pairs_by_standing_and_the_bye_moves_on():
    """The document's evening of five: A beats C by 20, D beats B by 10, E has the bye."""
    round_1 = [Pairing(1, 1, (A, C)), Pairing(1, 2, (B, D)), Pairing(1, 3, (E, None))]
    games = [MatchGame(1, 1, (A, C), winner=A, margin=20), MatchGame(1, 2, (B, D), winner=D, margin=10)]
    standings = swiss_standings(5, swiss_matches(round_1, games))
    assert [(s.entrant, s.wins, s.margin) for s in standings] == [
        (A, 1, 20), (D, 1, 10), (E, 1, 0), (B, 0, -10), (C, 0, -20)]
    met = {frozenset((A, C)), frozenset((B, D))}
    ranked = [s.entrant for s in standings]
    assert swiss_pairing(ranked, met, {E}) == ([(A, D), (E, B)], C)


def test_a_rematch_is_avoided_by_the_next_best_placed():
    """Third round of the same evening: A and D met, so A meets E."""
    met = {frozenset(p) for p in ((A, C), (B, D), (A, D), (E, B))}
    assert swiss_pairing([A, D, E, B, C], met, {E, C}) == ([(A, E), (D, C)], B)


def test_a_rematch_only_when_none_can_be_avoided():
    """Four entrants, a fourth round: every pair has met."""
    met = {frozenset((x, y)) for x in range(4) for y in range(x + 1, 4)}
    pairs, bye = swiss_pairing([A, B, C, D], met, set())
    assert sorted(map(sorted, pairs)) == [[A, B], [C, D]] and bye is None


def test_equal_wins_and_margin_share_a_place():
    standings = swiss_standings(3, swiss_matches([Pairing(1, 1, (A, B)), Pairing(1, 2, (C, None))],
                                                 []))
    assert [(s.entrant, s.place) for s in standings] == [(C, 1), (A, 2), (B, 2)]


def test_a_swiss_evening_plays_enough_rounds_for_one_unbeaten():
    assert [swiss_rounds(n) for n in (2, 3, 4, 5, 8, 9, 64, 128)] == [1, 2, 2, 3, 3, 4, 6, 7]


# -- properties --------------------------------------------------------------------------------

@given(count=st.integers(2, 40), best_of=st.sampled_from([1, 3]),
       rng=st.randoms(use_true_random=False))
@FAST
def test_a_knockout_has_exactly_one_winner(count, best_of, rng):
    games: list[MatchGame] = []
    while True:
        bracket = knockout(count, games, best_of)
        ready = [m for r in bracket.rounds for m in r if m.ready]
        if not ready:
            break
        for match in ready:  # each ready match plays one game, won by either side
            first, second = match.entrants
            winner = rng.choice([first, second])
            sides = rng.choice([(first, second), (second, first)])
            games.append(MatchGame(match.round, match.slot, sides, winner, rng.randint(1, 60)))
    assert bracket.champion is not None
    played = [m for r in bracket.rounds for m in r if not m.bye]
    losers = [m.loser for m in played]
    assert len(played) == count - 1  # every entrant but one loses once, and only once
    assert sorted(losers + [bracket.champion]) == list(range(count))
    assert all(max(m.wins) == best_of // 2 + 1 for m in played)
    byes = [m for m in bracket.rounds[0] if m.bye]
    assert len(byes) == bracket_size(count) - count
    assert {m.winner for m in byes} == set(range(len(byes)))  # the top seeds


@lru_cache(maxsize=None)
def _pairable(entrants: frozenset[int], met: frozenset[frozenset[int]]) -> bool:
    """An oracle of its own: can these entrants all pair without a rematch?"""
    if not entrants:
        return True
    first = min(entrants)
    return any(frozenset((first, other)) not in met
               and _pairable(entrants - {first, other}, met)
               for other in entrants - {first})


def _free_byes(active: list[int], met: frozenset) -> list[int]:
    """Who can take the bye with the rest paired without a rematch."""
    return [e for e in active if _pairable(frozenset(active) - {e}, met)]


@given(count=st.integers(2, 11), data=st.data())
@FAST
def test_swiss_rounds_seat_everyone_once_and_avoid_every_avoidable_rematch(count, data):
    rounds = data.draw(st.integers(1, count + 1))
    withdrawn: set[int] = set()
    joined = {e: 1 for e in range(count)}
    late = data.draw(st.integers(0, 2))  # late entrants, who join from a later round
    for number in range(late):
        joined[count + number] = data.draw(st.integers(2, rounds + 1))
    total = count + late
    pairings: list[Pairing] = []
    games: list[MatchGame] = []
    for number in range(1, rounds + 1):
        if data.draw(st.booleans()) and number > 1:  # someone withdraws before this round
            withdrawn.add(data.draw(st.integers(0, total - 1)))
        standings = swiss_standings(total, swiss_matches(pairings, games))
        active = [s.entrant for s in standings
                  if joined[s.entrant] <= number and s.entrant not in withdrawn]
        if len(active) < 2:
            break
        met = frozenset(frozenset(p.entrants) for p in pairings if p.entrants[1] is not None)
        had_bye = {p.entrants[0] for p in pairings if p.entrants[1] is None}
        pairs, bye = swiss_pairing(active, set(met), had_bye, first_round=number == 1)
        seated = [e for pair in pairs for e in pair] + ([bye] if bye is not None else [])
        assert sorted(seated) == sorted(active)  # each plays or has the bye, once
        assert (bye is None) == (len(active) % 2 == 0)
        rematches = [p for p in pairs if frozenset(p) in met]
        if len(active) % 2 == 0:
            avoidable = _pairable(frozenset(active), met)
        else:
            free = _free_byes(active, met)
            avoidable = bool(free)
            fresh = [e for e in free if e not in had_bye]
            if fresh:  # the bye goes to the lowest-placed who can take it and had none
                assert bye == max(fresh, key=active.index)
            elif free:
                assert bye == max(free, key=active.index)
        assert not (rematches and avoidable), (pairs, bye, met)
        for slot, (first, second) in enumerate(pairs, 1):
            pairings.append(Pairing(number, slot, (first, second)))
            winner = data.draw(st.sampled_from([first, second]))
            games.append(MatchGame(number, slot, (first, second), winner, data.draw(st.integers(1, 40))))
        if bye is not None:
            pairings.append(Pairing(number, len(pairs) + 1, (bye, None)))


def test_a_swiss_round_of_128_pairs_quickly_late_in_the_evening():
    """Seven rounds of 128: each pairing is found without a long search."""
    import time

    pairings, games = [], []
    for number in range(1, 8):
        standings = swiss_standings(128, swiss_matches(pairings, games))
        met = {frozenset(p.entrants) for p in pairings}
        started = time.perf_counter()
        pairs, bye = swiss_pairing([s.entrant for s in standings], met, set(), number == 1)
        assert time.perf_counter() - started < 0.5
        assert bye is None and not [p for p in pairs if frozenset(p) in met]
        for slot, pair in enumerate(pairs, 1):
            pairings.append(Pairing(number, slot, pair))
            games.append(MatchGame(number, slot, pair, min(pair) if (slot + number) % 3 else max(pair),
                              slot % 7 + 1))
