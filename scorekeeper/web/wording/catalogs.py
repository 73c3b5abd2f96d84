"""The compiled translations, made at start-up when they are missing or stale.

Flask-Babel reads only compiled catalogs (messages.mo), which are not
committed. Started any other way than `make run` (`flask --app scorekeeper
run`, a test harness), a fresh checkout had none: every page said
lang="fr" and showed English. So the app compiles each language's .po
itself when its .mo is missing or older, atomically (a temporary file, then
a rename: a second process starting at the same moment reads one whole
catalog or the other), and refuses to start, with a sentence, when a
language still has no catalog: never one language under another's tag.
"""

import os
import tempfile
from pathlib import Path
from typing import Iterable

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

DOMAIN = "messages"


class CatalogError(RuntimeError):
    """A language has no compiled catalog and none could be made."""


def _stale(po: Path, mo: Path) -> bool:
    try:
        return not mo.is_file() or mo.stat().st_mtime_ns < po.stat().st_mtime_ns
    except FileNotFoundError:
        return True


def compile_catalog(po: Path, mo: Path) -> None:
    """messages.po into messages.mo, as `pybabel compile` does (fuzzy entries left out)."""
    with po.open("rb") as source:
        catalog = read_po(source, locale=po.parent.parent.name)
    handle, temporary = tempfile.mkstemp(dir=mo.parent, prefix=f".{mo.name}.")
    try:
        with os.fdopen(handle, "wb") as target:
            write_mo(target, catalog)
            target.flush()
            os.fsync(target.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, mo)
    except BaseException:
        os.unlink(temporary)
        raise


def ensure_compiled(folders: Iterable[str], languages: Iterable[str]) -> list[Path]:
    """Compile what is missing or stale in each translations folder; the
    catalogs compiled. Raises CatalogError when a language is left with none."""
    folders = [Path(folder) for folder in folders]
    compiled = []
    for folder in folders:
        for language in languages:
            po = folder / language / "LC_MESSAGES" / f"{DOMAIN}.po"
            mo = po.with_suffix(".mo")
            if not po.is_file() or not _stale(po, mo):
                continue
            try:
                compile_catalog(po, mo)
            except (OSError, ValueError) as error:  # ValueError: babel's, on a broken .po
                raise CatalogError(
                    f"The {language!r} translations in {po} cannot be compiled into "
                    f"{mo.name} ({getattr(error, 'strerror', None) or error}): run "
                    f"`make translations`, or start the scorekeeper with `make run`."
                ) from None
            compiled.append(mo)
    for language in languages:
        if not any((folder / language / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file()
                   for folder in folders):
            raise CatalogError(
                f"There is no {language!r} catalog in {', '.join(map(str, folders))}: the "
                f"pages in that language would show another's words. Restore "
                f"translations/{language}/LC_MESSAGES/{DOMAIN}.po, then start again.")
    return compiled
