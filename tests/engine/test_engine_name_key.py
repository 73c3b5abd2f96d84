"""One key for comparing names, everywhere (engine/names.py, name_key). Three
used to disagree: the history's and the statistics' only trimmed and
casefolded ("Karim  Benali" with two spaces was another name there than on
the roster), while the roster's and the unnamed sides' also collapsed
blanks and composed letters. The thorough one is the rule."""

import ast
from pathlib import Path

from scorekeeper.engine.names import name_key

PACKAGE = Path(__file__).resolve().parents[2] / "scorekeeper"


def test_names_that_differ_by_case_blanks_or_composition_are_one_name():
    assert name_key("Karim  Benali") == name_key(" karim benali ") == "karim benali"
    assert name_key("Ame\u0301lie") == name_key("Amélie") == name_key("AMÉLIE")
    assert name_key("NOUS") == name_key("nous")
    assert name_key("سارة") == "سارة"


def test_names_that_differ_otherwise_stay_two():
    assert name_key("Karim Benali") != name_key("KarimBenali")
    assert name_key("Amelie") != name_key("Amélie")


def test_it_is_defined_once():
    defined = [path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*.py")
               for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
               if isinstance(node, ast.FunctionDef) and node.name == "name_key"
               and "storage/migrations.py" not in path.as_posix()]
    assert defined == ["engine/names.py"], defined
