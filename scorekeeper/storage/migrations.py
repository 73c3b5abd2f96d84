"""The schema's history, applied at start-up. A step never drops data."""

import json

import sqlite_utils
from sqlite_utils.migrations import Migrations

migrations = Migrations("scorekeeper")


@migrations(name="0001_wal", transactional=False)
def enable_wal(db: sqlite_utils.Database) -> None:
    db.enable_wal()


@migrations(name="0002_games_and_events")
def games_and_events(db: sqlite_utils.Database) -> None:
    db["games"].create(
        {
            "id": str,
            "created_at": str,
            "updated_at": str,
            "sides": str,  # JSON list of names
            "players": int,
            "first_dealer": int,
            "rules": str,  # JSON: the game's own copy of its rules
            "version": int,  # the seq of the game's last log record
            "state": str,  # JSON snapshot of the engine state after the log
            "creation_key": str,  # Idempotency-Key of the request that created it
        },
        pk="id",
        not_null={"created_at", "updated_at", "sides", "players", "rules", "version", "state"},
    )
    db["games"].create_index(["creation_key"], unique=True)
    # The append-only log: one record per accepted event or undo. An undone
    # event stays, marked with the seq of the undo that took it back.
    db["events"].create(
        {
            "game_id": str,
            "seq": int,
            "action": str,  # "event" or "undo"
            "payload": str,  # JSON: the event, or {"undoes": seq}
            "idempotency_key": str,
            "undone_by": int,
            "created_at": str,
        },
        pk=("game_id", "seq"),
        foreign_keys=[("game_id", "games", "id")],
        not_null={"action", "payload", "created_at"},
    )
    db["events"].create_index(["game_id", "idempotency_key"], unique=True)



@migrations(name="table_presets")
def table_presets(db: sqlite_utils.Database) -> None:
    # The table's own house-rule presets, beside the built-in ones; a game
    # keeps a copy of its rules, so editing a preset never reaches it.
    db["presets"].create(
        {
            "id": str,
            "name": str,
            "name_key": str,  # the name casefolded: names are unique ignoring case
            "rules": str,  # JSON: every rule's value
            "created_at": str,
            "updated_at": str,
        },
        pk="id",
        not_null={"name", "name_key", "rules", "created_at", "updated_at"},
    )
    db["presets"].create_index(["name_key"], unique=True)
    db["settings"].create({"key": str, "value": str}, pk="key", not_null={"value"})


@migrations(name="0003_game_summaries")
def game_summaries(db: sqlite_utils.Database) -> None:
    """Per-game summaries kept at write time (scorekeeper/service/summaries.py),
    so the history and the statistics never replay a game; the games already
    stored get theirs from a replay of their logs.

    Frozen: the columns, the folding of corrections and the counting of gains
    are copied here as they were (the _summaries_ functions below are this
    step's own), so that a later version that adds a kind of gain (and a
    migration that adds its column) does not change this step.
    Only the replay is the engine's: a stored event scores what it scored,
    in every version (engine.recorded_event, engine.apply)."""
    from .. import engine

    _summaries_schema(db)
    rows = db.execute("SELECT id, sides, players, rules, first_dealer FROM games").fetchall()
    for game_id, sides_json, players, rules_json, first_dealer in rows:
        sides = json.loads(sides_json)
        setup = engine.Setup(tuple(sides), players,
                             engine.rules_from_dict(json.loads(rules_json)), first_dealer)
        standing = _summaries_standing(db, game_id)
        state, totals = _summaries_replay(setup, standing)
        _summaries_write(db, game_id, sides, state, totals, standing)


# How often each kind of gain came to a side, as tally.COUNTS was for step 0003.
_SUMMARIES_COUNTS = ("ronda", "double_ronda", "tringa", "missa", "bount", "khamsa", "aachra",
                     "cards", "adjust", "hidden_ronda", "dealer_last_trick")


