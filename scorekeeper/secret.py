"""Secrets made at first start in the instance folder, never a default in code."""

import os
import secrets
from pathlib import Path


def load_or_create_secret(
    instance_path: str, name: str = "secret_key", make=lambda: secrets.token_hex(32)
) -> str:
    """The key stored at instance/<name>, made by `make` (owner-only) if missing."""
    path = Path(instance_path) / name
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    key = make()
    try:
        # O_EXCL: two processes starting at once must not write two keys.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(fd, "w") as handle:
        handle.write(key)
    return key
