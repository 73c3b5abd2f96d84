"""Ratings of people, so that a club sees who plays best, with openskill's
Plackett-Luce model: it rates teams (two partners with four players) and
free-for-all games (three players) alike, and gives each rating its
uncertainty (docs/PLAYERS.md says why this library).

Ratings are sequential: a game's result moves its players' ratings from
where the games before left them. The order is the time each game was
first over (`rated_games.rated_at`), kept through corrections. The
ratings are kept at write time, in the caller's write transaction:

- a game that ends is rated at once; when it is the latest in the order
  (nearly always) that costs one rating update, nothing is replayed;
- a finished game corrected, thrown in the bin, restored, or undone back
  into play, or a merge of two people, re-rates from that game on: the
  ratings after each later game are computed again (docs/PLAYERS.md
  measures it at 5,000 games).

A tap that does not end a game does nothing here. No Flask.
"""

import json
from dataclasses import dataclass

import sqlite_utils
from openskill.models import PlackettLuce

from ..engine.errors import N_, InvalidInput
from ..storage.db import write_transaction
from .unnamed import NOBODY

MODEL = PlackettLuce()
# The scale people read: points around 1,000 (openskill's starting mean), 40
# points to one unit of its mean, and the ± its uncertainty in points: a
# newcomer is 1,000 ± 333, as a chess club's newcomer is 1,500 ± 350.
CENTRE, SCALE = 1000, 40
PROVISIONAL_KEY = "provisional_games"
PROVISIONAL_GAMES = 5  # finished games before a rating is more than provisional (a setting)
PROVISIONAL_RANGE = (1, 50)
# From a game on in the order (rated_at, game_id); `{t}` an alias's prefix.
_FROM = "({t}rated_at > ? OR ({t}rated_at = ? AND {t}game_id >= ?))"
LATER, LATER_R = _FROM.format(t=""), _FROM.format(t="r.")


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float
    games: int
    wins: int = 0

    @property
    def points(self) -> int:
        """The rating on the club's scale: 1,000 at the start."""
        return round(CENTRE + SCALE * (self.mu - MODEL.mu))

    @property
    def spread(self) -> int:
        """Its uncertainty on that scale (one standard deviation): 333 at the start."""
        return round(SCALE * self.sigma)


@dataclass(frozen=True, slots=True)
class Ranked:
    person: int
    name: str
    rating: Rating


def _ranks(scores: list[int], winner: int | None) -> list[int]:
    """The winner first; the others by score (equal scores, equal places)."""
    return [0 if side == winner else 1 + sum(other > score for o, other in enumerate(scores)
                                             if o != winner)
            for side, score in enumerate(scores)]


