"""The fuzz tests' app under fire: its store's snapshot before and after
each request, the checks that must hold after every request, and the
choices a plan makes before the store is looked at."""

import os
import re
import shutil
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, unquote

from hypothesis import strategies as st
from werkzeug.test import EnvironBuilder
from werkzeug.wrappers import Request as RawRequest

from scorekeeper import create_app
from scorekeeper.service import games
from scorekeeper.storage.db import connect
from support.fuzz_values import (
    MAX_BODY,
    MAX_FORM_PARTS,
    STATUSES,
    TALLY,
    hostile_text,
    usually,
)
from support.headers import check_security_headers
from support.page_forms import forms_of
from support.summaries import replayed_summary, stored_summary

# -- the app under fire ------------------------------------------------------------------------

GAME_FORM = re.compile(r"/games/([^/]+)/(play|undo|rematch|delete|restore|events/[^/]+/correct)")
ARGUMENT = re.compile(r"<(?:[a-z]+(?:\([^)]*\))?:)?(\w+)>")


@dataclass
class Snapshot:
    """Everything a request could change, read straight from the store."""

    games: dict[str, tuple]  # per game: its row, its log's shape, its side rows
    logs: dict[str, tuple]  # events per game id (rows of deleted games would stay here)
    others: tuple  # presets and settings

    def version(self, game_id: str) -> int:
        return self.games[game_id][0][1]

    def binned(self, game_id: str) -> bool:
        return self.games[game_id][0][2] is not None


@dataclass
class Site:
    path: Path
    app: object
    client: object  # keeps a session: CSRF token, flashed messages
    stranger: object  # keeps no cookie: for the GET fuzz's own Cookie headers
    csrf: str
    foreign_csrf: str  # a valid token of another session
    fixed: list[str]
    statics: list[str]
    routes: list[tuple[str, bool]]  # every rule of the url map, and whether it takes GET
    tokens: list[str] = field(default_factory=list)  # one-time tokens seen, to reuse
    documents: list[bytes] = field(default_factory=list)  # export documents, to import
    versions: dict = field(default_factory=dict)  # the highest version seen, per game
    visited: set = field(default_factory=set)  # the url map's rules the page fuzz requested
    serial: int = 0
    last: Snapshot | None = None

    def __post_init__(self):
        self.store = connect(str(self.path))

    def fresh_token(self) -> str:
        self.serial += 1
        return f"fuzz{self.serial}"

    def snapshot(self) -> Snapshot:
        query = self.store.execute
        logs = {row[0]: row[1:] for row in query(
            "SELECT game_id, count(*), max(seq), total(undone_by), count(idempotency_key)"
            " FROM events GROUP BY game_id")}
        sides = defaultdict(tuple)
        for row in query("SELECT * FROM game_sides ORDER BY game_id, side"):
            sides[row[0]] += (row,)
        rows = query("SELECT id, version, deleted_at, state, updated_at, finished, winner, hands,"
                     " event_count, last_event_at, creation_key FROM games")
        return Snapshot(
            {row[0]: (row, logs.get(row[0]), sides[row[0]]) for row in rows},
            logs,
            (tuple(query("SELECT * FROM presets ORDER BY id")),
             tuple(query("SELECT * FROM settings ORDER BY key"))),
        )

    def game_ids(self) -> list[str]:
        return sorted(self.last.games)

    def preset_ids(self) -> list[str]:
        return [row[0] for row in self.last.others[0]]

    def preset_names(self) -> list[str]:
        return ["appli", "classique"] + [row[1] for row in self.last.others[0]]

    def key_used(self, scope: str, key: str) -> bool:
        if scope == "new":
            sql, params = "SELECT 1 FROM games WHERE creation_key = ?", [key]
        else:
            sql, params = ("SELECT 1 FROM events WHERE game_id = ? AND idempotency_key = ?",
                           [scope, key])
        return self.store.execute(sql, params).fetchone() is not None

    def check_games(self, game_ids) -> None:
        """Each game's snapshot and summary rows are those of a replay of its log."""
        for game_id in game_ids:
            assert games.replay_log(self.store, game_id) == games.load(self.store, game_id).state
            assert stored_summary(self.store, game_id) == replayed_summary(self.store, game_id), \
                game_id

    def pop_flashes(self) -> list[tuple[str, str]]:
        with self.client.session_transaction() as session:
            return session.pop("_flashes", [])


