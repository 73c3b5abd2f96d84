"""Hostile input on the HTML side (issue 6): every page and every form.

`test_fuzz.py` fuzzes the JSON API; this file sends a browser's kind of
requests, and worse, with CSRF on:

- every route of `app.url_map`, mostly GET, with random query strings: the
  parameters the views read with random and malformed values, extra ones,
  repeated ones, bad ids, huge values, unicode, lone surrogates and bytes
  that are not UTF-8 (percent-encoded, and raw as a hostile client may send
  them), random headers;
- every form POST: either a button of a real page pressed (with the page's
  CSRF token and one-time token), or a form built from scratch; the tokens
  real, missing, wrong, from another session, or reused across forms and
  games; fields missing, repeated, junk; bodies near and over 64 KiB; a
  double tap now and then.

After every request: no 5xx, no traceback, the security headers. A GET
changed nothing. A refused POST (4xx, or a redirect that flashes an error)
changed nothing. A POST whose one-time token was already used by an accepted
request changed nothing. No version went down. A game form changed no game
but its own; only the new game, rematch and import forms add games, only
emptying the bin removes them (and only binned ones). Every game that changed
has its stored snapshot equal to `games.replay_log` and its summary rows
(issue 4) equal to a replay's; at the end, every game is checked again.
"""

import dataclasses
import json
import os
import re
import shutil
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, unquote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.test import EnvironBuilder
from werkzeug.wrappers import Request as RawRequest

from scorekeeper import create_app
from scorekeeper.service import games
from scorekeeper.storage.db import connect
from scorekeeper.engine import RULE_KEYS
from scorekeeper.engine.events import KINDS, LAST_TRICK_OUTCOMES
from scorekeeper.engine.houserules import rule_form

from page_forms import forms_of, press
from test_security import check_security_headers
from test_summaries import replayed_summary, stored_summary

MAX_BODY = 64 * 1024
MAX_FORM_PARTS = 1000  # Flask's default MAX_FORM_PARTS
FORM = "application/x-www-form-urlencoded"
# FUZZ_PAGES=5000 FUZZ_FORMS=5000 for a longer hunt (a few minutes).
PAGE_EXAMPLES = int(os.environ.get("FUZZ_PAGES", 1000))
FORM_EXAMPLES = int(os.environ.get("FUZZ_FORMS", 600))
SETTINGS = dict(deadline=None, suppress_health_check=list(HealthCheck))
STATUSES = Counter()  # every answer of this process, by status
TALLY = Counter()  # what the fuzz did: requests by kind, accepted changes, repeats

# -- values ------------------------------------------------------------------------------------

ODD_TEXTS = [
    "", " ", "  1 ", "-1", "0", "00", "007", "1.5", "1e9", "0x1f", "+3", "²", "١٢", "٣", "𝟙",
    "Ⅻ", "½", "NaN", "None", "null", "true", "[]", "{}", "9" * 5000, "1" * 30, "-" * 3,
    "\x00", "a\x00b", "\t\n", "\r\n", "<b>x</b>", "\"'><script>", "%", "%zz", "%00", "../..",
    "a" * 300, "\ufeff", "\u202e", "\ud800", "\udfff", "x\udc80y", "🂡", "ﷺ", "ronda", "0-ronda",
    "hit.0.5",
]
surrogates = st.characters(categories=["Cs"])
odd_text = st.one_of(
    st.sampled_from(ODD_TEXTS),
    st.text(max_size=20),
    st.lists(st.one_of(st.characters(), surrogates), max_size=8).map("".join),
    st.integers(-(10**6), 10**6).map(str),
    st.integers(-(10**40), 10**40).map(str),
)
huge_text = st.builds(lambda text, size: text * size, st.text(min_size=1, max_size=3),
                      st.integers(50, 4000))
hostile_text = st.integers(0, 19).flatmap(lambda n: odd_text if n else huge_text)
# A value is text (sent as UTF-8, lone surrogates included) or bytes (sent as
# they are: mostly not UTF-8 at all).
hostile = st.one_of(hostile_text, hostile_text, st.binary(min_size=1, max_size=12))


