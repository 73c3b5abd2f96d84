"""Hostile input: thousands of random and malformed requests, none of which
may give a 500 or change anything.

Random methods, paths, content types, bodies (JSON values, bytes, huge numbers,
deep nesting, oversized) and headers (Idempotency-Key included) go to every
endpoint of ENDPOINTS. Whatever comes in: never a 5xx, every response carries
the security headers, every API error is the contract's JSON shape, a refused
request changes nothing, versions only grow, and every game's stored snapshot
stays the replay of its log.

To fuzz more API endpoints, add an Endpoint with a body strategy. The HTML
pages and forms have a fuzz of their own: test_fuzz_pages.py, test_fuzz_forms.py.
"""

import dataclasses
import json
import os
import re
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import create_app
from scorekeeper.service import games
from scorekeeper.storage.db import connect
from support.headers import check_security_headers

pytestmark = pytest.mark.xdist_group("fuzz")  # its module fixture, built once a run

MAX_BODY = 64 * 1024
METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "PROPFIND"]
EVENT_TYPES = ["announce", "reveal", "hit", "chain_end", "missa", "next_deal", "end_hand",
               "adjust", "hidden_ronda", "dealer_last_trick", "undo", "", "HIT"]
KEYS = ["k1", "k2", "k3"]  # reused: a repeat must apply nothing the second time
FIXED_GAMES = [
    {"sides": ["Nous", "Eux"], "rules": {"target": 101}},
    {"sides": ["A", "B", "C"], "players": 3},
    {"sides": ["Nous", "Eux"], "players": 4, "rules": {"preset": "classique"}},
    {"sides": ["X", "Y"], "rules": {"target": 11}},
]
FIGURES = Counter()  # answers by status, for the record

# -- values ------------------------------------------------------------------

huge_ints = st.sampled_from([2**63, -(2**63) - 1, 10**40, -(10**40), 2**1024])
small_ints = st.integers(-3, 45)
odd_numbers = st.one_of(st.integers(0, 3), huge_ints, st.sampled_from([-1, True, False, 1.0, "0"]))
json_scalars = st.one_of(
    st.none(), st.booleans(), small_ints, huge_ints, st.integers(),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=30),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=20,
)
junk = st.one_of(json_values, odd_numbers)


def usually(common, rare):
    """`common` three times in four, else `rare` (one_of would weigh them evenly)."""
    return st.integers(0, 3).flatmap(lambda n: common if n else rare)


def maybe(strategy):
    """Mostly a plausible value, sometimes any JSON at all."""
    return usually(strategy, junk)


side = st.integers(0, 2)
rank = st.sampled_from([1, 2, 3, 4, 5, 6, 7, 10, 11, 12])
announcement = st.fixed_dictionaries(
    {"side": side, "kind": st.sampled_from(["ronda", "double_ronda", "tringa"])},
    optional={"rank": rank},
)


def event(kind: str, **fields):
    return st.fixed_dictionaries({"type": st.just(kind), **fields})


