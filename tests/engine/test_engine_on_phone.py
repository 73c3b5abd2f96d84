"""The engine on the phone's runtime (MicroPython's wasm, vendored under
static/vendor/micropython/, run by node) folds every game as CPython does.

Seeded random games of every event type and house rule go through
phone_fold.py on both Pythons; the state after every event (its plain-data
snapshot), or the refusal, must be the same, and so must what a board shows
of the game (its timeline and what each side needs to win). A divergence names the game's
seed and the event.
"""

import json
import os

import pytest

from scorekeeper.phone import field_lists, phone_files
from support import phone_engine
from support.phone_engine import fold_on_phone, random_game, run_on_phone
from support.phone_fold import fold

# `make check` folds fewer (PHONE_GAMES), as it sends the fuzzers fewer requests.
GAMES = int(os.environ.get("PHONE_GAMES", "300"))
LENGTH = 100


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
