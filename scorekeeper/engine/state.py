"""A game's fixed set-up and its state between two events: frozen plain data.

`State.snapshot()` / `State.from_snapshot()` turn a state (less its set-up)
into JSON-ready data and back, so the shell can keep the latest state beside the log and
apply a new event without replaying the whole game.
"""

from dataclasses import dataclass, field
from typing import Any

from .houserules import HouseRules

DEALS_PER_HAND = {2: 6, 3: 4, 4: 3}


@dataclass(frozen=True, slots=True)
class Setup:
    sides: tuple[str, ...]
    players: int
    rules: HouseRules = field(default_factory=HouseRules)
    first_dealer: int = 0

    @property
    def side_count(self) -> int:
        return len(self.sides)

    @property
    def deals_per_hand(self) -> int:
        return DEALS_PER_HAND[self.players]

    def dealer(self, hand: int) -> int:
        """The side dealing hand `hand`: the deal passes on at every hand, and
        with four players the seats alternate between the two teams."""
        return (self.first_dealer + hand - 1) % self.side_count

    @property
    def four_card_hands(self) -> bool:
        """Whether this game's hands start with a four-card deal (where a
        double Ronda exists)."""
        return self.players == 4 and self.rules.four_card_first_deal

    def four_card_deal(self, deal: int) -> bool:
        """Whether deal `deal` gives four cards (where a double Ronda exists)."""
        return self.four_card_hands and deal == 1


@dataclass(frozen=True, slots=True)
class Chain:
    """The open hit chain: who made its last step, and which step (0, 1, 2)."""

    side: int
    step: int


@dataclass(frozen=True, slots=True)
class Pool:
    """A deal's announcements waiting for ranks before they can be scored.

    `kind` is the deciding kind ("ronda" or "tringa"), `contenders` the sides
    that hold it, `ranks` one entry per side: the rank known so far or None.
    """

    kind: str
    total: int
    contenders: tuple[int, ...]
    ranks: tuple[int | None, ...]

    def missing(self) -> tuple[int, ...]:
        return tuple(s for s in self.contenders if self.ranks[s] is None)


@dataclass(frozen=True, slots=True)
class Gain:
    """Points given at once, to one or several sides: the target is checked
    after a whole gain. `kind` says what scored (ronda, double_ronda, tringa,
    hit, hit_missa, missa, cards, adjust, hidden_ronda, dealer_last_trick);
    `value` is a hit's value where there is one."""

    kind: str
    points: tuple[int, ...]
    value: int | None = None


@dataclass(frozen=True, slots=True)
class State:
    setup: Setup
    scores: tuple[int, ...]
    hand: int = 1
    deal: int = 1
    chain: Chain | None = None
    announced: bool = False  # this deal's announcements are recorded
    played: bool = False  # this deal's first hit or missa is recorded (shown, not a rule)
    pool: Pool | None = None
    last_trick_done: bool = False  # the dealer's last trick of this hand
    # This hand's very last card's Missa is recorded (shown, not a rule: the
    # API takes a second one, a scoreboard offers it once a hand).
    last_card: bool = False
    finished: bool = False
    winner: int | None = None
    gains: tuple[Gain, ...] = ()  # what the last event scored
    events: int = 0  # how many events were applied
    # Why the last event scored less than it might have: "chain_open" (its
    # hit counts when the chain stops), "awaiting_ranks", "missa_last_card",
    # "missa_last_deal" (the missa part is worth nothing), "cards_none_over",
    # "missa_after_end" and "cards_after_end" (the open chain's hit, counted
    # first, ended the game: the event's own points came after the end);
    # a timeline (moves.timeline) turns "chain_open" into "chain_counted" or
    # "chain_lost" once the chain has stopped.
    # Words for the scorer, not part of the game's state: not compared.
    notes: tuple[str, ...] = field(default=(), compare=False)

    @property
    def awaiting_reveal(self) -> bool:
        return self.pool is not None and not self.finished

    @property
    def last_deal(self) -> bool:
        return self.deal >= self.setup.deals_per_hand

    @property
    def dealer(self) -> int:
        return self.setup.dealer(self.hand)

    def chain_value(self) -> int | None:
        return None if self.chain is None else self.setup.rules.hits[self.chain.step]

    def snapshot(self) -> dict[str, Any]:
        """Everything but the set-up, which the shell stores apart."""
        return {
            "scores": list(self.scores),
            "hand": self.hand,
            "deal": self.deal,
            "chain": None if self.chain is None else [self.chain.side, self.chain.step],
            "announced": self.announced,
            "played": self.played,
            "pool": None if self.pool is None else {
                "kind": self.pool.kind,
                "total": self.pool.total,
                "contenders": list(self.pool.contenders),
                "ranks": list(self.pool.ranks),
            },
            "last_trick_done": self.last_trick_done,
            "last_card": self.last_card,
            "finished": self.finished,
            "winner": self.winner,
            "gains": [[g.kind, list(g.points), g.value] for g in self.gains],
            "events": self.events,
            "notes": list(self.notes),
        }

    @staticmethod
    def snapshot_is_whole(data: dict[str, Any]) -> bool:
        """Whether a stored snapshot holds all of a state (one written before
        `last_card` existed does not: its game's log tells)."""
        return "last_card" in data

    @classmethod
    def from_snapshot(cls, data: dict[str, Any], setup: Setup) -> "State":
        pool = data["pool"]
        return cls(
            setup=setup,
            scores=tuple(data["scores"]),
            hand=data["hand"],
            deal=data["deal"],
            chain=None if data["chain"] is None else Chain(*data["chain"]),
            announced=data["announced"],
            played=data["played"],
            pool=None if pool is None else Pool(
                pool["kind"], pool["total"], tuple(pool["contenders"]), tuple(pool["ranks"])
            ),
            last_trick_done=data["last_trick_done"],
            # Snapshots stored before it existed read False: the shell folds
            # their log instead (snapshot_is_whole).
            last_card=data.get("last_card", False),
            finished=data["finished"],
            winner=data["winner"],
            gains=tuple(Gain(k, tuple(p), v) for k, p, v in data["gains"]),
            events=data["events"],
            notes=tuple(data.get("notes", ())),  # snapshots stored before notes existed
        )
