"""How `make test` shares the tests between its workers (pytest-xdist).

A module whose tests share a fixture of the module's own (a smoke run of the
benchmark, 10,000 games, a server behind a proxy) runs on one worker, its
tests one after the other, so that the fixture is built once per run. Every
other browser test needs only its worker's Chromium and live server (session
fixtures): those are handed out one by one, so that a module of long tests
(whole games) is shared among the workers instead of making one worker's
queue the longest. xdist's own `loadgroup` would say this by markers, but it
no longer groups with pytest 9, whose node ids it cannot suffix.

The longest modules are handed out first (LONGEST, measured with
`--durations`), so that none of them is left for the end while the other
workers have nothing to do; then the rest, the modules with the most tests
first and the browser tests one by one last, which fill the gaps. A module
missing from LONGEST only starts later: the order changes the time a run
takes, never what it tests.
"""

import re
from functools import cache
from pathlib import Path

from xdist.scheduler import LoadFileScheduling

ROOT = Path(__file__).resolve().parents[2]
# Each takes from 20 s to a minute on one worker of a quiet two-core machine.
LONGEST = [
    "tests/reliability/test_bench_smoke.py",  # the benchmark's smoke run
    "tests/web/test_fuzz.py",
    "tests/reliability/test_crash.py",  # twenty SIGKILLs
    "tests/browser/test_no_layout_shift.py",  # every page on two phones
    "tests/web/test_history_scale.py",  # 10,000 games written
    "tests/service/test_properties.py",
    "tests/web/test_fuzz_pages.py",
    "tests/web/test_fuzz_forms.py",
    "tests/web/test_i18n.py",
    "tests/storage/test_backup.py",
    "tests/reliability/test_import_load.py",
]
OWN_FIXTURE = re.compile(r"""@pytest\.fixture\(scope=["'](module|package|class)["']""")


@cache
def has_a_fixture_of_its_own(module: str) -> bool:
    """Whether the test module at this path (from the repository's root)
    defines a fixture broader than one test."""
    try:
        return OWN_FIXTURE.search((ROOT / module).read_text(encoding="utf-8")) is not None
    except OSError:
        return True  # not a file we can read: keep its tests together, as loadfile would


def spread(module: str) -> bool:
    return module.startswith("tests/browser/") and not has_a_fixture_of_its_own(module)


class BrowserTestsOneByOne(LoadFileScheduling):
    """loadfile, but a browser module without a fixture of its own is a unit
    per test."""

    def _split_scope(self, nodeid: str) -> str:
        module = nodeid.split("::", 1)[0]
        return nodeid if spread(module) else module

    def _order(self, scope: str) -> tuple[int, int]:
        module = scope.split("::", 1)[0]
        long = LONGEST.index(module) if module in LONGEST else len(LONGEST)
        return long, -len(self.workqueue[scope])

    def _assign_work_unit(self, node) -> None:
        """xdist's, but the next unit is the first in `_order`, not in the
        collection's order."""
        scope = min(self.workqueue, key=self._order)
        work_unit = self.workqueue.pop(scope)
        self.assigned_work.setdefault(node, {})[scope] = work_unit
        collection = self.registered_collections[node]
        node.send_runtest_some([collection.index(nodeid)
                                for nodeid, completed in work_unit.items() if not completed])

    def mark_test_pending(self, item: str) -> None:
        """A test whose worker died under it, to be run again (rerunfailures
        asks, for a test that may be rerun): `remove_node` has already put its
        unit back in the queue, the test not done. xdist's loadfile cannot
        say so, and the test would count as failed."""
        if not any(item in unit and not unit[item] for unit in self.workqueue.values()):
            raise NotImplementedError(f"{item} is not waiting in the queue")

    def _reschedule(self, node) -> None:
        """xdist's, but a node is given units until it holds more than two
        tests (xdist gives one unit per finished test), and a node left with
        a single test is shut down: a worker runs a test only once it knows
        the next one, or that there is none. A worker started in place of
        one that died gets a single call, and would otherwise sit idle."""
        if node.shutting_down:
            return
        if not self.workqueue:
            node.shutdown()
            return
        while self.workqueue and self._pending_of(self.assigned_work[node]) <= 2:
            self._assign_work_unit(node)
        if not self.workqueue and self._pending_of(self.assigned_work[node]) < 2:
            node.shutdown()
