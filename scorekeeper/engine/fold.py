"""The barème: what each event does to a game's state (BAREME.md §2–6).

`apply(state, event) -> state` is pure, and a game's state is
`replay(setup, events)`, the fold of `apply` over its events. Internally one
mutable `_Table` is worked on per call (a fold of thousands of events must
not copy a frozen state at every step); nothing outside sees it mutate.
"""

from typing import Iterable

from .errors import N_, GameOver, InvalidInput, RuleViolation, ScoringError
from .events import (
    Adjust,
    Announce,
    ChainEnd,
    DealerLastTrick,
    EndHand,
    Event,
    HiddenRonda,
    Hit,
    Missa,
    NextDeal,
    Reveal,
)
from .state import Chain, Gain, Pool, Setup, State


def new_game(setup: Setup) -> State:
    return State(setup=setup, scores=(0,) * setup.side_count)


def apply(state: State, event: Event) -> State:
    """The state after `event`; raises RuleViolation (or InvalidInput for a
    reveal that misses a rank) and then nothing is changed."""
    table = _Table(state)
    table.apply(event)
    return table.freeze()


def replay(setup: Setup, events: Iterable[Event], start: State | None = None) -> State:
    """The state of a game after all `events`, from `start` (the state after
    the events before them) when given, else from its beginning. A refused
    event raises its error with `event_index` set to its position in `events`."""
    table = _Table(start or new_game(setup))
    for index, event in enumerate(events):
        try:
            table.apply(event)
        except ScoringError as error:
            error.event_index = index
            raise
    return table.freeze()


