"""A hostile import of format 2, and two writers at once.

The fuzz takes a real export (finished and running games, four players with
partners, a club night with entrants and a round of tables) and breaks it
at random: fields dropped, duplicated, swapped between games and nights,
ids made to collide with what is here, entrants that do not fit the night,
tables naming games the document lacks, names with hidden characters, huge
strings and numbers, nesting thousands deep. Every refusal is a sentence
and changes nothing; an accepted document leaves every game the replay of
its log, every night's tables real games, and the ratings equal to a full
rebuild. Then two writers race on a night's round and on the ratings."""

import copy
import json
import os
import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scorekeeper import create_app, engine
from scorekeeper.engine.errors import RuleViolation
from scorekeeper.service import games, nights, players, ratings
from scorekeeper.service.clock import utc_now
from scorekeeper.storage import db as stores
from scorekeeper.storage.db import write_transaction
from support.nights import start_night
from support.race import race

pytestmark = pytest.mark.xdist_group("import_fuzz")  # its module fixture, built once a run

TABLES = ("games", "events", "game_sides", "players", "player_changes", "seats", "rated_games",
          "rating_steps", "person_ratings", "nights", "night_entrants", "night_tables",
          "settings", "presets")
DEEP = "\u2063deep\u2063"  # a marker replaced, in the document's text, by nesting
HOSTILE_TEXT = ["", " ", "\u200b", "Hind\u200b", "\u202eReda", "x" * 100_000, "Nous",
                "<script>", "\ud800", "9" * 5000, "2026-13-45", "1" * 40]
HOSTILE_VALUES = [None, True, 0, -1, 2**70, 1.5, float("inf"), [], {}, [[]], {"": None},
                  list(range(3000)), *HOSTILE_TEXT, DEEP]


def finish(client, game_id, winner=0):
    response = client.post(f"/api/games/{game_id}/events",
                           json={"type": "adjust", "side": winner, "points": 40})
    assert response.status_code == 200


def source_document(tmp_path) -> dict:
    """A real export: what the fuzz breaks."""
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "source.sqlite3")})
    client = app.test_client()
    client.set_cookie("lang", "en")
    for sides, winner in ((["Karim", "Ali"], 0), (["Ali", "Omar"], 1), (["Karim", "Omar"], 1)):
        finish(client, client.post("/api/games", json={"sides": sides}).get_json()["id"], winner)
    team = client.post("/api/games", json={"sides": ["Hind & Salma", "Karim & Ali"],
                                           "players": 4, "partners": [["Hind", "Salma"],
                                                                      ["Karim", "Ali"]]})
    finish(client, team.get_json()["id"])
    client.post("/api/games", json={"sides": ["Léa", "Zoé"]})  # still running
    night = start_night(client, entrants=[("Karim",), ("Ali",), ("Omar",), ("Hind",)])
    page = client.get(f"/nights/{night}/round").get_data(as_text=True)
    from support.page_forms import forms_of, submit

    submit(client, next(f for f in forms_of(page) if f.method == "post"))
    document = client.get("/games/export.json").get_json()
    assert document["format_version"] == 2 and document["nights"][0]["tables"]
    return document


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory):
    folder = tmp_path_factory.mktemp("import-fuzz")
    document = source_document(folder)
    app = create_app({"TESTING": True, "DATABASE": str(folder / "target.sqlite3")})
    client = app.test_client()
    # Something here already: a game and a person the document may collide with.
    finish(client, client.post("/api/games", json={"sides": ["Karim", "Nadia"]}).get_json()["id"])
    store = stores.connect(app.config["DATABASE"])
    yield document, app, client, store
    store.close()


def dump(store) -> dict:
    return {table: store.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
            for table in TABLES}


def schema(store) -> list:
    return sorted(store.execute("SELECT type, name, sql FROM sqlite_master").fetchall())


def assert_as_rebuilt(store) -> None:
    def snapshot():
        return (store.execute("SELECT person, mu, sigma, games, wins FROM person_ratings"
                              " ORDER BY person").fetchall(),
                store.execute("SELECT game_id, person, mu, sigma FROM rating_steps"
                              " ORDER BY rated_at, game_id, person").fetchall())

    kept = snapshot()
    store.execute("BEGIN")
    ratings.rebuild(store)
    rebuilt = snapshot()
    store.conn.rollback()
    assert kept == rebuilt


def assert_sound(store) -> None:
    for (game_id,) in store.execute("SELECT id FROM games").fetchall():
        assert games.replay_log(store, game_id) == games.load(store, game_id).state
    assert store.execute("SELECT count(*) FROM night_tables t LEFT JOIN games g"
                         " ON g.id = t.game_id WHERE g.id IS NULL").fetchone()[0] == 0
    assert store.execute("PRAGMA foreign_key_check").fetchall() == []
    assert_as_rebuilt(store)


# -- breaking a document ---------------------------------------------------------------------

