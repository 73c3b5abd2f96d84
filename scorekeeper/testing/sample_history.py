"""A large, consistent history of games, written fast through the import's
own write (service/transfer.py): for the 10,000-game test of the history and
statistics pages (tests/web/test_history_scale.py) and the benchmarks (bench/).

A few dozen games are played through the engine by a random but legal
scorer and checked once by the import's check; each stored game is one of
them under new ids, names and times, with its whole log, its state
snapshot, its summary rows, its seats and ratings, written by the same code
that writes an imported game. Use:

    from scorekeeper.testing.sample_history import build, fill
    built = build("/tmp/big.sqlite3")  # a new store: the app's schema, 10,000 games
    built = fill(db, 10_000)  # or into an open store that has the app's schema
"""

import random
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone

import sqlite_utils

from .. import engine
from ..service import transfer
from ..service.games import ID_LENGTH
from ..service.ids import ALPHABET
from ..storage import migrations, store
from ..storage.db import connect

NAMES = ("Ali", "Karim", "Youssef", "Fatima", "Samira", "Omar", "Nadia", "Hassan", "Leila",
         "Rachid", "Zineb", "Mehdi", "Salma", "Amine", "Khadija", "Nous", "Eux", "Vous")
TEMPLATES = 40
START = datetime(2025, 1, 3, 20, 0, tzinfo=timezone.utc)


@dataclass(frozen=True, slots=True)
class Template:
    setup: engine.Setup  # its sides are placeholders
    events: list[dict]  # as stored
    state: engine.State
    rules: dict  # the house rules, as stored


@dataclass(frozen=True, slots=True)
class BuiltGame:
    id: str
    created_at: str
    sides: tuple[str, ...]
    scores: tuple[int, ...]
    finished: bool
    winner: int | None
    deleted: bool


