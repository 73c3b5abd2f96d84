"""What the scoreboard shows: the game, what each button would do, and why a
button is off, all asked of the engine. No rule is decided here.

The scoreboard's moves are strings carried by its submit buttons
("hit.0.5", "missa.1", "next_deal", ...); `event_for_move` turns a move and
the posted form into the event the engine reads. Every button's event is
judged as the app would judge its tap (`moves.outcome_of`: read as new
input, then applied), so a button is off exactly when its tap would be
refused, and says why.
"""

import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from ... import engine
from ...engine.errors import N_, InvalidInput
from ...engine.events import DECK, KINDS, LAST_TRICK_OUTCOMES
from ...engine.moves import (
    LAST_CARD_DONE,
    Step,
    ToWin,
    card_count,
    even_count,
    impossible_reveal,
    outcome_of,
    points_of,
    to_win,
)
from ...service import scoreboard
from ...service.games import Game
from ..wording import elision
from ..wording.describe import isolated, partners_of

DRAFT_LIMIT = 4
_WHOLE = re.compile(r"-?\d{1,4}")
# Not str.isdigit: "²" is a digit that int() refuses, and 5,000 digits are
# past int()'s limit.
_INDEX = re.compile(r"\d{1,4}")
_DRAFT_ENTRY = re.compile(r"(\d{1,4})-(\w{1,20})")


@dataclass
class Move:
    """A button: the move it posts, or the reason it is off; and the scores
    it would leave, when it changes them, for the page to show at once."""

    move: str
    reason: str | None = None
    scores: tuple[int, ...] | None = None
    # The event it posts (plain data), for the page to name a tap that waits
    # as the log will name it once recorded.
    event: dict | None = None
    # With `scores`: what each side would then need to win (None: game over).
    to_win: tuple[ToWin | None, ...] | None = None

    @property
    def enabled(self) -> bool:
        return self.reason is None


@dataclass
class AnnounceLink:
    """A link that adds one announcement to the deal's draft (a GET: no state
    changes); when it is off, it leads to the board saying why (`why`)."""

    side: int
    kind: str
    query: str
    reason: str | None

    @property
    def why(self) -> str:
        return f"{self.side}-{self.kind}"


@dataclass
class SidePad:
    index: int
    name: str
    # A team called after its partners ("Karim & Salma"): each of them, so that
    # a long name is cut partner by partner, both kept; None for any other name.
    partners: tuple[str, str] | None
    score: int
    to_win: ToWin | None  # None once the game is over
    announce: list[AnnounceLink]
    hits: list[tuple[int, Move]]
    missa: Move


@dataclass
class HiddenRondaButton:
    """One hidden-Ronda button of the More sheet: who hid it, who gets the points."""

    side: int
    to: int
    points: int
    move: Move


@dataclass
class LastTrick:
    """One button of the dealer's last trick: how the trick went, the sides
    that then score (the engine's DealerLastTrick.receivers) and how much."""

    outcome: str
    to: tuple[int, ...]
    points: int
    move: Move


@dataclass
class EndPreview:
    """The card count as typed so far (None: not yet), the computed side,
    what each side gets, and whether the hand's last deal is reached."""

    counts: list[int | None]
    computed: int | None  # 40 minus the others, once they are all typed
    points: tuple[int, ...] | None  # None until the count is complete and possible
    reason: str | None
    scores: tuple[int, ...] | None = None  # the scores it would leave
    before_last_deal: bool = False  # ending now needs a second yes
    # Each side's points part by part, as the engine's gains give them: the
    # open chain's hit that the count closes, then the cards. (kind, value, points)
    parts: tuple[tuple[tuple[str, int | None, int], ...], ...] = ()
    # Of a hand now over (another phone counted it): its Confirm is the
    # server's to refuse, saying whether it was this very count.
    hand_over: bool = False


