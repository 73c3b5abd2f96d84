"""A tap made on a board that another phone has changed since: whether it
still means what the tapping phone meant (docs/BOARD.md, "Two phones").

Two scorers at one table tap the same game. A tap carries the version of the
board its finger saw; what the log got after that version are the other
phone's taps. Missa for us and Missa for them have nothing to do with each
other: a tap counts, on the game as it now is, unless one of those records
changed its meaning. Plain data in (the tap as the API writes it, the
records as the log holds them), a refusal or None out.
"""

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from .errors import N_, RuleViolation, ScoringError
from .events import parse_event
from .fold import apply
from .log import fold_corrections
from .state import Setup, State

# Why a tap no longer means what it meant (StaleTap.reason).
ALREADY = "already"  # that very tap was recorded (both scorers tapped it)
UNDONE_ALREADY = "undone_already"  # an undo: the other phone undid that very event
SAME_KIND = "same_kind"  # the same kind for the same side, recorded otherwise
ANNOUNCED = "announced"  # the deal's announcements, confirmed otherwise
DEAL_MOVED = "deal_moved"  # the deal or the hand moved on
UNDONE = "undone"  # something was undone
CORRECTED = "corrected"  # a past event was corrected
CHAIN = "chain"  # the open chain the tap continues or ends changed
CHANGED = "changed"  # an undo: the last event is no longer the one the board showed
# The refusals of a tap that is itself in the game (the other phone made it):
# what the tapping phone meant stands.
STANDS = frozenset({ALREADY, UNDONE_ALREADY})

SENTENCES = {
    ALREADY: N_("Already recorded on another phone: not counted twice. The score shown "
                "includes it."),
    UNDONE_ALREADY: N_("Already undone on another phone: not undone twice. The score shown is "
                       "without it."),
    SAME_KIND: N_("Just recorded otherwise on another phone: not counted. Check the score, "
                  "tap again if needed."),
    # A deal's announcements are confirmed once: tapping Confirm again is
    # refused, so the sentence says the way to add these.
    ANNOUNCED: N_("Announcements already confirmed on another phone: not counted. Undo "
                  "theirs to confirm all."),
    # A Missa of the deal before happened all the same: the scorer taps it
    # again in the deal now played (a waiting one: drops it, then taps it).
    DEAL_MOVED: N_("Another phone moved on to the next deal meanwhile: not counted. Check the "
                   "score, tap again if needed."),
    UNDONE: N_("Another phone undid an event meanwhile: not counted. Check the score, tap "
               "again if needed."),
    CORRECTED: N_("Another phone corrected an event meanwhile: not counted. Check the score, "
                  "tap again if needed."),
    CHAIN: N_("Another phone changed the open chain meanwhile: not counted. Check the "
              "score."),
    # Undo again would take back the other phone's event first: an earlier
    # one of this phone's is corrected from the review.
    CHANGED: N_("Changed on another phone meanwhile: nothing undone. An earlier event: More, "
                "Review and correct."),
}

# A step or an end of a chain of the deal before: that chain was closed by
# the other phone's Next deal, so tapping it again is refused; a correction
# gives its points.
DEAL_MOVED_CHAIN = N_("Another phone moved on to the next deal: not counted, its chain is "
                      "closed. Correct the score under More if needed.")

# The hand counted on the other phone since (its count may have ended the
# game): it was no Next deal. A tap that scores cannot be tapped again (it
# would count in the next hand): a correction gives its points.
HAND_ENDED = N_("Another phone ended the hand meanwhile: not counted. Check the score.")
HAND_ENDED_SCORED = N_("Another phone ended the hand meanwhile: not counted. Correct the score "
                       "under More if needed.")

# That very Next deal, tapped on both phones: it scores nothing, so the
# sentence says what did not happen twice.
ALREADY_DEALT = N_("Already recorded on another phone: the deal moved on once, not twice.")

# That very Missa, recorded on the other phone before this phone's own chain
# (made offline: a Bount, a Khamsa, then the Missa that ended it): counted
# once, where the log has it, so the chain it ended stays open.
ALREADY_CHAIN_OPEN = N_("Already recorded on another phone, before this chain: the chain is "
                        "still open, tap Over.")

UNDO = {"type": "undo"}  # the tap of an Undo button, for `stale_tap`


class StaleTap(RuleViolation):
    """A tap whose meaning another phone's records changed: `reason` (one of
    the names above) says how, for a page to word it its own way; `kept`,
    the event recorded otherwise (as stored), when one was (the deal's
    announcements, a count), for a page to show what stands; `stands`, for
    a tap that is itself in the game (STANDS), the record that holds it:
    the phone's taps made after this one knew it as theirs."""

    def __init__(self, reason: str, kept: Mapping[str, Any] | None = None,
                 sentence: str | None = None, stands: int | None = None):
        super().__init__(sentence or SENTENCES[reason])
        self.reason = reason
        self.kept = kept
        self.stands = stands


