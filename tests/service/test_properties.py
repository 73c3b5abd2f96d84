"""Properties over random event sequences for 2, 3 and 4 players.

- nothing crashes: an event is taken or refused with a ScoringError (the
  API answers 200, 400 or 409, never a 5xx, and a refusal changes nothing);
- scores change only by the barème's gains: each accepted event changes the
  scores by exactly the sum of the gains it reports, and those gains are the
  ones BAREME.md gives for that event in that state (an oracle below, written
  from the document);
- the game finishes exactly when a side first leads alone at or above the
  target (after the whole gain; with `end_of_hand`, only after the card count);
- the state is the fold of its events: replaying the accepted events gives
  the live state, the stored log replays to the stored snapshot, and undoing
  the last n events gives the state of all events but them;
- a phone's own waiting taps and Undos, sent on the board they were made
  on, never refuse each other as another phone's would.

Sequences are random events, mostly well formed; the ones the state refuses
are skipped, which leaves a valid sequence.
"""

import functools
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import create_app
from scorekeeper.engine import (
    RANKS,
    ScoringError,
    Setup,
    apply,
    new_game,
    parse_event,
    parse_new_game,
    replay,
)
from scorekeeper.engine.merge import MergeRefused
from scorekeeper.service import games, review, scoreboard, snapshots
from scorekeeper.storage import migrations
from scorekeeper.storage.db import connect
from scorekeeper.web import api
from support.folds import check_folds

pytestmark = pytest.mark.xdist_group("properties")  # its module fixture, built once a run

PLAYERS = [2, 3, 4]
NOW = "2026-12-02T10:00:00.000+00:00"
FAST = settings(max_examples=80, deadline=None)
THROUGH_THE_APP = settings(max_examples=20, deadline=None)

# -- strategies ---------------------------------------------------------------------------


def sides_of(players: int) -> int:
    return 3 if players == 3 else 2


@st.composite
def rule_specs(draw):
    """A `rules` object of the API: a preset and random house rules, with
    targets low enough that games often finish."""
    return {
        "preset": draw(st.sampled_from(["appli", "classique"])),
        "target": draw(st.integers(11, 45)),
        "stop": draw(st.sampled_from(["immediate", "end_of_hand"])),
        "ronda": draw(st.integers(0, 3)),
        "tringa": draw(st.sampled_from([3, 5])),
        "tringa_contest": draw(st.sampled_from(["higher", "lower"])),
        "missa": draw(st.integers(0, 2)),
        "card_threshold": draw(st.integers(10, 30)),
        "card_threshold_3": draw(st.integers(5, 20)),
        "hits": draw(st.sampled_from([[1, 5, 10], [1, 6, 15]])),
        "missa_with_hit": draw(st.booleans()),
        "missa_exclusion": draw(st.sampled_from(["last_card", "last_deal", "none"])),
        "chain_with_two_players": draw(st.booleans()),
        "four_card_first_deal": draw(st.booleans()),
        "hidden_ronda_penalty": draw(st.sampled_from([0, 1, 5])),
        "dealer_last_trick": draw(st.sampled_from([0, 5])),
    }


def new_game_body(players: int, rules: dict) -> dict:
    return {"sides": ["A", "B", "C"][:sides_of(players)], "players": players, "rules": rules}


# Few ranks often, so that perfect ties (and shared pools) are common.
RANK = st.one_of(st.sampled_from([5, 7]), st.sampled_from(RANKS))
RANK_OR_NONE = st.one_of(RANK, st.none())
KINDS = st.sampled_from(["ronda", "ronda", "ronda", "tringa", "double_ronda"])


@st.composite
def announce_events(draw, players: int):
    # Seat i plays for side i % sides: partners sit face to face.
    seats = draw(st.lists(st.integers(0, players - 1), min_size=1, max_size=players, unique=True))
    return {"type": "announce", "announcements": [
        {"side": seat % sides_of(players), "kind": draw(KINDS), "rank": draw(RANK_OR_NONE)}
        for seat in seats
    ]}