def _summaries_schema(db: sqlite_utils.Database) -> None:
    """Step 0003's columns of the games, and its table of each game's sides."""
    counts = _SUMMARIES_COUNTS
    games = db["games"]
    games.add_column("finished", int, not_null_default=0)
    games.add_column("winner", int)
    games.add_column("hands", int, not_null_default=0)
    games.add_column("event_count", int, not_null_default=0)  # standing events
    games.add_column("last_event_at", str)
    games.add_column("deleted_at", str)  # in the bin since then; NULL: listed
    games.create_index(["deleted_at", "created_at"])
    games.create_index(["finished", "deleted_at", "updated_at"])
    db["game_sides"].create(
        {"game_id": str, "side": int, "name": str, "name_key": str, "score": int,
         "won": int, "margin": int,
         "counted": int,  # 1 when the game is over and not in the bin: the statistics'
         **{name: int for name in counts}},
        pk=("game_id", "side"),
        foreign_keys=[("game_id", "games", "id")],
        not_null={"name", "name_key", "score", "won", "margin", "counted", *counts},
        defaults={"score": 0, "won": 0, "margin": 0, "counted": 0, **{name: 0 for name in counts}},
    )
    # A name's games (the list's filter, the names known); the statistics'
    # per-name aggregates read this one alone.
    db["game_sides"].create_index(["name_key", "game_id", "name"])
    db["game_sides"].create_index(["counted", "name_key", "name", "won", "margin"])


def _summaries_standing(db: sqlite_utils.Database, game_id: str) -> list[tuple[int, dict]]:
    """Step 0003's reading of a log: its standing events, each as its latest
    correction left it, in order."""
    events: dict[int, dict | None] = {}
    for seq, action, payload in db.execute(
        "SELECT seq, action, payload FROM events WHERE game_id = ? AND action IN"
        " ('event', 'correction') AND undone_by IS NULL ORDER BY seq", [game_id]
    ):
        payload = json.loads(payload)
        if action == "event":
            events[seq] = payload
        elif payload.get("corrects") in events:
            events[payload["corrects"]] = payload.get("event")
    return [(seq, event) for seq, event in events.items() if event is not None]


def _summaries_gain_names(gain, hits: tuple[int, ...]) -> tuple[str, ...]:
    """The kinds of step 0003's counts that a gain adds one to."""
    if gain.kind in ("hit", "hit_missa"):
        hit = ((("bount", "khamsa", "aachra")[hits.index(gain.value)],)
               if gain.value in hits else ())
        return hit + (("missa",) if gain.kind == "hit_missa" else ())
    return (gain.kind,) if gain.kind in _SUMMARIES_COUNTS else ()


def _summaries_replay(setup, standing: list[tuple[int, dict]]):
    """The game's state after its standing events, and how often each kind
    of gain came to each side (step 0003's counts)."""
    from .. import engine

    state = engine.new_game(setup)
    totals = [dict.fromkeys(_SUMMARIES_COUNTS, 0) for _ in setup.sides]
    for _, data in standing:
        state = engine.apply(state, engine.recorded_event(data, setup))
        for gain in state.gains:
            for side, points in enumerate(gain.points):
                if points:
                    for name in _summaries_gain_names(gain, tuple(setup.rules.hits)):
                        totals[side][name] += 1
    return state, totals


def _summaries_write(db: sqlite_utils.Database, game_id: str, sides: list[str], state,
                     totals: list[dict[str, int]], standing: list[tuple[int, dict]]) -> None:
    """A game's summary as step 0003 stores it: its columns, a row per side."""
    counts = _SUMMARIES_COUNTS
    last_event_at = None
    if standing:
        last_event_at = db.execute(
            "SELECT created_at FROM events WHERE game_id = ? AND seq = ?",
            [game_id, standing[-1][0]]).fetchone()[0]
    hands = state.hand - 1 + int(state.finished)
    db.execute("UPDATE games SET finished = ?, winner = ?, hands = ?, event_count = ?,"
               " last_event_at = ? WHERE id = ?",
               [int(state.finished), state.winner, hands, state.events, last_event_at,
                game_id])
    counted = int(state.finished)  # nothing was in the bin yet
    for side, (name, score) in enumerate(zip(sides, state.scores)):
        margin = score - max(other for s, other in enumerate(state.scores) if s != side)
        db.execute(
            f"INSERT INTO game_sides (game_id, side, name, name_key, score, won, margin,"
            f" counted, {', '.join(counts)}) VALUES (?, ?, ?, ?, ?, ?, ?, ?,"
            f" {', '.join('?' for _ in counts)})",
            [game_id, side, name, name.strip().casefold(), score,
             int(state.winner == side), margin, counted]
            + [totals[side][kind] for kind in counts])


