"""The engine on the phone's runtime (MicroPython's wasm, vendored under
static/vendor/micropython/, run by node) folds every game as CPython does.

Seeded random games of every event type and house rule go through
phone_fold.py on both Pythons; the state after every event (its plain-data
snapshot), or the refusal, must be the same, and so must what a board shows
of the game (its timeline and what each side needs to win). A divergence names the game's
seed and the event. The board's own count (scorekeeper/phone/count.py) is
compared the same way.
"""

import json
import os
from dataclasses import replace

import pytest

from scorekeeper.engine import Setup, apply, new_game, rules_from_spec
from scorekeeper.phone import board_files, field_lists, phone_files
from scorekeeper.phone import count as board_count
from scorekeeper.phone.count import count, game_data, start
from scorekeeper.web.pages.board import end_preview
from support import phone_engine
from support.phone_engine import fold_on_phone, random_game, replay_taken, run_on_phone
from support.phone_fold import fold

# `make check` folds fewer (PHONE_GAMES), as it sends the fuzzers fewer requests.
GAMES = int(os.environ.get("PHONE_GAMES", "300"))
LENGTH = 100
COUNTS = 60


def test_the_phone_folds_every_event_as_cpython_does():
    games = [random_game(seed, LENGTH) for seed in range(GAMES)]
    # Through JSON, as the phone's answers come: tuples read back as lists.
    here = [json.loads(json.dumps(fold(game))) for game in games]
    phone = fold_on_phone(games)
    assert len(phone) == GAMES, f"the phone folded {len(phone)} games of {GAMES}"
    for seed, (game, ours, theirs) in enumerate(zip(games, here, phone)):
        assert "crashed" not in theirs, f"game seed {seed} crashed on the phone: {theirs}"
        assert ours[0] == theirs[0], f"game seed {seed}: the rules differ on the phone"
        for index, (expected, got) in enumerate(zip(ours[1:-1], theirs[1:-1])):
            event = "the new game" if index == 0 else game["events"][index - 1]
            assert got == expected, (
                f"game seed {seed} (random_game({seed}, {LENGTH})), after {event} "
                f"(event {index}): the phone has {got}, CPython {expected}")
        assert len(theirs) == len(ours), f"game seed {seed}: the phone folded part of it"
        for part in ("timeline", "to_win"):
            assert theirs[-1][part] == ours[-1][part], f"game seed {seed}: the {part} differs"
    events = sum(len(game["events"]) for game in games)
    taken = sum(1 for states in here for state in states[2:-1] if "refused" not in state)
    assert events > 30 * GAMES and taken > events / 2  # deep games, mostly taken events


def test_every_engine_dataclass_has_its_field_list_on_the_phone():
    listed = phone_files()["_engine_fields.py"]
    lists = field_lists()
    assert {"scorekeeper.engine.state.State", "scorekeeper.engine.events.Hit",
            "scorekeeper.engine.houserules.HouseRules"} <= set(lists)
    for key, names in lists.items():
        assert f"{key!r}: {names!r}" in listed


def test_names_are_cleaned_on_the_server_not_on_the_phone():
    printed = run_on_phone(
        "from scorekeeper.engine.names import clean_name\n"
        "try:\n    clean_name('Nous')\nexcept NotImplementedError as why:\n    print(why)\n")
    assert printed.strip() == "names are cleaned on the server, not on the phone"


def test_without_node_the_test_fails_and_says_why(monkeypatch):
    monkeypatch.setattr(phone_engine.shutil, "which", lambda name: None)
    with pytest.raises(AssertionError, match="node is needed"):
        run_on_phone("print(1)\n")


def taken(state, events: list[dict]) -> list[dict]:
    """The events of `events` the engine takes, one after the other from `state`."""
    kept = []
    for event in events:
        after = replay_taken(state, [event])
        if after is not state:
            kept.append(event)
            state = after
    return kept


