"""The package's shape (docs/ARCHITECTURE.md), beyond who may import whom
(the import-linter contracts of pyproject.toml, run by `make lint`): what
import-linter cannot see. It reads the app's own import statements, so the
libraries a library loads in turn, a module that fails when imported first,
an import renamed, a form class told from the rest of wtforms, a name used
or a string written are checked here."""

import ast
import functools
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorekeeper"



def forbidden_by(contract: str) -> set[str]:
    """The modules that the import-linter contract of this name forbids."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    [found] = [c for c in config["tool"]["importlinter"]["contracts"] if c["name"] == contract]
    return set(found["forbidden_modules"])


# What the engine, storage, service and testing may not import, by the
# contracts: here, what they may not load either, through any library.
WEB_LIBRARIES = forbidden_by("Only the web layer imports the web framework")
DATABASE_LIBRARIES = forbidden_by("The engine touches no database")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


# Each check below walks the modules' trees: each is parsed once for all.
@functools.cache
def tree(module: str) -> ast.Module:
    return ast.parse(MODULES[module].read_text(encoding="utf-8"))


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_import_of_the_app_renames_what_it_imports(module):
    """A layer's folder names it (engine, not rules; board, not boards): the
    same word at two layers is told apart by the package, not by an alias."""
    renamed = []
    for node in ast.walk(tree(module)):
        if isinstance(node, ast.ImportFrom) and (
                node.level or (node.module or "").split(".")[0] == "scorekeeper"):
            renamed += [f"{a.name} as {a.asname}" for a in node.names if a.asname]
        elif isinstance(node, ast.Import):
            renamed += [f"{a.name} as {a.asname}" for a in node.names
                        if a.asname and a.name.split(".")[0] == "scorekeeper"]
    assert not renamed, f"{module}: {renamed}"

# One interpreter imports each module as if it were the first of the app's
# it met (the app's modules forgotten in between, the libraries kept), then
# says which libraries the engine's and the service's imports brought in.
ALONE = """
import sys
names = sys.argv[1:]
failed = []
for name in names:
    for loaded in [m for m in sys.modules if m == "scorekeeper" or m.startswith("scorekeeper.")]:
        del sys.modules[loaded]
    try:
        __import__(name)
    except Exception as error:
        failed.append(f"{name}: {type(error).__name__}: {error}")
print("\\n".join(failed))
"""


def test_every_module_imports_alone():
    result = subprocess.run([sys.executable, "-c", ALONE, *sorted(MODULES)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


PROBE = """
import sys
for name in sys.argv[1:]:
    __import__(name)
print(" ".join(sorted({m.split(".")[0] for m in sys.modules})))
"""


def libraries_loaded_by(layers: tuple[str, ...]) -> set[str]:
    names = [m for m in MODULES if layer_of(m) in layers]
    result = subprocess.run([sys.executable, "-c", PROBE, *names], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return set(result.stdout.split())


def test_the_engine_brings_in_no_web_and_no_database():
    assert libraries_loaded_by(("engine",)) & (WEB_LIBRARIES | DATABASE_LIBRARIES) == set()


def test_storage_service_and_testing_bring_in_no_web_framework():
    loaded = libraries_loaded_by(("storage", "service", "testing"))
    assert "sqlite_utils" in loaded  # the probe sees what they do load
    assert loaded & WEB_LIBRARIES == set()


def test_no_test_module_imports_another():
    """Shared helpers live in tests/support, fixtures in the conftest files."""
    tests = ROOT / "tests"
    for path in tests.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                leaf = name.split(".")[-1]
                assert not leaf.startswith("test_") and leaf != "conftest", (path, name)


# Every form in one module (docs/ARCHITECTURE.md, "The modules"): a view may use a form, not
# make one. A class built by with_rule_fields takes forms' module name
# wherever it is called, so each form must also be one of forms' own names.
FORMS_PROBE = """
import pkgutil, sys, wtforms
import scorekeeper
for info in pkgutil.walk_packages(scorekeeper.__path__, "scorekeeper."):
    __import__(info.name)
from scorekeeper.web.pages import forms
own = {id(value) for value in vars(forms).values()}
seen, todo = set(), [wtforms.Form]
while todo:
    for sub in todo.pop().__subclasses__():
        if sub not in seen:
            seen.add(sub)
            todo.append(sub)
for cls in seen:
    if cls.__module__.startswith("scorekeeper") and id(cls) not in own:
        print(f"{cls.__module__}.{cls.__qualname__}")
"""


def test_every_form_is_defined_in_the_forms_module():
    result = subprocess.run([sys.executable, "-c", FORMS_PROBE], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", "forms made outside web/pages/forms.py:\n" + result.stdout


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m != "scorekeeper.web.pages.forms"))
def test_no_module_but_forms_imports_a_form_class(module):
    """No FlaskForm, no wtforms form or field outside forms.py: the views
    only set choices (wtforms' SelectChoice), app.py turns CSRF on."""
    allowed = {"wtforms.fields.choices.SelectChoice", "flask_wtf.csrf.CSRFProtect"}
    named = set()
    for node in ast.walk(tree(module)):
        if isinstance(node, ast.ImportFrom) and node.module:
            named.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
    wrong = {n for n in named if n.split(".")[0] in ("wtforms", "flask_wtf")} - allowed
    assert not wrong, f"{module} imports {sorted(wrong)}"


def names_used(module: str) -> set[str]:
    """Every name and attribute a module's code mentions."""
    found = set()
    for node in ast.walk(tree(module)):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.alias):
            found.add(node.name.rpartition(".")[2])
    return found


@pytest.mark.parametrize("module", sorted(MODULES))
def test_only_the_service_opens_a_write_transaction(module):
    if layer_of(module) in ("service", "storage"):
        return
    assert "write_transaction" not in names_used(module), module


# A statement as this code writes them: keywords in capitals.
SQL = re.compile(r"^\s*(SELECT\s.*\bFROM\b|INSERT\s+INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b"
                 r"|(CREATE|DROP|ALTER)\s+(TABLE|INDEX)\b|PRAGMA\s)", re.DOTALL)


@pytest.mark.parametrize("module", sorted(m for m in MODULES if layer_of(m) == "web"))
def test_the_web_layer_writes_no_sql(module):
    statements = [node.value for node in ast.walk(tree(module))
                  if isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and SQL.match(node.value)]
    assert not statements, f"{module}: {statements}"


HTTP_STATUS = re.compile(r"(?<![\d,.])(400|404|409|413|415)(?![\d,])")


@pytest.mark.parametrize("module", sorted(m for m in MODULES
                                          if layer_of(m) in ("engine", "service")))
def test_the_engine_and_the_service_know_no_status_code(module):
    """Which answer a refusal gets is the web layer's (web/plumbing/errors.py, api.py):
    the rules and the service say what was refused, not how HTTP says it."""
    found = HTTP_STATUS.findall(MODULES[module].read_text(encoding="utf-8"))
    assert not found, f"{module} names {found}"


# web/'s parts (each __init__ says why; the contracts of pyproject.toml say
# which may import which); the loose modules (the app's factory and the API)
# put them together.
WEB_PARTS = {"plumbing", "wording", "guard", "pages", "views"}


def test_web_shows_its_parts_with_few_modules_loose():
    loose = sorted(p.name for p in (PACKAGE / "web").glob("*.py") if p.name != "__init__.py")
    assert len(loose) <= 8, loose
    parts = {p.name for p in (PACKAGE / "web").iterdir() if (p / "__init__.py").exists()}
    assert parts == WEB_PARTS, parts
