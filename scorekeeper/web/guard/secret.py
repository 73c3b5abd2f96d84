"""Secrets made at first start in the instance folder, never a default in code.

A secret file is written whole or not at all: the secret goes into a
temporary file, reaches the disk (fsync), and only then is linked under its
name, which fails if another process starting at the same moment got there
first (its secret is then the one). So a full disk or a crash leaves no
empty or short secret behind, and two processes never hold different ones.
A secret read back empty, short or malformed stops the start with a sentence
that says how to mend it: an empty access key would let anyone in.
"""

import os
import secrets
import tempfile
from pathlib import Path
from typing import Callable

MIN_SECRET_LENGTH = 12


class SecretError(RuntimeError):
    """A secret that cannot be made or read; the message says what to do."""


def _well_formed(value: str) -> bool:
    return len(value) >= MIN_SECRET_LENGTH and value.isascii() and value.isprintable()


def load_or_create_secret(
    instance_path: str, name: str = "secret_key", make: Callable[[], str] = lambda: secrets.token_hex(32),
    valid: Callable[[str], bool] = _well_formed,
) -> str:
    """The secret stored at instance/<name>, made by `make` (owner-only) if
    missing. Raises SecretError when it cannot be written or is not `valid`."""
    path = Path(instance_path) / name
    try:
        text = path.read_bytes()
    except FileNotFoundError:
        text = _create(path, make())
    except OSError as error:
        raise SecretError(f"{path} cannot be read ({error.strerror or error}).") from None
    try:
        value = text.decode("ascii").strip()
    except UnicodeDecodeError:
        value = ""
    if not valid(value):
        raise SecretError(
            f"{path} is empty or damaged ({len(text)} bytes). Nothing was served. Delete it and "
            f"start again: a new one will be made (phones paired before will need the new "
            f"QR code or key)."
        )
    return value


def _create(path: Path, value: str) -> bytes:
    data = value.encode("ascii")
    fd, partial = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)  # mode 0600
    try:
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.link(partial, path)  # never replaces: fails if another process made it first
        except FileExistsError:
            return path.read_bytes()  # whole: it was linked only once on the disk
        except OSError as error:
            raise SecretError(
                f"{path} could not be written ({error.strerror or error}): nothing was served. "
                f"Free some space in {path.parent} (or make it writable), then start again."
            ) from None
    finally:
        Path(partial).unlink(missing_ok=True)
    _sync_folder(path.parent)
    return data


def _sync_folder(folder: Path) -> None:
    """The new name reaches the disk too, not only the file's bytes."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder; the file itself is on the disk
    finally:
        os.close(fd)