@migrations(name="0004_players")
def players_and_seats(db: sqlite_utils.Database) -> None:
    """People beside the games, so that the history follows a person: a
    roster, its changes as records of their own, and which player sat on
    which side. Every stored side is linked
    to the player of its name; no game is changed. Frozen: the name key is
    copied here, not imported, so that this step stays what it was."""
    import unicodedata

    def key_of(name: str) -> str:
        return unicodedata.normalize("NFC", " ".join(name.split())).casefold()

    db["players"].create(
        {"id": int, "name": str, "name_key": str, "nickname": str, "created_at": str,
         "merged_into": int,  # a merged entry: the player it now is (undoable)
         "person": int},  # who it is in the end: itself, or the root of its merges
        pk="id", not_null={"name", "name_key", "created_at", "person"},
    )
    db["players"].create_index(["name_key"], unique=True)
    db["players"].create_index(["person"])
    # Renames, nicknames, merges and their undoing: records, never rewritten.
    db["player_changes"].create(
        {"id": int, "player_id": int, "action": str, "payload": str, "created_at": str},
        pk="id", not_null={"player_id", "action", "payload", "created_at"},
        foreign_keys=[("player_id", "players", "id")],
    )
    db["player_changes"].create_index(["player_id", "id"])
    # Who sat on a side: one seat per player (two partners with four players).
    db["seats"].create(
        {"game_id": str, "side": int, "seat": int, "player_id": int, "person": int},
        pk=("game_id", "side", "seat"), not_null={"player_id", "person"},
        foreign_keys=[("game_id", "games", "id"), ("player_id", "players", "id")],
    )
    db["seats"].create_index(["person", "game_id", "side"])
    db["seats"].create_index(["player_id"])
    ids: dict[str, int] = {}
    rows = db.execute("SELECT id, sides, created_at FROM games ORDER BY created_at, id")
    for game_id, sides, created_at in rows.fetchall():
        for side, name in enumerate(json.loads(sides)):
            key = key_of(name)
            if key not in ids:
                cursor = db.execute(
                    "INSERT INTO players (name, name_key, created_at, person) VALUES (?, ?, ?, 0)",
                    [" ".join(name.split()), key, created_at])
                ids[key] = cursor.lastrowid
                db.execute("UPDATE players SET person = id WHERE id = ?", [ids[key]])
            db.execute("INSERT INTO seats (game_id, side, seat, player_id, person)"
                       " VALUES (?, ?, 0, ?, ?)", [game_id, side, ids[key], ids[key]])


@migrations(name="0005_ratings")
def ratings(db: sqlite_utils.Database) -> None:
    """The ratings (scorekeeper/service/ratings.py), derived from the finished games:
    which games are rated and in what order (the time each was first over),
    each person's rating after each game, and the latest. Frozen: the
    ratings themselves are left to the service, which rebuilds them at the
    next start when `ratings_stale` is set."""
    db["rated_games"].create(
        {"game_id": str, "rated_at": str, "counted": int}, pk="game_id",
        not_null={"rated_at", "counted"}, foreign_keys=[("game_id", "games", "id")])
    db["rated_games"].create_index(["counted", "rated_at", "game_id"])
    db["rating_steps"].create(
        {"game_id": str, "person": int, "rated_at": str, "mu": float, "sigma": float,
         "games": int, "wins": int},  # games and wins so far: the roster reads them
        pk=("game_id", "person"), not_null={"rated_at", "mu", "sigma", "games", "wins"})
    db["rating_steps"].create_index(["person", "rated_at", "game_id"])
    db["rating_steps"].create_index(["rated_at", "game_id"])
    db["person_ratings"].create(
        {"person": int, "mu": float, "sigma": float, "games": int, "wins": int}, pk="person",
        not_null={"mu", "sigma", "games", "wins"})
    db["person_ratings"].create_index(["games"])
    db.execute("INSERT INTO rated_games (game_id, rated_at, counted)"
               " SELECT id, coalesce(last_event_at, updated_at), deleted_at IS NULL"
               " FROM games WHERE finished = 1")
    db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES ('ratings_stale', '1')")


