"""One definition of each thing, and names that mean one thing each
(docs/ARCHITECTURE.md): when a second definition appears, call the first."""

import ast
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorekeeper"
FROZEN = PACKAGE / "storage" / "migrations.py"  # its steps keep copies of their own


def sources() -> dict[Path, str]:
    return {path: path.read_text(encoding="utf-8") for path in sorted(PACKAGE.rglob("*.py"))}


def where(pattern: str) -> list[str]:
    found = re.compile(pattern)
    return [path.relative_to(PACKAGE).as_posix() for path, text in sources().items()
            if path != FROZEN for _ in found.finditer(text)]


def test_the_id_alphabet_is_written_once():
    assert where(r'"abcdefghjkmnpqrstuvwxyz23456789"') == ["service/ids.py"]


def test_a_name_has_one_key():
    assert where(r"\ndef name_key\(") == ["engine/names.py"]


def test_the_sides_default_names_and_the_presets_names_are_written_once():
    # (testing/sample_history.py plays with sides of those names too.)
    assert [w for w in where(r'"Nous", "Eux", "Vous"\)') if not w.startswith("testing/")] == [
        "engine/names.py"]
    assert where(r'"الكلاسيكية"') == ["engine/houserules.py"]


def test_one_list_joiner_one_qr_code_one_incomplete_form_one_no_such_page():
    assert where(r'"، "') == ["web/wording/i18n.py"]
    # (`make run` prints its own in the terminal: serve.py.)
    assert [w for w in where(r"\bsegno\.make\(") if w.startswith("web/")] == ["web/pages/charts.py"]
    assert where(r"\nINCOMPLETE_FORM = ") == ["web/views/shared.py"]
    assert where(r"\nclass NoSuchPage\b") == ["service/history.py"]


def test_the_scripts_tick_once():
    scripts = {path.relative_to(ROOT / "static").as_posix(): path.read_text(encoding="utf-8")
               for path in (ROOT / "static").rglob("*.js")}
    assert [name for name, text in scripts.items()
            for _ in re.finditer(r"navigator\.vibrate\(", text)] == ["board/board.js"]


def test_no_two_classes_of_the_app_share_a_name():
    """A Board is the scoreboard, a Player a roster entry, a HiddenRonda the
    event: the leaderboard, a name's statistics and a button are named as such."""
    defined = defaultdict(list)
    for path, text in sources().items():
        for node in ast.parse(text).body:
            if isinstance(node, ast.ClassDef):
                defined[node.name].append(path.relative_to(PACKAGE).as_posix())
    assert {name: paths for name, paths in defined.items() if len(paths) > 1} == {}


def test_each_module_level_function_name_means_one_thing():
    """The same word at two layers is the same thing there (`games.undo`, the
    view `undo`); two meanings of one name are not: `default_name` is which
    default name a side has, `default_preset` the preset new games start with;
    `records`, a log's; a name's games won are its `results`."""
    defined = defaultdict(set)
    for path, text in sources().items():
        for node in ast.parse(text).body:
            if isinstance(node, ast.FunctionDef):
                defined[node.name].add(path.relative_to(PACKAGE).as_posix())
    assert defined["default_name"] == {"web/wording/elision.py"}
    assert defined["build"] <= {"testing/sample_history.py"}  # (a sample history's)
    assert where(r"\nclass Record\b") == ["engine/merge.py"]  # a log's record
