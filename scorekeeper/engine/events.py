"""The events a scorer records, and how they are read from plain data.

`parse_event` checks everything that does not depend on the game's state
(shape, types, ranges: InvalidInput); the engine checks the rest
(RuleViolation). `to_dict` gives the canonical form that is stored.
"""

from dataclasses import dataclass, field
from typing import Any, Mapping, Union

from .errors import N_, InvalidInput
from .houserules import is_whole
from .limits import ADJUST_LIMIT, DECK, NOTE_LENGTH
from .state import Setup

RANKS = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
KINDS = ("ronda", "double_ronda", "tringa")
LAST_TRICK_OUTCOMES = ("twelve", "one", "missed")


@dataclass(frozen=True, slots=True)
class Announcement:
    side: int
    kind: str
    rank: int | None = None


@dataclass(frozen=True, slots=True)
class Announce:
    announcements: tuple[Announcement, ...]
    type = "announce"


@dataclass(frozen=True, slots=True)
class Reveal:
    ranks: tuple[int | None, ...]
    type = "reveal"


@dataclass(frozen=True, slots=True)
class Hit:
    side: int
    value: int
    type = "hit"


@dataclass(frozen=True, slots=True)
class ChainEnd:
    type = "chain_end"


@dataclass(frozen=True, slots=True)
class Missa:
    side: int
    last_card: bool = False
    type = "missa"


@dataclass(frozen=True, slots=True)
class NextDeal:
    type = "next_deal"


@dataclass(frozen=True, slots=True)
class EndHand:
    cards: tuple[int | None, ...]
    type = "end_hand"

    def counts(self) -> tuple[int, ...]:
        """Every side's count: the one not given is what the others leave of the deck."""
        given = sum(c for c in self.cards if c is not None)
        return tuple(DECK - given if c is None else c for c in self.cards)


@dataclass(frozen=True, slots=True)
class Adjust:
    side: int
    points: int
    note: str = ""
    type = "adjust"


@dataclass(frozen=True, slots=True)
class HiddenRonda:
    """`side` hid a Ronda and was found out: `to` gets the penalty.

    `to` is None when the scorer did not name the receiver: with two sides
    that is the other one; a three-side event without `to` was stored before
    the field existed, when the penalty went to each opponent, and keeps that
    meaning on replay (new ones must name the receiver: `parse_event`)."""

    side: int
    to: int | None = None
    type = "hidden_ronda"

    def receivers(self, sides: int) -> tuple[int, ...]:
        """The sides that get the penalty: the one named, else every other side."""
        if self.to is not None:
            return (self.to,)
        return tuple(s for s in range(sides) if s != self.side)


@dataclass(frozen=True, slots=True)
class DealerLastTrick:
    """How the hand's dealer took (or missed) the last trick.

    The last trick is played on the hand's last deal, so a new one is taken
    there only; `any_deal` marks one read from a game's log, which earlier
    versions took on any deal and which keeps that meaning on replay (the
    stored form is the same: `recorded_event` sets it, `to_dict` drops it)."""

    outcome: str
    any_deal: bool = field(default=False, compare=False)
    type = "dealer_last_trick"

    def receivers(self, dealer: int, sides: int) -> tuple[int, ...]:
        """The sides that get the points: the dealer when the 12 took the
        trick, else every other side."""
        if self.outcome == "twelve":
            return (dealer,)
        return tuple(s for s in range(sides) if s != dealer)


Event = Union[
    Announce, Reveal, Hit, ChainEnd, Missa, NextDeal, EndHand, Adjust,
    HiddenRonda, DealerLastTrick,
]


def to_dict(event: Event) -> dict[str, Any]:
    """The canonical plain form of an event (what is stored and exported)."""
    if isinstance(event, Announce):
        return {
            "type": event.type,
            "announcements": [
                {"side": a.side, "kind": a.kind, "rank": a.rank} for a in event.announcements
            ],
        }
    data = {"type": event.type}
    for name in event.__slots__:
        value = getattr(event, name)
        data[name] = list(value) if isinstance(value, tuple) else value
    if isinstance(event, HiddenRonda) and event.to is None:
        del data["to"]  # the form stored before `to` existed, kept as it was
    if isinstance(event, DealerLastTrick):
        del data["any_deal"]  # how it was read, not what was recorded
    return data