@dataclass(frozen=True, slots=True)
class Record:
    """A record of the game's log, as stored: "event" (payload: the event),
    "undo" ({"undoes": seq}) or "correction" ({"corrects": seq, "event": …})."""

    seq: int
    action: str
    payload: Mapping[str, Any]


def stale_tap(setup: Setup, tap: Mapping[str, Any], since: Iterable[Record],
              unseen: Iterable[Record] = (), seen: State | None = None,
              mine: int | None = None) -> StaleTap | None:
    """Why `tap` (an event in its stored form, or UNDO) no longer means what
    it meant on a board that did not have `since`, the records another phone
    made after that board's version; None: it still does, and is judged as
    any tap on the game as it now is. `unseen`: records the board showed,
    but too shortly before the finger came down to have been seen (it had
    just followed the other phone): only that very tap among them refuses it.
    `seen`: the game as that board showed it, when known. `mine`: the
    record of the tapping phone's own last tap since that board (taps it
    made after it, not in `since`: the finger knew them), when there is one;
    `seen` is then the game as the log stood at it.

    - The same tap recorded since (both scorers tapped it): it counts once.
    - An undo takes back the last event the board showed: any record since
      changes which (refused), and when that record is the other phone's
      undo, it was that very undo; a record it showed but too shortly
      before the touch also refuses it (its finger meant the event before).
      After the phone's own taps (`mine`), only the records after the last
      of them count: that tap is the one it takes back.
    - An undo or a correction since changes what the board showed: refused.
      An event made and undone since changes nothing (unless it was that
      very tap, which the other phone took back on purpose).
    - The same kind for the same side recorded otherwise (a Missa with the
      last card against a plain Missa, another adjustment; the deal's
      announcements, which are confirmed once): refused.
    - The deal or the hand moved on since: the tap was of the deal before.
    - A step of the open chain (a 5 or a 10 after a 1) or its end, when a
      hit, a Missa or an end of chain since changed the chain; not when the
      board it was tapped on could not take it (no chain open there, as
      when the other phone recorded the Bount this Khamsa follows): it can
      only mean the chain as it now is. The other phone's records before
      the phone's own last tap did not change the chain that tap left (the
      log put them before it): a Khamsa made offline after its own Bount
      counts when the other phone's taps came before that Bount.
    Anything else (another event; the same kind for another side) counts."""
    since, unseen = list(since), list(unseen)
    if tap not in _undone_since(since):
        # An event made and undone since (a Next deal tapped by mistake, then
        # undone): the game is again the one the finger saw. Not when it was
        # that very tap: the other phone took it back on purpose.
        since = _without_cancelled(since)
    if tap.get("type") == "undo":
        # After the phone's own last tap, it is what the Undo takes back:
        # the other phone's records before it did not change that.
        later = [record for record in since if mine is None or record.seq > mine]
        if not later:
            # Records shown too shortly before the touch to be seen: the
            # last event is not the one the Undo was tapped to take back.
            return StaleTap(CHANGED) if unseen and mine is None else None
        if len(later) == 1 and later[0].action == "undo":
            return StaleTap(UNDONE_ALREADY, stands=later[0].seq)
        return StaleTap(CHANGED)
    # That very tap, or the same kind, is of the tap's own deal: a Missa
    # the other phone recorded after its Next deal is another Missa (this
    # one, made offline in the deal before, was dropped as already recorded).
    deal = _this_deal(unseen + since)
    for seq, event in _standing(unseen + since).items():
        if seq in deal and event == tap:
            return StaleTap(ALREADY, stands=seq, sentence=_already(tap, seq, seen, mine))
    events = [record.payload for record in since if record.action == "event"]
    for record in since:
        if record.action == "undo":
            return StaleTap(UNDONE)
        if record.action == "correction":
            return StaleTap(CORRECTED)
    same = [record.payload for record in since if record.action == "event" and
            record.seq in deal and _button(record.payload) == _button(tap)]
    if same:
        return StaleTap(ANNOUNCED if tap.get("type") == "announce" else SAME_KIND, same[-1])
    if any(event.get("type") == "end_hand" for event in events):
        return StaleTap(DEAL_MOVED, sentence=HAND_ENDED if tap.get("type") == "next_deal"
                        else HAND_ENDED_SCORED)
    if any(event.get("type") == "next_deal" for event in events):
        chain = tap.get("type") in ("hit", "chain_end")
        return StaleTap(DEAL_MOVED, sentence=DEAL_MOVED_CHAIN if chain else None)
    after_mine = [record.payload for record in since if record.action == "event" and
                  (mine is None or record.seq > mine)]
    if _follows_the_chain(setup, tap) and any(
            event.get("type") in ("hit", "missa", "chain_end") for event in after_mine) and (
            seen is None or _takes(seen, tap)):
        return StaleTap(CHAIN)
    return None


