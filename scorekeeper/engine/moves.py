"""Questions a scoreboard asks the engine before the scorer taps.

Each answer comes from `apply` itself, so a button is disabled for exactly
the reason the engine would refuse the event, and a preview shows exactly
the points the event would give: no rule is decided twice.
"""

from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping

from .errors import N_, RuleViolation, ScoringError
from .events import RANKS, Event, Hit, Missa, parse_event
from .fold import apply, new_game
from .limits import DECK
from .state import Gain, Setup, State


def outcome(state: State, event: Event) -> tuple[State | None, ScoringError | None]:
    """The state `event` would lead to, or why the engine would refuse it."""
    try:
        return apply(state, event), None
    except ScoringError as error:
        return None, error


def outcome_of(state: State, data: Mapping[str, Any]) -> tuple[State | None, ScoringError | None]:
    """As `outcome`, for an event in its plain form: read as a new event is
    (`parse_event`), so a button is off for every reason the app would
    refuse its tap, the malformed as well as the refused."""
    try:
        event = parse_event(data, state.setup)
    except ScoringError as error:
        return None, error
    return outcome(state, event)


def refusal(state: State, event: Event) -> ScoringError | None:
    """Why the engine would refuse `event` now, or None if it would take it."""
    return outcome(state, event)[1]


def preview(state: State, event: Event) -> State | None:
    """The state `event` would lead to, or None if it would be refused."""
    return outcome(state, event)[0]


def points_of(gains: Iterable[Gain], sides: int) -> tuple[int, ...]:
    """What a list of gains gives each side, summed."""
    totals = [0] * sides
    for gain in gains:
        for side, points in enumerate(gain.points):
            totals[side] += points
    return tuple(totals)


@dataclass(frozen=True, slots=True)
class CardCount:
    """What a card count typed in the end-of-hand sheet (one count per side
    but the last) would do: the last side's cards (what the others leave of
    the deck), and the state it leads to or why the engine refuses it."""

    computed: int
    after: State | None
    error: ScoringError | None

    def parts(self) -> tuple[tuple[tuple[str, int | None, int], ...], ...]:
        """Each side's points part by part, as the gains give them: (kind,
        value, points); the open chain's hit the count closes, the cards."""
        sides = len(self.after.scores)
        return tuple(tuple((gain.kind, gain.value, gain.points[side])
                           for gain in self.after.gains if gain.points[side])
                     for side in range(sides))


