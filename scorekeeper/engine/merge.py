"""One rule for two phones (docs/BOARD.md, "Two phones"): what a tap does,
given the records new to its phone.

A tap knows its phone (`device`), the version its finger saw (`seen`), the
version its phone's previous tap saw (`since`, read from that tap's record)
and what it means (an event, or an Undo naming a record). The records new to
its phone are those after `since`, made by another device, and not matched
with one of its device's own: a scorer taps what happens at the table, in
its order, so another phone's record that came after this phone's previous
tap may be this very tap, whether or not the board has drawn it since. Its
deal is the deal its finger saw (the records up to `seen`). Plain data in
(the log's event records in the fold's order, the tap), a decision out: no
clock, no page.
"""

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .errors import N_, RuleViolation, ScoringError
from .events import recorded_event
from .fold import new_game, replay
from .state import Setup, State

# What a tap does (Merge.action).
APPLY = "apply"  # counts on the game as it now is
SAME = "same"  # it is the record `seq`, recorded by another phone: counted once
PLACE = "place"  # placed before the record `seq`, which closed its deal
UNDO = "undo"  # takes back the record `seq`
DONE = "done"  # what another phone's record already did (an Undo, a count): nothing more
AFTER = "after"  # a close counted after the other phone's taps of its deal it had not seen
JOIN = "join"  # announcements joined to the deal's, confirmed on another phone: `seq` corrected

# Why a tap is refused (MergeRefused.reason): what truly conflicts.
# What a hand or a deal records once, by the reason it is refused for when
# another phone recorded it otherwise.
ONCE = {"end_hand": "counted_otherwise", "announce": "announced_otherwise"}
COUNTED_OTHERWISE = "counted_otherwise"  # another count of the same hand
ANNOUNCED_OTHERWISE = "announced_otherwise"  # the deal's announcements, confirmed otherwise
HAND_UNDONE = "hand_undone"  # a count of a hand the game is back before
CHAIN_CLOSED = "chain_closed"  # a chain's step or Over, its chain not open in its deal
DEPENDS = "depends"  # later records need the record an Undo names
LATER = "later"  # placed in its deal, the records since could not stand

SENTENCES = {
    COUNTED_OTHERWISE: N_("Counted otherwise on another phone: not counted. Undo theirs to "
                          "count again."),
    # A deal's announcements are confirmed once: the board marks both
    # phones' for Undo, then Confirm all.
    ANNOUNCED_OTHERWISE: N_("Announcements already confirmed on another phone: not counted. "
                            "Undo theirs to confirm all."),
    HAND_UNDONE: N_("Another phone undid an event meanwhile: not counted. Check the score, tap "
                    "again if needed."),
    CHAIN_CLOSED: N_("Another phone changed the open chain meanwhile: not counted. Check the "
                     "score."),
    DEPENDS: N_("Events since depend on it: nothing undone. More, then Review and correct."),
    LATER: N_("Another phone's events since could not stand with it: not counted. Check the "
              "score."),
}
# What the board says of a tap that is another phone's record (SAME, DONE).
ALREADY_COUNTED = N_("Already recorded on another phone: counted once.")
ALREADY_UNDONE = N_("Already undone on another phone: not undone twice.")
# What the board says of a tap placed in its deal, which another phone left
# meanwhile: where it counted, never silently.
PLACED = N_("Counted in the deal it was tapped in: another phone had moved on meanwhile.")
# What the board says of a close counted after the other phone's taps of its
# deal, which its board had not shown: they are in the deal it closed.
CLOSED_AFTER = N_("Deal closed after the other phone's taps, which count in it.")
# What the board says of announcements joined to those another phone confirmed.
JOINED = N_("Added to the announcements confirmed on another phone: counted together.")

CLOSERS = ("next_deal", "end_hand")


class MergeRefused(RuleViolation):
    """A tap that truly conflicts with a record it had not seen: `reason`
    (one of the names above) says how; `kept`, the record's event that
    stands instead (a count), for a page to say it."""

    def __init__(self, reason: str, kept: Mapping[str, Any] | None = None):
        super().__init__(SENTENCES[reason])
        self.reason = reason
        self.kept = kept


@dataclass(frozen=True, slots=True)
class Record:
    """An event record of the log, in the fold's order: its event as
    corrected (None: removed), the device that made it, and, when undone,
    the undo's record and device; `matched`, the devices whose `same`
    records name it."""

    seq: int
    event: Mapping[str, Any] | None
    device: str | None = None
    undone_at: int | None = None
    undone_from: str | None = None
    matched: tuple[str | None, ...] = ()


@dataclass(frozen=True, slots=True)
class Tap:
    """A tap: its device, the version its finger saw, and what it means (an
    event in its stored form; None for an Undo, which names `undoes`, or
    else takes back the last event its phone knew). `hand`: a count's hand,
    as its sheet said it. `since`: the version its phone's previous tap saw
    (None: its first tap, whose records new to it are those after `seen`)."""

    device: str | None
    seen: int
    event: Mapping[str, Any] | None = None
    undoes: int | None = None
    hand: int | None = None
    since: int | None = None


