"""What the scoreboard shows: the game, what each button would do, and why a
button is off, all asked of the engine. No rule is decided here.

The scoreboard's moves are strings carried by its submit buttons
("hit.0.5", "missa.1", "next_deal", ...); `event_for_move` turns a move and
the posted form into the event the engine reads.
"""

import re
from dataclasses import dataclass
from typing import Any, Mapping

from . import rules, store
from .games import Game
from .rules.events import DECK, KINDS, LAST_TRICK_OUTCOMES
from .rules.moves import Step, outcome, points_of, refusal, timeline

RECENT_STEPS = 6
DRAFT_LIMIT = 4
_WHOLE = re.compile(r"-?\d{1,4}")
# Not str.isdigit: "²" is a digit that int() refuses, and 5,000 digits are
# past int()'s limit.
_INDEX = re.compile(r"\d{1,4}")


@dataclass
class Move:
    """A button: the move it posts, or the reason it is off; and the scores
    it would leave, when it changes them, for the page to show at once."""

    move: str
    reason: str | None = None
    scores: tuple[int, ...] | None = None

    @property
    def enabled(self) -> bool:
        return self.reason is None


@dataclass
class SidePad:
    index: int
    name: str
    score: int
    needs: int
    announce: dict[str, "DraftLink"]
    hits: list[tuple[int, Move]]
    missa: Move
    hidden_ronda: Move | None


@dataclass
class DraftLink:
    """A link that adds one announcement to the deal's draft (a GET: no state changes)."""

    kind: str
    query: str
    reason: str | None


@dataclass
class Board:
    game: Game
    state: rules.State
    pads: list[SidePad]
    draft: list[rules.Announcement]
    announce: Move | None  # confirming the draft, when there is one
    chain_end: Move
    next_deal: Move
    end_hand: Move
    last_trick: dict[str, Move]
    recent: list[Step]
    undo_step: Step | None
    end_preview: "EndPreview | None" = None

    @property
    def hints(self) -> list[str]:
        """Why the side pads' buttons that are off are off, each reason once."""
        reasons = []
        for pad in self.pads:
            reasons += [link.reason for link in pad.announce.values()]
            reasons += [move.reason for _, move in pad.hits]
        return list(dict.fromkeys(r for r in reasons if r))


@dataclass
class EndPreview:
    """The card count as entered so far, the computed side and what each side gets."""

    counts: list[int]
    computed: int  # 40 minus the others
    points: tuple[int, ...] | None  # None when the count is impossible
    reason: str | None
    scores: tuple[int, ...] | None = None  # the scores it would leave


def parse_draft(values: list[str], setup: rules.Setup) -> list[rules.Announcement]:
    """The announcements marked so far, from `a=<side>-<kind>` query values;
    anything malformed is dropped (it is only a draft in a URL)."""
    draft = []
    for value in values[:DRAFT_LIMIT]:
        side, _, kind = value.partition("-")
        if _INDEX.fullmatch(side) and int(side) < setup.side_count and kind in KINDS:
            draft.append(rules.Announcement(int(side), kind))
    return draft


def draft_query(draft: list[rules.Announcement]) -> str:
    return "&".join(f"a={a.side}-{a.kind}" for a in draft)


def _move(state: rules.State, move: str, event: rules.Event, translate) -> Move:
    after, error = outcome(state, event)
    if error is not None:
        return Move(move, error.sentence(translate))
    return Move(move, None, after.scores if after.scores != state.scores else None)


