"""Imports against the real server while the table taps: a log of
undos that cost the square of its length to check (each undo replayed the
whole log before it), sent 8 times at once, then a large legitimate export
(58 MiB once held the write lock 13 to 15 s and made taps fail).

    .venv/bin/python -m bench.big_import                  # 6,700 games, about 58 MiB
    .venv/bin/python -m bench.big_import --games 200 --undos 200   # a quick run
    .venv/bin/python -m bench.big_import --root DIR       # the server of another checkout

The documents are made with this checkout's code (the export format did not
change); the server runs `python -m scorekeeper.serve` from --root (default:
this checkout), so that an older commit can be measured the same way. A tap
(an adjust of ±1 on a game of its own, one new connection each) is sent
every 0.25 s while the imports run; a tap not answered within 8 s counts as
failed, as does any answer other than 200.
"""

import argparse
import http.client
import json
import tempfile
import threading
import time
from pathlib import Path

from scorekeeper.service import games, transfer
from scorekeeper.storage import migrations
from scorekeeper.storage.db import connect
from scorekeeper.testing import sample_history

from . import live
from .common import ROOT, median, ms

TAP_TIMEOUT = 8.0
NOW = "2025-01-03T20:00:00.000+00:00"


def undo_document(undos: int) -> bytes:
    """One game: `undos` adjusts (±1, never near the target), then as many
    undos, as the app stores them."""
    with tempfile.TemporaryDirectory() as folder:
        db = connect(str(Path(folder) / "u.sqlite3"))
        migrations.migrate(db)
        game, _ = games.create(db, {"sides": ["Nous", "Eux"], "rules": {"target": 101}}, None,
                               NOW)
        for number in range(undos):
            games.record(db, game.id, {"type": "adjust", "side": number % 2,
                                       "points": (1, -1)[number // 2 % 2]}, None, NOW)
        for _ in range(undos):
            games.undo(db, game.id, {}, None, NOW)
        document = transfer.document([transfer.export_game(db, game.id)], NOW)
        db.close()
    return json.dumps(document, ensure_ascii=False, indent=1).encode()


def history_document(count: int) -> bytes:
    """`count` games of sample_history, exported as the app exports them."""
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "h.sqlite3")
        sample_history.build(path, count)
        db = connect(path)
        document = transfer.document(transfer.export_all(db), NOW)
        db.close()
    return json.dumps(document, ensure_ascii=False, indent=1).encode()


def imports_while_tapping(server: live.Server, document: bytes, at_once: int) -> dict:
    results: list[tuple[int | str, float]] = []
    game = server.new_game()

    def send():
        started = time.monotonic()
        try:
            status, _ = server.call("POST", "/api/games/import", document, timeout=600)
        except OSError as error:
            status = type(error).__name__
        results.append((status, time.monotonic() - started))

    senders = [threading.Thread(target=send) for _ in range(at_once)]
    for sender in senders:
        sender.start()
    taps, number = [], 0
    while any(sender.is_alive() for sender in senders):
        started = time.monotonic()
        body = {"type": "adjust", "side": number % 2, "points": (1, -1)[number // 2 % 2]}
        try:
            status, _ = server.call("POST", f"/api/games/{game}/events", body, TAP_TIMEOUT)
        except (OSError, http.client.HTTPException):
            status = None
        taps.append((status, time.monotonic() - started))
        number += 1
        time.sleep(max(0.0, 0.25 - (time.monotonic() - started)))
    for sender in senders:
        sender.join()
    answered = [wait for status, wait in taps if status == 200]
    statuses: dict[str, int] = {}
    for status, _ in taps:
        statuses[str(status)] = statuses.get(str(status), 0) + 1
    return {
        "imports_at_once": at_once, "document_mib": round(len(document) / 2**20, 2),
        "import_statuses": sorted(str(status) for status, _ in results),
        "import_seconds_max": round(max(wait for _, wait in results), 2),
        "taps": len(taps), "tap_statuses": statuses,
        "tap_median_ms": ms(median(answered)) if answered else None,
        "tap_max_ms": ms(max(answered)) if answered else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=6700)
    parser.add_argument("--undos", type=int, default=1500)
    parser.add_argument("--root", type=Path, default=ROOT)
    args = parser.parse_args()
    undos = undo_document(args.undos)
    history = history_document(args.games)
    report = {"root": str(args.root), "games": args.games, "undos": args.undos}
    with tempfile.TemporaryDirectory() as folder:
        server = live.Server(Path(folder), "served", root=args.root)
        try:
            report["undo_log_8_at_once"] = imports_while_tapping(server, undos, 8)
            report["large_export"] = imports_while_tapping(server, history, 1)
        finally:
            server.stop()
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
