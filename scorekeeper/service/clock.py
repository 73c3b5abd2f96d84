"""The shell's clock: the engine never reads it; the shell passes times in."""

from datetime import datetime, timezone


def utc_now() -> str:
    """Now, as the ISO 8601 UTC text every stored time uses."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


# Every stored time a page shows is shifted to the server's time zone: a
# year 1 or 9999 may fall off the calendar on the way (OverflowError).
# Within these years every shift lands on a day that exists.
EARLIEST_YEAR, LATEST_YEAR = 1970, 9998


def readable_time(value: object) -> datetime | None:
    """A stored time (ISO 8601, with its time zone) that every page can
    show, in whatever time zone; else None."""
    try:
        moment = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None
    if moment is None or moment.tzinfo is None:
        return None
    try:
        year = moment.astimezone(timezone.utc).year
    except OverflowError:
        return None
    return moment if EARLIEST_YEAR <= year <= LATEST_YEAR else None