def count_on_phone(asked: list[dict]) -> list[dict]:
    """The board's count (count.py's `answer`) of each question, on the phone's runtime."""
    printed = run_on_phone("import json, board_count\n"
                           "for one in json.load(open('/app/asked.json')):\n"
                           "    print(board_count.answer(json.dumps(one)))\n",
                           {"asked.json": json.dumps(asked),
                            "board_count.py": board_files()["board_count.py"]})
    return [json.loads(line) for line in printed.splitlines()]


def test_the_boards_count_on_the_phone_is_cpythons():
    """The board's own count (scorekeeper/phone/count.py): a game's state at
    some event as a board gives it (game_data), the events after it folded
    on the phone as on CPython, to the first one refused."""
    asked = []
    for seed in range(COUNTS):
        game = random_game(seed, LENGTH)
        setup = Setup(tuple(game["sides"]), game["players"], rules_from_spec(game["rules"]),
                      game["first_dealer"])
        cut = len(game["events"]) // 2
        state = replay_taken(new_game(setup), game["events"][:cut])
        rest = game["events"][cut:]
        if seed % 2:  # only the events the engine takes: the count goes to the end
            rest = taken(state, rest)
        asked.append({"game": game_data(state), "events": rest,
                      "moves": hits_of(setup) + marks_of(setup)})
    here = [count(one["game"], one["events"], one["moves"]) for one in asked]
    assert count_on_phone(asked) == json.loads(json.dumps(here))
    # Counts that stop at a refusal, and counts that go to the end; some
    # with a chain open, some with none.
    assert {one["counted"] < len(it["events"]) for one, it in zip(here, asked)} == {True, False}
    assert {one["chain"] is None for one in here} == {True, False}


