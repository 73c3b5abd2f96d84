"""The test lanes themselves: a costly module fixture is built once a run
(`--dist loadgroup` and its `xdist_group` markers), and the suite runs
without pytest-xdist too."""

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
BROAD_FIXTURE = re.compile(r"""@pytest\.fixture\(scope=["'](module|package|class)["']""")
GROUPED = re.compile(r"""pytest\.mark\.xdist_group\(""")


def test_a_module_with_a_fixture_of_its_own_keeps_its_tests_on_one_worker():
    ungrouped = [str(path.relative_to(ROOT)) for path in sorted(TESTS.rglob("test_*.py"))
                 if BROAD_FIXTURE.search(text := path.read_text(encoding="utf-8"))
                 and not GROUPED.search(text)]
    assert ungrouped == [], "mark them `pytestmark = pytest.mark.xdist_group(...)`"


def pytest_run(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
                          cwd=folder, capture_output=True, text=True, timeout=100)


@pytest.mark.slow
def test_loadgroup_runs_a_group_on_one_worker(tmp_path):
    """What `make test` counts on, and what pytest 9.2 broke (pyproject.toml)."""
    for name, mark in [("grouped", 'pytestmark = pytest.mark.xdist_group("one")'),
                       ("free", "")]:
        (tmp_path / f"test_{name}.py").write_text(textwrap.dedent(f"""
            import os
            import pytest
            {mark}

            @pytest.mark.parametrize("n", range(8))
            def test_{name}(n, tmp_path_factory):
                with open({str(tmp_path / name)!r}, "a") as out:
                    out.write(os.environ["PYTEST_XDIST_WORKER"] + "\\n")
            """))
    done = pytest_run(tmp_path, "-n", "2", "--dist", "loadgroup")
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(set((tmp_path / "grouped").read_text().split())) == 1


@pytest.mark.slow
def test_the_suite_is_collected_without_xdist():
    done = pytest_run(ROOT, "-p", "no:xdist", "--collect-only", "tests")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