def usually(common, rare):
    """`common` three times in four, else `rare`."""
    return st.integers(0, 3).flatmap(lambda n: common if n else rare)


def maybe(strategy):
    return usually(strategy, hostile)


def encode(value: str | bytes) -> str:
    raw = value if isinstance(value, bytes) else value.encode("utf-8", "surrogatepass")
    return quote(raw, safe="")


def urlencoded(pairs) -> bytes:
    return "&".join(f"{encode(k)}={encode(v)}" for k, v in pairs).encode("ascii")


def multipart(pairs, files=()) -> tuple[bytes, str]:
    """A multipart/form-data body (by hand: lone surrogates and raw bytes
    cannot go through the test client's own encoder)."""
    boundary = "fuzzboundary7f3a"
    out = b""
    for name, value in pairs:
        out += (f'--{boundary}\r\nContent-Disposition: form-data; name="{encode(name)}"'
                f"\r\n\r\n").encode()
        out += (value if isinstance(value, bytes) else value.encode("utf-8", "surrogatepass"))
        out += b"\r\n"
    for name, filename, content in files:
        out += (f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
                f'filename="{encode(filename)}"\r\nContent-Type: application/json'
                f"\r\n\r\n").encode() + content + b"\r\n"
    return out + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


sides = usually(st.sampled_from(["0", "1", "2"]),
                st.sampled_from(["3", "-1", "01", " 1", "²", "١", "x", "", "9" * 5000, "1.0"]))
counts = usually(st.integers(0, 40).map(str), st.sampled_from(["-1", "41", "", "x", "²", "1e1"]))
ranks = usually(st.sampled_from(["1", "2", "3", "4", "5", "6", "7", "10", "11", "12"]),
                st.sampled_from(["0", "8", "13", "", "x", "١٠"]))
points = usually(st.integers(-50, 50).map(str), st.sampled_from(["0", "51", "-51", "", "1.0"]))
versions = st.integers(-2, 80).map(str)
names = usually(st.sampled_from(["Nous", "Eux", "A", "B", "C", "Ali", " nous ", "X", "Maison"]),
                hostile_text)
kinds = st.sampled_from(list(KINDS) + ["", "x", "Ronda"])
draft_values = st.builds(lambda side, kind: f"{side}-{kind}", sides, kinds)
moves = st.one_of(
    st.builds(lambda side, value: f"hit.{side}.{value}", sides,
              st.sampled_from(["1", "5", "10", "6", "15", "0", "05", "x"])),
    st.builds(lambda kind, side: f"{kind}.{side}", st.sampled_from(["missa", "hidden_ronda"]),
              sides),
    st.sampled_from(["chain_end", "next_deal", "announce", "reveal", "end_hand", "adjust",
                     "rematch", "undo", "correct", "hit", "hit.0", "hit.0.5.1", "missa",
                     "missa.0.1", ".", "..", "hit..", "announce.0", "last_trick", "last_trick.x",
                     "HIT.0.1"]),
    st.sampled_from(LAST_TRICK_OUTCOMES).map(lambda outcome: f"last_trick.{outcome}"),
    hostile_text,
)


def _rule_values(key: str) -> st.SearchStrategy:
    spec = rule_form(key)
    if spec["kind"] == "whole":
        return usually(st.integers(spec["low"] - 2, spec["high"] + 2).map(str),
                       st.sampled_from(["", "x", "1.0", "9" * 50, "²"]))
    if spec["kind"] == "switch":
        return st.sampled_from(["y", "1", "0", "", "false"])
    if spec["kind"] == "hits":
        return st.sampled_from(["1-5-10", "1-6-15", "1-5", "1-5-10-20", "x", ""])
    return usually(st.sampled_from(spec["choices"]), st.sampled_from(["", "x", "Immediate"]))


RULE_VALUES = {key: _rule_values(key) for key in RULE_KEYS}


