"""A game's summary as stored, and as a replay of its standing events computes it."""

from scorekeeper import engine
from scorekeeper.engine import tally
from scorekeeper.service import games, summaries


def stored_summary(db, game_id):
    game = db.execute(
        "SELECT finished, winner, hands, event_count, last_event_at FROM games WHERE id = ?",
        [game_id]).fetchone()
    columns = ", ".join(("name", "name_key", "score", "won", "margin", "counted") + tally.COUNTS)
    sides = db.execute(f"SELECT {columns} FROM game_sides WHERE game_id = ? ORDER BY side",
                       [game_id]).fetchall()
    return game, sides


def replayed_summary(db, game_id):
    """The summary computed from scratch: the standing events replayed."""
    game = games.load(db, game_id)
    standing = games.standing_events(db, game_id)
    state, counts = tally.replay_counts(
        game.setup, [engine.parse_event(e, game.setup) for _, e in standing])
    last = summaries.event_time(db, game_id, standing[-1][0]) if standing else None
    deleted = db.execute("SELECT deleted_at FROM games WHERE id = ?", [game_id]).fetchone()[0]
    head = (int(state.finished), state.winner, tally.hands_played(state), state.events, last)
    sides = [
        (name, name.casefold(), line.score, int(line.won), line.margin,
         int(state.finished and deleted is None), *(counts[side][k] for k in tally.COUNTS))
        for side, (name, line) in enumerate(zip(game.setup.sides, tally.side_lines(state)))
    ]
    return head, sides
