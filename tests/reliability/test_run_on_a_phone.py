"""`make run` needs nothing that a phone lacks, so that a phone can be the
server at the table: on Android, Termux gives Python, git and make, but no
compiler unless asked for one, and no Chromium. So every runtime dependency
is pure Python, or pure Python with an optional compiled speedup that it
does without, and `make run` installs the runtime dependencies only
(Playwright and the other test tools are for `make test`)."""

import subprocess
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
COMPILED = (".so", ".pyd", ".dylib")
# The compiled modules that a runtime dependency's wheel may hold, each
# optional: without it the package runs its pure-Python code (and its sdist
# builds without a compiler: docs/SERVING.md, "One phone, no Wi-Fi").
OPTIONAL_SPEEDUPS = {"markupsafe": "markupsafe._speedups"}


def runtime_distributions() -> dict[str, metadata.Distribution]:
    """The app's distribution and everything it needs to run, extras left out."""
    found, todo = {}, ["scorekeeper"]
    while todo:
        name = canonicalize_name(todo.pop())
        if name in found:
            continue
        found[name] = metadata.distribution(name)
        for line in found[name].requires or []:
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return found


def test_every_runtime_dependency_is_pure_python_or_does_without_its_speedups():
    found = runtime_distributions()
    assert {"flask", "waitress", "sqlite-utils", "segno"} <= set(found)
    assert "playwright" not in found and "pytest" not in found
    compiled = {name: [str(f) for f in dist.files or [] if f.suffix in COMPILED]
                for name, dist in found.items()}
    assert {name for name, files in compiled.items() if files} <= set(OPTIONAL_SPEEDUPS)


def test_the_app_serves_a_game_without_the_optional_speedups(tmp_path):
    blocked = "; ".join(f"sys.modules[{module!r}] = None" for module in OPTIONAL_SPEEDUPS.values())
    script = f"""
import sys
{blocked}  # importing them now fails: the pure-Python code runs
from scorekeeper import create_app
app = create_app({{"TESTING": True, "DATABASE": {str(tmp_path / "phone.sqlite3")!r}}})
client = app.test_client()
game = client.post("/api/games", json={{"sides": ["Nous", "Eux"], "players": 2}}).get_json()["id"]
assert client.post(f"/api/games/{{game}}/events", json={{"type": "missa", "side": 0}}).status_code == 200
page = client.get(f"/games/{{game}}")
assert page.status_code == 200 and b'id="board"' in page.data, page.status_code
print("served")
"""
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and "served" in done.stdout, done.stderr


def test_make_run_installs_the_runtime_dependencies_only():
    commands = subprocess.run(["make", "-n", "-B", "run"], cwd=ROOT, capture_output=True,
                              text=True, timeout=30, check=True).stdout
    installs = [line for line in commands.splitlines() if "pip install" in line]
    assert any(line.endswith("-e .") for line in installs), commands
    assert "[test]" not in commands and "chromium" not in commands