@dataclass
class Board:
    game: Game
    state: engine.State
    pads: list[SidePad]
    draft: list[engine.Announcement]
    announce: Move | None  # confirming the draft, when there is one
    chain_end: Move
    next_deal: Move
    end_hand: Move
    last_trick: list[LastTrick]
    hidden_rondas: list[HiddenRondaButton]
    last_card_missa: Move | None  # on the hand's last deal: the dealer's last card
    recent: list[Step]
    undo_step: Step | None
    # Standing events older than `recent` (an offline Undo cannot name them).
    older: bool = False
    end_preview: EndPreview | None = None
    notice: str | None = None  # one sentence for the status line: why, or what went wrong
    notice_info: bool = False  # the notice says what happened, not what went wrong
    rematch: str | None = None  # the id of the finished game's rematch, once started
    just_done: str | None = None  # the log's last record's move, or "undo" (_just_done)
    # The version the draft was first marked on: its Confirm is of that deal.
    draft_at: int | None = None
    _hints: dict[str, str] = field(default_factory=dict)

    @property
    def settles(self) -> bool:
        """The whole board takes no tap for a moment (a sheet just closed)."""
        return settles_board(self.just_done)

    @property
    def marks(self) -> list["Mark"]:
        """The draft as the strip shows it, in the sides' order, each side's
        kinds in the order they were marked."""
        counts: dict[tuple[int, str], int] = {}
        for a in sorted(self.draft, key=lambda a: a.side):
            counts[a.side, a.kind] = counts.get((a.side, a.kind), 0) + 1
        return [Mark(side, kind, count, draft_query(_less(self.draft, side, kind), self.draft_at))
                for (side, kind), count in counts.items()]

    @property
    def query(self) -> str:
        """The board's draft as a query."""
        return draft_query(self.draft, self.draft_at)

    def hint_id(self, reason: str | None) -> str:
        """The id of the element that says `reason` (each reason said once)."""
        if reason not in self._hints:
            self._hints[reason] = f"hint-{len(self._hints)}"
        return self._hints[reason]

    @property
    def hints(self) -> list[tuple[str, str]]:
        """Every reason given so far, with its id: (id, reason)."""
        return [(hint, reason) for reason, hint in self._hints.items()]


@dataclass
class Mark:
    """A chip of the draft: a side's announcements of one kind, how many, and
    the draft's query once one of them is taken back."""

    side: int
    kind: str
    count: int
    less: str


def _less(draft: list[engine.Announcement], side: int, kind: str) -> list[engine.Announcement]:
    """`draft` without the last announcement of `kind` marked for `side`."""
    last = max(i for i, a in enumerate(draft) if (a.side, a.kind) == (side, kind))
    return draft[:last] + draft[last + 1:]


def parse_draft(values: list[str], setup: engine.Setup) -> list[engine.Announcement]:
    """The announcements marked so far, from `a=<side>-<kind>` query values;
    anything malformed is dropped (it is only a draft in a URL)."""
    draft = []
    for value in values[:DRAFT_LIMIT]:
        found = _DRAFT_ENTRY.fullmatch(value)
        if found and int(found[1]) < setup.side_count and found[2] in KINDS:
            draft.append(engine.Announcement(int(found[1]), found[2]))
    return draft


def marked_with(draft: list[engine.Announcement], confirmed: Mapping[str, Any],
                setup: engine.Setup) -> list[engine.Announcement]:
    """The draft with the announcements another phone confirmed for the deal
    (`confirmed`, their announce event as stored) marked too: this phone's
    Confirm came second and was refused, and what the table meant is both
    phones' (one's Ronda, the other's Tringa). What both marked is marked
    once; undoing theirs, one Confirm then records them all."""
    theirs = parse_draft([f"{a.get('side')}-{a.get('kind')}"
                          for a in confirmed.get("announcements") or () if isinstance(a, Mapping)],
                         setup)
    marked = list(draft)
    for announcement in theirs:
        if theirs.count(announcement) > marked.count(announcement):
            marked.append(announcement)
    return sorted(marked, key=lambda announcement: announcement.side)[:DRAFT_LIMIT]


