"""An import's cost and what taps see meanwhile (its check once grew with the
square of the log, and a large import made taps fail): checking is linear in
the log, one import runs at a time, and a tap sent while an import writes
waits its turn and succeeds; nothing is half-imported."""

import json
import threading
import time

import pytest

from scorekeeper import create_app
from scorekeeper.engine import fold as engine
from scorekeeper.service import transfer


def _export(client) -> dict:
    return json.loads(client.get("/games/export.json").data)


def _new_store(tmp_path, name="other", **config):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / f"{name}.sqlite3"),
                       **config})


@pytest.fixture
def applied(monkeypatch):
    """How many events the engine applies (each apply and each replay's step)."""
    count = [0]
    real = engine._Table.apply

    def counting(table, event):
        count[0] += 1
        return real(table, event)

    monkeypatch.setattr(engine._Table, "apply", counting)
    return count


def _played(api, events: int, then: str) -> str:
    game = api.new_game(sides=["A", "B"], rules={"preset": "appli", "target": 101})["id"]
    for number in range(events):
        api.event(game, type="adjust", side=number % 2, points=1)
    for number in range(events):
        if then == "undo":
            assert api.undo(game).status_code == 200
        else:
            response = api.post(f"/api/games/{game}/corrections",
                                {"seq": number + 1, "event": {"type": "adjust",
                                                              "side": (number + 1) % 2,
                                                              "points": 1, "note": ""}})
            assert response.status_code == 200, response.get_json()
    return game


@pytest.mark.parametrize("then", ["undo", "correction"])
def test_checking_an_import_is_linear_in_its_log(api, client, applied, then):
    """Before: each undo or correction replayed every standing event,
    n events and n undos cost n²/2 steps (150: 11,325)."""
    events = 150
    _played(api, events, then)
    document = _export(client)
    applied[0] = 0
    [checked] = transfer.check_document(document)
    assert len(checked.document["log"]) == 2 * events
    assert applied[0] <= 3 * events, applied[0]


@pytest.mark.real_time  # an import made to last
def test_a_tap_during_a_long_import_waits_its_turn_and_succeeds(api, client, tmp_path,
                                                                monkeypatch):
    """Before: a tap waiting for the import's write lock past the busy timeout
    got 503 "database is locked"."""
    for _ in range(4):
        api.new_game(sides=["A", "B"])
    document = _export(client)
    other = _new_store(tmp_path, DB_BUSY_TIMEOUT=0.3)
    table = other.test_client()
    game = table.post("/api/games", json={"sides": ["Nous", "Eux"]}).get_json()["id"]

    real_insert = transfer._insert
    writing = threading.Event()

    def slow_insert(db, item):  # each game takes 0.25 s: the write holds the lock ~1 s
        writing.set()
        time.sleep(0.25)
        real_insert(db, item)

    monkeypatch.setattr(transfer, "_insert", slow_insert)
    results = {}
    importer = threading.Thread(target=lambda: results.update(
        imported=other.test_client().post("/api/games/import", json=document).status_code))
    importer.start()
    assert writing.wait(10)
    started = time.monotonic()
    tap = table.post(f"/api/games/{game}/events", json={"type": "missa", "side": 0})
    waited = time.monotonic() - started
    importer.join(20)
    assert tap.status_code == 200, tap.get_json()
    assert results["imported"] == 200
    assert waited > 0.3  # it did wait for the import, past its own busy timeout
    assert table.get(f"/api/games/{game}").get_json()["version"] == 1


def test_one_import_at_a_time_and_taps_go_on(api, client, tmp_path, monkeypatch):
    """Before: 8 imports sent together took every thread, and a tap waited 37.8 s."""
    api.new_game(sides=["A", "B"])
    document = _export(client)
    other = _new_store(tmp_path)
    table = other.test_client()
    game = table.post("/api/games", json={"sides": ["Nous", "Eux"]}).get_json()["id"]

    real_check = transfer.check_document
    checking, go_on = threading.Event(), threading.Event()

    def held_check(data):
        checking.set()
        assert go_on.wait(20)
        return real_check(data)

    monkeypatch.setattr(transfer, "check_document", held_check)
    results = {}
    first = threading.Thread(target=lambda: results.update(
        first=other.test_client().post("/api/games/import", json=document).status_code))
    first.start()
    assert checking.wait(10)
    second = other.test_client().post("/api/games/import", json=document)
    assert second.status_code == 429 and second.headers["Retry-After"]
    assert "Another import" in second.get_json()["error"] or second.get_json()["error"]
    assert table.post(f"/api/games/{game}/events",
                      json={"type": "missa", "side": 0}).status_code == 200
    go_on.set()
    first.join(20)
    assert results["first"] == 200


def test_an_import_that_fails_while_writing_leaves_nothing(api, client, tmp_path, monkeypatch):
    for _ in range(3):
        api.new_game(sides=["A", "B"])
    document = _export(client)
    other = _new_store(tmp_path, PROPAGATE_EXCEPTIONS=False)
    real_insert, written = transfer._insert, []

    def failing_insert(db, item):
        if len(written) == 2:
            raise OSError("disk full")
        written.append(item)
        real_insert(db, item)

    monkeypatch.setattr(transfer, "_insert", failing_insert)
    response = other.test_client().post("/api/games/import", json=document)
    assert response.status_code >= 400
    assert _export(other.test_client())["games"] == []  # not two games of three
