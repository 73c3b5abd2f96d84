"""Writers of one process contending for the store: with and without the
in-process write lock of `scorekeeper.storage.db.write_transaction`.

Not a row of the table: the experiment behind docs/PERFORMANCE.md, "The tap
on the server", kept so that it can be run again:

    python -m bench.contention [--threads 8] [--events 400] [--rounds 3] [--busy 2]

Each thread is a server thread recording a long game's taps with
`games.record` on its own connection (no HTTP, so only the store's locking
differs). Without the lock, SQLite makes a writer that finds the store busy
sleep and retry; with it, waiting writers queue and wake in turn. The two
modes alternate, round after round, so that both see the same machine.
`--busy N` keeps N other processes spinning meanwhile, as a machine shared
with other work (a test suite, a browser) is.
"""

import argparse
import random
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from typing import Iterator

from scorekeeper.service import games
from scorekeeper.storage import db as store_db

from . import table
from .common import median, scratch_app, scratch_dir


def one_round(threads: int, events: int, with_lock: bool) -> dict:
    with scratch_dir("contention") as folder:
        path = folder / "store.sqlite3"
        scratch_app(path)  # the schema
        setup = store_db.connect(str(path))
        ids, streams = [], []
        for n in range(threads):
            body = table.new_game_body(long=True)
            game, _ = games.create(setup, body, None, "bench")
            ids.append(game.id)
            streams.append(table.game(random.Random(n), table.setup_of(body), events, long=True))
        setup.close()
        done = [0] * threads
        refused = [0] * threads

        def writer(n: int) -> None:
            connection = store_db.connect(str(path))
            if not with_lock:
                connection._scorekeeper_write_lock = None
            try:
                for i, event in enumerate(streams[n]):
                    try:
                        games.record(connection, ids[n], event, f"k{i}", "bench")
                    except sqlite3.OperationalError:  # "database is locked": a 503
                        refused[n] += 1
                        return
                    done[n] += 1
            finally:
                connection.close()

        workers = [threading.Thread(target=writer, args=(n,)) for n in range(threads)]
        started = time.perf_counter()
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        elapsed = time.perf_counter() - started
    return {"events_per_s": round(sum(done) / elapsed), "refused": sum(refused),
            "seconds": round(elapsed, 2)}


@contextmanager
def busy_processes(count: int) -> Iterator[None]:
    """`count` processes that only spin, stopped on the way out."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                for _ in range(count)]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=8, help="as waitress in scorekeeper.serve")
    parser.add_argument("--events", type=int, default=400, help="taps per thread")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--busy", type=int, default=0, help="other processes spinning meanwhile")
    args = parser.parse_args(argv)
    results: dict[str, list[dict]] = {"without the lock": [], "with the lock": []}
    with busy_processes(args.busy):
        for _ in range(args.rounds):
            for name, with_lock in (("without the lock", False), ("with the lock", True)):
                results[name].append(one_round(args.threads, args.events, with_lock))
    print(f"{args.threads} threads, {args.events} taps each, {args.rounds} rounds, "
          f"{args.busy} busy processes")
    for name, runs in results.items():
        rates = [run["events_per_s"] for run in runs]
        print(f"{name}: median {median(rates):.0f} events/s (rounds: {rates}); "
              f"threads refused 'database is locked': {sum(r['refused'] for r in runs)} "
              f"of {args.threads * args.rounds}")


if __name__ == "__main__":
    main()