def draft_query(draft: list[engine.Announcement], at: int | None = None) -> str:
    """The draft as a board query, with `at`, the version it was first
    marked on: another phone may move on to the next deal before it is
    confirmed, and its Confirm is then of the deal it was marked in
    (docs/BOARD.md, "Two phones": a tap counts where it happened)."""
    marks = "&".join(f"a={a.side}-{a.kind}" for a in draft)
    return f"{marks}&at={at}" if marks and at is not None else marks


def draft_at(values: list[str], version: int) -> int | None:
    """The version a draft was first marked on, from its `at` query value; one
    no board showed yet (beyond `version`, the game's) or malformed: None."""
    value = values[0] if values else ""
    return int(value) if value.isdigit() and int(value) <= version else None


# Announcements marked but not confirmed are of this deal: a move that closes
# the deal would throw them away unseen, so it waits for Confirm or Clear.
PENDING_DRAFT = N_("Announcements are marked but not confirmed: Confirm or Clear (✕) them "
                   "first.")
CLOSE_THE_DEAL = ("next_deal", "end_hand")


def draft_in_the_way(move: str, draft: list[engine.Announcement]) -> str | None:
    """Why `move` cannot be made while `draft` is marked (None: it can)."""
    return PENDING_DRAFT if draft and move.split(".")[0] in CLOSE_THE_DEAL else None


IMPOSSIBLE_RANKS = {
    "tringa": N_("%(count)s Tringas of %(rank)s cannot be: the deck has only four cards of each "
                 "rank. Check the ranks."),
    "ronda": N_("%(count)s Rondas of %(rank)s cannot be: the deck has only four cards of each "
                "rank. Check the ranks."),
}


def ranks_in_doubt(state: engine.State, event: dict, rank_name) -> InvalidInput | None:
    """The refusal of ranks no deck can hold (engine: impossible_reveal),
    which the board asks again rather than record; `rank_name` words a rank."""
    impossible = impossible_reveal(state, event)
    if impossible is None:
        return None
    rank, count = impossible
    return InvalidInput(IMPOSSIBLE_RANKS[state.pool.kind], count=count, rank=rank_name(rank))


def _announce_data(draft: list[engine.Announcement]) -> dict:
    return {"type": "announce",
            "announcements": [{"side": a.side, "kind": a.kind} for a in draft]}


def _move(state: engine.State, move: str, data: dict, translate,
          draft: list[engine.Announcement] = (), waits: str | None = None) -> Move:
    """The button of `move`; `waits`: the board's own reason it is off, if any."""
    waits = waits or draft_in_the_way(move, list(draft))
    if waits is not None:
        return Move(move, translate(waits))
    after, error = outcome_of(state, data)
    if error is not None:
        return Move(move, elision.sentence(error, translate), event=data)
    if after.scores == state.scores:
        return Move(move, None, None, data)
    wins = to_win(after) if not after.finished else (None,) * len(after.scores)
    return Move(move, None, after.scores, data, wins)


def _confirm(state: engine.State, draft: list[engine.Announcement], translate,
             marked_before: bool) -> Move:
    """The draft's Confirm. A draft marked before the deal's announcements
    were recorded (on another phone, as this board followed it) is still
    a tap to send: the server judges it by the rule for two phones (the
    same announcements counted once; others refused with the choice of
    confirming all), where the game as it now is would only say "already
    recorded" and leave the marks stranded."""
    data = _announce_data(draft)
    if marked_before and state.announced:
        return Move("announce", None, None, data)
    return _move(state, "announce", data, translate)


def _announce_links(state: engine.State, draft: list[engine.Announcement], side: int,
                    translate, at: int | None = None) -> list[AnnounceLink]:
    setup = state.setup
    links = []
    for kind in KINDS:
        # Where a double Ronda exists its button is there on every deal, so
        # that no button moves from one deal to the next.
        if kind == "double_ronda" and not setup.four_card_hands:
            continue
        added = draft + [engine.Announcement(side, kind)]
        _, error = outcome_of(state, _announce_data(added))
        links.append(AnnounceLink(side, kind, draft_query(added, at),
                                  None if error is None else elision.sentence(error, translate)))
    return links