@migrations(name="0006_club_nights")
def club_nights(db: sqlite_utils.Database) -> None:
    """A club's evening (scorekeeper/service/nights.py): its entrants for the round
    robin, and its tables, each one game."""
    db["nights"].create(
        {"id": str, "name": str, "date": str, "preset": str,
         "players": int,  # 2: one player a side; 4: teams of two
         "created_at": str,
         "screen_key": str},  # the read-only big screen's key, while it is on
        pk="id", not_null={"name", "date", "preset", "players", "created_at"})
    db["nights"].create_index(["date", "created_at"])
    db["night_entrants"].create(
        {"night_id": str, "position": int, "names": str},  # JSON: 1 or 2 names
        pk=("night_id", "position"), not_null={"names"},
        foreign_keys=[("night_id", "nights", "id")])
    db["night_tables"].create(
        {"game_id": str, "night_id": str, "number": int, "round": int, "created_at": str},
        pk="game_id", not_null={"night_id", "number", "created_at"},
        foreign_keys=[("game_id", "games", "id"), ("night_id", "nights", "id")])
    db["night_tables"].create_index(["night_id", "number"], unique=True)


@migrations(name="0007_unnamed_sides_not_rated")
def unnamed_sides_not_rated(db: sqlite_utils.Database) -> None:
    """The ratings leave out the sides left with their default names
    (scorekeeper/service/unnamed.py): the ones kept before are rebuilt at
    the next start. No game, seat or player is changed."""
    db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES ('ratings_stale', '1')")


@migrations(name="0008_snapshots_and_one_name_key")
def snapshots_and_one_name_key(db: sqlite_utils.Database) -> None:
    """The state of a game after every so many of its standing events
    (scorekeeper/service/snapshots.py), so that an undo, a board and a page
    of a review fold a few events from the nearest one instead of the whole
    log. Derived from the log, which stays the truth: a game without them
    (every game stored before this step) is folded from its start, and gets
    them as it goes on. No game is changed.

    And the sides' name keys as the players' are (engine/names.py, name_key:
    blanks collapsed, letters composed, then casefolded), where 0003 only
    trimmed them: a name stored with two spaces is found by its one-space
    spelling, in the history and the statistics alike."""
    import unicodedata

    def key(name: str) -> str:  # this step's own copy: a step never calls today's code
        return unicodedata.normalize("NFC", " ".join(name.split())).casefold()

    sides = db.execute("SELECT rowid, name, name_key FROM game_sides").fetchall()
    for rowid, name, stored in sides:
        if key(name) != stored:
            db.execute("UPDATE game_sides SET name_key = ? WHERE rowid = ?", [key(name), rowid])
    db["snapshots"].create(
        {"game_id": str,
         "events": int,  # how many standing events the state folds
         "seq": int,  # the log record of the last of them
         "state": str,  # JSON: the engine's snapshot of the state after them
         "trail": str},  # JSON: after each of the events since the one before, [hand, scores]
        pk=("game_id", "events"), not_null={"seq", "state", "trail"},
        foreign_keys=[("game_id", "games", "id")])
    db["snapshots"].create_index(["game_id", "seq"])
@migrations(name="0009_phones")
def phones(db: sqlite_utils.Database) -> None:
    """The phones let in to the table (scorekeeper/service/phones.py), each
    with a pass of its own: only its hash is kept, with the access key it
    was given under (a mark of it), how it came in, its browser in a few
    words, and when it came in, was last seen and was turned away."""
    db["phones"].create(
        {"id": int, "pass_hash": str, "key_mark": str, "how": str, "browser": str,
         "created_at": str, "last_seen": str, "turned_away_at": str},
        pk="id", not_null={"pass_hash", "key_mark", "how", "browser", "created_at",
                           "last_seen"})
    db["phones"].create_index(["pass_hash"], unique=True)


