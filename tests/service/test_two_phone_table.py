"""A simulated table proves the rule of two phones (docs/BOARD.md, "Two
phones"): random games, two phones scoring them through the service with
random delays, outages of up to 10 minutes and reconnections in either
order (tests/support/two_phones.py). A failing run names its seed; replay
it with `TWO_PHONES_SEED=<seed> pytest tests/service/test_two_phone_table.py`."""

import os
from collections import Counter

import pytest

from scorekeeper.service import review, snapshots
from support.folds import check_folds
from support.two_phones import SAID, play, store

# 400 a mode in `make test` (1,600 runs), 100 in `make check` (TWO_PHONES_RUNS).
RUNS = int(os.environ.get("TWO_PHONES_RUNS", "400"))
SEEDS = [int(os.environ["TWO_PHONES_SEED"])] if "TWO_PHONES_SEED" in os.environ else range(RUNS)


@pytest.mark.parametrize("mode", ["redundant", "split"])
def test_two_scorers_merge_to_the_tables_game(mode):
    """Both phones tap every event (redundant), or each its side's events
    (split): the merged game is the table's, its score, winner and events
    (in order when both tapped all; each deal's when split)."""
    db = store()
    for seed in SEEDS:
        run = play(seed, mode, db)
        assert run.same_game(by_deal=mode == "split"), str(run)


@pytest.mark.parametrize("mode", ["mixed", "chained split"])
def test_where_no_rule_can_tell_the_merge_never_differs_silently(mode, capsys):
    """Each event tapped on one phone or both (mixed): two Missas tapped once
    each on two phones and one Missa tapped on both cannot be told apart.
    Each side's taps on its own phone, hit chains included (chained split):
    a chain's step that reaches the server before the step it follows
    cannot be placed. The merged game may differ; but never silently: a run
    that differs has a board that said which tap it could not place
    (counted once as the other phone's, placed in its deal, a deal closed
    with the other phone's taps its board had not shown, or refused, with
    why). How often, printed."""
    db = store()
    outcome = Counter()
    for seed in SEEDS:
        run = play(seed, mode, db)
        if run.same_game(by_deal=mode == "chained split"):
            outcome["the table's game"] += 1
            continue
        assert run.said, str(run)
        refused = any(what not in SAID for *_, what in run.said)
        outcome["differs, a tap refused" if refused else "differs, said"] += 1
    with capsys.disabled():
        print(f"\n{mode} taps, {len(SEEDS)} runs: {dict(outcome)}")


@pytest.mark.parametrize("mode", ["redundant", "split", "chained split", "mixed"])
def test_merged_games_fold_from_snapshots_as_the_whole_log_does(mode):
    """Placed records, `same` records and named Undos: the stored state,
    the snapshots, a board's last events and every page of the review are
    what a replay of the whole log, in the fold's order, gives."""
    kept = snapshots.EVERY, review.PAGE_ENTRIES, review.LOOK_AHEAD
    snapshots.EVERY, review.PAGE_ENTRIES, review.LOOK_AHEAD = 3, 7, 2
    try:
        db = store()
        for seed in list(SEEDS)[:40]:
            run = play(seed, mode, db)
            check_folds(db, run.game_id)
    finally:
        snapshots.EVERY, review.PAGE_ENTRIES, review.LOOK_AHEAD = kept


def test_a_run_is_replayed_from_its_seed():
    first, again = play(7, "mixed", store()), play(7, "mixed", store())
    assert (first.merged_events, first.said) == (again.merged_events, again.said)