@st.composite
def end_hand_events(draw, players: int):
    n = sides_of(players)
    cards, left = [], 40
    for counted in range(n - 1):
        fair = left // (n - counted)  # an even split is common (and ties the bonus)
        count = draw(card_counts(left, fair))
        cards.append(count)
        left -= count
    cards.insert(draw(st.integers(0, n - 1)), None)
    return {"type": "end_hand", "cards": cards}


@functools.cache
def card_counts(left: int, fair: int):
    """Any count of the cards left, an even split, or near one."""
    return st.one_of(st.integers(0, left), st.just(fair),
                     st.integers(max(0, fair - 2), min(left, fair + 2)))


def hidden_ronda_events(n: int):
    """A hidden Ronda: who hid it and who gets the penalty (which may be left
    out with two sides)."""
    def event(side, shift, named):
        to = (side + shift) % n
        return {"type": "hidden_ronda", "side": side, **({"to": to} if named or n == 3 else {})}
    return st.builds(event, st.integers(0, n - 1), st.integers(1, n - 1), st.booleans())


# Built once per game shape: a strategy built anew for every example is
# checked anew by Hypothesis, which cost more than the games it drew.
@functools.cache
def events(players: int, hits: tuple[int, ...]):
    """Events of every type, well formed for this game."""
    n = sides_of(players)
    side = st.integers(0, n - 1)
    hit = st.builds(lambda s, v: {"type": "hit", "side": s, "value": v},
                    side, st.sampled_from(hits))
    missa = st.builds(lambda s, last: {"type": "missa", "side": s, "last_card": last},
                      side, st.booleans())
    reveal = st.builds(lambda ranks: {"type": "reveal", "ranks": ranks},
                       st.lists(st.one_of(RANK, RANK, st.none()), min_size=n, max_size=n))
    adjust = st.builds(lambda s, p: {"type": "adjust", "side": s, "points": p},
                       side, st.integers(-12, 12).filter(bool))
    return st.one_of(
        hit, hit, hit, missa, missa, st.just({"type": "chain_end"}),
        announce_events(players), announce_events(players), reveal,
        st.just({"type": "next_deal"}), st.just({"type": "next_deal"}), end_hand_events(players),
        adjust, hidden_ronda_events(n),
        st.builds(lambda o: {"type": "dealer_last_trick", "outcome": o},
                  st.sampled_from(["twelve", "one", "missed"])),
    )


@st.composite
def sequences(draw, players: int, spec: dict, min_size=20, max_size=100):
    """Random events; half of the games open with every side level near the
    target (just below it when the target is checked at every gain), where
    ties in the lead are likely."""
    opening = []
    if draw(st.booleans()):
        if spec["stop"] == "immediate":
            level = spec["target"] - draw(st.sampled_from([1, 1, 2, 3]))
        else:
            level = min(50, spec["target"] + draw(st.integers(-3, 6)))
        opening = [{"type": "adjust", "side": s, "points": level}
                   for s in range(sides_of(players))]
    rest = draw(st.lists(events(players, tuple(spec["hits"])), min_size=min_size,
                         max_size=max_size))
    return opening + rest


JSON_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-100, 100), st.text(max_size=5),
                         st.floats(allow_nan=False, allow_infinity=False))
GARBAGE_EVENTS = st.dictionaries(
    st.sampled_from(["type", "side", "value", "ranks", "cards", "points", "announcements",
                     "last_card", "expected_version", "extra"]),
    st.recursive(JSON_SCALARS, lambda inner: st.lists(inner, max_size=3), max_leaves=4),
    max_size=4,
).map(lambda d: {"type": "hit", **d} if "type" not in d else d)


@functools.cache
def app_actions(players: int, hits: tuple[int, ...]):
    """What a scorer sends through the API: events, garbage, undos."""
    game_events = events(players, hits)
    return st.one_of(game_events, game_events, game_events, GARBAGE_EVENTS, st.just("undo"))


