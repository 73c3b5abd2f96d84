"""How `make test` shares the tests between its workers (pytest-xdist).

A module whose tests share a fixture of the module's own (a smoke run of the
benchmark, 10,000 games, a server behind a proxy) runs on one worker, its
tests one after the other, so that the fixture is built once per run. Every
other browser test needs only its worker's Chromium and live server (session
fixtures): those are handed out one by one, so that a module of long tests
(whole games) is shared among the workers instead of making one worker's
queue the longest. xdist's own `loadgroup` would say this by markers, but it
no longer groups with pytest 9, whose node ids it cannot suffix.
"""

import re
from functools import cache
from pathlib import Path

from xdist.scheduler import LoadFileScheduling

ROOT = Path(__file__).resolve().parents[2]
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