@st.composite
def rule_fields(draw) -> list[tuple[str, str]]:
    pairs = []
    for key in RULE_KEYS:
        if rule_form(key)["kind"] == "switch" and key != "four_card_first_deal" \
                and draw(st.booleans()):
            continue  # an unchecked box sends nothing
        if draw(st.integers(0, 63)):  # now and then a field is missing
            pairs.append(("rule_" + key, draw(RULE_VALUES[key])))
    return pairs


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


@pytest.fixture(scope="module")
def site(tmp_path_factory):
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


# -- the GET fuzz: every route of the url map ----------------------------------------------------

QUERY_VALUES = {
    "sheet": st.sampled_from(["end", "more", "ranks", "rules", "x", ""]),
    "cards0": counts, "cards1": counts, "cards2": counts,
    "a": st.one_of(draft_values, names), "b": names, "name": names,
    "lang": st.sampled_from(["fr", "ar", "en", "de", "AR", ""]),
    "key": st.text("abcdefghjkmnpqrstuvwxyz23456789", min_size=12, max_size=12),
    "page": st.integers(-1, 4).map(str),
    "preset": st.sampled_from(["appli", "classique", "Maison", "maison", "x"]),
    "from": st.sampled_from(["appli", "classique", "Maison", "x"]),
    "name0": names, "name1": names, "name2": names,
    "players": st.integers(0, 5).map(str), "first_dealer": st.integers(-1, 3).map(str),
    "move": moves, "token": st.text(max_size=12), "expected_version": versions,
}
QUERY_PARAMETERS = {name: maybe(values) for name, values in QUERY_VALUES.items()}
# What a server takes as the end of a request line's target, or of the query.
REQUEST_LINE_ENDS = str.maketrans("", "", "\r\n &#")
query_names = usually(st.sampled_from(list(QUERY_VALUES)), hostile_text)
HEADER_FIELDS = st.fixed_dictionaries({}, optional={
    "X-Board": st.sampled_from(["1", "0", "yes"]),
    "Accept-Language": st.sampled_from(["ar", "en;q=0.5, fr", "*", "zz-ZZ", "q=;;", "fr;q=x"]),
    "Cookie": st.sampled_from(["lang=ar", "lang=xx", "session=garbage", "ronda_access=x",
                               "lang=en; lang=ar", "=", "session="]),
    "Accept-Encoding": st.sampled_from(["gzip", "gzip;q=0", "br, *", "identity"]),
    "If-None-Match": st.sampled_from(['"x"', "*", 'W/"abc"']),
    "Range": st.sampled_from(["bytes=0-1", "bytes=-5", "lines=1"]),
})
HEADERS = usually(st.sampled_from([{}, {}, {}, {"X-Board": "1"}, {"Cookie": "lang=ar"},
                                   {"Accept-Encoding": "gzip"}]), HEADER_FIELDS)
METHODS = ["GET"] * 8 + ["HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH", "TRACE"]
REMOTE_ADDRS = st.integers(0, 7).flatmap(lambda n: st.just("127.0.0.1") if n else st.sampled_from(
    ["::1", "::ffff:127.0.0.1", "192.168.1.20", "10.0.0.7", "bogus", ""]))


@st.composite
def query_strings(draw) -> str:
    pairs = draw(st.lists(query_names, max_size=6))
    pairs = [(name, draw(QUERY_PARAMETERS.get(name, hostile))) for name in pairs]
    query = "&".join(f"{encode(k)}={encode(v)}" for k, v in pairs)
    style = draw(st.integers(0, 9))
    if style == 0:  # raw bytes, not percent-encoded (browsers encode; a script need not)
        raw = draw(st.binary(min_size=1, max_size=10))
        name = draw(st.sampled_from(list(QUERY_VALUES)))
        query += f"&{name}=" + raw.decode("latin-1").translate(REQUEST_LINE_ENDS)
    elif style == 1:  # no "=", stray separators, a lone "%"
        query += draw(st.sampled_from(["&&", "&=", "a", "%", "=%zz", "&a=1=2", ";x=1", "%%%"]))
    elif style == 2:  # huge
        query += "&name=" + "x" * draw(st.integers(40, 20_000))
    return query