def test_each_tap_waiting_after_the_last_is_folded_once_and_counts_as_from_the_start(
        monkeypatch):
    """Taps wait in order, each asking the count again with one more: the
    count folds the new tap alone onto its last fold, and answers as a
    fold from the board's game would, on CPython and on the phone; so does
    a question on another game, or with a waiting tap taken back."""
    asked = []
    for seed in range(4):
        game = random_game(seed, LENGTH)
        setup = Setup(tuple(game["sides"]), game["players"], rules_from_spec(game["rules"]),
                      game["first_dealer"])
        state = replay_taken(new_game(setup), game["events"][:LENGTH // 3])
        waiting = taken(state, game["events"][LENGTH // 3:])[:12]
        board = {"game": game_data(state), "moves": hits_of(setup) + marks_of(setup)}
        asked += [dict(board, events=waiting[:k]) for k in range(len(waiting) + 1)]
        asked.append(dict(board, events=waiting[:5] + waiting[6:]))  # the sixth taken back
    fresh = []
    for one in asked:
        board_count._LAST_FOLD.clear()
        fresh.append(count(one["game"], one["events"], one["moves"]))
    board_count._LAST_FOLD.clear()
    folded = []
    monkeypatch.setattr(board_count, "apply", lambda state, event: folded.append(event) or
                        apply(state, event))
    assert [count(one["game"], one["events"], one["moves"]) for one in asked] == fresh
    assert len(folded) == sum(map(new_taps, asked, [None, *asked[:-1]]))
    assert len(folded) * 3 < sum(len(one["events"]) for one in asked)  # each fold from the start
    assert count_on_phone(asked) == json.loads(json.dumps(fresh))


def new_taps(one: dict, before: dict | None) -> int:
    """The taps a question adds to the one before: all of its own but where
    it goes on from that one's (the same game, its taps and more)."""
    goes_on = before is not None and one["game"] == before["game"] and \
        one["events"][:len(before["events"])] == before["events"]
    return len(one["events"]) - (len(before["events"]) if goes_on else 0)


def hits_of(setup) -> list[dict]:
    """Every hit button's event of a board, side by side."""
    return [{"type": "hit", "side": side, "value": value}
            for side in range(setup.side_count) for value in setup.rules.hits]


def announce(*marks) -> dict:
    """The announce event a board's draft Confirm posts: (side, kind) each."""
    return {"type": "announce", "announcements": [{"side": side, "kind": kind}
                                                  for side, kind in marks]}


def marks_of(setup) -> list[dict]:
    """The drafts a board judges for its announcement links: each side's
    Ronda and Tringa alone, two Rondas of one side, and two sides' Rondas."""
    alone = [announce((side, kind)) for side in range(setup.side_count)
             for kind in ("ronda", "tringa")]
    return alone + [announce((0, "ronda"), (0, "ronda")), announce((0, "ronda"), (1, "ronda"))]


def test_the_count_judges_the_drafts_announcements_and_says_what_their_confirm_leaves():
    """Offline, the links of a draft are on as the engine takes the draft
    with them; a confirmed Ronda scores and the deal's announcements are
    recorded (no link on); two Rondas contend: their ranks are to settle."""
    setup = Setup(("Nous", "Eux"), 2)
    game = game_data(new_game(setup))
    moves = marks_of(setup)
    fresh = count(game, [], moves)
    assert fresh["moves_on"] == [True, True, True, True, False, True]
    assert (fresh["announced"], fresh["settle"]) == (False, None)

    ronda = count(game, [announce((0, "ronda"))], moves)
    assert (ronda["scores"], ronda["announced"], ronda["settle"]) == ([1, 0], True, None)
    assert ronda["moves_on"] == [False] * len(moves)

    both = count(game, [announce((0, "ronda"), (1, "ronda"))], moves)
    assert (both["scores"], both["announced"], both["settle"]) == ([0, 0], True, "ronda")
    assert count_on_phone([{"game": game, "events": events, "moves": moves} for events in (
        [], [announce((0, "ronda"))], [announce((0, "ronda"), (1, "ronda"))])]) == [
        json.loads(json.dumps(answer)) for answer in (fresh, ronda, both)]


def test_the_count_gives_the_end_of_hand_sheet_the_points_the_servers_sheet_shows():
    """The sheet's count asked of the engine as the server's sheet asks it
    (board.end_preview, engine card_count): the rest of the deck, the points,
    the scores they leave; nothing while a count is missing; refused beyond
    the deck; the same on the phone."""
    setup = Setup(("Nous", "Eux", "Karim"), 3)
    game = game_data(new_game(setup))
    asked = [{"game": game, "events": [], "cards": cards}
             for cards in ([None, 13], [20, 13], [30, 30], [14, 13])]
    here = [count(one["game"], one["events"], (), one["cards"])["end"] for one in asked]
    missing, counted, beyond, even = here
    assert (missing["computed"], missing["points"], missing["refused"]) == (None, None, False)
    assert missing["start"] == setup.rules.card_threshold_for(3) and missing["deck"] == 40
    assert counted["computed"] == 7 and not counted["refused"]
    preview = end_preview(new_game(setup), [20, 13], lambda words: words)
    assert (counted["points"], counted["scores"]) == (list(preview.points), list(preview.scores))
    assert beyond["refused"] and beyond["points"] is None
    assert even["computed"] == 13
    assert [answer["end"] for answer in count_on_phone(asked)] == json.loads(json.dumps(here))


def test_the_count_says_the_open_chain_as_the_strip_shows_it_and_which_hits_follow():
    """Offline, a Bount for Nous: the strip says Nous +1, Eux's Khamsa
    follows it (Nous's does not, nor a 10 before a 5); Eux's Khamsa: Eux +5,
    Nous's Achra follows; its Over ends the chain and the Khamsa scores."""
    setup = Setup(("Nous", "Eux"), 2)
    game = game_data(new_game(setup))
    moves = hits_of(setup)  # Nous 1, 5, 10; Eux 1, 5, 10
    bount = {"type": "hit", "side": 0, "value": 1}
    khamsa = {"type": "hit", "side": 1, "value": 5}

    opened = count(game, [bount], moves)
    assert opened["chain"] == {"side": 0, "value": 1, "end": {"type": "chain_end"}, "end_on": True}
    assert opened["moves_on"] == [True, False, False, True, True, False]

    followed = count(game, [bount, khamsa], moves)
    assert (followed["chain"]["side"], followed["chain"]["value"]) == (1, 5)
    assert followed["moves_on"] == [True, False, True, True, False, False]
    assert followed["scores"] == [0, 0]  # a chain's hits wait for its end

    over = count(game, [bount, khamsa, {"type": "chain_end"}], moves)
    assert over["chain"] is None
    assert over["moves_on"] == [True, False, False, True, False, False]
    assert over["scores"] == [0, 5]


def test_a_count_that_stops_at_a_refusal_says_the_chain_before_it():
    setup = Setup(("Nous", "Eux"), 2)
    answer = count(game_data(new_game(setup)), [{"type": "hit", "side": 0, "value": 1},
                                                {"type": "hit", "side": 0, "value": 10}],
                   hits_of(setup))
    assert answer["counted"] == 1
    assert (answer["chain"]["side"], answer["chain"]["value"]) == (0, 1)
    assert answer["moves_on"][4]  # Eux's Khamsa, after the Bount the count took


def test_the_boards_data_reads_back_as_the_game_it_shows():
    """game_data (what a board page carries) read back by start (on the
    phone): the same state, less what its last event scored."""
    for seed in range(COUNTS):
        game = random_game(seed, LENGTH)
        setup = Setup(tuple(game["sides"]), game["players"], rules_from_spec(game["rules"]),
                      game["first_dealer"])
        state = replay_taken(new_game(setup), game["events"])
        data = json.loads(json.dumps(game_data(state)))  # as the page carries it
        assert start(data) == replace(state, gains=()), f"game seed {seed}"


def board_at(sides: tuple[str, ...], scores: list[int], players: int = 0, **rules) -> dict:
    """A new game's board data with its scores set by adjustments, as a board
    page carries it (game_data)."""
    setup = Setup(sides, players or len(sides), rules_from_spec({"preset": "appli", **rules}), 0)
    events = [{"type": "adjust", "side": side, "points": points}
              for side, points in enumerate(scores) if points]
    return json.loads(json.dumps(game_data(replay_taken(new_game(setup), events))))


def test_the_boards_count_names_the_side_that_reached_the_target_as_the_winner():
    asked = [
        {"game": board_at(("Nous", "Eux", "Karim"), [20, 31, 32]),
         "events": [{"type": "missa", "side": 2}]},
        # Two teams of two: the team is the winner.
        {"game": board_at(("Omar & Leila", "Karim & Sofia"), [20, 32], players=4),
         "events": [{"type": "missa", "side": 1}]},
        # Nothing more is counted in it: a tap after the win is the server's to judge.
        {"game": board_at(("Nous", "Eux"), [0, 32]),
         "events": [{"type": "missa", "side": 1}, {"type": "missa", "side": 0}]},
    ]
    here = [count(one["game"], one["events"]) for one in asked]
    assert [(one["finished"], one["winner"], one["scores"], one["to_win"], one["counted"])
            for one in here] == [(True, 2, [20, 31, 33], None, 1), (True, 1, [20, 33], None, 1),
                                 (True, 1, [0, 33], None, 1)]
    assert count_on_phone(asked) == json.loads(json.dumps(here))


def test_the_boards_count_names_no_winner_before_the_engine_does():
    # The winning tap taken back (the count without it), and a house rule
    # that waits for the hand's end: no result yet.
    assert count(board_at(("Nous", "Eux"), [32, 0]), [])["winner"] is None
    waits = count(board_at(("Nous", "Eux"), [32, 0], stop="end_of_hand"),
                  [{"type": "missa", "side": 0}])
    assert (waits["finished"], waits["winner"], waits["scores"]) == (False, None, [33, 0])
