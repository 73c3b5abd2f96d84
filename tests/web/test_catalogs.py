"""No silent English (a page in English for a French table): started without
`make run`, the app compiles missing or stale catalogs itself, or refuses to
start with a sentence."""

import os
import shutil
from html import escape
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from scorekeeper import create_app
from scorekeeper.web.wording.catalogs import CatalogError
from scorekeeper.web.wording.i18n import LANGUAGES

SOURCES = Path(__file__).resolve().parents[2] / "translations"
# Words of the home page, and the page's tag, in each language.
WORDS = ("New game", "Past games")


@pytest.fixture
def folder(tmp_path):
    """The .po sources alone, as in a fresh checkout: no compiled catalog."""
    copy = tmp_path / "translations"
    for language in LANGUAGES:
        target = copy / language / "LC_MESSAGES"
        target.mkdir(parents=True)
        shutil.copy(SOURCES / language / "LC_MESSAGES" / "messages.po", target)
    return copy


def translated(language: str, word: str) -> str:
    with (SOURCES / language / "LC_MESSAGES" / "messages.po").open("rb") as source:
        return read_po(source)[word].string


def home(folder: Path, tmp_path: Path, language: str) -> str:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "store.sqlite3"),
                      "BABEL_TRANSLATION_DIRECTORIES": str(folder)})
    return app.test_client().get("/", headers={"Accept-Language": language}).get_data(
        as_text=True)


def test_missing_catalogs_are_compiled_at_start_up(folder, tmp_path):
    page = home(folder, tmp_path, "fr")
    assert '<html lang="fr"' in page
    for word in WORDS:
        assert translated("fr", word) != word
        assert escape(translated("fr", word), quote=False) in page
        assert word not in page
    for language in LANGUAGES:
        assert (folder / language / "LC_MESSAGES" / "messages.mo").is_file()
    arabic = home(folder, tmp_path, "ar")
    assert '<html lang="ar"' in arabic and translated("ar", WORDS[0]) in arabic


def test_a_stale_catalog_is_compiled_again(folder, tmp_path):
    # An .mo older than its .po, made when French had no translation yet:
    # served as it is, the French page would show English words.
    mo = folder / "fr" / "LC_MESSAGES" / "messages.mo"
    with mo.open("wb") as target:
        write_mo(target, Catalog(locale="fr"))
    po_time = (folder / "fr" / "LC_MESSAGES" / "messages.po").stat().st_mtime_ns
    os.utime(mo, ns=(po_time - 10**9, po_time - 10**9))
    page = home(folder, tmp_path, "fr")
    assert escape(translated("fr", WORDS[0]), quote=False) in page
    assert WORDS[0] not in page
    assert mo.stat().st_mtime_ns >= po_time
    assert not [p for p in mo.parent.iterdir() if p.name.startswith(".")]  # no temporary left


def test_a_current_catalog_is_left_as_it_is(folder, tmp_path):
    home(folder, tmp_path, "fr")
    mo = folder / "fr" / "LC_MESSAGES" / "messages.mo"
    made = mo.stat().st_mtime_ns, mo.stat().st_ino
    home(folder, tmp_path, "fr")
    assert (mo.stat().st_mtime_ns, mo.stat().st_ino) == made


def test_a_language_without_any_catalog_refuses_to_start(folder, tmp_path):
    (folder / "ar" / "LC_MESSAGES" / "messages.po").unlink()
    with pytest.raises(CatalogError, match="'ar' catalog"):
        home(folder, tmp_path, "fr")


def test_a_catalog_that_cannot_be_written_refuses_to_start(folder, tmp_path):
    if os.geteuid() == 0:  # root writes into a read-only folder: make its .mo a folder instead
        (folder / "fr" / "LC_MESSAGES" / "messages.mo").mkdir()
    else:
        (folder / "fr" / "LC_MESSAGES").chmod(0o555)
    try:
        with pytest.raises(CatalogError, match="cannot be compiled.*make translations"):
            home(folder, tmp_path, "fr")
    finally:
        (folder / "fr" / "LC_MESSAGES").chmod(0o755)