@functools.cache
def snapshot_actions(players: int, hits: tuple[int, ...]):
    """Events, undos and corrections (of a standing event, by another or by nothing)."""
    game_events = events(players, hits)
    return st.one_of(game_events, game_events, game_events, st.just("undo"), st.just("undo"),
                     st.tuples(st.just("correct"), st.integers(0, 200),
                               st.one_of(st.none(), game_events)))


# -- the oracle: what the barème gives for an event ----------------------------------------


def leader_at_target(scores, target) -> int | None:
    top = max(scores)
    return scores.index(top) if top >= target and list(scores).count(top) == 1 else None


def settle(kind, total, contenders, ranks, rules, n):
    """BAREME §5: the best announcement takes the pool; a perfect tie shares it."""
    lower = kind == "tringa" and rules.tringa_contest == "lower"
    best = (min if lower else max)(ranks[s] for s in contenders)
    winners = [s for s in contenders if ranks[s] == best]
    share = total // len(winners)
    return [(kind, tuple(share if s in winners else 0 for s in range(n)))]


def to_side(side, points, n) -> tuple:
    return tuple(points if s == side else 0 for s in range(n))


def barème_gains(before, event) -> list[tuple[str, tuple]] | None:
    """The gains of `event` in state `before`, in order, before the target
    check cuts them short; None where the barème leaves the sides open."""
    setup, rules = before.setup, before.setup.rules
    n = setup.side_count
    chain = [] if before.chain is None else [
        ("hit", to_side(before.chain.side, rules.hits[before.chain.step], n))]
    kind = event.type
    if kind == "hit":
        step = rules.hits.index(event.value)
        return chain if step == 0 else [] if step == 1 else [
            ("hit", to_side(event.side, event.value, n))]
    if kind == "chain_end" or kind == "next_deal":
        return chain
    if kind == "missa":
        return missa_gains(before, event, chain)
    if kind == "end_hand":
        counts = [40 - sum(c for c in event.cards if c is not None) if c is None else c
                  for c in event.cards]
        threshold = rules.card_threshold_3 if n == 3 else rules.card_threshold
        return chain + [("cards", tuple(max(0, c - threshold) for c in counts))]
    if kind == "adjust":
        return [("adjust", to_side(event.side, event.points, n))]
    if kind == "hidden_ronda":  # to the side named, or with two sides the other one
        to = 1 - event.side if event.to is None else event.to
        return [("hidden_ronda", to_side(to, rules.hidden_ronda_penalty, n))]
    if kind == "dealer_last_trick":
        return None  # who deals is not the barème's business; checked by shape below
    if kind == "announce":
        return announce_gains(before, event)
    if kind == "reveal":
        pool = before.pool
        ranks = {s: event.ranks[s] if event.ranks[s] is not None else pool.ranks[s]
                 for s in pool.contenders}
        return settle(pool.kind, pool.total, pool.contenders, ranks, rules, n)
    raise AssertionError(f"unknown event {event!r}")


def missa_gains(before, event, chain) -> list[tuple[str, tuple]]:
    """BAREME §3, §4: the missa, with the hit of the chain it ends."""
    setup, rules = before.setup, before.setup.rules
    n = setup.side_count
    lost = (rules.missa_exclusion != "none" and event.last_card) or (
        rules.missa_exclusion == "last_deal" and before.deal == setup.deals_per_hand)
    points = 0 if lost else rules.missa
    if before.chain is not None and before.chain.side == event.side:
        hit = rules.hits[before.chain.step]
        if rules.missa_with_hit and points:
            return [("hit_missa", to_side(event.side, hit + points, n))]
        return [("hit", to_side(event.side, hit, n))]
    return chain + [("missa", to_side(event.side, points, n))]