def fuzzed_site(tmp_path_factory):
    """The app under fire, its store and its fixed games; checked whole when done
    (a generator: the `site` fixture of tests/web/conftest.py)."""
    # In memory when the system has a tmpfs: every accepted form is a commit
    # synced to disk (synchronous=FULL), which would take most of the time here.
    shm = Path("/dev/shm")
    folder = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() and os.access(shm, os.W_OK) \
        else tmp_path_factory.mktemp("fuzz_forms")
    path = folder / "fuzz.sqlite3"
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": True, "DATABASE": str(path)})
    client = app.test_client()
    fixed = [seed_game(client, body, events) for body, events in SEED_GAMES]
    csrf = token_of(client.get("/settings"), "csrf_token")
    foreign_csrf = token_of(app.test_client().get("/settings"), "csrf_token")
    assert csrf != foreign_csrf
    # A table preset and a game in the bin, through their forms.
    page = client.get("/settings/presets/new")
    fields = dict(forms_of(page.get_data(as_text=True))[-1].fields, name="Maison")
    assert client.post("/settings/presets/new", data=fields).status_code == 303
    page = client.get(f"/games/{fixed[-1]}/delete")
    fields = dict(forms_of(page.get_data(as_text=True))[-1].fields)
    assert client.post(f"/games/{fixed[-1]}/delete", data=fields).status_code == 303
    statics = sorted(p.name for p in Path(app.static_folder).iterdir())
    routes = sorted((rule.rule, "GET" in rule.methods) for rule in app.url_map.iter_rules())
    site = Site(path, app, client, app.test_client(use_cookies=False), csrf, foreign_csrf,
                fixed, statics, routes)
    site.pop_flashes()
    site.last = site.snapshot()
    site.check_games(site.game_ids())
    yield site
    # After the fuzzing: every game, the ones the fuzz made included.
    site.check_games(site.game_ids())
    site.store.close()
    print(f"\nfuzz pages and forms: {sum(STATUSES.values())} requests in this process, by status:",
          dict(sorted(STATUSES.items())), dict(sorted(TALLY.items())))
    shutil.rmtree(folder, ignore_errors=True)


SEED_GAMES = [
    ({"sides": ["Nous", "Eux"], "rules": {"target": 101}}, [
        {"type": "announce", "announcements": [{"side": 0, "kind": "ronda"}]},
        {"type": "hit", "side": 0, "value": 1}, {"type": "hit", "side": 1, "value": 5},
        {"type": "missa", "side": 0}, {"type": "adjust", "side": 1, "points": -2, "note": "x"},
    ]),
    ({"sides": ["A", "B", "C"], "players": 3, "rules": {"target": 101}}, [
        {"type": "hit", "side": 2, "value": 1}, {"type": "next_deal"},
    ]),
    ({"sides": ["Ali", "Omar"], "players": 4,
      "rules": {"preset": "classique", "target": 101, "hidden_ronda_penalty": 2,
                "dealer_last_trick": 2}}, [
        {"type": "announce", "announcements": [{"side": 0, "kind": "tringa"},
                                               {"side": 1, "kind": "tringa"}]},
    ]),
    ({"sides": ["X", "Y"], "rules": {"target": 11}}, [  # over: its result page, a rematch
        {"type": "adjust", "side": 0, "points": 11},
    ]),
    ({"sides": ["P", "Q"], "rules": {"target": 21}}, []),  # goes to the bin
]


def seed_game(client, body, events) -> str:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    game_id = response.get_json()["id"]
    for event in events:
        answer = client.post(f"/api/games/{game_id}/events", json=event)
        assert answer.status_code == 200, answer.get_json()
    return game_id


def token_of(response, name: str) -> str:
    for form in forms_of(response.get_data(as_text=True)):
        for field_name, value in form.fields:
            if field_name == name:
                return value
    raise AssertionError(f"no {name} on the page")


# -- one request, and what must hold after it ----------------------------------------------------

@dataclass
class Request:
    method: str
    path: str
    query: str = ""  # the WSGI QUERY_STRING: percent-encoded, or raw bytes as latin-1
    body: bytes = b""
    content_type: str | None = None
    headers: dict = field(default_factory=dict)
    remote_addr: str = "127.0.0.1"


def parsed_form(request: Request):
    """The form data as the app will read it (first values count), or None."""
    raw = RawRequest(EnvironBuilder(method="POST", data=request.body,
                                    content_type=request.content_type).get_environ())
    raw.max_content_length, raw.max_form_parts = MAX_BODY, MAX_FORM_PARTS
    try:
        return raw.form
    except Exception:  # too large: the app answers 413 before any view
        return None


def view_key(request: Request) -> tuple[str, str, str] | None:
    """(scope, Idempotency-Key, one-time token) the view would record this form with."""
    form = parsed_form(request) if request.method == "POST" else None
    if not form or "token" not in form:
        return None
    token = form["token"]
    if request.path == "/games/new":
        return "new", f"new:{token}", token
    match = GAME_FORM.fullmatch(request.path)
    if match is None:
        return None
    game_id, action = unquote(match.group(1)), match.group(2)
    if action == "play":
        return game_id, f"form:{token}:{form.get('move')}", token
    if action == "undo":
        return game_id, f"form:{token}:undo", token
    if action == "rematch":  # one rematch per game, whoever asks (games.rematch_key)
        return "new", f"rematch:{game_id}", token
    if action.startswith("events/"):
        return game_id, f"form:{token}:correct", token
    return None