def _already(tap: Mapping[str, Any], seq: int, seen: State | None,
             mine: int | None) -> str | None:
    """What a tap already in the game says, when more than SENTENCES[ALREADY]:
    a Next deal moved on once; a Missa that stands before the chain this
    phone made since (`seen`, the game at its last tap) did not end it."""
    if tap.get("type") == "next_deal":
        return ALREADY_DEALT
    if tap.get("type") == "missa" and mine is not None and seq < mine and seen is not None \
            and seen.chain is not None:
        return ALREADY_CHAIN_OPEN
    return None


def stale_count(tap: Mapping[str, Any], hand_seen: int, hand_now: int,
                counted: Mapping[str, Any] | None, counted_seq: int | None = None
                ) -> StaleTap | None:
    """Why a count confirmed on the end-of-hand sheet of hand `hand_seen`
    cannot count now that the game is in hand `hand_now`; None: it still can.
    A count is of the hand its sheet showed, never another's, whatever the
    board's version said (a board that followed the other phone kept its
    sheet open): that hand counted meanwhile (`counted`: the count that
    ended it, as stored, record `counted_seq`), the same count is already
    recorded and another one
    is refused; a hand the game is back before (the other phone undid a
    count), refused."""
    if tap.get("type") != "end_hand" or hand_seen == hand_now:
        return None
    if hand_seen > hand_now:
        return StaleTap(UNDONE)
    if counted == tap:
        return StaleTap(ALREADY, counted, stands=counted_seq)
    return StaleTap(SAME_KIND, counted)


def _undone_since(since: list[Record]) -> list[Mapping[str, Any]]:
    """The events made since and undone since."""
    undone = {record.payload.get("undoes") for record in since if record.action == "undo"}
    return [record.payload for record in since if record.action == "event" and record.seq in undone]


def _without_cancelled(since: list[Record]) -> list[Record]:
    """`since` without the events made and undone in it, and their undos."""
    made = {record.seq for record in since}
    undone = {record.payload.get("undoes") for record in since if record.action == "undo"} & made
    return [record for record in since if record.seq not in undone and not (
        record.action == "undo" and record.payload.get("undoes") in undone)]


def _this_deal(records: list[Record]) -> set[int]:
    """The records of the deal the tap was made in: up to the first that
    closed it (a Next deal, a count), that one included."""
    seqs = set()
    for record in records:
        seqs.add(record.seq)
        if record.action == "event" and record.payload.get("type") in ("next_deal", "end_hand"):
            break
    return seqs


def _standing(records: Iterable[Record]) -> dict[int, Mapping[str, Any] | None]:
    """The events among `records` that still stand: not undone by one of
    them, as their corrections left them (None: removed)."""
    records = list(records)
    undone = {record.payload.get("undoes") for record in records if record.action == "undo"}
    return fold_corrections((record.seq, record.action, record.payload) for record in records
                            if record.seq not in undone)


def _button(event: Mapping[str, Any]) -> tuple:
    """What a tap is, side and all, whatever else it says: a Missa of a side
    (with the last card or not), a hit of a side and value, an adjustment of
    a side, a hidden Ronda by a side for another; one of a kind for the rest
    (the deal's announcements, its ranks, the count, the last trick)."""
    kind = event.get("type")
    if kind in ("missa", "adjust"):
        return kind, event.get("side")
    if kind == "hit":
        return kind, event.get("side"), event.get("value")
    if kind == "hidden_ronda":
        return kind, event.get("side"), event.get("to")
    return (kind,)


def _takes(state: State, tap: Mapping[str, Any]) -> bool:
    """Whether the game in `state` takes the tap (the rules allow it there)."""
    try:
        apply(state, parse_event(tap, state.setup))
    except ScoringError:
        return False
    return True


def _follows_the_chain(setup: Setup, tap: Mapping[str, Any]) -> bool:
    """Whether the tap means the open chain as the board showed it: its end,
    or a step after its first (a first hit opens a chain of its own)."""
    kind = tap.get("type")
    return kind == "chain_end" or (kind == "hit" and tap.get("value") != setup.rules.hits[0])