@dataclass(frozen=True)
class PagePlan:
    route: str  # a rule of the url map
    method: str
    ids: Choice
    raw_slashes: bool  # traversal attempts: "/" left as it is in the ids
    query: str
    headers: dict
    remote_addr: str


def page_plans(routes: list[tuple[str, bool]]) -> st.SearchStrategy[PagePlan]:
    """Plans for the app's routes (the same list all along): those that take GET mostly."""
    return st.builds(
        PagePlan,
        usually(st.sampled_from([rule for rule, get in routes if get]),
                st.sampled_from([rule for rule, _ in routes])),
        usually(st.just("GET"), st.sampled_from(METHODS)), choices,
        st.integers(0, 3).map(lambda n: n == 0), query_strings(), HEADERS, REMOTE_ADDRS,
    )


# Each route once for sure, before the random ones: the store's first ids, and
# in the query what broke pages before (issue 6): digits int() refuses, raw
# bytes that are not UTF-8, a value past int()'s 4,300 digits.
SWEEP = PagePlan("", "GET", Choice("fixed", 0), False,
                 "a=%C2%B2-ronda&sheet=end&cards0=%C2%B2&page=%C2%B2&lang=\xff&\xfe=1&cards1="
                 + "9" * 5000, {}, "127.0.0.1")


def page_request(site: Site, plan: PagePlan) -> Request:
    rule = plan.route
    site.visited.add(rule)
    game_id = game_of(site, plan.ids)
    values = {
        "game_id": game_id, "seq": seq_of(site, game_id, plan.ids),
        "preset_id": preset_of(site, plan.ids), "filename": static_of(site, plan.ids),
    }
    safe = "/" if plan.raw_slashes else ""
    # An argument a future route adds gets a bogus value.
    path = ARGUMENT.sub(lambda m: segment(values.get(m.group(1), "x\ud800"), safe), rule)
    return Request(plan.method, path, plan.query, headers=plan.headers,
                   remote_addr=plan.remote_addr)


def test_every_page_takes_hostile_query_strings(site):
    @settings(max_examples=PAGE_EXAMPLES, **SETTINGS)
    @given(plan=page_plans(site.routes))
    def fuzz(plan):
        TALLY["pages fuzzed"] += 1
        send(site, page_request(site, plan), client=site.stranger)

    for rule, _ in site.routes:
        TALLY["pages fuzzed"] += 1
        send(site, page_request(site, dataclasses.replace(SWEEP, route=rule)), client=site.stranger)
    fuzz()
    print(f"\nfuzz pages: {TALLY['pages fuzzed']} requests on {len(site.visited)} routes")
    assert site.visited == {rule for rule, _ in site.routes}  # every route of the url map


# -- the form fuzz -------------------------------------------------------------------------------

BOARD_PAGES = [
    "", "?sheet=more", "?sheet=end", "?sheet=ranks", "?sheet=rules", "?a=0-ronda",
    "?a=0-tringa&a=1-tringa", "?a=1-ronda&a=0-double_ronda", "?sheet=end&cards0=30",
    "?sheet=end&cards0=5&cards1=5", "?sheet=end&cards0=0",
]
OTHER_PAGES = [
    "/games/{game}/review", "/games/{game}/delete", "/games/{game}/events/{seq}/correct",
    "/games/bin", "/games/bin/empty", "/games/new", "/games/new?preset=classique", "/settings",
    "/settings/presets/new", "/settings/presets/new?from=Maison", "/settings/presets/{preset}",
    "/settings/presets/{preset}/delete", "/games/import",
]
pages = usually(st.sampled_from(BOARD_PAGES).map(lambda query: "/games/{game}" + query),
                st.sampled_from(OTHER_PAGES))