def scoreboard_of(
    shown: scoreboard.Shown, draft: list[engine.Announcement], translate,
    cards: list[int | None] | None = None, why: str | None = None, now: str | None = None,
    at: int | None = None,
) -> Board:
    """The board of what the service shows (scoreboard.shown), with the
    deal's `draft` (first marked on version `at`; a first mark, on this
    one), the end-of-hand sheet's `cards` typed so far, `why` a link is
    off, all in the words of `translate`."""
    game = shown.game
    state = game.state
    setup = state.setup
    at = at if draft and at is not None else game.version
    board = Board(
        game=game,
        state=state,
        pads=_pads(state, draft, translate, at),
        draft=draft,
        draft_at=at,
        announce=_confirm(state, draft, translate, at < game.version) if draft else None,
        chain_end=_move(state, "chain_end", {"type": "chain_end"}, translate),
        next_deal=_move(state, "next_deal", {"type": "next_deal"}, translate, draft),
        # Whether the hand can end now (the count itself is asked in its sheet).
        end_hand=_move(state, "end_hand", even_count(setup), translate, draft),
        last_trick=_last_trick_buttons(state, translate),
        hidden_rondas=_hidden_ronda_buttons(state, translate),
        last_card_missa=_last_card_missa(state, translate),
        recent=list(shown.recent),
        undo_step=shown.last_step,
        rematch=shown.rematch,
        older=shown.game.state.events > len(shown.recent),
    )
    board.just_done = _just_done(shown.last_record, now)
    if cards is not None:
        board.end_preview = end_preview(state, cards, translate)
    if why is not None:
        board.notice = why_off(board, why)
    return board


def _pads(state: engine.State, draft: list[engine.Announcement], translate,
          at: int | None = None) -> list[SidePad]:
    """Each side's part of the board: its name and score, what it needs to
    win, and its buttons (announcements, hits, the missa)."""
    setup = state.setup
    wins = to_win(state) if not state.finished else (None,) * setup.side_count
    return [
        SidePad(
            index=side,
            name=name,
            partners=partners_of(name) if setup.players == 4 else None,
            score=state.scores[side],
            to_win=wins[side],
            announce=_announce_links(state, draft, side, translate, at),
            hits=[
                (value, _move(state, f"hit.{side}.{value}",
                              {"type": "hit", "side": side, "value": value}, translate))
                for value in setup.rules.hits
            ],
            missa=_move(state, f"missa.{side}", {"type": "missa", "side": side}, translate),
        )
        for side, name in enumerate(setup.sides)
    ]


def _hidden_ronda_buttons(state: engine.State, translate) -> list[HiddenRondaButton]:
    """A hidden Ronda found out, for each side that hid it and each that
    receives its penalty; none where the rules give no penalty."""
    setup = state.setup
    penalty = setup.rules.hidden_ronda_penalty
    return [
        HiddenRondaButton(side, to, penalty, _move(
            state, f"hidden_ronda.{side}.{to}",
            {"type": "hidden_ronda", "side": side, "to": to}, translate))
        for side in range(setup.side_count) for to in range(setup.side_count)
        if to != side and penalty
    ]


def _last_trick_buttons(state: engine.State, translate) -> list[LastTrick]:
    """The dealer's last trick, one button per outcome, where the rules have it."""
    setup = state.setup
    if not setup.rules.dealer_last_trick:
        return []
    return [
        LastTrick(result, engine.DealerLastTrick(result).receivers(state.dealer, setup.side_count),
                  setup.rules.dealer_last_trick,
                  _move(state, f"last_trick.{result}",
                        {"type": "dealer_last_trick", "outcome": result}, translate))
        for result in LAST_TRICK_OUTCOMES
    ]


