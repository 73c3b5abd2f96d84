"""The shell's clock: the engine never reads it; the shell passes times in."""

from datetime import datetime, timezone


def utc_now() -> str:
    """Now, as the ISO 8601 UTC text every stored time uses."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")