# Events that parse (for a game with enough sides): the engine decides.
wellformed_events = st.one_of(
    event("hit", side=side, value=st.sampled_from([1, 5, 10])),
    event("chain_end"),
    event("missa", side=side, last_card=st.booleans()),
    event("next_deal"),
    event("end_hand", cards=st.lists(st.one_of(st.none(), st.integers(0, 20)), min_size=2,
                                     max_size=3).map(lambda cards: cards[:-1] + [None])),
    event("adjust", side=side, points=st.integers(-50, 50).filter(bool),
          note=st.text(max_size=200)),
    event("announce", announcements=st.lists(announcement, min_size=1, max_size=2)),
    event("reveal", ranks=st.lists(st.one_of(st.none(), rank), min_size=2, max_size=3)),
    event("hidden_ronda", side=side),
    event("dealer_last_trick", outcome=st.sampled_from(["twelve", "one", "missed"])),
)
# Anything shaped like an event, one field or more out of place.
mangled_events = st.fixed_dictionaries(
    {"type": maybe(st.sampled_from(EVENT_TYPES))},
    optional={
        "side": maybe(st.integers(-1, 3)),
        "value": maybe(st.sampled_from([1, 5, 10, 6])),
        "points": maybe(st.integers(-51, 51)),
        "note": maybe(st.text(max_size=210)),
        "last_card": maybe(st.booleans()),
        "cards": maybe(st.lists(st.one_of(st.none(), st.integers(-1, 41)), min_size=1,
                                max_size=4)),
        "ranks": maybe(st.lists(st.one_of(st.none(), st.integers(0, 12)), max_size=4)),
        "announcements": maybe(st.lists(maybe(announcement), max_size=5)),
        "outcome": maybe(st.sampled_from(["twelve", "one", "missed", "eleven"])),
        "expected_version": maybe(st.integers(-1, 60)),
        "extra": junk,
    },
)
event_bodies = usually(wellformed_events, mangled_events)
undo_bodies = st.one_of(
    st.just({}), st.fixed_dictionaries({}, optional={
        "expected_version": maybe(st.integers(-1, 60)), "type": junk,
    }),
)
new_game_bodies = st.fixed_dictionaries(
    {"sides": usually(st.sampled_from([["Nous", "Eux"], ["A", "B", "C"], [" a ", "b"]]),
                      st.lists(st.text(max_size=45), max_size=4))},
    optional={
        "players": maybe(st.integers(1, 5)),
        "first_dealer": maybe(st.integers(-1, 3)),
        "rules": maybe(st.fixed_dictionaries({}, optional={
            "preset": maybe(st.sampled_from(["appli", "classique", "x"])),
            "target": maybe(st.integers(5, 120)),
            "stop": maybe(st.sampled_from(["immediate", "end_of_hand", "never"])),
            "tringa_contest": maybe(st.sampled_from(["higher", "lower"])),
            "missa": maybe(st.integers(-1, 21)),
            "card_threshold": maybe(st.integers(-1, 41)),
            "hits": maybe(st.lists(st.integers(0, 20), max_size=4)),
            "unknown": junk,
        })),
    },
)


def encoded(objects):
    return objects.map(lambda value: json.dumps(value).encode())


hostile_bodies = st.one_of(
    encoded(json_values),
    st.binary(max_size=200),
    st.sampled_from([
        b"", b"null", b"[]", b"{", b'{"type": NaN}', b'{"type": Infinity}', b"\xef\xbb\xbf{}",
        b'{"type": "hit", "side": 0, "value": 1} trailing', b'{"a": 1, "a": 2}',
        b'{"type": "adjust", "side": 0, "points": 1e400}', b'{"type": "\xff\xfe"}',
        b'{"type": "adjust", "side": 0, "points": ' + b"9" * 5000 + b"}",
        b"[" * 100_000 + b"]" * 100_000, b'{"a":' * 20_000 + b"1" + b"}" * 20_000,
    ]),
    st.integers(MAX_BODY - 40, MAX_BODY + 40).map(
        lambda n: b'{"type": "adjust", "side": 0, "points": 1, "note": "' + b"x" * n + b'"}'),
)


# -- endpoints ---------------------------------------------------------------

@dataclass(frozen=True)
class Endpoint:
    method: str
    path: str  # "{game}" stands for a game id
    body: st.SearchStrategy = field(default=st.just(b""))  # bytes
    content_type: str | None = "application/json"


JSON_ENDPOINTS = [
    Endpoint("POST", "/api/games", encoded(new_game_bodies)),
    Endpoint("GET", "/api/games/{game}"),
    Endpoint("POST", "/api/games/{game}/events", encoded(event_bodies)),
    Endpoint("POST", "/api/games/{game}/undo", encoded(undo_bodies)),
]
# The API's endpoints; the pages' forms are fuzzed by test_fuzz_forms.py.
ENDPOINTS = JSON_ENDPOINTS