version_refs = usually(st.just(Ref("version")), versions)
preset_refs = maybe(picks.map(lambda index: Ref("preset", index)))
notes = maybe(st.text(max_size=210))
play_fields = st.fixed_dictionaries({}, optional={
    "side": sides, "points": points, "note": notes, "rank0": ranks, "rank1": ranks,
    "rank2": ranks, "cards0": counts, "cards1": counts,
    "back": st.sampled_from(["", "sheet=end&cards0=3", "a=0-ronda", "x=<", "?" * 301]),
})
correct_fields = st.fixed_dictionaries({}, optional={
    "side": sides, "value": st.sampled_from(["1", "5", "10", "6", "x"]), "points": points,
    "note": notes, "last_card": st.sampled_from(["1", "0", ""]),
    "outcome": st.sampled_from(list(LAST_TRICK_OUTCOMES) + ["x"]), "cards0": counts,
    "cards1": counts, "rank0": ranks, "rank1": ranks, "rank2": ranks, "a0_side": sides,
    "a0_kind": kinds, "a1_side": sides, "a1_kind": kinds,
})
actions = usually(st.sampled_from(["change", "remove", "restore"]), hostile)
players = usually(st.sampled_from(["2", "3", "4"]), st.sampled_from(["1", "5", ""]))
dealers = usually(st.sampled_from(["0", "1", "2"]), st.just("3"))


@st.composite
def built_forms(draw) -> tuple[str, list]:
    """A form put together from scratch: its path ("{game}" and the like
    stand for ids) and fields (a Ref stands for a value from the store)."""
    kind = draw(st.sampled_from(
        ["play"] * 6 + ["undo"] * 2 + ["correct"] * 2 + ["new"] * 2
        + ["rematch", "delete", "restore", "empty", "default", "preset", "edit", "unpreset"]))
    if kind == "play":
        extra = draw(play_fields)
        drafts = [("a", value) for value in draw(st.lists(draft_values, max_size=5))]
        return "/games/{game}/play", [("move", draw(moves))] + list(extra.items()) + drafts
    if kind == "undo":
        return "/games/{game}/undo", [("expected_version", draw(version_refs))]
    if kind == "correct":
        extra = draw(correct_fields)
        return "/games/{game}/events/{seq}/correct", [
            ("action", draw(actions)), ("expected_version", draw(version_refs)),
        ] + list(extra.items())
    if kind == "new":
        return "/games/new", [
            ("players", draw(players)),
            ("name0", draw(names)), ("name1", draw(names)), ("name2", draw(names)),
            ("preset", draw(preset_refs)), ("first_dealer", draw(dealers)),
        ] + draw(rule_fields())
    if kind == "rematch":
        return "/games/{game}/rematch", [("move", "rematch")]
    if kind in ("delete", "restore"):
        return "/games/{game}/" + kind, []
    if kind == "empty":
        return "/games/bin/empty", []
    if kind == "default":
        return "/settings/default", [("preset", draw(preset_refs))]
    if kind in ("preset", "edit"):
        path = "/settings/presets/new" if kind == "preset" else "/settings/presets/{preset}"
        return path, [("name", draw(names))] + draw(rule_fields())
    return "/settings/presets/{preset}/delete", []


@dataclass(frozen=True)
class Mutation:
    what: str
    index: int
    value: str | bytes
    name: str
    size: int  # for "pad": the body's size
    parts: int  # for "parts": how many fields to add


mutations = st.builds(
    Mutation,
    st.sampled_from(["drop", "junk", "junk", "repeat", "extra", "move", "pad", "pad", "parts"]),
    picks, hostile, query_names,
    st.sampled_from([-200, -1, 0, 1, 200]).map(lambda delta: MAX_BODY + delta),
    st.sampled_from([10, 999, 1001]),
)


@dataclass(frozen=True)
class ImportPlan:
    refresh: bool  # export a game first (a GET), to import it
    how: str
    document: int
    filename: str
    target: str
    name: int
    value: object


import_plans = st.builds(
    ImportPlan, st.integers(0, 3).map(lambda n: n == 0),
    st.sampled_from(["same", "new", "new", "junk", "bytes", "none", "field"]), picks,
    st.sampled_from(["export.json", "", "../x.json", "\u00e9.json"]),
    st.sampled_from(["game", "result", "log", "rules"]), picks,
    st.one_of(st.none(), st.integers(-3, 50), st.text(max_size=8), st.just([]),
              st.binary(max_size=300)),
)