def _rate(teams: list[list[Rating]], ranks: list[int]) -> list[list[tuple[float, float]]]:
    rated = MODEL.rate([[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in teams],
                       ranks=ranks)
    return [[(r.mu, r.sigma) for r in team] for team in rated]


def _key(db, game_id: str) -> tuple[str, str] | None:
    row = db.execute("SELECT rated_at FROM rated_games WHERE game_id = ?", [game_id]).fetchone()
    return None if row is None else (row[0], game_id)


def _latest(db, key: tuple[str, str], game_id: str) -> bool:
    """Whether no other counted game comes after `key` in the order."""
    return db.execute(
        f"SELECT 1 FROM rated_games WHERE counted = 1 AND game_id != ? AND {LATER} LIMIT 1",
        [game_id, key[0], key[0], key[1]]).fetchone() is None


def _current(db, person: int) -> Rating | None:
    row = db.execute("SELECT mu, sigma, games, wins FROM person_ratings WHERE person = ?",
                     [person]).fetchone()
    return None if row is None else Rating(*row)


def _games(db, key: tuple[str, str]) -> list[tuple[str, str, list[list[int]], list[int], int]]:
    """The counted games from `key` on, in order: (id, rated_at, each side's
    people, scores, winner). A side nobody named (unnamed.py) has no people:
    it plays as an unknown newcomer, and a game of such sides only rates no one."""
    rows = db.execute(
        "SELECT r.game_id, r.rated_at, json_extract(g.state, '$.scores'), g.winner"
        " FROM rated_games r JOIN games g ON g.id = r.game_id"
        f" WHERE r.counted = 1 AND {LATER_R}"
        " ORDER BY r.rated_at, r.game_id", [key[0], key[0], key[1]]).fetchall()
    seats: dict[str, dict[int, list[int]]] = {}
    if rows:
        cursor = db.execute(
            "SELECT s.game_id, s.side, s.person FROM rated_games r JOIN seats s"
            " ON s.game_id = r.game_id WHERE r.counted = 1 AND"
            f" {LATER_R} AND s.person NOT IN {NOBODY}"
            " ORDER BY s.game_id, s.side, s.seat", [key[0], key[0], key[1]])
        for game_id, side, person in cursor:
            seats.setdefault(game_id, {}).setdefault(side, []).append(person)
    games = []
    for game_id, rated_at, scores, winner in rows:
        scores = json.loads(scores)
        sides = [seats.get(game_id, {}).get(side, []) for side in range(len(scores))]
        if any(sides):
            games.append((game_id, rated_at, sides, scores, winner))
    return games


def _apply(game, current: dict[int, Rating | None], rows: list[tuple]) -> None:
    """Rate one game from `current` (updated in place); its steps go to `rows`."""
    game_id, rated_at, sides, scores, winner = game
    default = Rating(MODEL.mu, MODEL.sigma, 0)
    # A side of no named people is someone unknown: a newcomer's rating, kept nowhere.
    teams = [[current.get(p) or default for p in people] or [default] for people in sides]
    rated = _rate(teams, _ranks(scores, winner))
    for side, (people, before, after) in enumerate(zip(sides, teams, rated)):
        for person, old, (mu, sigma) in zip(people, before, after):
            now = Rating(mu, sigma, old.games + 1, old.wins + (side == winner))
            current[person] = now
            rows.append((game_id, person, rated_at, mu, sigma, now.games, now.wins))


def _keep(db, rows: list[tuple]) -> None:
    db.conn.executemany("INSERT INTO rating_steps (game_id, person, rated_at, mu, sigma, games,"
                        " wins) VALUES (?, ?, ?, ?, ?, ?, ?)", rows)


def _save(db, current: dict[int, Rating | None]) -> None:
    for person, rating in current.items():
        if rating is None:
            db.execute("DELETE FROM person_ratings WHERE person = ?", [person])
        else:
            db.execute("INSERT OR REPLACE INTO person_ratings (person, mu, sigma, games, wins)"
                       " VALUES (?, ?, ?, ?, ?)",
                       [person, rating.mu, rating.sigma, rating.games, rating.wins])


def rerate_from(db: sqlite_utils.Database, key: tuple[str, str]) -> int:
    """Every rating from the game at `key` on, again; how many games it rated."""
    params = [key[0], key[0], key[1]]
    affected = {row[0] for row in db.execute(
        f"SELECT DISTINCT person FROM rating_steps WHERE {LATER}", params)}
    db.execute(f"DELETE FROM rating_steps WHERE {LATER}", params)
    later = _games(db, key)
    affected |= {p for game in later for people in game[2] for p in people}
    current: dict[int, Rating | None] = {}
    for person in affected:
        row = db.execute("SELECT mu, sigma, games, wins FROM rating_steps WHERE person = ?"
                         " ORDER BY rated_at DESC, game_id DESC LIMIT 1", [person]).fetchone()
        current[person] = None if row is None else Rating(*row)
    rows: list[tuple] = []
    for game in later:
        _apply(game, current, rows)
    _keep(db, rows)
    _save(db, current)
    return len(later)


def _counted(db, game_id: str) -> int:
    row = db.execute("SELECT finished = 1 AND deleted_at IS NULL FROM games WHERE id = ?",
                     [game_id]).fetchone()
    return int(bool(row and row[0]))


def game_changed(db: sqlite_utils.Database, game_id: str, now: str | None = None) -> None:
    """A game's result or place changed: it ended, came back into play, was
    corrected, went into the bin or out of it. Rates what needs it. `now`,
    the time it ended (its last event's when not given)."""
    finished = db.execute("SELECT finished, coalesce(last_event_at, updated_at) FROM games"
                          " WHERE id = ?", [game_id]).fetchone()
    key = _key(db, game_id)
    if not (finished and finished[0]):
        if key is not None:  # undone back into play: no longer rated
            db.execute("DELETE FROM rated_games WHERE game_id = ?", [game_id])
            rerate_from(db, key)
        return
    counted = _counted(db, game_id)
    if key is None:
        key = (now or finished[1], game_id)
        db.execute("INSERT INTO rated_games (game_id, rated_at, counted) VALUES (?, ?, ?)",
                   [game_id, key[0], counted])
        if counted and _latest(db, key, game_id):
            _rate_latest(db, key)
            return
    else:
        db.execute("UPDATE rated_games SET counted = ? WHERE game_id = ?", [counted, game_id])
    rerate_from(db, key)


def _rate_latest(db, key: tuple[str, str]) -> None:
    """The game that just ended comes last: one update, no replay."""
    games = _games(db, key)
    if not games:
        return
    current = {p: _current(db, p) for people in games[0][2] for p in people}
    rows: list[tuple] = []
    _apply(games[0], current, rows)
    _keep(db, rows)
    _save(db, current)


def games_imported(db: sqlite_utils.Database, game_ids: list[str]) -> None:
    """Imported games: each finished one in its place in the order, by the
    time of its last event; then the ratings from the first of them on."""
    keys = []
    for game_id in game_ids:
        row = db.execute("SELECT finished, last_event_at FROM games WHERE id = ?",
                         [game_id]).fetchone()
        if row and row[0]:
            db.execute("INSERT INTO rated_games (game_id, rated_at, counted) VALUES (?, ?, ?)",
                       [game_id, row[1], _counted(db, game_id)])
            keys.append((row[1], game_id))
    if keys:
        rerate_from(db, min(keys))


def forget(db: sqlite_utils.Database, condition: str) -> None:
    """Games deleted for good (`condition` selects their ids): they were in
    the bin, so no rating counts them."""
    db.execute(f"DELETE FROM rating_steps WHERE game_id IN ({condition})")
    db.execute(f"DELETE FROM rated_games WHERE game_id IN ({condition})")


def people_changed(db: sqlite_utils.Database, persons: set[int]) -> None:
    """People merged or split: re-rate from the first game of any of them."""
    if not persons:
        return
    marks = ", ".join("?" for _ in persons)
    row = db.execute(
        "SELECT r.rated_at, r.game_id FROM rated_games r WHERE r.game_id IN"
        f" (SELECT game_id FROM seats WHERE person IN ({marks}))"
        f" OR r.game_id IN (SELECT game_id FROM rating_steps WHERE person IN ({marks}))"
        " ORDER BY r.rated_at, r.game_id LIMIT 1", [*persons, *persons]).fetchone()
    if row is not None:
        rerate_from(db, (row[0], row[1]))


def rebuild(db: sqlite_utils.Database) -> int:
    """Every rating from the first game (after the migration, or on demand)."""
    db.execute("DELETE FROM person_ratings")
    count = rerate_from(db, ("", ""))
    db.execute("DELETE FROM settings WHERE key = 'ratings_stale'")
    return count


def rebuild_if_stale(db: sqlite_utils.Database) -> None:
    if db.execute("SELECT 1 FROM settings WHERE key = 'ratings_stale'").fetchone():
        with write_transaction(db):
            rebuild(db)


# -- reading ---------------------------------------------------------------------------------

def of_person(db: sqlite_utils.Database, person: int) -> Rating | None:
    return _current(db, person)


def history(db: sqlite_utils.Database, person: int) -> list[Rating]:
    """A person's rating after each of their rated games, oldest first."""
    cursor = db.execute("SELECT mu, sigma, games, wins FROM rating_steps WHERE person = ?"
                        " ORDER BY rated_at, game_id", [person])
    return [Rating(*row) for row in cursor]


def provisional_games(db: sqlite_utils.Database) -> int:
    """The finished games a rating takes to be more than provisional (/settings)."""
    row = db.execute("SELECT value FROM settings WHERE key = ?", [PROVISIONAL_KEY]).fetchone()
    if row is not None and row[0].isdigit():
        return int(row[0])
    return PROVISIONAL_GAMES


def set_provisional_games(db: sqlite_utils.Database, games: int) -> None:
    low, high = PROVISIONAL_RANGE
    if type(games) is not int or not low <= games <= high:
        raise InvalidInput(N_("A rating is provisional for %(low)s to %(high)s games."),
                           low=low, high=high)
    with write_transaction(db):
        db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
                   [PROVISIONAL_KEY, str(games)])