def build(
    db, game: Game, draft: list[rules.Announcement], translate, cards: list[int] | None = None
) -> Board:
    state = game.state
    setup = state.setup
    target = setup.rules.target
    events = [rules.parse_event(e, setup) for _, e in store.standing_events(db, game.id)]
    steps = timeline(setup, events)

    pads = []
    for side, name in enumerate(setup.sides):
        announce = {}
        for kind in KINDS:
            if kind == "double_ronda" and not setup.four_card_deal(state.deal):
                continue
            added = draft + [rules.Announcement(side, kind)]
            error = refusal(state, rules.Announce(tuple(added)))
            announce[kind] = DraftLink(
                kind, draft_query(added), None if error is None else error.sentence(translate)
            )
        pads.append(SidePad(
            index=side,
            name=name,
            score=state.scores[side],
            needs=max(0, target - state.scores[side]),
            announce=announce,
            hits=[
                (value, _move(state, f"hit.{side}.{value}", rules.Hit(side, value), translate))
                for value in setup.rules.hits
            ],
            missa=_move(state, f"missa.{side}", rules.Missa(side), translate),
            hidden_ronda=(
                _move(state, f"hidden_ronda.{side}", rules.HiddenRonda(side), translate)
                if setup.rules.hidden_ronda_penalty else None
            ),
        ))

    board = Board(
        game=game,
        state=state,
        pads=pads,
        draft=draft,
        announce=_move(state, "announce", rules.Announce(tuple(draft)), translate)
        if draft else None,
        chain_end=_move(state, "chain_end", rules.ChainEnd(), translate),
        next_deal=_move(state, "next_deal", rules.NextDeal(), translate),
        # The card count itself is asked for in the end-of-hand sheet.
        end_hand=_move(
            state, "end_hand",
            rules.EndHand((20,) * (setup.side_count - 1) + (None,)), translate,
        ),
        last_trick={
            result: _move(
                state, f"last_trick.{result}", rules.DealerLastTrick(result), translate
            )
            for result in LAST_TRICK_OUTCOMES
        } if setup.rules.dealer_last_trick else {},
        recent=steps[::-1][:RECENT_STEPS],
        undo_step=steps[-1] if steps else None,
    )
    if cards is not None:
        board.end_preview = end_preview(state, cards, translate)
    return board


def end_preview(state: rules.State, cards: list[int], translate) -> EndPreview:
    """What the card count entered so far would give, asked of the engine."""
    given = cards[: state.setup.side_count - 1]
    event_data = {"type": "end_hand", "cards": given + [None]}
    try:
        event = rules.parse_event(event_data, state.setup)
    except rules.InvalidInput as error:  # more than the deck: nothing to compute
        return EndPreview(given, DECK - sum(given), None, error.sentence(translate))
    computed = event.counts()[-1]
    after, error = outcome(state, event)
    if error is not None:
        return EndPreview(given, computed, None, error.sentence(translate))
    return EndPreview(
        given, computed, points_of(after.gains, state.setup.side_count), None, after.scores,
    )


def _whole_or_text(value: str | None) -> Any:
    """Form fields are text: whole numbers become ints, the rest goes to the
    engine as it is, to be refused there with its own sentence."""
    if value is None or value == "":
        return None
    value = value.strip()
    return int(value) if _WHOLE.fullmatch(value) else value


def event_for_move(move: str, form: Mapping[str, str], setup: rules.Setup) -> dict:
    """The event a scoreboard move posts; unknown moves give an unknown type
    (which the engine refuses with a sentence)."""
    name, *args = move.split(".")
    arg = [_whole_or_text(a) for a in args]
    if name == "hit" and len(arg) == 2:
        return {"type": "hit", "side": arg[0], "value": arg[1]}
    if name in ("missa", "hidden_ronda") and len(arg) == 1:
        return {"type": name, "side": arg[0]}
    if name in ("chain_end", "next_deal"):
        return {"type": name}
    if name == "last_trick" and len(args) == 1:
        return {"type": "dealer_last_trick", "outcome": args[0]}
    if name == "announce":
        draft = parse_draft(form.getlist("a"), setup)
        return {"type": "announce",
                "announcements": [{"side": a.side, "kind": a.kind} for a in draft]}
    if name == "reveal":
        return {"type": "reveal",
                "ranks": [_whole_or_text(form.get(f"rank{s}")) for s in range(setup.side_count)]}
    if name == "end_hand":
        counts = [_whole_or_text(form.get(f"cards{s}")) for s in range(setup.side_count - 1)]
        return {"type": "end_hand", "cards": counts + [None]}
    if name == "adjust":
        return {"type": "adjust", "side": _whole_or_text(form.get("side")),
                "points": _whole_or_text(form.get("points")), "note": form.get("note", "")}
    return {"type": move[:40]}
