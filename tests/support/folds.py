"""What a game's log folds to, read two ways: the whole log replayed, and
the app's own reads (the stored state, the snapshots, a board's last events,
every page of the review); `check_folds` says they agree."""

from scorekeeper.engine import recorded_event, replay
from scorekeeper.engine.log import fold_corrections
from scorekeeper.engine.moves import timeline
from scorekeeper.service import games, review, scoreboard, snapshots
from scorekeeper.storage import store


def whole_review(setup, log, state):
    """A game's review entries, as a whole replay of its log says them:
    (seq, number, status, event, step, hand, deal) each."""
    # The fold's order: a placed record just before the one it is placed
    # before (docs/BOARD.md, "Two phones").
    folded = sorted(log, key=lambda r: (r.get("place", r["seq"] + 1) - 1, r["seq"]))
    effective = fold_corrections((r["seq"], r["action"], r["payload"])
                                 for r in folded if r["undone_by"] is None)
    standing = [(seq, recorded_event(e, setup)) for seq, e in effective.items() if e]
    steps = timeline(setup, [event for _, event in standing])
    numbered = {seq: (number, step) for number, ((seq, _), step) in enumerate(
        zip(standing, steps), 1)}
    entries, place = [], (state.hand, state.deal)
    for record in reversed([r for r in log if r["action"] == "event"]):
        seq = record["seq"]
        if seq in numbered:
            number, step = numbered[seq]
            place = (step.hand, step.deal)
            status = "corrected" if effective[seq] != record["payload"] else "standing"
            entries.append((seq, number, status, step.event, step, *place))
        else:
            status = "undone" if record["undone_by"] is not None else "removed"
            entries.append((seq, None, status, recorded_event(record["payload"], setup), None,
                            *place))
    return entries[::-1], steps


def as_entry(entry):
    return (entry.seq, entry.number, entry.status, entry.event, entry.step, entry.hand,
            entry.deal)


def check_folds(db, game_id):
    game = games.load(db, game_id)
    setup = game.setup
    log = list(store.log(db, game_id))
    entries, steps = whole_review(setup, log, game.state)
    assert game.state == replay(setup, [step.event for step in steps])
    assert game.state.events == len(steps)
    # Every snapshot is the state after its first events, none is missing.
    rows = store.snapshot_trails(db, game_id)
    assert [events for events, _, _ in rows] == list(
        range(snapshots.EVERY, len(steps) + 1, snapshots.EVERY))
    for events, _, _ in rows:
        _, _, state = snapshots.nearest(db, game_id, setup, events=events)
        assert state == replay(setup, [step.event for step in steps[:events]])
    # A board's last events, and what Undo takes back.
    shown = scoreboard.shown(db, game_id)
    assert list(shown.recent) == steps[::-1][:scoreboard.RECENT_STEPS]
    assert shown.last_step == (steps[-1] if steps else None)
    # Every page of the review, and the chart's scores.
    number, found = 1, []
    while True:
        page = review.review_page(db, game, number)
        found += [as_entry(entry) for entry in page.entries]
        if number == page.pages:
            break
        number += 1
    assert found == entries
    assert page.trail == [(step.hand, step.scores) for step in steps]
    for entry in entries[:1] + entries[len(entries) // 2:][:1] + entries[-1:]:
        assert as_entry(review.review_entry(db, game, entry[0])) == entry
