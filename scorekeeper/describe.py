"""Events and gains in the scorer's words, for the board and the history."""

from flask import Flask
from flask_babel import gettext as _

from . import rules
from .rules.errors import N_
from .rules.moves import Step, points_of

# The Spanish deck's figures (valet, cavalier, roi in French).
RANK_NAMES = {10: N_("Jack"), 11: N_("Knight"), 12: N_("King")}


def kind_name(kind: str) -> str:
    return {"ronda": "Ronda", "double_ronda": _("Double Ronda"), "tringa": "Tringa"}[kind]


def rank_name(rank: int) -> str:
    return f"{rank} ({_(RANK_NAMES[rank])})" if rank in RANK_NAMES else str(rank)


def event_text(event: rules.Event, sides: tuple[str, ...]) -> str:
    """What happened, in a few words: "Missa · Eux", "Hit of 5 · Nous"."""
    if isinstance(event, rules.Announce):
        return _("Announcements: %(list)s") % {"list": ", ".join(
            announcement_text(a, sides) for a in event.announcements
        )}
    if isinstance(event, rules.Reveal):
        return _("Ranks shown: %(list)s") % {"list": ", ".join(
            f"{sides[s]} {rank_name(r)}" for s, r in enumerate(event.ranks) if r is not None
        )}
    if isinstance(event, rules.Hit):
        return _("Hit of %(value)s · %(side)s") % {"value": event.value, "side": sides[event.side]}
    if isinstance(event, rules.ChainEnd):
        return _("Chain over")
    if isinstance(event, rules.Missa):
        if event.last_card:
            return _("Missa with the last card · %(side)s") % {"side": sides[event.side]}
        return _("Missa · %(side)s") % {"side": sides[event.side]}
    if isinstance(event, rules.NextDeal):
        return _("Next deal")
    if isinstance(event, rules.EndHand):
        given = sum(c for c in event.cards if c is not None)
        counts = [40 - given if c is None else c for c in event.cards]
        return _("End of hand: %(list)s") % {"list": ", ".join(
            _("%(side)s %(count)s cards") % {"side": sides[s], "count": c}
            for s, c in enumerate(counts)
        )}
    if isinstance(event, rules.Adjust):
        text = _("Correction %(points)+d · %(side)s") % {
            "points": event.points, "side": sides[event.side]}
        return f"{text} ({event.note})" if event.note else text
    if isinstance(event, rules.HiddenRonda):
        return _("Hidden Ronda found out · %(side)s") % {"side": sides[event.side]}
    if isinstance(event, rules.DealerLastTrick):
        return {
            "twelve": _("Dealer's last trick with a 12"),
            "one": _("Dealer's last trick with a 1"),
            "missed": _("Dealer's last trick missed"),
        }[event.outcome]
    return event.type


def points_text(step: Step, sides: tuple[str, ...]) -> str:
    """What an event gave: "Nous +2", or "—" when it scored nothing."""
    totals = points_of(step.gains, len(sides))
    parts = [f"{sides[s]} {p:+d}" for s, p in enumerate(totals) if p]
    return " · ".join(parts) or "—"


def score_text(scores: tuple[int, ...]) -> str:
    return " – ".join(str(s) for s in scores)


def announcement_text(announcement: rules.Announcement, sides: tuple[str, ...]) -> str:
    return f"{sides[announcement.side]} {kind_name(announcement.kind)}"


def init_app(app: Flask) -> None:
    for function in (kind_name, rank_name, event_text, points_text, score_text,
                     announcement_text):
        app.add_template_filter(function)
    app.jinja_env.globals.update(RANKS=rules.RANKS, RANK_NAMES=RANK_NAMES)
