"""The benchmark at tiny sizes, so that it never rots.

Every row module runs through the real command; the output's shape is
checked, not the targets (they depend on the machine), except what no
machine excuses: a club run that loses, doubles or refuses an event, and a
scoreboard that loads anything from another host.
"""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # bench/ is not installed: it lives beside the package
    sys.path.insert(0, str(ROOT))

from bench import run, table  # noqa: E402
from bench.common import percentile  # noqa: E402
from scorekeeper import engine  # noqa: E402

# Its module fixture is built once a run, and takes up to a few minutes on a
# loaded machine (the run's own bound is 300 s).
pytestmark = [pytest.mark.xdist_group("bench_smoke"), pytest.mark.timeout(360)]

HAND_WRITTEN = "## What the profiles showed\n\nWritten by hand, kept by every run.\n"


# The smoke run is made once (a module fixture; `make test` runs a module's
# tests on one worker, in a row). Its tests are browser tests: the run drives
# Chromium for its browser rows.
@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bench")
    doc = folder / "PERFORMANCE.md"
    doc.write_text(f"# Performance\n\n{run.BEGIN}\nold table\n{run.END}\n\n{HAND_WRITTEN}")
    results = folder / "results.json"
    done = subprocess.run(
        [sys.executable, "-m", "bench.run", "--smoke", "--results", str(results),
         "--doc", str(doc)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(results.read_text()), doc.read_text()


@pytest.fixture
def smoke(request):
    """The smoke run's report and table, for a test marked `browser` (asked
    before the run is made): the run starts Chromium, which `make check` (no
    browser) must not wait for."""
    assert request.node.get_closest_marker("browser"), "a test of the smoke run is a browser test"
    return request.getfixturevalue("smoke_run")


@pytest.mark.browser
def test_every_row_runs_and_reports_its_figures(smoke):
    report, _ = smoke
    assert [row["module"] for row in report["rows"]] == run.ROWS
    for row in report["rows"]:
        assert "error" not in row, row.get("error")
        assert row["what"] and row["how"] and row["target"] and row["measured"]
        assert isinstance(row["met"], bool)
        assert row["checks"], row["module"]
        for check in row["checks"]:
            assert check["op"] in ("<=", ">=")
            assert isinstance(check["value"], (int, float)) and check["value"] >= 0
            assert check["met"] == (check["value"] <= check["limit"] if check["op"] == "<="
                                    else check["value"] >= check["limit"])
        assert row["figures"] and row["repeats"]


@pytest.mark.browser
def test_the_report_names_the_machine_and_the_command(smoke):
    report, _ = smoke
    assert report["size"] == "smoke"
    assert "bench.run" in report["command"] and "--smoke" in report["command"]
    machine = report["machine"]
    for key in ("cpu", "cores", "python", "sqlite", "sqlite_utils", "temp_file_system"):
        assert machine[key], key
    assert report["date"]


@pytest.mark.browser
def test_the_timed_rows_report_medians_and_p99(smoke):
    report, _ = smoke
    rows = {row["module"]: row for row in report["rows"]}
    tap = rows["bench.tap"]["figures"]
    assert 0 < tap["tap_p50_ms"] <= tap["tap_p99_ms"]
    assert 0 < tap["baseline_p50_ms"] <= tap["baseline_p99_ms"]
    length = rows["bench.game_length"]["figures"]
    assert 0 < length["short_p50_ms"] and 0 < length["long_p50_ms"] and length["p50_ratio"] > 0
    assert 0 < length["short_state_p50_ms"] and length["state_p50_ratio"] > 0
    for name in ("bench.board_length", "bench.undo_length", "bench.review_length"):
        figures = rows[name]["figures"]
        assert all(figures[f"p50_ms_{n}"] > 0 for n in figures["lengths"]), name
        assert figures["ratio"] > 0, name
    replay = rows["bench.replay"]["figures"]
    assert all(replay[f"fold_{n}_events_per_s"] > 0
               for n in rows["bench.replay"]["sizes"]["lengths"])


@pytest.mark.browser
def test_the_page_rows_report_their_figures(smoke):
    report, _ = smoke
    rows = {row["module"]: row["figures"] for row in report["rows"]}
    sizes = {row["module"]: row["sizes"] for row in report["rows"]}
    game = rows["bench.browser_game"]
    for mode in ("js", "nojs"):
        assert 0 < game[f"{mode}_p50_ms"] <= game[f"{mode}_p95_ms"]
        assert 0 < game[f"{mode}_probe_p50_ms"] <= game[f"{mode}_probe_p95_ms"]
    assert sum(game["tap_mix"].values()) == game["taps_per_game"]
    assert 0 < game["missa_from_down_p50_ms"] <= game["missa_from_down_p90_ms"]
    assert game["missa_taps"] == sizes["bench.browser_game"]["missas"]
    # How many Missas made the target, counted from each repeat's own times.
    repeats = {row["module"]: row["repeats"] for row in report["rows"]}["bench.browser_game"]
    for repeat in repeats:
        assert repeat["missa_within_target"] == sum(t <= 35 for t in repeat["missa_times"])
    history = rows["bench.history_scale"]
    for page in ("games", "stats", "home", "count"):
        assert 0 < history[f"{page}_p50_ms"] <= history[f"{page}_p99_ms"]
    assert history["games"] == sizes["bench.history_scale"]["games"]


@pytest.mark.browser
def test_the_scoreboard_loads_nothing_from_other_hosts(smoke):
    report, _ = smoke
    weight = next(row for row in report["rows"] if row["module"] == "bench.page_weight")
    figures = weight["figures"]
    assert figures["other_hosts"] == 0 and figures["failed"] == 0
    kinds = {r["type"] for r in figures["resources"]}
    assert {"document", "stylesheet", "script", "manifest"} <= kinds
    assert 0 < figures["gzip_bytes"] < figures["raw_bytes"]
    assert figures["requests"] == len(figures["resources"])


def test_the_scorer_of_the_browser_row_taps_only_what_the_board_offers():
    from bench import browser_game

    board = {"moves": ["hit.0.1", "hit.1.1", "missa.0", "missa.1", "next_deal"],
             "undo": False, "marks": ["a=0-ronda", "a=1-tringa"], "endSheet": True,
             "scores": [0, 0]}
    rng = random.Random(5)
    chosen = {browser_game.choose(rng, board, 101)[0] for _ in range(300)}
    assert chosen == {"hit.0.1", "hit.1.1", "missa.0", "missa.1", "next_deal", "mark a=0-ronda"}
    draft = dict(board, moves=board["moves"] + ["announce"])
    assert browser_game.choose(rng, draft, 101)[0] == "announce"
    last_deal = dict(board, moves=["missa.0"], undo=True, marks=[])
    assert {browser_game.choose(rng, last_deal, 101)[0] for _ in range(100)} == \
        {"missa.0", "undo", "end of hand"}


@pytest.mark.browser
@pytest.mark.parametrize("module", ["bench.club", "bench.club_proxy"])
def test_the_club_stores_every_acknowledged_event_exactly_once(smoke, module):
    """Straight to the server, and over https through Caddy to a server told of its proxy."""
    report, _ = smoke
    club = next(row for row in report["rows"] if row["module"] == module)["figures"]
    assert club["events_acknowledged"] > 0 and club["events_per_s"] > 0
    assert club["errors"] == club["lost"] == club["doubled"] == club["wrong_state"] == 0


@pytest.mark.browser
def test_the_table_is_rewritten_between_the_markers_only(smoke):
    report, doc = smoke
    assert "old table" not in doc
    assert doc.endswith(HAND_WRITTEN)
    generated = doc.split(run.BEGIN, 1)[1].split(run.END, 1)[0]
    for row in report["rows"]:
        assert f"| {row['what']} |" in generated
    assert report["machine"]["cpu"] in generated and report["command"] in generated


def test_a_doc_without_markers_gets_the_section_appended(tmp_path):
    doc = tmp_path / "PERFORMANCE.md"
    doc.write_text("# Performance\n\nNotes.\n")
    run.rewrite_doc(doc, "| a table |")
    text = doc.read_text()
    assert text.startswith("# Performance\n\nNotes.\n")
    assert f"{run.BEGIN}\n| a table |\n{run.END}" in text
    run.rewrite_doc(doc, "| another |")
    assert "| a table |" not in doc.read_text() and doc.read_text().count(run.BEGIN) == 1


def test_percentile_is_a_measured_sample():
    samples = list(range(1, 101))
    assert percentile(samples, 0.5) == 50
    assert percentile(samples, 0.99) == 99
    assert percentile([3.0], 0.99) == 3.0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_realistic_game_is_valid_and_ends(players):
    body = table.new_game_body(players)
    setup = table.setup_of(body)
    events = table.game(random.Random(players), setup)
    state = engine.replay(setup, [engine.parse_event(e, setup) for e in events])
    assert state.finished
    kinds = {e["type"] for e in events}
    assert {"hit", "missa", "next_deal", "end_hand"} <= kinds


def test_a_long_game_never_ends():
    body = table.new_game_body(long=True)
    setup = table.setup_of(body)
    events = table.game(random.Random(1), setup, limit=3000, long=True)
    state = engine.replay(setup, [engine.parse_event(e, setup) for e in events])
    assert len(events) == 3000 and not state.finished


def test_the_club_count_finds_a_lost_and_a_doubled_event(tmp_path):
    from types import SimpleNamespace

    from bench import club
    from bench.common import scratch_app

    path = tmp_path / "club.sqlite3"
    client = scratch_app(path).test_client()
    body = table.new_game_body()
    events = table.game(random.Random(3), table.setup_of(body), limit=3)
    game_id = client.post("/api/games", json=body).get_json()["id"]
    for i, event in enumerate(events):
        response = client.post(f"/api/games/{game_id}/events", json=event,
                               headers={"Idempotency-Key": f"k{i}"})
        assert response.status_code == 200
    played = SimpleNamespace(game_id=game_id, body=body, events=events, last_state=None,
                             acknowledged=["k0", "k1", "k2"])
    assert club.count_in_database(path, [played])["lost"] == 0
    assert club.count_in_database(path, [played])["doubled"] == 0
    played.acknowledged = ["k0", "k1", "k2", "k-never-stored"]
    assert club.count_in_database(path, [played])["lost"] == 1
    played.acknowledged = ["k0", "k1"]  # k2 stored but never acknowledged
    counts = club.count_in_database(path, [played])
    assert counts["doubled"] == 1 and counts["wrong_state"] >= 1


@pytest.mark.browser
def test_the_people_row_measures_its_pages_the_tap_and_a_re_rating(smoke):
    """The people's row: a store built through the service's writes (seats,
    ratings, a night), its four pages, the tap beside a fresh store's."""
    report, _ = smoke
    row = next(r for r in report["rows"] if r["module"] == "bench.people_scale")
    figures = row["figures"]
    for page in ("roster", "person", "ranking", "night", "games", "home", "tap_big", "tap_small"):
        assert 0 < figures[f"{page}_p50_ms"] <= figures[f"{page}_p99_ms"], page
    assert figures["games"] > row["sizes"]["games"] and figures["nights"] >= 1
    assert figures["players"] == row["sizes"]["people"]
    assert figures["rating_steps"] > 2 * row["sizes"]["games"]  # every finished game rated
    assert figures["rerated_games"] == row["sizes"]["games"] and figures["correction_ms"] > 0
    assert {c["name"] for c in row["checks"]} >= {"roster p99", "night p99"}


def test_the_taps_lower_bounds_replay_a_taps_own_work(tmp_path):
    """bench.tap_breakdown --bounds: its "statements" route runs what a tap
    ran (one log row more on its copy of the store), its "service" route
    records through the service (the game's version moves)."""
    from bench.tap import long_game, post
    from bench.tap_breakdown import capture_taps, service_app, statements_app

    client, path, stream = long_game(tmp_path, 5)
    events = [next(stream)[0] for _ in range(3)]
    taps = capture_taps(client, path, events)
    assert all(tap[0][0] == "BEGIN IMMEDIATE" and tap[-1][0] == "COMMIT" for tap in taps)
    statements = statements_app(tmp_path, taps)
    copy = statements.extensions["bounds.conn"]
    logged = copy.execute("SELECT count(*) FROM events").fetchone()[0]
    post(statements.test_client(), "/statements", events[0], "bound-1")
    assert copy.execute("SELECT count(*) FROM events").fetchone()[0] == logged + 1
    service = service_app(tmp_path, 5)
    versions = [post(service.test_client(), "/service", event, f"s{i}").get_json()["version"]
                for i, event in enumerate(events)]
    assert versions == [1, 2, 3]
    for app in (statements, service):
        app.extensions["bounds.conn"].close()


@pytest.mark.browser
def test_the_tournament_row_measures_pairing_the_pages_and_the_screen(smoke):
    """A knockout and a Swiss evening built through the service, caught
    mid-evening: the Swiss pairing, both night pages, both screens' updates."""
    report, _ = smoke
    row = next(r for r in report["rows"] if r["module"] == "bench.tournaments")
    figures = row["figures"]
    for name in ("pairing_engine", "swiss_read", "bracket_read", "knockout_page", "swiss_page",
                 "knockout_screen_poll", "knockout_screen_content", "knockout_screen_data",
                 "swiss_screen_poll", "swiss_screen_content", "swiss_screen_data", "home"):
        assert 0 < figures[f"{name}_p50_ms"] <= figures[f"{name}_p99_ms"], name
    sizes = row["sizes"]
    assert figures["knockout_tables"] == sizes["knockout"] - 4  # up to the round of 8
    assert figures["tables"] > figures["knockout_tables"]
    assert {c["name"] for c in row["checks"]} >= {"Swiss pairing p99 (engine)",
                                                   "Swiss screen update p99"}