def even_count(setup: Setup) -> dict:
    """The end_hand event a board judges its End of hand link by (whether
    the hand can end now; the count itself is asked in its sheet): each
    side its share of the deck."""
    return {"type": "end_hand",
            "cards": [DECK // setup.side_count] * (setup.side_count - 1) + [None]}


def card_count(state: State, given: Iterable[int]) -> CardCount:
    """The end of the hand with the cards `given` (every side's but the
    last), asked of the engine; raises InvalidInput for counts no deck holds."""
    event = parse_event({"type": "end_hand", "cards": list(given) + [None]}, state.setup)
    after, error = outcome(state, event)
    return CardCount(event.counts()[-1], after, error)


@dataclass(frozen=True, slots=True)
class ToWin:
    """What one side needs to win, if no other side scored meanwhile.

    `points`: the fewest points more that would make it the winner (§6: the
    target reached, alone in the lead). `tied`: it is level with the lead at
    the target or above, so one more point wins. With `stop: end_of_hand`
    the target is checked once the hand's cards are counted: `points` 0
    then means it wins at the end of this hand if it is still ahead."""

    points: int
    tied: bool
    at_hand_end: bool

    @property
    def standing(self) -> str:
        """Which of a board's lines says it: "ahead" (wins at the count),
        "tied_at_count" (the count decides), "tied" (one more wins) or
        "behind" (needs `points`)."""
        if self.points == 0:
            return "ahead"
        if self.tied:
            return "tied_at_count" if self.at_hand_end else "tied"
        return "behind"


def to_win(state: State) -> tuple[ToWin, ...]:
    """Each side's ToWin in a game that is not over."""
    target = state.setup.rules.target
    at_hand_end = state.setup.rules.stop == "end_of_hand"
    answers = []
    for side, score in enumerate(state.scores):
        best_other = max(s for other, s in enumerate(state.scores) if other != side)
        points = max(0, max(target, best_other + 1) - score)
        answers.append(ToWin(points, score == best_other and score >= target, at_hand_end))
    return tuple(answers)


# The deck holds four cards of each rank; a Tringa shows three of its rank, a
# Ronda (and a double Ronda's higher pair) two.
CARDS_OF_A_RANK = DECK // len(RANKS)
CARDS_SHOWN = {"tringa": 3, "ronda": 2}


def impossible_reveal(state: State, data: Mapping[str, Any]) -> tuple[int, int] | None:
    """For a reveal about to be posted: (rank, how many contenders) when its
    ranks would need more cards of one rank than the deck holds (two Tringas
    of 5, three Rondas of 4), which only a mis-tap on the rank grid makes.
    The API takes such a reveal (API.md: it does not check that announcements
    are possible); a scoreboard asks for the ranks again. None: they can be."""
    pool = state.pool
    if pool is None or data.get("type") != "reveal":
        return None
    try:
        event = parse_event(data, state.setup)
    except ScoringError:
        return None  # the engine's own refusal says what is wrong
    known = [event.ranks[side] if event.ranks[side] is not None else pool.ranks[side]
             for side in pool.contenders]
    for rank in sorted({r for r in known if r is not None}):
        count = known.count(rank)
        if count * CARDS_SHOWN[pool.kind] > CARDS_OF_A_RANK:
            return rank, count
    return None


# A hand has one very last card (BAREME §4): a second last-card Missa is a
# repeated tap. The API takes it (API.md: `last_card` is accepted on any
# deal, no refusal is listed for it) and stored games may hold two, which must
# replay as they were: the engine takes it, a scoreboard offers it once a hand.
LAST_CARD_DONE = N_("The Missa with this hand's last card is already recorded: undo it to "
                    "change it.")


def last_card_again(state: State, event: Event) -> RuleViolation | None:
    """A scoreboard's refusal of a last-card Missa once the hand has one."""
    if isinstance(event, Missa) and event.last_card and state.last_card:
        return RuleViolation(LAST_CARD_DONE)
    return None


@dataclass(frozen=True, slots=True)
class Step:
    """One event of a game's history, with what it gave and where it left the game."""

    event: Event
    gains: tuple[Gain, ...]
    scores: tuple[int, ...]
    hand: int  # the hand and deal the event was recorded in
    deal: int
    notes: tuple[str, ...] = ()  # why it scored less than it might have (State.notes)


def timeline(setup: Setup, events: Iterable[Event], start: State | None = None) -> list[Step]:
    """Every event of a game in order, with its gains and the running score;
    from `start` (the state after the events before them, a snapshot's) when
    given, else from the game's beginning. A hit whose chain is still open
    at the end says so ("chain_open")."""
    steps = Timeline(start or new_game(setup))
    for event in events:
        steps.add(event)
    return steps.steps


class Timeline:
    """A timeline made one event at a time (`timeline`): a caller can go on
    past the events it shows until the chains they opened have stopped."""

    def __init__(self, state: State):
        self.state = state
        self.steps: list[Step] = []
        self.waiting: list[int] = []  # the steps whose hit counts when their chain stops

    def add(self, event: Event) -> Step:
        state = self.state
        hand, deal = state.hand, state.deal
        state = self.state = apply(state, event)
        scored = any(g.kind in CHAIN_GAINS for g in state.gains)
        if self.waiting and (scored or state.chain is None or state.finished):
            # Their chain stopped: scored (on this event's row), or the game was over first.
            # A chain counts its last hit only: the hits it went on past counted nothing,
            # and the one it stopped on counted unless this event is the chain's 10.
            hits = state.setup.rules.hits
            ended_by_its_own_hit = isinstance(event, Hit) and \
                state.setup.rules.hit_step(event.value) == len(hits) - 1
            last = None if ended_by_its_own_hit else self.waiting[-1]
            for index in self.waiting:
                self.steps[index] = _chain_stopped(self.steps[index], scored, index == last)
            self.waiting = []
        if self.waiting and "chain_open" in state.notes and state.chain is not None \
                and state.chain.step > 0:
            # The chain went on past them: they will never count.
            for index in self.waiting:
                self.steps[index] = _chain_stopped(self.steps[index], True, False)
            self.waiting = []
        if "chain_open" in state.notes:
            self.waiting.append(len(self.steps))
        step = Step(event, state.gains, state.scores, hand, deal, state.notes)
        self.steps.append(step)
        return step


# The gains of a chain's last hit (with the missa it made, when added).
CHAIN_GAINS = ("hit", "hit_missa")


def _chain_stopped(step: Step, scored: bool, last: bool) -> Step:
    """`step` once its chain has stopped: its hit was counted then (the hit
    the chain stopped on), went on to the next one (a hit the chain went past),
    or was never counted (the game was over first)."""
    stopped = "chain_lost" if not scored else "chain_counted" if last else "chain_passed"
    return replace(step, notes=tuple(stopped if n == "chain_open" else n for n in step.notes))