@dataclass
class FormPlan:
    clean: bool  # the form as the page or a browser sends it: the keys, the encoding, POST
    from_page: bool
    page: str
    ids: Choice
    form: int
    button: int
    enabled: bool  # an enabled button (the others are what a hostile client presses)
    fill: dict  # what a person types in the fields a page leaves empty
    built: tuple[str, list]
    csrf: str
    token: str
    reuse: int
    mutations: list[Mutation]
    encoding: str
    method: str
    headers: dict
    imports: ImportPlan
    import_anyway: bool
    double_tap: bool


form_plans = st.builds(
    FormPlan,
    clean=st.booleans(),
    from_page=st.integers(0, 4).map(lambda n: n >= 2),
    page=pages, ids=choices, form=picks, button=picks,
    enabled=usually(st.just(True), st.just(False)),
    fill=st.fixed_dictionaries({"points": points}),
    built=built_forms(),
    csrf=usually(st.just("keep"), st.sampled_from(
        ["none", "empty", "wrong", "foreign", "tampered", "twice"])),
    token=usually(st.just("keep"), st.sampled_from(
        ["reuse", "reuse", "reuse", "none", "empty", "blank", "long", "unicode", "twice"])),
    reuse=picks,
    mutations=st.lists(mutations, min_size=1, max_size=3),
    encoding=st.sampled_from(["form"] * 8 + ["multipart"]
                             + [None, "text/plain", "application/json",
                                FORM + "; charset=latin-1", "x/y"]),
    method=usually(st.just("POST"), st.sampled_from(METHODS)),
    headers=st.fixed_dictionaries({}, optional={
        "X-Board": st.just("1"), "Accept-Language": st.sampled_from(["ar", "en"])}),
    imports=import_plans,
    import_anyway=st.integers(0, 19).map(lambda n: n == 0),
    double_tap=st.integers(0, 2).map(lambda n: n == 0),
)


def from_page(site: Site, plan: FormPlan, game_id: str):
    """Load a page (itself a checked request) and press one of its buttons:
    (path, fields) with the page's CSRF and one-time tokens, or None if the
    page has no form to post."""
    page = plan.page.format(game=segment(game_id), seq=segment(seq_of(site, game_id, plan.ids)),
                            preset=segment(preset_of(site, plan.ids)))
    path, _, query = page.partition("?")
    response, _ = send(site, Request("GET", path, query))
    TALLY["pages loaded for their forms"] += 1
    forms = [f for f in forms_of(response.get_data(as_text=True)) if f.method == "post"]
    if not forms:
        return None
    form = pick(forms, plan.form)
    enabled = [b for b in form.buttons if not b.disabled]
    button = pick(enabled if plan.enabled and enabled else form.buttons, plan.button)
    fields = [(name, value or plan.fill.get(name, "")) for name, value in form.fields]
    if button is not None and button.name:
        fields.append((button.name, button.value))
    site.tokens += [value for name, value in fields if name == "token"]
    return form.action or path, fields


def built_request(site: Site, plan: FormPlan, game_id: str):
    template, fields = plan.built
    path = template.format(game=segment(game_id), seq=segment(seq_of(site, game_id, plan.ids)),
                           preset=segment(preset_of(site, plan.ids)))
    keys = [("csrf_token", site.csrf), ("token", site.fresh_token())]
    return path, keys + [(name, resolved(site, game_id, value)) for name, value in fields]


