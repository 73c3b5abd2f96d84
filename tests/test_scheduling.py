"""How `make test` shares the tests between its workers (support/scheduling.py)."""

from support.scheduling import LONGEST, ROOT, BrowserTestsOneByOne


def scope_of(nodeid):
    return BrowserTestsOneByOne._split_scope(None, nodeid)


def test_a_browser_module_without_a_fixture_of_its_own_is_handed_out_test_by_test():
    nodeid = "tests/browser/test_nothing_moves.py::test_no_button_moves_in_a_whole_game[x]"
    assert scope_of(nodeid) == nodeid


def test_a_module_with_a_fixture_of_its_own_stays_on_one_worker():
    # test_arabic.py starts a server of its own for its tests (a module fixture).
    assert scope_of("tests/browser/test_arabic.py::test_a_few_taps_in_arabic") == \
        "tests/browser/test_arabic.py"
    assert scope_of("tests/reliability/test_bench_smoke.py::test_every_row_runs") == \
        "tests/reliability/test_bench_smoke.py"


def test_other_tests_stay_with_their_module():
    assert scope_of("tests/engine/test_engine_boundary.py::test_x[1]") == "tests/engine/test_engine_boundary.py"


def test_the_longest_modules_named_first_exist():
    assert [m for m in LONGEST if not (ROOT / m).is_file()] == []
