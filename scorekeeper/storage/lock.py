"""A restore must not run under a server's feet.

A server holds a shared lock on `.<store>.lock`, beside the store, for as
long as it serves (two servers may share a store); a restore takes it
exclusively, so it is refused while any server runs, and a server does not
start in the middle of a restore. The kernel drops a process's locks when it dies, even by SIGKILL,
so a crash never leaves the store locked. (flock: Linux, macOS, Android;
where it does not exist, nothing is locked.)
"""

import os
import time
from contextlib import contextmanager
from typing import Iterator

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

from .db import _file_path

WAIT_SECONDS = 10


class StoreInUse(Exception):
    """The message says who holds the store and what to do."""


def lock_path(database: str) -> str | None:
    path = _file_path(database)
    if fcntl is None or path in ("", ":memory:") or "mode=memory" in database:
        return None
    folder, name = os.path.split(path)
    return os.path.join(folder, f".{name}.lock")


@contextmanager
def _locked(database: str, mode: int, wait: float, busy: str) -> Iterator[None]:
    path = lock_path(database)
    if path is None:
        yield
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, mode | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise StoreInUse(busy) from None
                time.sleep(0.1)
        yield
    finally:
        os.close(fd)  # releases the lock


def serving_lock(database: str, wait: float = WAIT_SECONDS):
    """Held by a server while it serves `database`."""
    return _locked(database, fcntl.LOCK_SH if fcntl else 0, wait,
                   f"a restore of {database} is running: start again once it is done.")


def restore_lock(database: str):
    """Held by a restore; refused at once while a server runs."""
    return _locked(database, fcntl.LOCK_EX if fcntl else 0, 0,
                   f"a server is using {database}: stop it (Ctrl+C where make run runs), then "
                   f"restore again. Nothing was changed.")