def with_keys(site: Site, plan: FormPlan, fields):
    """The CSRF token and the one-time token as they came, or not."""
    reused = pick(site.tokens[-200:], plan.reuse)
    out = []
    for name, value in fields:
        if name == "csrf_token":
            if plan.csrf == "twice":  # the first one counts
                out.append((name, pick([site.foreign_csrf, "x"], plan.reuse)))
            value = {"empty": "", "wrong": "IjAwMDAi.abc.def", "foreign": site.foreign_csrf,
                     "tampered": value[:-2] + "xx", "none": None}.get(plan.csrf, value)
        elif name == "token":
            if plan.token == "twice" and reused is not None:
                out.append((name, reused))
            elif plan.token == "reuse" and reused is not None:
                value = reused
            value = {"none": None, "empty": "", "blank": "  ", "long": "t" * 101,
                     "unicode": "jeton\u00e9\ud800"}.get(plan.token, value)
        if value is not None:
            out.append((name, value))
    return out


def mutated(plan: FormPlan, fields):
    """Fields dropped, changed to junk, repeated, added, or the body padded."""
    fields = list(fields)
    for m in plan.mutations:
        index = m.index % len(fields) if fields else 0
        if m.what == "drop" and fields:
            del fields[index]
        elif m.what == "junk" and fields:
            fields[index] = (fields[index][0], m.value)
        elif m.what == "repeat" and fields:
            fields.insert(index if m.index % 2 else len(fields), (fields[index][0], m.value))
        elif m.what == "extra":
            fields.append((m.name, m.value))
        elif m.what == "move":
            fields = [f for f in fields if f[0] != "move"] + [("move", m.value)]
        elif m.what == "pad":  # a body just under, at, or over 64 KiB
            name = pick(["note", "name0", "pad"], m.index)
            room = m.size - len(urlencoded(fields)) - len(f"&{name}=")
            if room > 0:
                fields.append((name, "x" * room))
        elif m.what == "parts":  # more fields than a form may hold
            fields += [("a", "0-ronda")] * m.parts
    return fields


def import_request(site: Site, plan: ImportPlan, game_id: str, fields) -> Request:
    """The import form: an export document, reworked or not, or junk."""
    if plan.refresh or not site.documents:
        response, _ = send(site, Request("GET", f"/games/{segment(game_id)}/export.json"))
        if response.status_code == 200:
            site.documents = (site.documents + [response.data])[-5:]
    content = pick(site.documents, plan.document, b"{}")
    if plan.how in ("new", "junk") and site.documents:
        document = json.loads(content)
        for game in document["games"]:
            game["id"], game["creation_key"] = site.fresh_token() + "xxxx", None
            if plan.how == "junk":
                where = game if plan.target == "game" else game[plan.target]
                if isinstance(where, list):
                    where = where[-1] if where else game
                value = plan.value if not isinstance(plan.value, bytes) else None
                where[pick(sorted(where), plan.name)] = value
        content = json.dumps(document).encode()
    elif plan.how == "bytes":
        content = plan.value if isinstance(plan.value, bytes) else b"\xff\xfe"
    files = [] if plan.how in ("none", "field") else [("file", plan.filename, content)]
    if plan.how == "field":
        fields = fields + [("file", content)]
    body, content_type = multipart(fields, files)
    return Request("POST", "/games/import", body=body, content_type=content_type)


def form_request(site: Site, plan: FormPlan) -> Request:
    game_id = game_of(site, plan.ids)
    found = from_page(site, plan, game_id) if plan.from_page else None
    path, fields = found or built_request(site, plan, game_id)
    if not plan.clean:
        fields = mutated(plan, with_keys(site, plan, fields))
    if path == "/games/import" or (found is None and plan.import_anyway):
        return import_request(site, plan.imports, game_id, [f for f in fields if f[0] != "file"])
    request = Request("POST" if plan.clean else plan.method, path, headers=plan.headers)
    if plan.encoding == "multipart" and not plan.clean:
        request.body, request.content_type = multipart(fields)
    else:
        request.body = urlencoded(fields)
        request.content_type = FORM if plan.encoding == "form" or plan.clean else plan.encoding
    return request