def places(value, path=()):
    """Every (path, value) of a JSON document."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from places(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from places(item, path + (index,))


def parent_of(document, path):
    for step in path[:-1]:
        document = document[step]
    return document


def mutate(document: dict, rng: random.Random, here_ids: list[str]) -> dict:
    found = [p for p, _ in places(document) if p]
    path = rng.choice(found)
    parent, last = parent_of(document, path), path[-1]
    move = rng.randrange(9)
    if move == 0 and isinstance(parent, dict):
        del parent[last]
    elif move == 0:
        parent.pop(last)
    elif move == 1 and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))  # the same thing twice
    elif move == 2:
        parent[last] = copy.deepcopy(rng.choice(HOSTILE_VALUES))  # never the shared one
    elif move == 3 and isinstance(parent[last], str):
        parent[last] = parent[last] + rng.choice(["\u200b", "\u202e", "\x00", " ", "\u00ad"])
    elif move == 4 and isinstance(parent[last], str) and here_ids:
        parent[last] = rng.choice(here_ids)  # an id, a game or a night, that is here already
    elif move == 5:
        other = rng.choice(found)
        try:
            parent[last] = copy.deepcopy(parent_of(document, other)[other[-1]])
        except (KeyError, IndexError, TypeError):
            pass
    elif move == 6 and isinstance(parent, dict):
        parent[rng.choice(["extra", "screen_key", "seq", "id"])] = copy.deepcopy(
            rng.choice(HOSTILE_VALUES))
    elif move == 7 and isinstance(parent[last], list) and parent[last]:
        rng.shuffle(parent[last])
    elif move == 8 and isinstance(parent[last], int) and not isinstance(parent[last], bool):
        parent[last] = parent[last] + rng.choice([-1, 1, 10**6])
    return document


def renamed(document: dict, rng: random.Random) -> dict:
    """The same games and nights under new ids (and creation keys): imported
    anew, not skipped as already here."""
    text = json.dumps(document, ensure_ascii=False)
    for game in document["games"]:
        text = text.replace(game["id"], f"g{rng.getrandbits(60):016x}")
        if game["creation_key"]:
            text = text.replace(json.dumps(game["creation_key"]),
                                json.dumps(f"key-{rng.getrandbits(60):x}"))
    for night in document.get("nights", []):
        text = text.replace(night["id"], f"n{rng.getrandbits(60):016x}")
    return json.loads(text)


def as_text(document: dict, rng: random.Random) -> bytes:
    text = json.dumps(document, ensure_ascii=False, allow_nan=True)
    depth = rng.choice([50, 1000, 20000])
    return text.replace(json.dumps(DEEP, ensure_ascii=False), "[" * depth + "]" * depth).encode(
        "utf-8", "surrogatepass")


@settings(max_examples=int(os.environ.get("FUZZ_IMPORTS", 120)), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), moves=st.integers(1, 4))
def test_a_broken_format_2_document_is_refused_with_a_sentence_or_leaves_all_sound(
        fuzz, seed, moves):
    document, app, client, store = fuzz
    rng = random.Random(seed)
    here = [row[0] for row in store.execute("SELECT id FROM games UNION SELECT id FROM nights")]
    broken = renamed(document, rng) if rng.random() < 0.6 else copy.deepcopy(document)
    for _ in range(moves):
        broken = mutate(broken, rng, here)
    before, shape = dump(store), schema(store)
    response = client.post("/api/games/import", data=as_text(broken, rng),
                           content_type="application/json",
                           headers={"Accept-Language": "en"})
    assert response.status_code in (200, 400, 409, 413), response.get_data(as_text=True)[:300]
    event(f"status {response.status_code}")
    assert schema(store) == shape  # an import makes rows, never a schema object
    if response.status_code != 200:
        error = response.get_json()["error"]
        assert isinstance(error, str) and 10 < len(error) < 2000 and "Traceback" not in error
        assert dump(store) == before  # nothing half-written
        return
    assert_sound(store)


@pytest.mark.parametrize("value", [[], {}, ["2026-12-04T20:00:00+00:00"], 7, "yesterday",
                                   "2026-12-04T20:00:00", "9999-12-31T23:59:59-14:00",
                                   "0001-01-01T00:00:00+14:00"])
def test_a_nights_table_time_that_is_no_time_is_refused(fuzz, value):
    """Found by the fuzz: a list there reached the INSERT, a 503 "cannot be reached"."""
    document, app, client, store = fuzz
    broken = renamed(document, random.Random(7))
    broken["nights"][0]["tables"][0]["created_at"] = value
    before = dump(store)
    response = client.post("/api/games/import", json=broken, headers={"Accept-Language": "en"})
    assert response.status_code == 400
    assert "created_at must be a" in response.get_json()["error"]  # the field named
    assert dump(store) == before


@pytest.mark.parametrize("value", [2**70, 2**63, 100, 0, -1, True, 1.0])
def test_a_nights_table_round_out_of_bounds_is_refused(fuzz, value):
    """Found by the fuzz: 2**70 reached the INSERT, a 500."""
    document, app, client, store = fuzz
    broken = renamed(document, random.Random(8))
    broken["nights"][0]["tables"][0]["round"] = value
    before = dump(store)
    response = client.post("/api/games/import", json=broken, headers={"Accept-Language": "en"})
    assert response.status_code == 400
    assert "numbered 1, 2, 3" in response.get_json()["error"]
    assert dump(store) == before


@pytest.mark.parametrize("value", [{}, [], {"id": "x"}, ["x"], None, 7])
def test_a_nights_table_that_names_no_game_is_refused(fuzz, value):
    """Found by the fuzz: an object there made the check fail (unhashable): a 500."""
    document, app, client, store = fuzz
    broken = renamed(document, random.Random(9))
    broken["nights"][0]["tables"][0]["game"] = value
    before = dump(store)
    response = client.post("/api/games/import", json=broken, headers={"Accept-Language": "en"})
    assert response.status_code == 400
    assert "names a game the export does not hold" in response.get_json()["error"]
    assert dump(store) == before


def test_the_document_unbroken_imports_once_then_is_skipped(fuzz):
    document, app, client, store = fuzz
    first = client.post("/api/games/import", json=document)
    assert first.status_code in (200, 409)
    again = client.post("/api/games/import", json=document)
    assert again.status_code == first.status_code
    assert_sound(store)


# -- two writers at once ---------------------------------------------------------------------

@pytest.mark.parametrize("same_key", [True, False])
def test_two_writers_start_a_nights_round_once(tmp_path, same_key):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "race.sqlite3")})
    client = app.test_client()
    night_id = start_night(client, entrants=[("Karim",), ("Ali",), ("Omar",), ("Hind",)])
    presets = dict(engine.BUILT_IN_PRESETS)

    def writer(number):
        def write():
            store = stores.connect(app.config["DATABASE"])
            try:
                night = nights.get(store, night_id)
                key = "round:one" if same_key else f"round:{number}"
                return [g.id for g in nights.start_round(store, night, 1, key, utc_now(),
                                                         presets)]
            finally:
                store.close()
        return write

    results = race(*(writer(n) for n in range(4)))
    started = [r for r in results if isinstance(r, list)]
    refused = [r for r in results if not isinstance(r, list)]
    assert all(isinstance(r, RuleViolation) and r.sentence() for r in refused), refused
    assert started and all(r == started[0] for r in started)  # one round, the same games
    store = stores.connect(app.config["DATABASE"])
    try:
        tables = store.execute("SELECT game_id, number, round FROM night_tables"
                               " ORDER BY number").fetchall()
        assert [t[0] for t in tables] == started[0] and [t[1] for t in tables] == [1, 2]
        assert store.execute("SELECT count(*) FROM games").fetchone()[0] == 2
        assert store.execute("SELECT count(*) FROM seats").fetchone()[0] == 4
    finally:
        store.close()


def test_writers_racing_on_the_ratings_leave_them_as_a_rebuild(tmp_path):
    """Games finished at the same moment on several tables, a merge, an undo
    and an import, all at once: the ratings kept are those of a rebuild."""
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "ratings.sqlite3")})
    source = source_document(tmp_path)
    setup = app.test_client()
    tables = [setup.post("/api/games", json={"sides": sides}).get_json()["id"]
              for sides in (["Karim", "Ali"], ["Omar", "Hind"], ["Ali", "Hind"],
                            ["Karim", "Omar"], ["Karim B.", "Nadia"])]
    finish(setup, tables[4])
    store = stores.connect(app.config["DATABASE"])
    typo, karim = players.by_name(store, "Karim B."), players.by_name(store, "Karim")

    def finishing(game_id, winner):
        return lambda: finish(app.test_client(), game_id, winner)

    def merging():
        other = stores.connect(app.config["DATABASE"])
        try:
            with write_transaction(other):
                players.merge(other, typo.id, karim.id, utc_now())
        finally:
            other.close()

    def undoing():
        client = app.test_client()
        finish(client, tables[3], 0)
        return client.post(f"/api/games/{tables[3]}/undo", json={}).status_code

    def importing():
        return app.test_client().post("/api/games/import", json=source).status_code

    results = race(finishing(tables[0], 0), finishing(tables[1], 1), finishing(tables[2], 0),
                   merging, undoing, importing)
    assert not [r for r in results if isinstance(r, Exception)], results
    assert results[4] == 200 and results[5] == 200
    assert_sound(store)
    store.close()


@pytest.mark.parametrize("value", [["x"], {"id": "x"}])
def test_a_tournaments_table_that_names_no_game_is_refused(fuzz, value):
    """A knockout's matches are looked up by their tables' games: an object
    there was hashed before the tables were checked (a 500)."""
    document, app, client, store = fuzz
    broken = renamed(document, random.Random(11))
    night = broken["nights"][0]
    count = len(night["entrants"])
    night["tournament"] = {"format": "knockout", "match_games": 1, "seeding": "drawn",
                           "rounds": None, "joined": [1] * count, "withdrawn": [None] * count,
                           "pairings": [], "matches": []}
    night["tables"][0]["game"] = value
    before = dump(store)
    response = client.post("/api/games/import", json=broken, headers={"Accept-Language": "en"})
    assert response.status_code == 400
    assert "names a game the export does not hold" in response.get_json()["error"]
    assert dump(store) == before
