"""The watchdog and the scheduler together (support/watchdog.py,
support/scheduling.py): a test that hangs ends its worker, says where it
waited, and runs once more on the worker started in its place."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

CONFTEST = f"""
import sys
sys.path.insert(0, {str(TESTS)!r})
from support.scheduling import BrowserTestsOneByOne
pytest_plugins = ["support.watchdog"]


def pytest_xdist_make_scheduler(config, log):
    return BrowserTestsOneByOne(config, log)
"""

HANGS_ONCE = """
import time
from pathlib import Path

import pytest

FLAG = Path(__file__).parent / "hung"


@pytest.mark.flaky(reruns=1)
def test_hangs_the_first_time():
    if not FLAG.exists():
        FLAG.touch()
        time.sleep(60)


def test_beside_it():
    pass
"""

OTHERS = "\n".join(f"def test_other_{n}():\n    pass\n" for n in range(20))


@pytest.mark.real_time
def test_a_hung_test_ends_its_worker_and_runs_again_on_a_new_one(tmp_path):
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_hangs.py").write_text(HANGS_ONCE)
    (tmp_path / "test_others.py").write_text(OTHERS)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadfile", "-p", "no:cacheprovider",
         "-p", "no:randomly", "-o", "addopts=", str(tmp_path)],
        cwd=tmp_path, env=dict(os.environ, TEST_WATCHDOG_SECONDS="2"),
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "22 passed, 1 rerun" in done.stdout
    said = done.stdout + done.stderr
    assert "test_hangs.py::test_hangs_the_first_time still running after 2 s" in said
    assert 'test_hangs.py", line 14, in test_hangs_the_first_time' in said  # where it waited
