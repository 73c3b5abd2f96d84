"""A simulated table scored on two phones through the service layer
(docs/BOARD.md, "Two phones"): the table plays a random game, each phone
taps what its scorer sees, with delays, outages of up to 10 minutes and
reconnections in either order, and the server merges the taps by the rule.

`play(seed, mode)` replays one run from its seed: the same seed, the same
table, the same taps, in the same order.
"""

import random
from collections import Counter
from dataclasses import dataclass, field

from scorekeeper import engine
from scorekeeper.engine import ScoringError
from scorekeeper.engine.merge import AFTER, DONE, PLACE, SAME
from scorekeeper.service import games, scoreboard
from scorekeeper.storage import migrations
from scorekeeper.storage.db import connect

NOW = "2026-12-07T12:00:00+00:00"
# redundant: both phones tap every event. split: each taps its side's events,
# phone b the deal's own (its announcements), both the deal's moves (Next
# deal, the count: a phone away knows its deal by them). chained split: the
# same with hit chains, whose steps the two phones share. mixed: each event
# tapped on one phone or both.
MODES = ("redundant", "split", "chained split", "mixed")
# What a board says of a tap that counted (the rest it says are refusals).
SAID = (SAME, DONE, PLACE, AFTER)


def store():
    """One in-memory store for many runs (one game each)."""
    db = connect(":memory:")
    migrations.migrate(db)
    return db


@dataclass
class Run:
    """What one run gave: the table's game and the merged one, and what the
    boards said (a tap counted once as the other phone's, or refused)."""

    seed: int
    mode: str
    game_id: str
    table: engine.State
    merged: engine.State
    table_events: list
    merged_events: list
    said: list = field(default_factory=list)

    def same_game(self, by_deal: bool = False) -> bool:
        """Whether the merged game is the table's: score, winner, and its
        events (in order; by_deal: each deal's, in any order)."""
        if (self.merged.scores, self.merged.finished, self.merged.winner) != (
                self.table.scores, self.table.finished, self.table.winner):
            return False
        if not by_deal:
            return self.merged_events == self.table_events
        return _by_deal(self.merged, self.merged_events) == _by_deal(self.table,
                                                                     self.table_events)

    def __str__(self) -> str:
        return (f"seed {self.seed} ({self.mode}): table {self.table.scores} "
                f"{self.table_events}, merged {self.merged.scores} {self.merged_events}, "
                f"said {self.said}")


def _by_deal(state: engine.State, events: list) -> list[Counter]:
    """Each deal's events, counted (a deal ends at a Next deal or a count)."""
    deals, current = [], Counter()
    for event in events:
        current[repr(sorted(event.items()))] += 1
        if event["type"] in ("next_deal", "end_hand"):
            deals.append(current)
            current = Counter()
    return deals + [current]


# What a table plays, as often as it plays it. A hit chain's steps alternate
# sides, each meaning the chain as the step before it left it, and a Missa
# closes an open chain: split between two phones, their order is only known
# to the table, so split runs play no chain (chained split, redundant and
# mixed runs do: where a step reaches the server before the one it follows,
# it is refused, and its board says so),
# nor a negative adjustment (a score that only grows reaches the target at
# the same count whatever the order of the deal's taps).
KINDS = ("hit", "hit", "hit", "missa", "missa", "chain_end", "next_deal", "next_deal",
         "announce", "end_hand", "adjust")
UNCHAINED = tuple(kind for kind in KINDS if kind not in ("hit", "chain_end"))


def table_game(rng: random.Random, setup: engine.Setup, length: int,
               kinds: tuple[str, ...] = KINDS) -> list[dict]:
    """A game the table plays: `length` events the engine takes, at random."""
    state, events = engine.new_game(setup), []
    while len(events) < length and not state.finished:
        for _ in range(30):
            event = _candidate(rng, setup, state, kinds)
            try:
                after = engine.apply(state, engine.parse_event(event, setup))
            except ScoringError:
                continue
            state, events = after, events + [event]
            break
        else:
            break
    return events


def _candidate(rng: random.Random, setup: engine.Setup, state: engine.State,
               kinds: tuple[str, ...] = KINDS) -> dict:
    side = rng.randrange(setup.side_count)
    kind = rng.choice(kinds)
    if kind == "hit":
        return {"type": "hit", "side": side, "value": rng.choice(setup.rules.hits)}
    if kind == "missa":
        return {"type": "missa", "side": side, "last_card": False}
    if kind == "announce":
        return {"type": "announce", "announcements": [
            {"side": side, "kind": rng.choice(("ronda", "tringa")), "rank": None}]}
    if kind == "end_hand":
        cards = [rng.randrange(5, 30)] + [None] * (setup.side_count - 1)
        return {"type": "end_hand", "cards": cards}
    if kind == "adjust":
        points = rng.choice((-2, 1, 3) if "hit" in kinds else (1, 3))
        return {"type": "adjust", "side": side, "points": points, "note": ""}
    return {"type": kind}