def announce_gains(before, event) -> list[tuple[str, tuple]]:
    """BAREME §5: the deal's announcements, settled now or waiting for a reveal."""
    rules, n = before.setup.rules, before.setup.side_count
    worth = {"ronda": rules.ronda, "double_ronda": rules.double_ronda, "tringa": rules.tringa}
    total = sum(worth[a.kind] for a in event.announcements)
    deciding = "tringa" if any(a.kind == "tringa" for a in event.announcements) else "ronda"
    held = {}
    for a in event.announcements:
        if (a.kind == "tringa") == (deciding == "tringa"):
            held.setdefault(a.side, []).append(a.rank)
    if len(held) == 1:
        return [(deciding, to_side(next(iter(held)), total, n))]
    if any(None in ranks for ranks in held.values()):
        return []  # waits for a reveal
    lower = deciding == "tringa" and rules.tringa_contest == "lower"
    ranks = {s: (min if lower else max)(r) for s, r in held.items()}
    return settle(deciding, total, sorted(held), ranks, rules, n)


def check_gains_and_finish(before, event, after):
    rules = before.setup.rules
    reported = [(g.kind, tuple(g.points)) for g in after.gains]

    # Each accepted event changes the scores by exactly the sum of its gains.
    change = [a - b for a, b in zip(after.scores, before.scores)]
    summed = [sum(points) for points in zip(*[p for _, p in reported])]
    assert change == (summed or [0] * len(change))

    expected = barème_gains(before, event)
    if expected is None:  # the dealer's last trick: to one side, or to all the others
        ((kind, points),) = reported
        value = rules.dealer_last_trick
        assert kind == "dealer_last_trick"
        assert sorted(points) in ([0] * (len(points) - 1) + [value],
                                  [0] + [value] * (len(points) - 1))
        expected = reported

    # The target is checked after every whole gain (immediate), or once the
    # card count is in (end_of_hand); a gain that finishes ends the event.
    expected = [g for g in expected if any(g[1])]
    scores, winner, taken = list(before.scores), None, []
    for kind, points in expected:
        scores = [s + p for s, p in zip(scores, points)]
        taken.append((kind, points))
        if rules.stop == "immediate":
            winner = leader_at_target(scores, rules.target)
            if winner is not None:
                break
    if rules.stop == "end_of_hand" and event.type == "end_hand":
        winner = leader_at_target(scores, rules.target)
    assert reported == taken, (event, before)
    assert after.finished == (winner is not None)
    assert after.winner == winner
    if after.finished:
        # The rest of a finishing event has no effect: hand and deal stay.
        assert (after.hand, after.deal) == (before.hand, before.deal)
        assert after.chain is None and not after.awaiting_reveal


def refused_by_the_contract(state, event) -> bool:
    """Whether API.md's state machine refuses this well-formed event now."""
    setup, rules, chain = state.setup, state.setup.rules, state.chain
    if state.finished:
        return True
    kind = event.type
    if kind == "hit":
        step = rules.hits.index(event.value)
        return step > 0 and (
            chain is None or chain.step != step - 1 or chain.side == event.side
            or (setup.players == 2 and not rules.chain_with_two_players))
    if kind == "chain_end":
        return chain is None
    if kind == "announce":
        four_cards = setup.players == 4 and rules.four_card_first_deal and state.deal == 1
        return state.announced or (  # once per deal, at any moment of it
            not four_cards and any(a.kind == "double_ronda" for a in event.announcements))
    if kind == "reveal":
        return state.pool is None or any(
            event.ranks[s] is None and state.pool.ranks[s] is None for s in state.pool.contenders)
    if kind == "next_deal":
        return state.awaiting_reveal or state.deal == setup.deals_per_hand
    if kind == "end_hand":
        return state.awaiting_reveal
    if kind == "hidden_ronda":
        return not rules.hidden_ronda_penalty
    if kind == "dealer_last_trick":
        return (not rules.dealer_last_trick or state.last_trick_done
                or state.deal < setup.deals_per_hand)  # played on the hand's last deal
    return False  # missa, adjust