# -- reading plain data -------------------------------------------------------

# Fields each event type knows besides `type`; `expected_version` is read by
# the shell before the event gets here.
_FIELD_LIST = (
    ("announce", {"announcements"}),
    ("reveal", {"ranks"}),
    ("hit", {"side", "value"}),
    ("chain_end", set()),
    ("missa", {"side", "last_card"}),
    ("next_deal", set()),
    ("end_hand", {"cards"}),
    ("adjust", {"side", "points", "note"}),
    ("hidden_ronda", {"side", "to"}),
    ("dealer_last_trick", {"outcome"}),
)
_FIELDS = dict(_FIELD_LIST)
# In the list's order, not the dict's: a dict on the phone (MicroPython) keeps no order.
EVENT_TYPES = tuple(kind for kind, _ in _FIELD_LIST)


def parse_event(data: Any, setup: Setup, *, recorded: bool = False) -> Event:
    """An event from plain data, for the game set up as `setup`; raises InvalidInput.

    `recorded`: the data comes from a game's log (or an export of one), where
    earlier versions of the app may have stored forms that a new event may
    no longer take; they are read with the meaning they had. This is the one
    place that tells the two apart (`recorded_event`)."""
    if not isinstance(data, Mapping):
        raise InvalidInput(N_("An event must be a JSON object."))
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise InvalidInput(
            N_("Unknown event type. Use one of: %(types)s."), types=", ".join(EVENT_TYPES)
        )
    unknown = sorted(set(data) - _FIELDS[kind] - {"type"})
    if unknown:
        raise InvalidInput(
            N_("The event %(type)s has no field %(field)s."), type=kind, field=str(unknown[0])[:40]
        )
    present = {k: v for k, v in data.items() if v is not None}
    if kind == "hidden_ronda":
        return _hidden_ronda(present, setup, recorded)
    if kind == "dealer_last_trick":
        return _dealer_last_trick(present, recorded)
    return _PARSERS[kind](present, setup)


def recorded_event(data: Any, setup: Setup) -> Event:
    """An event read back from a game's log: as `parse_event`, accepting the
    forms earlier versions stored (see HiddenRonda) with the meaning they had
    (see DealerLastTrick)."""
    return parse_event(data, setup, recorded=True)


def _side(data: Mapping, sides: int, field: str = "side") -> int:
    value = data.get(field)
    if not is_whole(value) or not 0 <= value < sides:
        raise InvalidInput(
            N_("%(field)s must be the number of a side, from 0 to %(last)s."),
            field=field, last=sides - 1,
        )
    return value


def _rank(value: Any) -> int:
    if not is_whole(value) or value not in RANKS:
        raise InvalidInput(N_("A rank is one of 1 to 7, 10, 11 or 12."))
    return value


def _per_side(data: Mapping, field: str, sides: int) -> list:
    value = data.get(field)
    if not isinstance(value, list) or len(value) != sides:
        raise InvalidInput(
            N_("%(field)s must be a list with one entry per side (%(sides)s)."),
            field=field, sides=sides,
        )
    return value


def _announce(data, setup):
    entries = data.get("announcements")
    if not isinstance(entries, list) or not 1 <= len(entries) <= 4:
        raise InvalidInput(N_("announcements must be a list of 1 to 4 announcements."),
                           field="announcements")
    announcements = []
    for entry in entries:
        if not isinstance(entry, Mapping) or set(entry) - {"side", "kind", "rank"}:
            raise InvalidInput(
                N_("Each announcement is an object with side, kind and an optional rank.")
            )
        side = _side(entry, setup.side_count)
        kind = entry.get("kind")
        if not isinstance(kind, str) or kind not in KINDS:
            raise InvalidInput(N_("An announcement's kind is ronda, double_ronda or tringa."))
        rank = entry.get("rank")
        announcements.append(Announcement(side, kind, None if rank is None else _rank(rank)))
    # One announcement per player: a side of two partners makes at most two.
    per_side = setup.players // setup.side_count
    for side in range(setup.side_count):
        if sum(a.side == side for a in announcements) > per_side:
            if per_side == 1:
                raise InvalidInput(
                    N_("%(side)s has already announced: each player announces once per deal."),
                    side=setup.sides[side], subject="side",
                )
            raise InvalidInput(
                N_("%(side)s has already announced twice: each partner announces once per "
                   "deal."),
                side=setup.sides[side], subject="side", team=True,
            )
    return Announce(tuple(announcements))