def _last_card_missa(state: engine.State, translate) -> Move | None:
    """The dealer's missa with the last card, on the hand's last deal while
    the game goes on."""
    if not state.last_deal or state.finished:
        return None
    dealer = state.dealer
    return _move(
        state, f"missa_last.{dealer}",
        {"type": "missa", "side": dealer, "last_card": True}, translate,
        waits=LAST_CARD_DONE if state.last_card else None,
    )


# A board drawn this soon after a record was just tapped: it settles.
JUST_DONE_SECONDS = 3


def _just_done(record: scoreboard.LastRecord | None, now: str | None) -> str | None:
    """The move of the game's last record ("undo" for an undo) if it was
    recorded just now (within JUST_DONE_SECONDS: the page drawn right after a tap
    comes within milliseconds, a slow phone's reload within a second or two;
    a board opened later was not just tapped): its button, and after a
    sheet's move the whole board, take no tap for a moment, so the second
    tap of a double tap lands on nothing (docs/BOARD.md)."""
    if record is None:
        return None
    if now is not None and not scoreboard.within(record.created_at, now, JUST_DONE_SECONDS):
        return None
    if record.action == "undo":
        return "undo"
    return move_for_event(record.payload) if record.action == "event" else None


# Moves made in a sheet over the board: once it closes, what was under the
# finger is another control.
SHEET_MOVES = ("reveal", "end_hand", "adjust", "hidden_ronda", "last_trick", "missa_last")


def settles_board(just_done: str | None) -> bool:
    return just_done is not None and just_done.split(".")[0] in SHEET_MOVES


def why_off(board: Board, why: str) -> str | None:
    """The reason a link is off: an announcement's, named `<side>-<kind>`, or
    the end of hand's (the board without JavaScript shows it when such a
    link is tapped)."""
    if why == "end_hand":
        return board.end_hand.reason
    for pad in board.pads:
        for link in pad.announce:
            if link.why == why:
                return link.reason
    return None


def end_preview(state: engine.State, cards: list[int | None], translate) -> EndPreview:
    """What the card count typed so far would give, asked of the engine."""
    setup = state.setup
    given = list(cards[: setup.side_count - 1])
    early = not state.last_deal
    missing = [side for side, count in enumerate(given) if count is None]
    if missing:
        reason = elision.about(MISSING_COUNT, "side", setup.players == 4,
                               side=isolated(setup.sides[missing[0]]))
        return EndPreview(given, None, None, reason, before_last_deal=early)
    beyond = count_beyond_the_deck(given, setup)
    if beyond is not None:  # the page's words, not the browser's bubble in its own language
        return EndPreview(given, None, None, elision.sentence(beyond, translate),
                          before_last_deal=early)
    try:
        counted = card_count(state, given)
    except engine.InvalidInput as error:  # more than the deck: nothing to compute
        return EndPreview(given, None, None, elision.sentence(error, translate),
                          before_last_deal=early)
    if counted.error is not None:
        return EndPreview(given, counted.computed, None,
                          elision.sentence(counted.error, translate), before_last_deal=early)
    after = counted.after
    return EndPreview(given, counted.computed, points_of(after.gains, setup.side_count), None,
                      after.scores, early, counted.parts())


MISSING_COUNT = N_("Type how many cards %(side)s took.")
# Without the page's script, the points shown are those of the count last
# sent ("Update the points"): a count typed again after them is shown first.
COUNT_CHANGED = N_("The count changed since its points were shown: check them, then confirm.")


def counts_text(counts) -> str:
    """A sheet's counts as one field's value ("23", "12.9"): the count whose
    points a page without the script shows, sent back with its Confirm."""
    return ".".join("" if count is None else str(count) for count in counts)


MORE_THAN_THE_DECK = N_("%(side)s: %(deck)s cards at most, the whole deck.")
LESS_THAN_NONE = N_("%(side)s: a count is 0 cards or more.")


