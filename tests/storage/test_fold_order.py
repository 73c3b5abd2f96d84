"""The log's records after (or from) a record, by the fold's order, where
placed records come before records older than them: what a snapshot's fold
reads (store.standing_records) and what an undo drops (drop_snapshots_from)
read only the records from that one on, by seq, and miss none."""

import random

from scorekeeper.storage import store
from scorekeeper.storage.db import connect
from scorekeeper.storage.migrations import migrate

NOW = "2026-12-08T00:00:00.000+00:00"


def a_log(path, rng: random.Random) -> list[tuple[int, int | None]]:
    """A game of 40 records, some placed before an earlier one (a tap of a
    deal another phone closed): (seq, place) each."""
    db = connect(str(path))
    migrate(db)
    db.execute("INSERT INTO games (id, created_at, updated_at, sides, players, first_dealer,"
               " rules, version, state) VALUES ('g', ?, ?, '[\"A\",\"B\"]', 2, 0, '{}', 40, '{}')",
               [NOW, NOW])
    records = []
    for seq in range(1, 41):
        place = rng.randrange(1, seq) if seq > 2 and rng.random() < 0.3 else None
        store.append(db, "g", seq, "event", {"type": "missa", "side": seq % 2}, None, NOW,
                     place=place)
        records.append((seq, place))
    db.conn.commit()
    db.close()
    return records


def fold_order(record: tuple[int, int | None]) -> float:
    seq, place = record
    return seq if place is None else place - 1 + seq * 1e-9


def test_the_records_after_one_by_the_folds_order_are_all_read(tmp_path):
    for seed in range(20):
        path = tmp_path / f"{seed}.sqlite3"
        records = a_log(path, random.Random(seed))
        db = connect(str(path))
        keys = {seq: fold_order((seq, place)) for seq, place in records}
        for after, _ in records:
            expected = sorted((seq for seq, _ in records if keys[seq] > keys[after]),
                              key=keys.get)
            assert [seq for seq, _, _ in store.standing_records(db, "g", after=after)] == \
                expected, (seed, after)
        db.close()


def test_an_undo_drops_every_snapshot_that_folded_a_record_from_it_on(tmp_path):
    for seed in range(20):
        path = tmp_path / f"{seed}.sqlite3"
        records = a_log(path, random.Random(seed))
        keys = {seq: fold_order((seq, place)) for seq, place in records}
        undone = random.Random(seed).choice(records)[0]
        db = connect(str(path))
        for seq, _ in records:  # a snapshot at every record, as if every one were the 16th
            store.insert_snapshot(db, "g", seq, seq, {}, [])
        store.drop_snapshots_from(db, "g", undone)
        left = [seq for seq, in db.execute("SELECT seq FROM snapshots ORDER BY seq")]
        assert left == [seq for seq, _ in records if keys[seq] < keys[undone]], (seed, undone)
        db.close()
