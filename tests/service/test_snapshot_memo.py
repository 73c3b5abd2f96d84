"""A tap folds on from the state this process last wrote only while the
game's row still holds that very snapshot (service/games.py): another writer's is parsed."""

import json

from scorekeeper.service import games
from scorekeeper.storage import store


def test_a_snapshot_written_by_another_hand_is_read_from_the_row(api, db):
    game_id = api.new_game(sides=["Nous", "Eux"])["id"]
    assert api.event(game_id, type="missa", side=0).get_json()["scores"] == [1, 0]
    # Another writer (another process, a restore) leaves another state in the row.
    snapshot = json.loads(db.execute("SELECT state FROM games WHERE id = ?",
                                     [game_id]).fetchone()[0])
    snapshot["scores"] = [10, 0]
    with db.conn:
        db.execute("UPDATE games SET state = ? WHERE id = ?", [store.dumps(snapshot), game_id])
    assert api.event(game_id, type="missa", side=0).get_json()["scores"] == [11, 0]
    assert api.event(game_id, type="missa", side=1).get_json()["scores"] == [11, 1]


def test_the_memo_keeps_a_few_games_only(api):
    for _ in range(games.WRITTEN.size + 5):
        game_id = api.new_game(sides=["Nous", "Eux"])["id"]
        api.event(game_id, type="missa", side=0)
    assert len(games.WRITTEN) == games.WRITTEN.size
    assert games.WRITTEN.newest() == game_id
