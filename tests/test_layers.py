"""The package's shape (docs/ARCHITECTURE.md): engine, storage, service, web and
testing, each importing only the layers below it; Flask in the web layer
alone; no import cycles; every module importable on its own."""

import ast
import functools
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorekeeper"

# What each layer may import of the app (besides itself).
MAY_IMPORT = {
    "engine": set(),
    "storage": {"engine"},
    "service": {"engine", "storage"},
    "testing": {"engine", "storage", "service"},
    "web": {"engine", "storage", "service"},
    "serve": {"web", "storage"},
    "": {"web"},  # the package's __init__: create_app
}
WEB_LIBRARIES = {"flask", "flask_babel", "flask_wtf", "werkzeug", "wtforms", "jinja2",
                 "markupsafe", "babel", "waitress"}  # not click: sqlite-utils uses it too
DATABASE_LIBRARIES = {"sqlite3", "sqlite_utils"}


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


@functools.cache
def imports_of(module: str) -> frozenset[str]:
    """Every module `module` imports, wherever the import statement stands
    (a function-level import hides a cycle, it does not remove it)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree(module)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module
            found.add(source)
            found.update(f"{source}.{alias.name}" for alias in node.names
                         if f"{source}.{alias.name}" in MODULES)
    return frozenset(found)


def app_imports(module: str) -> set[str]:
    return {m for m in imports_of(module) if m in MODULES and m != "scorekeeper"} | (
        {"scorekeeper"} if "scorekeeper" in imports_of(module)
        and module != "scorekeeper" and layer_of(module) in ("", "serve") else set())


@pytest.mark.parametrize("module", sorted(MODULES))
def test_each_module_imports_only_the_layers_below_its_own(module):
    layer = layer_of(module)
    allowed = MAY_IMPORT[layer] | {layer}
    wrong = {m for m in app_imports(module) if m != "scorekeeper" and layer_of(m) not in allowed}
    assert not wrong, f"{module} ({layer}) imports {sorted(wrong)}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_only_the_web_layer_imports_the_web_framework(module):
    libraries = {m.split(".")[0] for m in imports_of(module)}
    if layer_of(module) in ("engine", "storage", "service", "testing"):
        assert not libraries & WEB_LIBRARIES, module
    if layer_of(module) == "engine":
        assert not libraries & DATABASE_LIBRARIES, module


def test_the_package_has_no_import_cycle():
    graph = {m: {i for i in app_imports(m) if i != "scorekeeper"} for m in MODULES}
    # A package's __init__ runs before its modules: importing the package is
    # importing its __init__, which the graph already holds.
    cycles, done = [], set()

    def visit(module, path):
        if module in path:
            cycles.append(path[path.index(module):] + [module])
            return
        if module in done:
            return
        for imported in sorted(graph[module]):
            visit(imported, path + [module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)



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


# The web layer reaches the store through the service, which owns every
# transaction and every read (docs/ARCHITECTURE.md). Only the app's own
# plumbing touches storage: a request's connection (db.py), the migrations
# at start-up (startup.py) and the command-line tools that open the store
# themselves, with no request to take a connection from (backup_cli.py,
# phones_cli.py).
STORAGE_PLUMBING = {"scorekeeper.web.plumbing.db", "scorekeeper.web.plumbing.startup",
                    "scorekeeper.web.plumbing.backup_cli", "scorekeeper.web.guard.phones_cli"}


@pytest.mark.parametrize("module", sorted(m for m in MODULES if layer_of(m) == "web"))
def test_the_web_layer_imports_storage_only_in_its_plumbing(module):
    storage = {m for m in app_imports(module) if layer_of(m) == "storage"}
    if module in STORAGE_PLUMBING:
        return
    assert not storage, f"{module} imports {sorted(storage)}: ask the service instead"


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


# web/'s parts, and which of them each may import (their __init__ says why).
# The loose modules (the app's factory and the API) put them together.
WEB_PARTS_MAY_IMPORT = {
    "plumbing": set(),
    "wording": {"plumbing"},
    "guard": {"plumbing"},
    "pages": {"wording", "plumbing"},
    "views": {"pages", "wording", "plumbing", "guard", "api"},  # the API's JSON helpers
}


def web_part_of(module: str) -> str | None:
    parts = module.split(".")
    if len(parts) >= 3 and parts[1] == "web" and parts[2] in WEB_PARTS_MAY_IMPORT:
        return parts[2]
    return None


def test_web_shows_its_parts_with_few_modules_loose():
    loose = sorted(p.name for p in (PACKAGE / "web").glob("*.py") if p.name != "__init__.py")
    assert len(loose) <= 8, loose
    parts = {p.name for p in (PACKAGE / "web").iterdir() if (p / "__init__.py").exists()}
    assert parts == set(WEB_PARTS_MAY_IMPORT), parts


@pytest.mark.parametrize("module", sorted(m for m in MODULES if web_part_of(m)))
def test_each_part_of_web_imports_only_the_parts_it_may(module):
    part = web_part_of(module)
    allowed = WEB_PARTS_MAY_IMPORT[part] | {part}
    wrong = {m for m in app_imports(module) if layer_of(m) == "web"
             and (web_part_of(m) or m.rpartition(".")[2]) not in allowed}
    assert not wrong, f"{module} ({part}) imports {sorted(wrong)}"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if web_part_of(m) == "wording"))
def test_the_wording_calls_no_service(module):
    """What it says comes in as plain data, from the views that called the service."""
    wrong = {m for m in app_imports(module) if layer_of(m) == "service"}
    assert not wrong, f"{module} imports {sorted(wrong)}"
