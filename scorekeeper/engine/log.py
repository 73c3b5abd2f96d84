"""A game's log, folded: the corrections applied to the events they name.

The log holds event records and correction records, never rewritten; this
is the one place that says what they add up to.
"""

from typing import Iterable


def fold_corrections(records: Iterable[tuple[int, str, dict]]) -> dict[int, dict | None]:
    """The one place where corrections apply: fold a log's (seq, action,
    payload) records, oldest first, into its events by seq. A correction
    ({"corrects": seq, "event": event or None}) replaces the event it names
    in place, or removes it (None); one naming no standing event is inert."""
    events: dict[int, dict | None] = {}
    for seq, action, payload in records:
        if action == "event":
            events[seq] = payload
        elif action == "correction" and payload.get("corrects") in events:
            events[payload["corrects"]] = payload.get("event")
    return events


def standing_of(events: dict[int, dict | None]) -> list[tuple[int, dict]]:
    """The events `fold_corrections` left standing (not removed), oldest first: (seq, event)."""
    return [(seq, event) for seq, event in events.items() if event is not None]
