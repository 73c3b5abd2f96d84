"""The engine's files as the phone's Python (MicroPython) loads them.

The phone runs the project's own engine, not a copy of its rules: these are
the engine's sources, as they are, plus what MicroPython lacks of the
standard library (`stand_ins/`: `dataclasses`, `typing`, `unicodedata`) and
the engine's field lists, made here from CPython's `dataclasses.fields`
because MicroPython keeps no annotations to read them from.
"""

import dataclasses
import importlib
import pkgutil
from pathlib import Path

from .. import engine

STAND_INS = Path(__file__).parent / "stand_ins"
FIELDS_MODULE = "_engine_fields.py"


def engine_modules() -> list[str]:
    """The engine's module names, the package's own first."""
    names = [info.name for info in pkgutil.iter_modules(engine.__path__, engine.__name__ + ".")]
    return [engine.__name__, *sorted(names)]


def field_lists() -> dict[str, tuple[str, ...]]:
    """Every engine dataclass's fields, in order, by "module.Class"."""
    lists = {}
    for name in engine_modules():
        module = importlib.import_module(name)
        for value in vars(module).values():
            if dataclasses.is_dataclass(value) and isinstance(value, type) \
                    and value.__module__ == name:
                lists[f"{name}.{value.__name__}"] = tuple(f.name for f in dataclasses.fields(value))
    return lists


def phone_files() -> dict[str, str]:
    """Path (relative to a folder on the phone's `sys.path`) -> source text."""
    files = {path.name: path.read_text(encoding="utf-8") for path in sorted(STAND_INS.glob("*.py"))}
    lists = field_lists()
    files[FIELDS_MODULE] = "FIELDS = {\n" + "".join(
        f"    {key!r}: {value!r},\n" for key, value in sorted(lists.items())) + "}\n"
    files["scorekeeper/__init__.py"] = ""
    root = Path(engine.__file__).parent
    for path in sorted(root.glob("*.py")):
        files[f"scorekeeper/engine/{path.name}"] = path.read_text(encoding="utf-8")
    return files


def board_files() -> dict[str, str]:
    """What the board's engine worker loads: the engine's phone files and the
    board's count (`board_count`, count.py), which the worker calls."""
    return {**phone_files(), "board_count.py": (Path(__file__).parent / "count.py").read_text(
        encoding="utf-8")}