@dataclass(frozen=True, slots=True)
class Ranking:
    ranked: list[Ranked]  # the people past their provisional games, by points
    provisional: list[Ranked]  # the others, most games first
    provisional_games: int


def ranking(db: sqlite_utils.Database, min_games: int | None = None,
            limit: int = 20) -> Ranking:
    """The people past their provisional games (`min_games`, the setting
    unless given), by their rating's points, highest first; and apart, the
    provisional ones, most games first: a newcomer's lucky streak, or a
    rating pulled down by a doubt that fewer games leave, ranks nobody."""
    needed = provisional_games(db) if min_games is None else min_games
    columns = ("SELECT r.person, p.name, r.mu, r.sigma, r.games, r.wins FROM person_ratings r"
               f" JOIN players p ON p.id = r.person WHERE r.person NOT IN {NOBODY}")
    ranked = db.execute(f"{columns} AND r.games >= ? ORDER BY r.mu DESC, p.name_key LIMIT ?",
                        [needed, limit])
    found = [Ranked(person, name, Rating(*figures)) for person, name, *figures in ranked]
    others = db.execute(f"{columns} AND r.games < ? AND r.games > 0"
                        " ORDER BY r.games DESC, r.mu DESC, p.name_key LIMIT ?", [needed, limit])
    return Ranking(found, [Ranked(person, name, Rating(*figures))
                           for person, name, *figures in others], needed)