def count_beyond_the_deck(counts: list[Any], setup: engine.Setup) -> InvalidInput | None:
    """Why a typed count cannot be (more cards than the deck, fewer than
    none), said for its side; None when every whole count is within 0..DECK."""
    for side, count in enumerate(counts):
        if type(count) is int and count > DECK:
            return InvalidInput(MORE_THAN_THE_DECK, side=isolated(setup.sides[side]), deck=DECK)
        if type(count) is int and count < 0:
            return InvalidInput(LESS_THAN_NONE, side=isolated(setup.sides[side]))
    return None


def _whole_or_text(value: str | None) -> Any:
    """Form fields are text: whole numbers become ints, the rest goes to the
    engine as it is, to be refused there with its own sentence."""
    if value is None or value.strip() == "":
        return None
    value = value.strip()
    return int(value) if _WHOLE.fullmatch(value) else value


def card_counts(form: Mapping[str, str], setup: engine.Setup) -> list[Any]:
    """The counts typed in the end-of-hand sheet, one per side but the last."""
    return [_whole_or_text(form.get(f"cards{s}")) for s in range(setup.side_count - 1)]


def move_for_event(event: Mapping[str, Any]) -> str | None:
    """The board's move that posts `event` (event_for_move's inverse), or
    None for an event no button posts as such."""
    kind = event.get("type")
    if kind == "hit":
        return f"hit.{event.get('side')}.{event.get('value')}"
    if kind == "missa":
        return f"{'missa_last' if event.get('last_card') else 'missa'}.{event.get('side')}"
    if kind == "hidden_ronda":
        return f"hidden_ronda.{event.get('side')}.{event.get('to')}"
    if kind == "dealer_last_trick":
        return f"last_trick.{event.get('outcome')}"
    if kind in ("chain_end", "next_deal", "announce", "reveal", "end_hand", "adjust"):
        return kind
    return None


def event_for_move(move: str, form: Mapping[str, str], setup: engine.Setup) -> dict:
    """The event a scoreboard move posts; unknown moves give an unknown type
    (which the engine refuses with a sentence)."""
    name, *args = move.split(".")
    if name in ("announce", "reveal", "end_hand", "adjust"):
        return _event_of_sheet(name, form, setup)
    found = _event_of_button(name, args)
    return found if found is not None else {"type": move[:40]}


def _event_of_button(name: str, args: list[str]) -> dict | None:
    """The event of a button's move, all of it in the move's name
    ("hit.0.5"); None for no such move."""
    arg = [_whole_or_text(a) for a in args]
    if name == "hit" and len(arg) == 2:
        return {"type": "hit", "side": arg[0], "value": arg[1]}
    if name == "missa" and len(arg) == 1:
        return {"type": "missa", "side": arg[0]}
    if name == "missa_last" and len(arg) == 1:
        return {"type": "missa", "side": arg[0], "last_card": True}
    if name == "hidden_ronda" and len(arg) == 2:
        return {"type": "hidden_ronda", "side": arg[0], "to": arg[1]}
    if name in ("chain_end", "next_deal"):
        return {"type": name}
    if name == "last_trick" and len(args) == 1:
        return {"type": "dealer_last_trick", "outcome": args[0]}
    return None


def _event_of_sheet(name: str, form: Mapping[str, str], setup: engine.Setup) -> dict:
    """The event of a move whose values the form gives: the deal's
    announcements, the ranks shown, the card count, a correction."""
    if name == "announce":
        return _announce_data(parse_draft(form.getlist("a"), setup))
    if name == "reveal":
        return {"type": "reveal",
                "ranks": [_whole_or_text(form.get(f"rank{s}")) for s in range(setup.side_count)]}
    if name == "end_hand":
        return {"type": "end_hand", "cards": card_counts(form, setup) + [None]}
    return {"type": "adjust", "side": _whole_or_text(form.get("side")),
            "points": _whole_or_text(form.get("points")), "note": form.get("note", "")}