@migrations(name="0010_tournaments")
def tournaments(db: sqlite_utils.Database) -> None:
    """Knockout and Swiss nights beside the round robin (scorekeeper/service/tournaments.py):
    the night's format, its matches (one game, or the best of three), how its
    entrants were seeded and a Swiss night's rounds; each entrant's round of
    joining and of withdrawing; each table's match (its slot in the round,
    and the entrants of its two sides); and the pairings each Swiss round was
    given (a bye: no second entrant). The brackets and the standings are
    read from these and the games, never stored. Every night stored before
    is a round robin (or free choice) as it was."""
    db.execute("ALTER TABLE nights ADD COLUMN format TEXT NOT NULL DEFAULT 'round_robin'")
    db.execute("ALTER TABLE nights ADD COLUMN match_games INTEGER NOT NULL DEFAULT 1")
    db.execute("ALTER TABLE nights ADD COLUMN seeding TEXT")
    db.execute("ALTER TABLE nights ADD COLUMN rounds INTEGER")
    db.execute("ALTER TABLE night_entrants ADD COLUMN joined_round INTEGER NOT NULL DEFAULT 1")
    db.execute("ALTER TABLE night_entrants ADD COLUMN withdrawn_round INTEGER")
    db.execute("ALTER TABLE night_tables ADD COLUMN slot INTEGER")
    db.execute("ALTER TABLE night_tables ADD COLUMN entrants TEXT")  # JSON: [side 0's, side 1's]
    db["night_pairings"].create(
        {"night_id": str, "round": int, "slot": int, "first": int, "second": int},
        pk=("night_id", "round", "slot"), not_null={"first"},
        foreign_keys=[("night_id", "nights", "id")])


@migrations(name="0011_phone_hosts")
def phone_hosts(db: sqlite_utils.Database) -> None:
    """Who may do what with phones (scorekeeper/service/phones.py): a phone
    this machine (or a host) marked as one of the table's hosts, and the
    phone whose pairing code let each one in (none: this machine's code, or
    the typed key), so that turning a phone away takes with it every pass
    it gave. Every phone let in before is a guest, let in by this machine."""
    db.execute("ALTER TABLE phones ADD COLUMN host INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE phones ADD COLUMN minted_by INTEGER")


@migrations(name="0012_taps_know_their_phone")
def taps_know_their_phone(db: sqlite_utils.Database) -> None:
    """Each record of a game's log knows the phone that made it (`device`)
    and the version its finger saw (`seen`); a tap of a deal another phone
    had closed is folded at the end of its deal, before the record that
    closed it (`place`: that record's seq), while its own seq stays its
    arrival (docs/BOARD.md, "Two phones"). A tap that was another phone's
    record is a record of its own, action "same" ({"same": seq}). Records
    stored before know no phone: one unknown device (NULL)."""
    db.execute("ALTER TABLE events ADD COLUMN device TEXT")
    db.execute("ALTER TABLE events ADD COLUMN seen INTEGER")
    db.execute("ALTER TABLE events ADD COLUMN place INTEGER")


def migrate(db: sqlite_utils.Database) -> None:
    migrations.apply(db)


def apply_these(db: sqlite_utils.Database, applied: dict[str, str]) -> None:
    """Only the steps named in `applied` (name: when it was applied), in
    their order here, recorded with those times: a fresh store as a backup
    that went through them was made (storage/backup.py's restore)."""
    migrations.ensure_migrations_table(db)
    for step in migrations.pending(db):
        if step.name not in applied:
            continue
        if step.transactional:
            with db.atomic():
                step.fn(db)
        else:
            step.fn(db)
        db[migrations.migrations_table].insert(
            {"migration_set": migrations.name, "name": step.name,
             "applied_at": applied[step.name]})