def play_random(setup: Setup, data: list[dict]):
    """Apply each event the state takes; (accepted events, state after each).
    An event is refused exactly when the contract says so."""
    state = new_game(setup)
    accepted, states = [], [state]
    for raw in data:
        event = parse_event(raw, setup)
        try:
            after = apply(state, event)
        except ScoringError as refusal:
            assert refused_by_the_contract(state, event), (event, refusal)
            continue  # the sequence goes on without it
        assert not refused_by_the_contract(state, event), event
        check_gains_and_finish(state, event, after)
        accepted.append(event)
        states.append(after)
        state = after
    return accepted, states


# -- the engine alone ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
@FAST
@given(data=st.data())
def test_random_games_score_the_barèmes_gains_stop_at_the_target_and_replay(players, data):
    spec = data.draw(rule_specs(), label="rules")
    setup = parse_new_game(new_game_body(players, spec))
    accepted, states = play_random(setup, data.draw(sequences(players, spec), label="events"))
    # The state is the fold of its events, and undo is replaying all but the last n.
    assert replay(setup, accepted) == states[-1]
    undone = data.draw(st.integers(0, len(accepted)), label="undone")
    assert replay(setup, accepted[:len(accepted) - undone]) == states[-1 - undone]


@pytest.mark.parametrize("players", PLAYERS)
@FAST
@given(data=st.data())
def test_anything_well_typed_is_taken_or_refused_never_crashes(players, data):
    setup = parse_new_game(new_game_body(players, data.draw(rule_specs(), label="rules")))
    state = new_game(setup)
    for raw in data.draw(st.lists(GARBAGE_EVENTS, max_size=30), label="events"):
        try:
            state = apply(state, parse_event(raw, setup))
        except ScoringError:
            pass


# -- through the app and its store ------------------------------------------------------------

UNSTORED = ("version", "updated_at")


def as_played(view: dict) -> dict:
    """A state answer without what only says when it was stored."""
    return {k: v for k, v in view.items() if k not in UNSTORED}


@pytest.fixture(scope="module")
def shared_app():
    # Module scope: hypothesis runs many examples per test; each makes its own game.
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "DATABASE": f"{folder}/properties.sqlite3"})
        yield app


@pytest.mark.parametrize("players", PLAYERS)
@THROUGH_THE_APP
@given(data=st.data())
def test_through_the_app_the_stored_log_replays_to_the_stored_state_and_undo_steps_back(
        shared_app, players, data):
    client = shared_app.test_client()
    spec = data.draw(rule_specs(), label="rules")
    created = client.post("/api/games", json=new_game_body(players, spec))
    assert created.status_code == 201
    game_id = created.get_json()["id"]
    path = f"/api/games/{game_id}"

    actions = app_actions(players, tuple(spec["hits"]))
    opening = data.draw(sequences(players, spec, 0, 0), label="opening")
    shown = [created.get_json()]  # the state after each standing event, oldest first
    version = shown[0]["version"]
    for action in opening + data.draw(st.lists(actions, min_size=10, max_size=40),
                                      label="actions"):
        if action == "undo":
            response = client.post(f"{path}/undo", json={})
        else:
            response = client.post(f"{path}/events", json=action)
        assert response.status_code in (200, 400, 409), (action, response.get_json())
        answer = response.get_json()
        if response.status_code != 200:
            assert isinstance(answer["error"], str) and answer["error"].strip()
            assert client.get(path).get_json() == shown[-1]
            continue
        assert answer["version"] > version
        version = answer["version"]
        if action == "undo":
            shown.pop()
            assert as_played(answer) == as_played(shown[-1])
            shown[-1] = answer
        else:
            shown.append(answer)

    db = connect(shared_app.config["DATABASE"])
    try:
        stored = games.load(db, game_id)
        assert games.replay_log(db, game_id) == stored.state
    finally:
        db.close()
    assert api.view(stored) == client.get(path).get_json()

    # Undoing the last n events gives the state of all the events before them.
    undone = data.draw(st.integers(0, len(shown) - 1), label="undone at the end")
    for _ in range(undone):
        answer = client.post(f"{path}/undo", json={}).get_json()
        shown.pop()
    assert as_played(client.get(path).get_json()) == as_played(shown[-1])
    if len(shown) == 1:
        assert client.post(f"{path}/undo", json={}).status_code == 409