@dataclass(frozen=True, slots=True)
class Merge:
    """What to record: `action` and the record it names (`seq`); `state`,
    the game after it, when the log's order made the engine fold it;
    `event`, the record's event as corrected (JOIN)."""

    action: str
    seq: int | None = None
    state: State | None = None
    event: Mapping[str, Any] | None = None


def merge_tap(setup: Setup, entries: Sequence[Record], tap: Tap) -> Merge:
    """What `tap` does given the log's event records `entries` (every one,
    in the fold's order); raises MergeRefused, or the engine's own refusal
    of an event placed in its deal."""
    if tap.event is None:
        return _undo(setup, entries, tap)
    standing = [entry for entry in entries if _stands(entry)]
    if tap.event.get("type") == "end_hand" and tap.hand is not None:
        counted = _count_of_hand(standing, tap.hand)
        if counted is not None:
            return _same_count(counted, tap)
    if not any(_new(entry, tap) for entry in standing):
        return Merge(APPLY)
    # The deal its finger saw, without this very tap: the same close new
    # to its phone, drawn just before the finger came down, is this one.
    deal = sum(1 for entry in standing if _known(entry, tap) and _closes(entry)
               and not (_new(entry, tap) and entry.event == tap.event))
    return _in_deal(setup, standing, tap, deal)


def _in_deal(setup: Setup, standing: list[Record], tap: Tap, deal: int) -> Merge:
    """The tap of the `deal`-th deal (counted from 0 by the records that
    closed deals): that deal's same event or other count, new to its phone;
    the closer its finger had not seen; a close, after the taps of its deal
    it had not seen."""
    of_deal = [entry for index, entry in _with_deals(standing) if index == deal]
    new = [entry for entry in of_deal if _new(entry, tap)]
    unseen = [entry for entry in new if not _known(entry, tap)]
    kind = tap.event.get("type")
    for entry in new:
        # What a hand or a deal records once is every phone's same tap.
        if entry.event == tap.event and (not entry.matched or kind in ONCE):
            return Merge(SAME, entry.seq)
    for entry in new:
        if kind == "announce" and entry.event.get("type") == kind:
            return _joined(setup, standing, tap, entry)
        if kind in ONCE and entry.event.get("type") == kind:
            raise MergeRefused(ONCE[kind], entry.event)
    closer = next((entry for entry in unseen if _closes(entry)), None)
    if closer is not None:
        return _placed(setup, standing, tap, closer)
    # A close and the other phone's tap of its deal, neither seeing the
    # other, make one game whichever arrives first: the tap in the deal,
    # the close after it. The tap arriving second is placed and said; the
    # close arriving second is said too, or the same race would be silent.
    return Merge(AFTER if kind in CLOSERS and unseen else APPLY)


def _joined(setup: Setup, standing: list[Record], tap: Tap, theirs: Record) -> Merge:
    """Announcements of a deal whose announcements another phone confirmed
    first: each phone confirmed what it marked (its side's, as often), and
    the table meant them all. The deal's one record is corrected to hold
    both (what both marked, once), the game folded again with it; where
    the engine refuses that (two announcements of one player, or the ranks
    since shown for theirs alone), the choice is the scorer's
    (ANNOUNCED_OTHERWISE)."""
    joined = dict(theirs.event, announcements=_both(theirs.event["announcements"],
                                                    tap.event["announcements"]))
    at = standing.index(theirs)
    events = [recorded_event(entry.event, setup) for entry in standing]
    try:
        events[at] = recorded_event(joined, setup)
        state = replay(setup, events)
    except ScoringError:
        raise MergeRefused(ANNOUNCED_OTHERWISE, theirs.event) from None
    return Merge(JOIN, theirs.seq, state, joined)


def _both(theirs: Sequence[Mapping[str, Any]], ours: Sequence[Mapping[str, Any]]) -> list:
    """Two phones' announcements of one deal, each once that both marked,
    in the sides' order (a side's partners may announce one each)."""
    both = list(theirs)
    for announcement in ours:
        named = _named(announcement)
        if _how_many(ours, named) > _how_many(both, named):
            both.append(announcement)
    return sorted(both, key=lambda announcement: announcement.get("side"))


def _named(announcement: Mapping[str, Any]) -> tuple:
    return announcement.get("side"), announcement.get("kind")


def _how_many(announcements: Sequence[Mapping[str, Any]], named: tuple) -> int:
    return sum(1 for announcement in announcements if _named(announcement) == named)