class _Table:
    """A state being changed by one event (or a fold of many)."""

    __slots__ = (
        "setup", "rules", "scores", "hand", "deal", "chain", "announced", "played",
        "pool", "last_trick_done", "last_card", "finished", "winner", "gains", "events", "notes",
    )

    def __init__(self, state: State):
        self.setup = state.setup
        self.rules = state.setup.rules
        self.scores = list(state.scores)
        self.hand = state.hand
        self.deal = state.deal
        self.chain = state.chain
        self.announced = state.announced
        self.played = state.played
        self.pool = state.pool
        self.last_trick_done = state.last_trick_done
        self.last_card = state.last_card
        self.finished = state.finished
        self.winner = state.winner
        self.gains = list(state.gains)
        self.events = state.events
        self.notes = list(state.notes)

    def freeze(self) -> State:
        return State(
            self.setup, tuple(self.scores), self.hand, self.deal, self.chain, self.announced,
            self.played, self.pool, self.last_trick_done, self.last_card, self.finished,
            self.winner, tuple(self.gains), self.events, tuple(self.notes),
        )

    def apply(self, event: Event) -> None:
        if self.finished:
            raise GameOver(N_("The game is over: nothing more is counted in it."))
        self.gains = []
        self.notes = []
        _HANDLERS[type(event)](self, event)
        self.events += 1

    # -- gains and the target (§2, §6) ----------------------------------------

    def gain(self, kind: str, points: list[int], value: int | None = None) -> bool:
        """Add one gain; True when it finished the game (then the rest of the
        event has no effect). Gains of nothing are not recorded."""
        if not any(points):
            return False
        self.scores = [s + p for s, p in zip(self.scores, points)]
        self.gains.append(Gain(kind, tuple(points), value))
        if self.rules.stop == "immediate":
            self.check_target()
        return self.finished

    def to_side(self, side: int, points: int) -> list[int]:
        return [points if s == side else 0 for s in range(self.setup.side_count)]

    def check_target(self) -> None:
        """A side that reaches the target alone in the lead wins at once."""
        top = max(self.scores)
        if top >= self.rules.target and self.scores.count(top) == 1:
            self.finished = True
            self.winner = self.scores.index(top)
            # Nothing is pending in a finished game.
            self.chain = None
            self.pool = None

    # -- the hit chain (§3) ---------------------------------------------------

    def close_chain(self) -> bool:
        """Score the open chain for its last player; True if that finished the game."""
        chain, self.chain = self.chain, None
        value = self.rules.hits[chain.step]
        return self.gain("hit", self.to_side(chain.side, value), value)

    def hit(self, event: Hit) -> None:
        step = self.rules.hit_step(event.value)
        if step > 0:
            self.check_chain_step(event, step)
        self.played = True
        if step == 0:
            if self.chain is not None and self.close_chain():
                return
            self.chain = Chain(event.side, 0)
            self.notes.append("chain_open")
        elif step == 1:
            self.chain = Chain(event.side, 1)
            self.notes.append("chain_open")
        else:
            # The fourth copy ends the chain: the 10 is acquired at once.
            self.chain = None
            self.gain("hit", self.to_side(event.side, event.value), event.value)

    def check_chain_step(self, event: Hit, step: int) -> None:
        hits = self.rules.hits
        if self.setup.players == 2 and not self.rules.chain_with_two_players:
            raise RuleViolation(
                N_("With two players, these rules stop a chain at its first hit (%(first)s)."),
                first=hits[0],
            )
        chain = self.chain
        if chain is None or chain.step != step - 1:
            if self.setup.side_count == 3:
                raise RuleViolation(
                    N_("A %(value)s only follows an open %(previous)s of another side."),
                    value=event.value, previous=hits[step - 1],
                )
            raise RuleViolation(
                N_("A %(value)s only follows an open %(previous)s of the other side."),
                value=event.value, previous=hits[step - 1],
            )
        if chain.side == event.side:
            raise RuleViolation(
                N_("Each step of a chain is made by another side than the step before it.")
            )

    def chain_end(self, event: ChainEnd) -> None:
        if self.chain is None:
            raise RuleViolation(N_("No hit chain is open."))
        self.close_chain()

    # -- the missa (§3, §4) ---------------------------------------------------

    def missa(self, event: Missa) -> None:
        self.played = True
        if event.last_card:
            self.last_card = True
        exclusion = self.rules.missa_exclusion
        excluded = None
        if exclusion == "last_deal" and self.deal >= self.setup.deals_per_hand:
            excluded = "missa_last_deal"
        elif exclusion != "none" and event.last_card:
            excluded = "missa_last_card"
        if excluded:
            self.notes.append(excluded)
        missa = 0 if excluded else self.rules.missa
        chain = self.chain
        if chain is not None and chain.side == event.side:
            # The chain's last player cleared the table: one gain (2, 6).
            self.chain = None
            hit = self.rules.hits[chain.step]
            if self.rules.missa_with_hit and missa:
                self.gain("hit_missa", self.to_side(event.side, hit + missa), hit)
            else:
                self.gain("hit", self.to_side(event.side, hit), hit)
            return
        if chain is not None and self.close_chain():
            if missa:  # the chain's hit ended the game: the missa came after it
                self.notes.append("missa_after_end")
            return
        self.gain("missa", self.to_side(event.side, missa))

    # -- announcements (§5) ---------------------------------------------------

    def announce(self, event: Announce) -> None:
        self.check_announce(event)
        self.announced = True
        pool = self.announced_pool(event)
        # Once per deal, at any moment of it (§5): gains already recorded in
        # the deal stay; the pool scores now, or once the ranks are shown.
        if len(pool.contenders) == 1 or not pool.missing():
            self.settle(pool)
        else:
            self.pool = pool
            self.notes.append("awaiting_ranks")

    def check_announce(self, event: Announce) -> None:
        if self.announced:
            raise RuleViolation(
                N_("This deal's announcements are already recorded: undo them to change them.")
            )
        if not self.setup.four_card_deal(self.deal) and any(
            a.kind == "double_ronda" for a in event.announcements
        ):
            raise RuleViolation(
                N_("A double Ronda only exists in a four-card hand: four players, first deal, "
                   "with rules that deal four cards.")
            )

    def announced_pool(self, event: Announce) -> Pool:
        """What the deal's announcements put at stake: all their points, for
        the sides that announced the deciding kind, with the best rank each
        already gave (None where one is still to be shown)."""
        rules = self.rules
        worth = {"ronda": rules.ronda, "double_ronda": rules.double_ronda, "tringa": rules.tringa}
        total = sum(worth[a.kind] for a in event.announcements)
        # Any Tringa beats any Ronda; single and double Rondas are one kind.
        kind = "tringa" if any(a.kind == "tringa" for a in event.announcements) else "ronda"
        deciding = [a for a in event.announcements if (a.kind == "tringa") == (kind == "tringa")]
        contenders = tuple(sorted({a.side for a in deciding}))
        ranks: list[int | None] = [None] * self.setup.side_count
        for side in contenders:
            held = [a.rank for a in deciding if a.side == side]
            if None not in held:
                ranks[side] = self.best_rank(kind, held)
        return Pool(kind, total, contenders, tuple(ranks))

    def reveal(self, event: Reveal) -> None:
        pool = self.pool
        if pool is None:
            raise RuleViolation(N_("No announcements are waiting for their ranks."))
        ranks = list(pool.ranks)
        for side in pool.contenders:
            if event.ranks[side] is not None:
                ranks[side] = event.ranks[side]
        missing = [side for side in pool.contenders if ranks[side] is None]
        if missing:
            raise InvalidInput(
                N_("Give the rank of %(side)s's best announcement."),
                side=self.setup.sides[missing[0]], subject="side",
            )
        self.settle(Pool(pool.kind, pool.total, pool.contenders, tuple(ranks)))

    def best_rank(self, kind: str, ranks: list[int]) -> int:
        lower_wins = kind == "tringa" and self.rules.tringa_contest == "lower"
        return min(ranks) if lower_wins else max(ranks)

    def settle(self, pool: Pool) -> None:
        """The best announcement takes the pool; a perfect tie shares it,
        each share rounded down (what the rounding drops is lost)."""
        self.pool = None
        winners = pool.contenders
        if len(winners) > 1:
            best = self.best_rank(pool.kind, [pool.ranks[s] for s in winners])
            winners = tuple(s for s in winners if pool.ranks[s] == best)
        share = pool.total // len(winners)
        self.gain(pool.kind, [share if s in winners else 0 for s in range(self.setup.side_count)])

    # -- deals, hands and the card count (§1, §6) -----------------------------

    def check_deal_can_end(self) -> None:
        if self.pool is not None:
            raise RuleViolation(
                N_("This deal's announcements wait for their ranks: reveal them first.")
            )

    def next_deal(self, event: NextDeal) -> None:
        self.check_deal_can_end()
        if self.deal >= self.setup.deals_per_hand:
            raise RuleViolation(
                N_("This is the hand's last deal: the hand ends with the card count.")
            )
        if self.chain is not None and self.close_chain():
            return
        self.deal += 1
        self.announced = self.played = False

    def end_hand(self, event: EndHand) -> None:
        self.check_deal_can_end()
        counts = event.counts()
        if self.chain is not None and self.close_chain():
            self.notes.append("cards_after_end")  # the chain's hit ended the game first
            return
        threshold = self.rules.card_threshold_for(self.setup.side_count)
        points = [max(0, c - threshold) for c in counts]
        if not any(points):
            self.notes.append("cards_none_over")
        if self.gain("cards", points):
            return
        if self.rules.stop == "end_of_hand":
            self.check_target()
            if self.finished:
                return
        self.hand += 1
        self.deal = 1
        self.announced = self.played = self.last_trick_done = self.last_card = False

    # -- the scorer's own entries (§6, §7) ------------------------------------

    def adjust(self, event: Adjust) -> None:
        self.gain("adjust", self.to_side(event.side, event.points))

    def hidden_ronda(self, event: HiddenRonda) -> None:
        penalty = self.rules.hidden_ronda_penalty
        if not penalty:
            raise RuleViolation(N_("This game's rules have no penalty for a hidden Ronda."))
        receivers = event.receivers(self.setup.side_count)
        self.gain("hidden_ronda",
                  [penalty if s in receivers else 0 for s in range(self.setup.side_count)])

    def dealer_last_trick(self, event: DealerLastTrick) -> None:
        points = self.rules.dealer_last_trick
        if not points:
            raise RuleViolation(N_("This game's rules have no dealer's last trick."))
        if self.last_trick_done:
            raise RuleViolation(N_("This hand's last trick is already recorded."))
        if self.deal < self.setup.deals_per_hand and not event.any_deal:
            raise RuleViolation(
                N_("The last trick is played on the hand's last deal (deal %(deals)s): "
                   "enter it there."), deals=self.setup.deals_per_hand)
        self.last_trick_done = True
        receivers = event.receivers(self.setup.dealer(self.hand), self.setup.side_count)
        self.gain("dealer_last_trick",
                  [points if s in receivers else 0 for s in range(self.setup.side_count)])


_HANDLERS = {
    Announce: _Table.announce,
    Reveal: _Table.reveal,
    Hit: _Table.hit,
    ChainEnd: _Table.chain_end,
    Missa: _Table.missa,
    NextDeal: _Table.next_deal,
    EndHand: _Table.end_hand,
    Adjust: _Table.adjust,
    HiddenRonda: _Table.hidden_ronda,
    DealerLastTrick: _Table.dealer_last_trick,
}
