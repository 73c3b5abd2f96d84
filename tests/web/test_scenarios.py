"""Every acceptance scenario of ../shared/scenarios, run through the JSON API.

The files are copied into tests/scenarios so the project stands alone; where
../shared/scenarios exists, the copy must not differ from it.
"""

import json

import pytest

from support.paths import ROOT, TESTS
from support.scenarios import run_scenario

COPY = TESTS / "scenarios"
SHARED = ROOT.parent / "shared" / "scenarios"
SCENARIOS = sorted(COPY.glob("*.json"))


def test_there_are_scenarios():
    assert len(SCENARIOS) >= 30


@pytest.mark.skipif(not SHARED.is_dir(), reason="no ../shared/scenarios beside this checkout")
def test_the_copy_matches_the_shared_scenarios():
    shared = {p.name: p.read_bytes() for p in SHARED.iterdir() if p.is_file()}
    copy = {p.name: p.read_bytes() for p in COPY.iterdir() if p.is_file()}
    assert copy == shared


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(client, path):
    run_scenario(client, json.loads(path.read_text()))
