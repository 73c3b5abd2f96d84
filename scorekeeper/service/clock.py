"""The shell's clock: the engine never reads it; the shell passes times in."""

from datetime import datetime, timezone

from ..engine.errors import N_, InvalidInput


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


def check_time(value: object, field: str, optional: bool = False) -> None:
    """A stored time every page can show (readable_time), or a refusal naming `field`."""
    if value is None and optional or readable_time(value) is not None:
        return
    try:
        ok = isinstance(value, str) and datetime.fromisoformat(value).tzinfo is not None
    except ValueError:
        ok = False
    if not ok:
        raise InvalidInput(N_("%(field)s must be a date and time with its time zone (ISO 8601)."),
                           field=field)
    raise InvalidInput(N_("%(field)s must be a time between the years %(first)s and %(last)s."),
                       field=field, first=EARLIEST_YEAR, last=LATEST_YEAR)