def _reveal(data, setup):
    ranks = _per_side(data, "ranks", setup.side_count)
    return Reveal(tuple(None if r is None else _rank(r) for r in ranks))


def _hit(data, setup):
    side = _side(data, setup.side_count)
    value = data.get("value")
    if not is_whole(value) or setup.rules.hit_step(value) < 0:
        a, b, c = setup.rules.hits
        raise InvalidInput(N_("A hit is worth %(a)s, %(b)s or %(c)s."), a=a, b=b, c=c)
    return Hit(side, value)


def _missa(data, setup):
    last_card = data.get("last_card", False)
    if not isinstance(last_card, bool):
        raise InvalidInput(N_("last_card takes true or false."), field="last_card")
    return Missa(_side(data, setup.side_count), last_card)


def _end_hand(data, setup):
    cards = _per_side(data, "cards", setup.side_count)
    if sum(c is None for c in cards) != 1:
        raise InvalidInput(
            N_("Give the card count of every side but one: exactly one entry is null."),
            field="cards",
        )
    given = [c for c in cards if c is not None]
    if not all(is_whole(c) and 0 <= c <= DECK for c in given):
        raise InvalidInput(N_("A card count is a whole number from 0 to %(deck)s."), deck=DECK)
    if sum(given) > DECK:
        raise InvalidInput(
            N_("These counts make more than the deck's %(deck)s cards (%(total)s)."),
            deck=DECK, total=sum(given),
        )
    return EndHand(tuple(cards))


def _adjust(data, setup):
    side = _side(data, setup.side_count)
    points = data.get("points")
    if not is_whole(points) or points == 0 or abs(points) > ADJUST_LIMIT:
        raise InvalidInput(
            N_("points must be a whole number from -%(limit)s to %(limit)s, not 0."),
            limit=ADJUST_LIMIT, field="points",
        )
    note = data.get("note", "")
    if not isinstance(note, str) or len(note.strip()) > NOTE_LENGTH:
        raise InvalidInput(N_("A note is text of at most %(length)s characters."), length=NOTE_LENGTH)
    return Adjust(side, points, note.strip())


def _hidden_ronda(data, setup, recorded):
    side = _side(data, setup.side_count)
    if "to" not in data:
        if setup.side_count == 3 and not recorded:
            raise InvalidInput(
                N_("With three sides, say who gets the penalty (to): the opponent who holds "
                   "the biggest Ronda.")
            )
        return HiddenRonda(side)
    to = _side(data, setup.side_count, "to")
    if to == side:
        raise InvalidInput(
            N_("to is the side that gets the penalty: another side than the one that hid "
               "the Ronda."), field="to",
        )
    return HiddenRonda(side, to)


def _dealer_last_trick(data, recorded):
    outcome = data.get("outcome")
    if not isinstance(outcome, str) or outcome not in LAST_TRICK_OUTCOMES:
        raise InvalidInput(N_("outcome is one of: twelve, one, missed."), field="outcome")
    return DealerLastTrick(outcome, any_deal=recorded)


_PARSERS = {
    "announce": _announce,
    "reveal": _reveal,
    "hit": _hit,
    "chain_end": lambda data, setup: ChainEnd(),
    "missa": _missa,
    "next_deal": lambda data, setup: NextDeal(),
    "end_hand": _end_hand,
    "adjust": _adjust,
}