content_types = st.one_of(
    st.sampled_from([
        "application/json", "application/json; charset=utf-8", "APPLICATION/JSON",
        "application/json; charset=latin-1", "text/plain", "text/html", "application/xml",
        "application/x-www-form-urlencoded", "multipart/form-data; boundary=zz",
        "multipart/form-data", "application/json, text/plain", ";", "",
    ]),
    st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40),
)
# What a server can hand over as a header value: any byte but CR, LF, read as latin-1.
header_text = st.one_of(
    st.text(st.characters(min_codepoint=32, max_codepoint=255), max_size=120),
    st.text(max_size=8).map(lambda t: t.encode().decode("latin-1")),
).map(lambda text: text.replace("\r", "").replace("\n", ""))
headers = st.fixed_dictionaries({}, optional={
    "Idempotency-Key": st.one_of(st.sampled_from(KEYS), header_text),
    "Accept": st.sampled_from(["application/json", "text/html", "*/*", "x"]),
    "Accept-Language": st.one_of(st.sampled_from(["ar", "en;q=0.5, fr", "*", "zz-ZZ"]),
                                 header_text),
    "Cookie": st.one_of(st.sampled_from(["lang=ar", "lang=xx", "session=garbage"]), header_text),
    "If-None-Match": header_text,
    "Range": st.sampled_from(["bytes=0-1", "bytes=-5", "lines=1"]),
    "X-Forwarded-For": header_text,
    "Origin": st.sampled_from(["http://evil.example", "null"]),
})


@dataclass
class Request:
    method: str
    path: str  # "{game}" stands for the game: see resolve()
    body: bytes
    content_type: str | None
    headers: dict
    content_length: str | None
    game: int | str = 0  # one of the fixed games (its number), or a made-up id

    def resolve(self, game_ids: list[str]) -> "Request":
        game = game_ids[self.game % len(game_ids)] if isinstance(self.game, int) else self.game
        return dataclasses.replace(self, path=self.path.replace("{game}", game))


def requests(endpoints: list[Endpoint]) -> st.SearchStrategy[Request]:
    unknown_games = st.one_of(
        st.text(max_size=12), st.sampled_from(["", "..", "%00", "a" * 5000, "../api", "ü"]),
    )

    # Built once: Hypothesis checks every strategy it meets for the first time.
    mutations = st.sampled_from(["/", "upper", "//", "tail", "query"])
    any_method = st.sampled_from(METHODS)
    any_content_type = st.one_of(content_types, st.none())
    odd_lengths = st.sampled_from(["0", "-1", "abc", str(MAX_BODY * 10), "3"])
    game_numbers = st.integers(0, 99)

    @st.composite
    def build(draw) -> Request:
        endpoint = draw(st.sampled_from(endpoints))

        def often(common, rare):
            # Mostly a well-formed request with one thing wrong, so that it gets
            # deep enough into the app to be accepted now and then.
            return draw(common if draw(st.integers(0, 3)) else rare)

        method = often(st.just(endpoint.method), any_method)
        path = endpoint.path
        if not draw(st.integers(0, 3)):
            mutation, text = draw(mutations), draw(st.text(max_size=20))
            path = {"/": path + "/", "upper": path.upper(), "//": "/" + path,
                    "tail": path + "/" + text, "query": path + "?" + text}[mutation]
        body = often(endpoint.body, hostile_bodies)
        content_type = often(st.just(endpoint.content_type), any_content_type)
        length = often(st.none(), odd_lengths)
        return Request(method, path, body, content_type, draw(headers), length,
                       often(game_numbers, unknown_games))

    return build()


REQUESTS = requests(ENDPOINTS)
KEY_CHOICES = st.one_of(st.none(), st.sampled_from(KEYS), st.uuids().map(str))
RUNS = st.lists(st.one_of(
    encoded(event_bodies).map(lambda body: ("events", body)),
    encoded(undo_bodies).map(lambda body: ("undo", body)),
), min_size=5, max_size=25)


# -- the app under fire and its invariants -------------------------------------

@dataclass
class Target:
    path: Path
    client: object
    game_ids: list[str]
    versions: dict = field(default_factory=dict)  # the highest version seen, per game
    used_keys: set = field(default_factory=set)  # (game id or "new", key) of accepted requests
    reader: object = None  # a connection of the fuzz's own, kept: two reads per request

    def snapshot(self) -> dict[str, tuple]:
        """Each game's (version, stored state) straight from the store, as
        last committed (a SELECT outside a transaction reads the latest)."""
        if self.reader is None:
            self.reader = connect(str(self.path))
        assert not self.reader.conn.in_transaction
        rows = self.reader.execute("SELECT id, version, state FROM games").fetchall()
        return {game_id: (version, state) for game_id, version, state in rows}

    def check_replay(self, game_ids) -> None:
        store = connect(str(self.path))
        try:
            for game_id in game_ids:
                assert games.replay_log(store, game_id) == games.load(store, game_id).state
        finally:
            store.close()

    def send(self, request: Request):
        environ = {} if request.content_length is None else {
            "CONTENT_LENGTH": request.content_length}
        response = self.client.open(
            request.path, method=request.method, data=request.body,
            content_type=request.content_type, headers=request.headers,
            environ_overrides=environ,
        )
        FIGURES[response.status_code] += 1
        return response