# -- what is folded from the nearest snapshot is what the whole log folds -------------------------

@pytest.mark.parametrize("players", PLAYERS)
@THROUGH_THE_APP
@given(data=st.data())
def test_undo_boards_and_review_pages_fold_from_snapshots_as_the_whole_log_does(players, data):
    """Random games of taps, undos and corrections, with a snapshot every 3
    events and pages of 7 entries (read past in twos): after every change the stored state, the
    snapshots, a board's last events, every page of the review and the
    chart's scores are what a replay of the whole log gives."""
    spec = data.draw(rule_specs(), label="rules")
    kept = snapshots.EVERY, review.PAGE_ENTRIES, review.LOOK_AHEAD
    snapshots.EVERY, review.PAGE_ENTRIES, review.LOOK_AHEAD = 3, 7, 2
    folder = tempfile.TemporaryDirectory()
    db = connect(f"{folder.name}/snapshots.sqlite3")
    try:
        migrations.migrate(db)
        game, _ = games.create(db, new_game_body(players, spec), None, NOW)
        actions = snapshot_actions(players, tuple(spec["hits"]))
        for action in data.draw(st.lists(actions, min_size=5, max_size=35), label="actions"):
            try:
                if action == "undo":
                    games.undo(db, game.id, {}, None, NOW)
                elif isinstance(action, tuple):
                    standing = games.standing_events(db, game.id)
                    if not standing:
                        continue
                    seq = standing[action[1] % len(standing)][0]
                    games.correct(db, game.id, {"seq": seq, "event": action[2],
                                                "remove_after_end": True}, None, NOW)
                else:
                    scoreboard.tap(db, game.id, action, None, NOW, None)
            except ScoringError:
                continue
            check_folds(db, game.id)
    finally:
        snapshots.EVERY, review.PAGE_ENTRIES, review.LOOK_AHEAD = kept
        db.close()
        folder.cleanup()


@pytest.mark.parametrize("players", PLAYERS)
@THROUGH_THE_APP
@given(data=st.data())
def test_a_phones_own_waiting_taps_never_refuse_each_other(players, data):
    """A phone offline makes its taps and Undos on one board; back online
    they are sent one by one with that board's version and their device,
    however long after each other. None is refused as changed by another
    phone: the
    game is what the same taps make on their own, each taken or refused by
    the rules alone."""
    spec = data.draw(rule_specs(), label="rules")
    folder = tempfile.TemporaryDirectory()
    db = connect(f"{folder.name}/own.sqlite3")
    try:
        migrations.migrate(db)
        game, _ = games.create(db, new_game_body(players, spec), None, NOW)
        setup, seen, page = game.setup, game.version, "form:offline"
        device = "offline"
        made = []  # the events that stand, as the rules alone take them
        actions = st.one_of(events(players, tuple(spec["hits"])), st.just("undo"))
        for i, action in enumerate(data.draw(st.lists(actions, min_size=5, max_size=30),
                                             label="taps")):
            key = f"{page}:{i}"
            try:
                if action == "undo":
                    scoreboard.tap(db, game.id, None, key, NOW, seen, device)
                    made.pop()
                else:
                    scoreboard.tap(db, game.id, action, key, NOW, seen, device)
                    made.append(action)
            except MergeRefused as refusal:
                pytest.fail(f"{action} refused as stale: {refusal}")
            except ScoringError:
                continue
        stored = games.load(db, game.id).state
        assert stored == replay(setup, [parse_event(event, setup) for event in made])
    finally:
        db.close()
        folder.cleanup()