def _candidates(state: engine.State, rng: random.Random) -> list[dict]:
    """Events a scorer might send now, likeliest first; the engine says which are legal."""
    sides = state.setup.side_count
    side = rng.randrange(sides)
    other = (side + 1 + rng.randrange(sides - 1)) % sides
    events = []
    if state.awaiting_reveal:
        events.append({"type": "reveal", "ranks": [rng.choice(engine.RANKS) for _ in range(sides)]})
    if not state.announced and not state.played and rng.random() < 0.35:
        kind = "tringa" if rng.random() < 0.15 else "ronda"
        announcements = [{"side": side, "kind": kind}]
        if rng.random() < 0.4:
            announcements.append({"side": other, "kind": "ronda"})
        events.append({"type": "announce", "announcements": announcements})
    if state.chain is not None and rng.random() < 0.5:
        holder = state.chain.side
        later = (holder + 1) % sides
        events.append({"type": "hit", "side": later, "value": state.setup.rules.hits[
            min(2, state.chain.step + 1)]})
    roll = rng.random()
    if roll < 0.45:
        events.append({"type": "hit", "side": side, "value": 1})
    elif roll < 0.7:
        events.append({"type": "missa", "side": side})
    elif roll < 0.74:
        events.append({"type": "adjust", "side": side, "points": rng.choice((-2, 1, 3))})
    if state.last_deal:
        given = rng.randrange(12, 29)
        cards = [given] + [max(0, (40 - given) // sides)] * (sides - 2) + [None]
        events.append({"type": "end_hand", "cards": cards})
    else:
        events.append({"type": "next_deal"})
    if state.chain is not None:
        events.append({"type": "chain_end"})
    return events


def _play(setup: engine.Setup, rng: random.Random, length: int) -> Template:
    """A game played by a random scorer: until it is over, or `length` events."""
    state = engine.new_game(setup)
    events: list[engine.Event] = []
    while not state.finished and len(events) < length:
        for data in _candidates(state, rng):
            event = engine.parse_event(data, setup)
            try:
                state = engine.apply(state, event)
            except engine.ScoringError:
                continue
            events.append(event)
            break
    return Template(setup, [engine.to_dict(e) for e in events], state, setup.rules.to_dict())


def templates(seed: int = 4) -> list[Template]:
    rng = random.Random(seed)
    made = []
    for number in range(TEMPLATES):
        players = (2, 2, 4, 3)[number % 4]
        sides = tuple(f"side{s}" for s in range(3 if players == 3 else 2))
        setup = engine.Setup(sides, players, engine.BUILT_IN_PRESETS[("appli", "classique")[
            number % 5 == 4]], first_dealer=number % len(sides))
        # One in eight stays unfinished: a game still running.
        made.append(_play(setup, rng, 30 if number % 8 == 7 else 400))
    return made


def _ids(rng: random.Random, count: int) -> list[str]:
    ids: set[str] = set()
    while len(ids) < count:
        ids.add("".join(rng.choices(ALPHABET, k=ID_LENGTH)))
    return sorted(ids, key=lambda _: rng.random())


def _document(template: Template, game_id: str, names: tuple[str, ...], created: str,
              times: list[str], deleted_at: str | None) -> dict:
    """The export document of a template's game under its own id, names and times."""
    state = template.state
    return {
        "id": game_id, "created_at": created, "updated_at": times[-1] if times else created,
        "deleted_at": deleted_at, "sides": list(names), "players": template.setup.players,
        "first_dealer": template.setup.first_dealer, "rules": template.rules,
        "creation_key": None, "version": len(template.events),
        "result": {"scores": list(state.scores), "finished": state.finished,
                   "winner": state.winner, "hand": state.hand, "deal": state.deal},
        "log": [{"seq": seq, "action": "event", "payload": event,
                 "idempotency_key": None, "undone_by": None, "created_at": time}
                for seq, (event, time) in enumerate(zip(template.events, times), 1)],
        "seats": [[name] for name in names],
    }


def _checked(template: Template, checked: transfer.Checked, document: dict) -> transfer.Checked:
    """`checked` (the template's game, checked once by the import's own
    check) as the game of `document`: only its id, names and times differ,
    which score nothing, so it needs no second replay."""
    setup = replace(template.setup, sides=tuple(document["sides"]))
    row = dict(checked.game_row, id=document["id"], created_at=document["created_at"],
               updated_at=document["updated_at"], sides=store.dumps(document["sides"]))
    times = [record["created_at"] for record in document["log"]]
    rows = [(document["id"], seq, action, payload, key, undone_by, time, place)
            for (_, seq, action, payload, key, undone_by, _, place), time
            in zip(checked.rows, times)]
    return replace(checked, document=document, setup=setup, game_row=row, rows=rows,
                   last_event_at=times[-1] if times else None,
                   partners=[list(names) for names in document["seats"]])


def fill(db: sqlite_utils.Database, count: int = 10_000, seed: int = 4,
         deleted_every: int = 50) -> list[BuiltGame]:
    """Store `count` games (one in `deleted_every` in the bin), oldest first,
    each a day's few games apart, through the import's own write
    (service/transfer.py); returns what was stored, for checking."""
    rng = random.Random(seed)
    made = templates(seed)
    checked_templates = [
        transfer.check_game(_document(t, f"template{n:04d}", t.setup.sides, START.isoformat(),
                                      [START.isoformat()] * len(t.events), None))
        for n, t in enumerate(made)
    ]
    built, checked = [], []
    for number, game_id in enumerate(_ids(rng, count)):
        template = made[number % len(made)]
        state = template.state
        names = tuple(rng.sample(NAMES, template.setup.side_count))
        start = START + timedelta(minutes=53 * number)
        created = start.isoformat(timespec="milliseconds")
        times = [(start + timedelta(seconds=20 * (i + 1))).isoformat(timespec="milliseconds")
                 for i in range(len(template.events))]
        updated = times[-1] if times else created
        deleted = (number % deleted_every == deleted_every - 1) if deleted_every else False
        document = _document(template, game_id, names, created, times,
                             updated if deleted else None)
        checked.append(_checked(template, checked_templates[number % len(made)], document))
        built.append(BuiltGame(game_id, created, names, state.scores, state.finished,
                               state.winner, deleted))
    transfer.store_checked(db, checked)
    return built


def build(path: str, count: int = 10_000, seed: int = 4) -> list[BuiltGame]:
    """A store at `path` (a new file) with the app's schema and `count` games."""
    db = connect(path)
    try:
        migrations.migrate(db)
        return fill(db, count, seed)
    finally:
        db.close()