def _placed(setup: Setup, standing: list[Record], tap: Tap, closer: Record) -> Merge:
    """The tap placed just before `closer`: the game folded with it there.
    A chain's step or Over where its chain is not open (the close scored
    another chain, or none) is refused (CHAIN_CLOSED); the engine refusing
    another tap there is its own refusal; refusing a record after it, the
    records since cannot stand with it (LATER)."""
    at = standing.index(closer)
    events = [recorded_event(entry.event, setup) for entry in standing]
    events.insert(at, recorded_event(tap.event, setup))
    try:
        state = replay(setup, events[:at + 1], new_game(setup))
    except ScoringError:
        if _follows_a_chain(setup, tap.event):
            raise MergeRefused(CHAIN_CLOSED) from None
        raise
    try:
        state = replay(setup, events[at + 1:], state)
    except ScoringError:
        raise MergeRefused(LATER) from None
    return Merge(PLACE, closer.seq, state)


def _undo(setup: Setup, entries: Sequence[Record], tap: Tap) -> Merge:
    """An Undo: the record it names, or the last event its phone knew,
    taken back whatever came since; one already undone, nothing more."""
    target = _undo_target(entries, tap)
    if target is None or target.event is None:
        return Merge(UNDO)  # nothing to take back: the service says so
    if target.undone_at is not None:
        return Merge(DONE, target.seq)
    standing = [entry for entry in entries if _stands(entry)]
    if standing[-1] is target:
        return Merge(UNDO, target.seq)
    events = [recorded_event(entry.event, setup) for entry in standing if entry is not target]
    try:
        state = replay(setup, events)
    except ScoringError:
        raise MergeRefused(DEPENDS) from None
    return Merge(UNDO, target.seq, state)


def _undo_target(entries: Sequence[Record], tap: Tap) -> Record | None:
    """The record an Undo takes back: the one it names, or else the last
    event its phone knew standing."""
    if tap.undoes is not None:
        return next((entry for entry in entries if entry.seq == tap.undoes), None)
    known = [entry for entry in entries if entry.event is not None and _known(entry, tap)
             and not _undo_known(entry, tap)]
    return known[-1] if known else None


def _same_count(counted: Record, tap: Tap) -> Merge:
    """A count of a hand that has ended: the same count is that count;
    another is refused."""
    # A hand has one count: every phone's same count is that one.
    if counted.event == tap.event and _new(counted, tap):
        return Merge(SAME, counted.seq)
    if counted.event == tap.event:
        return Merge(DONE, counted.seq)
    raise MergeRefused(COUNTED_OTHERWISE, counted.event)


def _count_of_hand(standing: list[Record], hand: int) -> Record | None:
    """The count that ended hand `hand` (each count ends one), or None;
    refused, a hand the game is back before (another phone undid the count
    of the hand before it)."""
    counts = [entry for entry in standing if entry.event.get("type") == "end_hand"]
    if hand > len(counts) + 1:
        raise MergeRefused(HAND_UNDONE)
    return counts[hand - 1] if 0 < hand <= len(counts) else None


def _with_deals(standing: list[Record]) -> list[tuple[int, Record]]:
    """Each standing record with its deal's number: how many records before
    it closed a deal (the closer belongs to the deal it closes)."""
    numbered, deal = [], 0
    for entry in standing:
        numbered.append((deal, entry))
        deal += _closes(entry)
    return numbered


def _stands(entry: Record) -> bool:
    return entry.event is not None and entry.undone_at is None


def _closes(entry: Record) -> bool:
    return entry.event.get("type") in CLOSERS


def _known(entry: Record, tap: Tap) -> bool:
    """Whether the tap's phone knew the record: seen, its own, or matched
    with one of its own."""
    return entry.seq <= tap.seen or (tap.device is not None and (
        entry.device == tap.device or tap.device in entry.matched))


def news_after(tap: Tap) -> int:
    """The last record not new to the tap's phone: what its previous tap
    saw. A phone's first tap has no previous one: the last record its
    finger saw may be this very tap, drawn just before the finger came
    down. A tap of no known phone: what it saw."""
    if tap.device is None:
        return tap.seen
    return tap.seen - 1 if tap.since is None else min(tap.since, tap.seen)


def _new(entry: Record, tap: Tap) -> bool:
    """Whether the record is new to the tap's phone: another phone's, not
    matched with one of its own, and after what its previous tap saw."""
    return entry.seq > news_after(tap) and not (tap.device is not None and (
        entry.device == tap.device or tap.device in entry.matched))


def _undo_known(entry: Record, tap: Tap) -> bool:
    """Whether the tap's phone knew that the record was undone."""
    return entry.undone_at is not None and (
        entry.undone_at <= tap.seen or (tap.device is not None and entry.undone_from == tap.device))


def _follows_a_chain(setup: Setup, event: Mapping[str, Any]) -> bool:
    """A chain's Over, or a step after its first (a first hit opens one)."""
    kind = event.get("type")
    return kind == "chain_end" or (kind == "hit" and event.get("value") != setup.rules.hits[0])