@pytest.fixture(scope="module")
def target(tmp_path_factory):
    # In memory when the system has a tmpfs: thousands of commits, each one
    # synced to disk (synchronous=FULL), would take most of the time here.
    shm = Path("/dev/shm")
    folder = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() and os.access(shm, os.W_OK) \
        else tmp_path_factory.mktemp("fuzz")
    path = folder / "fuzz.sqlite3"
    app = create_app({"TESTING": True, "DATABASE": str(path)})
    client = app.test_client()
    ids = []
    for body in FIXED_GAMES:
        response = client.post("/api/games", json=body)
        assert response.status_code == 201
        ids.append(response.get_json()["id"])
    target = Target(path, client, ids)
    yield target
    # After the fuzzing: every game, the ones the fuzz made included.
    target.check_replay(list(target.snapshot()))
    target.reader.close()
    print(f"fuzz: {sum(FIGURES.values())} requests in this process, by status:",
          dict(sorted(FIGURES.items())))
    shutil.rmtree(folder, ignore_errors=True)


def check_response(target: Target, request: Request, response, before: dict) -> None:
    where = (request.method, request.path[:80], request.content_type, request.body[:80])
    assert response.status_code < 500, (where, response.data[:300])
    check_security_headers(response)
    assert b"Traceback" not in response.data
    after = target.snapshot()
    for game_id, (version, _) in after.items():
        assert version >= target.versions.get(game_id, 0), where  # versions only grow
        target.versions[game_id] = version
    if response.status_code >= 400:
        assert after == before, where  # a refused request applies nothing
        if request.path.startswith("/api/") and request.method != "HEAD":
            error = response.get_json(silent=True)
            assert isinstance(error, dict) and isinstance(error.get("error"), str) \
                and error["error"].strip(), (where, response.data[:300])
    changed = [g for g in after if after[g] != before.get(g)]
    assert len(changed) <= 1, where  # one request, one game
    target.check_replay(changed)
    check_key(target, request, response, changed)


KEYED = re.compile(r"/api/games(?:/([^/?#]+)/(?:events|undo))?")


def check_key(target: Target, request: Request, response, changed: list[str]) -> None:
    """A key already accepted on a game (or for a creation) applies nothing again."""
    key = request.headers.get("Idempotency-Key")
    match = KEYED.fullmatch(request.path)
    if key is None or match is None or request.method != "POST" or response.status_code >= 300:
        return
    scope = (match.group(1) or "new", key)
    if scope in target.used_keys:
        assert not changed, (request.path, key)
    elif changed:
        target.used_keys.add(scope)


SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                      HealthCheck.data_too_large])
# `make check` sends a quarter of them (FUZZ_API=500), `make test` all of them.
API_EXAMPLES = int(os.environ.get("FUZZ_API", 2000))


@settings(max_examples=API_EXAMPLES, **SETTINGS)
@given(request=REQUESTS)
def test_random_requests_never_break_the_app(target, request):
    request = request.resolve(target.game_ids)
    before = target.snapshot()
    check_response(target, request, target.send(request), before)


@settings(max_examples=120, **SETTINGS)
@given(game=st.integers(0, len(FIXED_GAMES) - 1), run=RUNS, data=st.data())
def test_runs_of_plausible_events_keep_every_invariant(target, game, run, data):
    """Longer runs on one game, so that accepted events and undos pile up."""
    game_id = target.game_ids[game]
    for end, body in run:
        key = data.draw(KEY_CHOICES)
        request = Request("POST", f"/api/games/{game_id}/{end}", body, "application/json",
                          {} if key is None else {"Idempotency-Key": key}, None)
        before = target.snapshot()
        check_response(target, request, target.send(request), before)
