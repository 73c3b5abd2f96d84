"""The engine on the phone's runtime: seeded random games, and a run of
phone_fold.py on the vendored MicroPython wasm in node (phone_engine.mjs)."""

import json
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from scorekeeper.engine import (
    RANKS,
    ScoringError,
    Setup,
    apply,
    new_game,
    parse_event,
    rules_from_spec,
)
from scorekeeper.phone import phone_files

HERE = Path(__file__).parent
PLAYERS = (2, 3, 4)
NO_NODE = ("node is needed to run the engine on the phone's runtime (MicroPython's wasm): "
           "install Node.js (Debian: apt-get install nodejs)")


def random_rules(rng: random.Random) -> dict:
    """House rules at random, every key of the API's `rules` object."""
    return {
        "preset": rng.choice(["appli", "classique"]),
        "target": rng.choice([rng.randint(11, 45), rng.randint(46, 101)]),
        "stop": rng.choice(["immediate", "end_of_hand"]),
        "ronda": rng.randint(0, 3),
        "tringa": rng.choice([3, 5]),
        "tringa_contest": rng.choice(["higher", "lower"]),
        "missa": rng.randint(0, 2),
        "card_threshold": rng.randint(10, 30),
        "card_threshold_3": rng.randint(5, 20),
        "hits": rng.choice([[1, 5, 10], [1, 6, 15]]),
        "missa_with_hit": rng.random() < 0.5,
        "missa_exclusion": rng.choice(["last_card", "last_deal", "none"]),
        "chain_with_two_players": rng.random() < 0.5,
        "four_card_first_deal": rng.random() < 0.5,
        "hidden_ronda_penalty": rng.choice([0, 1, 5]),
        "dealer_last_trick": rng.choice([0, 5]),
    }


def _rank(rng: random.Random):
    # Few ranks often, so that ties (and shared pools) are common.
    return rng.choice([5, 7, 5, 7, rng.choice(RANKS), None])


def _cards(rng: random.Random, sides: int) -> list:
    cards, left = [], 40
    for counted in range(sides - 1):
        fair = left // (sides - counted)
        count = rng.choice([rng.randint(0, left), fair, max(0, min(left, fair + rng.randint(-2, 2)))])
        cards.append(count)
        left -= count
    cards.insert(rng.randrange(sides), None)
    return cards


def random_event(rng: random.Random, sides: int, players: int, hits: list[int]) -> dict:
    """An event of any type, mostly well formed; some the engine refuses."""
    side = rng.randrange(sides)
    kind = rng.choice(["hit", "hit", "hit", "missa", "missa", "chain_end", "announce", "announce",
                       "reveal", "next_deal", "next_deal", "end_hand", "adjust", "hidden_ronda",
                       "dealer_last_trick", "malformed"])
    if kind == "hit":
        return {"type": "hit", "side": side, "value": rng.choice(hits + [hits[1] + 1])}
    if kind == "missa":
        return {"type": "missa", "side": side, "last_card": rng.random() < 0.3}
    if kind == "announce":
        seats = rng.sample(range(players), rng.randint(1, players))
        return {"type": "announce", "announcements": [
            {"side": seat % sides, "kind": rng.choice(["ronda", "ronda", "tringa", "double_ronda"]),
             "rank": _rank(rng)} for seat in seats]}
    if kind == "reveal":
        return {"type": "reveal", "ranks": [_rank(rng) for _ in range(sides)]}
    if kind == "end_hand":
        return {"type": "end_hand", "cards": _cards(rng, sides)}
    if kind == "adjust":
        return {"type": "adjust", "side": side, "points": rng.choice([-5, -1, 1, 2, 3]),
                "note": rng.choice(["", "oubli"])}
    if kind == "hidden_ronda":
        event = {"type": "hidden_ronda", "side": side}
        if sides == 3 or rng.random() < 0.5:
            event["to"] = (side + rng.randint(1, sides - 1)) % sides
        return event
    if kind == "dealer_last_trick":
        return {"type": kind, "outcome": rng.choice(["twelve", "one", "missed"])}
    if kind == "malformed":
        return rng.choice([{"type": "hit", "side": sides, "value": 1}, {"type": "nothing"},
                           {"type": "hit", "side": 0, "value": 1, "extra": 1},
                           {"type": "adjust", "side": 0, "points": "3"}, {"side": 0}])
    return {"type": kind}


def random_game(seed: int, length: int) -> dict:
    """Game `seed`: players, rules and up to `length` events at random, the
    same on every machine. Most events are ones the engine takes (a refused
    one is kept one time in five), so that games go deep; then two events
    more (refused when the game is over)."""
    rng = random.Random(seed)
    players = rng.choice(PLAYERS)
    sides = 2 if players == 4 else players
    rules = random_rules(rng)
    events = []
    if rng.random() < 0.25:  # every side near the target, where ties in the lead are likely
        events = [{"type": "adjust", "side": s, "points": rules["target"] - rng.choice([1, 2, 3])}
                  for s in range(sides)]
    setup = Setup(("A", "B", "C")[:sides], players, rules_from_spec(rules), rng.randrange(sides))
    state = replay_taken(new_game(setup), events)
    while len(events) < length and not state.finished:
        event = random_event(rng, sides, players, rules["hits"])
        taken = replay_taken(state, [event])
        if taken is not state or rng.random() < 0.2:
            events.append(event)
            state = taken
    events += [random_event(rng, sides, players, rules["hits"]) for _ in range(2)]
    return {"sides": list(setup.sides), "players": players, "rules": rules,
            "first_dealer": setup.first_dealer, "events": events}


def replay_taken(state, events: list[dict]):
    """`state` after the events of `events` the engine takes."""
    for event in events:
        try:
            state = apply(state, parse_event(event, state.setup))
        except ScoringError:
            pass
    return state


def run_on_phone(main: str, files: dict[str, str] | None = None, timeout: float = 120) -> str:
    """What `main` (Python) prints on MicroPython in node, with the engine's
    phone files and `files` beside it; a Python error fails with its traceback."""
    node = shutil.which("node")
    if node is None:
        raise AssertionError(NO_NODE)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for name, text in {**phone_files(), **(files or {}), "main.py": main}.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text, encoding="utf-8")
        done = subprocess.run([node, str(HERE / "phone_engine.mjs"), folder], capture_output=True,
                              text=True, timeout=timeout)
    if done.returncode != 0:
        raise AssertionError(f"the engine failed on the phone's runtime:\n{done.stderr[-3000:]}")
    return done.stdout


def fold_on_phone(games: list[dict]) -> list[list]:
    """Each game folded by phone_fold.py on MicroPython: one list a game."""
    printed = run_on_phone("import phone_fold\nphone_fold.main('/app/games.json')\n", {
        "phone_fold.py": (HERE / "phone_fold.py").read_text(encoding="utf-8"),
        "games.json": json.dumps(games),
    })
    return [json.loads(line) for line in printed.splitlines()]