def test_every_form_takes_hostile_posts(site):
    @settings(max_examples=FORM_EXAMPLES, **SETTINGS)
    @given(plan=form_plans)
    def fuzz(plan):
        request = form_request(site, plan)
        TALLY["forms posted"] += 1
        if len(request.body) >= MAX_BODY - 256:
            TALLY["bodies near or over 64 KiB"] += 1
        _, accepted = send(site, request)
        if accepted and plan.double_tap and view_key(request) is not None:
            TALLY["double taps"] += 1
            assert site.key_used(*view_key(request)[:2])  # an accepted form keeps its token
            send(site, request)  # the same form again: its token is used, nothing applies

    fuzz()
    print(f"\nfuzz forms: {TALLY['forms posted']} forms posted, "
          f"{TALLY['accepted, changed the store']} accepted, "
          f"{TALLY['used token sent again, nothing applied']} with a used token")
    # The fuzz reached the views: forms were accepted, used tokens came back to them.
    assert TALLY["accepted, changed the store"] >= FORM_EXAMPLES // 20
    assert TALLY["used token sent again, nothing applied"] >= FORM_EXAMPLES // 50


# -- what the fuzz found -------------------------------------------------------------------------

def test_raw_bytes_in_a_query_string_stay_percent_encoded(app, client):
    """A script may send bytes that are not UTF-8 in the request line:
    werkzeug's own `args` failed on them, on every page and its error page."""
    with app.test_request_context(
            "/", environ_overrides={"QUERY_STRING": "name=\xff&lang=ar&x=%FF\xe9"}):
        from flask import request

        assert request.args.to_dict() == {"name": "%FF", "lang": "ar", "x": "%FF%E9"}
    game_id = client.post("/api/games", json={"sides": ["A", "B"]}).get_json()["id"]
    for path, query in [("/", "lang=ar&x=\xff"), ("/games", "name=\xff"),
                        (f"/games/{game_id}", "sheet=end&\xff=\xfe"), ("/nowhere", "\xff")]:
        response = client.get(path, environ_overrides={"QUERY_STRING": query})
        assert response.status_code == (404 if path == "/nowhere" else 200), path
    page = client.get("/", environ_overrides={"QUERY_STRING": "lang=ar&x=\xff"})
    assert b'lang="ar"' in page.data


def test_digits_that_int_refuses_are_no_draft_and_no_count(client):
    """str.isdigit() is true for "²" and for 5,000 nines, which int() refuses."""
    game_id = client.post("/api/games", json={"sides": ["A", "B"]}).get_json()["id"]
    for query in ["a=%C2%B2-ronda", "a=" + "9" * 5000 + "-ronda", "sheet=end&cards0=%C2%B2",
                  "sheet=end&cards0=" + "9" * 5000, "sheet=end&cards0=%D9%A1%D9%A2"]:
        response = client.get(f"/games/{game_id}?{query}")
        assert response.status_code == 200, query
    for query, count in [("%C2%B2", ""), ("%D9%A1%D9%A2", "12")]:  # ², Arabic-Indic 12
        page = client.get(f"/games/{game_id}?sheet=end&cards0={query}").get_data(as_text=True)
        assert ("cards0", count) in [f for form in forms_of(page) for f in form.fields]
    # The draft strip's Confirm, its announcement changed to "²-ronda": an empty draft, refused.
    response = press(client, f"/games/{game_id}?a=0-ronda", "announce", extra={"a": "²-ronda"})
    assert response.status_code == 303
    assert client.get(f"/api/games/{game_id}").get_json()["version"] == 0


@pytest.mark.parametrize("field", ["players", "first_dealer"])
def test_an_import_whose_game_lacks_players_or_first_dealer_is_refused(client, field):
    """A new game may leave them out (null), a stored game may not: the
    import took null (players: a 503 from the store; first_dealer: a game
    whose board was a 500)."""
    game_id = client.post("/api/games", json={"sides": ["A", "B"]}).get_json()["id"]
    document = client.get(f"/games/{game_id}/export.json").get_json()
    document["games"][0].update(id="importedgame1", creation_key=None, **{field: None})
    response = client.post("/api/games/import", json=document)
    assert response.status_code == 400
    assert field in response.get_json()["error"]
    assert client.get("/games/importedgame1").status_code == 404