def send(site: Site, request: Request, client=None):
    """Send, then check everything that must hold; returns the response and
    whether the request was accepted and changed something."""
    client = client or site.client
    before = site.last
    key = view_key(request)
    used = key is not None and site.key_used(*key[:2])
    response = client.open(
        request.path, method=request.method, data=request.body,
        content_type=request.content_type, headers=request.headers,
        environ_overrides={"QUERY_STRING": request.query, "REMOTE_ADDR": request.remote_addr},
    )
    STATUSES[response.status_code] += 1
    flashes = site.pop_flashes() if client is site.client else []
    where = (request.method, request.path[:100], request.query[:100], request.body[:200])
    assert response.status_code < 500, (where, response.data[:500])
    assert b"Traceback" not in response.data, where
    check_security_headers(response)

    after = site.last = site.snapshot()
    for game_id in after.games:  # versions never go down
        assert after.version(game_id) >= site.versions.get(game_id, 0), (where, game_id)
        site.versions[game_id] = after.version(game_id)
    refused = response.status_code >= 400 or any(kind == "error" for kind, _ in flashes)
    changed = after != before
    if request.method in ("GET", "HEAD", "OPTIONS") or refused or used:
        assert not changed, (where, response.status_code, flashes, used)
    if used and not refused:
        TALLY["used token sent again, nothing applied"] += 1
    if not changed:
        return response, False
    TALLY["accepted, changed the store"] += 1
    modified = {g for g in after.games if g in before.games and after.games[g] != before.games[g]}
    added = set(after.games) - set(before.games)
    removed = set(before.games) - set(after.games)
    match = GAME_FORM.fullmatch(request.path)
    own = {unquote(match.group(1))} if match and match.group(2) != "rematch" else set()
    assert modified <= own, (where, modified)  # a game form changes its own game only
    if added:
        assert request.path in ("/games/new", "/games/import") or \
            (match and match.group(2) == "rematch"), where
    if removed:
        assert request.path == "/games/bin/empty", where
        assert all(before.binned(game_id) for game_id in removed), where
        for game_id in removed:  # gone for good: an import may bring it back
            site.versions.pop(game_id, None)
    site.check_games(modified | added)
    if key is not None:
        site.tokens.append(key[2])
    return response, True


# -- choices made before the store is looked at ----------------------------------------------------
#
# Hypothesis requires that the same choices draw the same way every time, so
# every draw happens up front, in a plan; ids, versions and buttons are then
# picked from the store and the pages as they are when the plan is sent.

picks = st.integers(0, 2**16)
BOGUS_IDS = ["", "..", ".", "%00", "a" * 5000, "new", "bin", "export.json", "ü", "abc/def",
             "../../etc/passwd", "nosuchgame1", "\ud800", "1" * 30, "0", "-1", "10" * 12]
bogus = st.one_of(st.sampled_from(BOGUS_IDS), hostile_text)


def pick(options: list, index: int, default=None):
    return options[index % len(options)] if options else default


@dataclass(frozen=True)
class Choice:
    """The ids a request names: a game, and one of its events, a preset or a
    static file; the store's own, or bogus."""

    kind: str  # "fixed" (a seeded game while it lasts), "any", "bogus game", "bogus other"
    index: int
    bogus: str = ""


choices = usually(
    st.builds(Choice, st.sampled_from(["fixed", "fixed", "any"]), picks),
    st.builds(Choice, st.sampled_from(["bogus game", "bogus other"]), picks, bogus),
)


@dataclass(frozen=True)
class Ref:
    """A field's value taken from the store when sent: the game's version, a preset's name."""

    what: str
    index: int = 0


def game_of(site: Site, choice: Choice) -> str:
    if choice.kind == "bogus game":
        return choice.bogus
    fixed = [g for g in site.fixed if g in site.last.games]
    return pick(fixed if choice.kind == "fixed" and fixed else site.game_ids(), choice.index,
                "nosuchgame1")


def seq_of(site: Site, game_id: str, choice: Choice) -> str:
    if choice.kind == "bogus other":
        return choice.bogus
    top = site.last.version(game_id) if game_id in site.last.games else 3
    return str(1 + choice.index % max(1, top))


def preset_of(site: Site, choice: Choice) -> str:
    return choice.bogus if choice.kind == "bogus other" else \
        pick(site.preset_ids(), choice.index, "nosuchpreset")


def static_of(site: Site, choice: Choice) -> str:
    return choice.bogus if choice.kind == "bogus other" else pick(site.statics, choice.index)


def resolved(site: Site, game_id: str, value):
    if not isinstance(value, Ref):
        return value
    if value.what == "version":
        return str(site.last.version(game_id)) if game_id in site.last.games else "0"
    return pick(site.preset_names(), value.index)


def segment(value: str, safe: str = "") -> str:
    return quote(value.encode("utf-8", "surrogatepass"), safe=safe)