def tappers(rng: random.Random, setup: engine.Setup, events: list[dict], mode: str
            ) -> list[str]:
    """Which phone taps each event ("a", "b" or "ab"). Split: side 0's
    events on phone a, the other sides' on phone b, which also confirms
    the deal's announcements; the deal's moves (Next deal, the count) on
    both, so that a phone away knows its deal."""
    if mode == "redundant":
        return ["ab"] * len(events)
    if mode == "mixed":
        return [rng.choice(("a", "b", "ab")) for _ in events]
    return ["ab" if event["type"] in ("next_deal", "end_hand") else
            "a" if event.get("side") == 0 and event["type"] != "announce" else "b"
            for event in events]


@dataclass
class Phone:
    """A phone: its device, and the times it was away from the server."""

    device: str
    outages: list[tuple[float, float]]

    def away_at(self, time: float) -> tuple[float, float] | None:
        return next(((start, end) for start, end in self.outages if start <= time < end), None)


def _phone(rng: random.Random, device: str, span: float) -> Phone:
    outages = []
    for _ in range(rng.randrange(3)):
        start = rng.uniform(0, span)
        outages.append((start, start + rng.uniform(1, 600)))  # up to 10 minutes
    return Phone(device, sorted(outages))


def sends(rng: random.Random, events: list[dict], owners: list[str], phones: dict
          ) -> tuple[list[tuple], list[float]]:
    """Every tap as sent: (time it reaches the server, phone, index of the
    event, the time its board last followed the server), in each phone's
    order; and when each event happened at the table."""
    times, now = [], 0.0
    for _ in events:
        now += rng.uniform(1, 20)
        times.append(now)
    found = []
    for name, phone in phones.items():
        last = 0.0
        for index, (at, owner) in enumerate(zip(times, owners)):
            if name not in owner:
                continue
            # Each scorer's finger comes down up to a second after the event:
            # the other phone's tap of it may be on this board by then.
            touch = at + rng.uniform(0, 1)
            away = phone.away_at(touch)
            # Its board: the server as followed when the finger came down,
            # or as it was when the outage began.
            saw = away[0] if away else touch
            leaves = (away[1] if away else touch) + rng.uniform(0.05, 1.5)
            last = max(last + 0.001, leaves)  # one phone's taps go in order
            found.append((last, name, index, saw))
    return sorted(found), times


def play(seed: int, mode: str, db=None, length: int = 24) -> Run:
    """One run: the table's game, scored on two phones, merged by the server."""
    rng = random.Random(f"{mode}:{seed}")
    db = db or store()
    split = mode in ("split", "chained split")
    rules = {"stop": "end_of_hand"} if split else {
        "stop": rng.choice(("immediate", "end_of_hand"))}
    players = rng.choice((2, 2, 3, 4))
    body = {"sides": ["A", "B", "C"][:3 if players == 3 else 2], "players": players,
            "rules": {"preset": "appli", "target": rng.choice((21, 33)), **rules}}
    game, _ = games.create(db, body, None, NOW)
    events = table_game(rng, game.setup, length, UNCHAINED if mode == "split" else KINDS)
    owners = tappers(rng, game.setup, events, mode)
    phones = {name: _phone(rng, f"{mode}-{seed}-{name}", len(events) * 10) for name in "ab"}
    history = [(0.0, game.version)]  # the server's version, by time
    said = []
    for at, name, index, saw in sends(rng, events, owners, phones)[0]:
        seen = max(version for time, version in history if time <= saw)
        try:
            tapped = scoreboard.tap(db, game.id, dict(events[index]), f"{name}:{index}", NOW,
                                    seen, phones[name].device)
        except ScoringError as refusal:
            said.append((name, index, events[index]["type"], str(refusal)))
            continue
        if tapped.action in SAID:  # what the board says of it
            said.append((name, index, events[index]["type"], tapped.action))
        history.append((at, tapped.game.version))
    merged = games.load(db, game.id)
    table = engine.replay(game.setup, [engine.parse_event(e, game.setup) for e in events])
    merged_events = [event for _, event in games.standing_events(db, game.id)]
    assert merged.state == games.replay_log(db, game.id), f"seed {seed}: the fold"
    return Run(seed, mode, game.id, table, merged.state, events, merged_events, said)
