"""The phones let in to the table, each with a pass of its own.

A phone that spends a pairing code or types the access key gets a pass: a
random token that its cookie holds. The store keeps only the token's hash,
so neither a page, a log, a backup nor an export can give a pass away. A
pass opens the table while its phone is not turned away and the access key
is still the one it was given under (its `key_mark`): turning one phone
away is one row, changing the key turns every phone away at once.

A phone is a guest, or one of the table's hosts (`host`), marked so by this
machine or by another host. Each pass given by a pairing code remembers the
phone that showed the code (`minted_by`; none: this machine's code, or the
typed key): turning a phone away turns away, with it, every phone it let
in, and theirs in turn.

"Last seen" is written at most once a minute per phone, never on every tap.

No Flask; each function that writes opens its own write transaction.
"""

import hashlib
import hmac
import re
import secrets
import sqlite3
from dataclasses import dataclass
from datetime import datetime

import sqlite_utils

from ..engine.errors import N_, NotFound
from ..storage.db import BUSY_TIMEOUT_SECONDS, ConnectionPool, write_transaction

PASS_BYTES = 32  # 256 random bits
SEEN_EVERY_SECONDS = 60
HOW = ("code", "key")
BROWSER_LENGTH = 40

COLUMNS = "id, how, browser, created_at, last_seen, turned_away_at, host, minted_by"


@dataclass(frozen=True, slots=True)
class Phone:
    id: int
    how: str  # "code": a pairing code; "key": the typed access key
    browser: str  # a few words from its User-Agent: "Chrome, Android"
    created_at: str
    last_seen: str
    turned_away_at: str | None
    host: bool = False  # one of the table's hosts: turns other phones away, shows codes
    minted_by: int | None = None  # the phone whose pairing code let it in (None: this machine)


def _phone(row) -> Phone:
    *first, host, minted_by = row
    return Phone(*first, host=bool(host), minted_by=minted_by)


def pass_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def key_mark(key: str, secret: str) -> str:
    """A mark of the access key (not the key): passes given under another key open nothing."""
    return hmac.new(secret.encode(), b"phones:" + key.encode(), hashlib.sha256).hexdigest()[:32]


def let_in(db: sqlite_utils.Database, how: str, user_agent: str | None, mark: str,
           now: str, minted_by: int | None = None) -> tuple[str, Phone] | None:
    """A new pass for a phone just let in, as a guest: the token (for its
    cookie only) and the phone. `minted_by`, the phone whose code it spent,
    must still be let in, or nobody is (None)."""
    if how not in HOW:
        raise ValueError(how)
    token = secrets.token_urlsafe(PASS_BYTES)
    with write_transaction(db):
        if minted_by is not None and not _is_in(db, minted_by, mark):
            return None
        cursor = db.execute(
            "INSERT INTO phones (pass_hash, key_mark, how, browser, created_at, last_seen,"
            " minted_by) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [pass_hash(token), mark, how, browser_of(user_agent), now, now, minted_by])
        phone_id = cursor.lastrowid
    return token, get(db, phone_id)


def _is_in(db: sqlite_utils.Database, phone_id: int, mark: str) -> bool:
    return db.execute("SELECT 1 FROM phones WHERE id = ? AND key_mark = ?"
                      " AND turned_away_at IS NULL", [phone_id, mark]).fetchone() is not None


def is_in(db: sqlite_utils.Database, phone_id: int | None, mark: str) -> bool:
    """Whether the phone still opens the table (None: this machine, always)."""
    return phone_id is None or _is_in(db, phone_id, mark)


def get(db: sqlite_utils.Database, phone_id: int) -> Phone | None:
    if not 0 < phone_id < 2**63:
        return None
    row = db.execute(f"SELECT {COLUMNS} FROM phones WHERE id = ?", [phone_id]).fetchone()
    return None if row is None else _phone(row)


def holder(db: sqlite_utils.Database, token: str, mark: str) -> Phone | None:
    """The phone whose pass this is, while it opens the table; else None."""
    if not token or len(token) > 100:
        return None
    row = db.execute(
        f"SELECT {COLUMNS} FROM phones WHERE pass_hash = ? AND key_mark = ?"
        " AND turned_away_at IS NULL", [pass_hash(token), mark]).fetchone()
    return None if row is None else _phone(row)


def due_to_be_seen(phone: Phone, now: str) -> bool:
    """Whether `last_seen` is a minute old: the next request writes it."""
    try:
        age = datetime.fromisoformat(now) - datetime.fromisoformat(phone.last_seen)
    except ValueError:
        return True
    return age.total_seconds() >= SEEN_EVERY_SECONDS


def seen(db: sqlite_utils.Database, phone: Phone, now: str) -> None:
    """Write when the phone was last seen, if it is due (due_to_be_seen); a
    busy or read-only store skips it: the next minute's request writes it."""
    if not due_to_be_seen(phone, now):
        return
    try:
        with write_transaction(db):
            db.execute("UPDATE phones SET last_seen = ? WHERE id = ? AND last_seen < ?",
                       [now, phone.id, now])
    except sqlite3.OperationalError:
        pass


class PassDesk:
    """Who holds a pass, asked outside any request (the server asks before
    it reads a body: web/guard/server.py), with connections of its own."""

    def __init__(self, path: str, timeout: float = BUSY_TIMEOUT_SECONDS):
        self.pool = ConnectionPool(path, timeout)

    def holder(self, token: str, mark: str) -> Phone | None:
        """The phone holding `token`, or None (also when the store cannot be read)."""
        db = self.pool.take()
        try:
            return holder(db, token, mark)
        except Exception:  # a store that cannot be read lets no body in; the app says why
            return None
        finally:
            self.pool.give_back(db)


def listed(db: sqlite_utils.Database, mark: str) -> list[Phone]:
    """The phones that the table's pass lets in now, the last seen first."""
    return [_phone(row) for row in db.execute(
        f"SELECT {COLUMNS} FROM phones WHERE key_mark = ? AND turned_away_at IS NULL"
        " ORDER BY last_seen DESC, id DESC", [mark])]


# The phone and every phone let in by its codes, and by theirs in turn.
_LET_IN_BY = """
WITH RECURSIVE given(id) AS (
    SELECT ? UNION SELECT phones.id FROM phones JOIN given ON phones.minted_by = given.id)
SELECT id FROM given"""


def turn_away(db: sqlite_utils.Database, phone_id: int, mark: str, now: str) -> Phone:
    """The phone's pass opens nothing from its next request on, nor do the
    passes of the phones it let in (theirs too, in turn)."""
    with write_transaction(db):
        if not 0 < phone_id < 2**63 or not _is_in(db, phone_id, mark):
            raise NotFound(N_("There is no such phone among those let in."))
        db.execute(f"UPDATE phones SET turned_away_at = ? WHERE id IN ({_LET_IN_BY})"
                   " AND key_mark = ? AND turned_away_at IS NULL", [now, phone_id, mark])
    return get(db, phone_id)


def make_host(db: sqlite_utils.Database, phone_id: int, mark: str) -> Phone:
    """The phone becomes one of the table's hosts (turning it away undoes it)."""
    with write_transaction(db):
        changed = 0 < phone_id < 2**63 and db.execute(
            "UPDATE phones SET host = 1 WHERE id = ? AND key_mark = ?"
            " AND turned_away_at IS NULL", [phone_id, mark]).rowcount
    if not changed:
        raise NotFound(N_("There is no such phone among those let in."))
    return get(db, phone_id)


# -- a browser in a few words ------------------------------------------------------------------

# The first that matches names it: the engines that carry another's name in
# their User-Agent (Edge and Samsung's say Chrome, Chrome says Safari) first.
BROWSERS = [("Edge", r"\bEdg(A|iOS)?/"), ("Samsung Internet", r"SamsungBrowser/"),
            ("Opera", r"\bOPR/|Opera"), ("Firefox", r"Firefox/|FxiOS/"),
            ("Chrome", r"Chrome/|CriOS/|Chromium/"), ("Safari", r"Safari/")]
SYSTEMS = [("Android", r"Android"), ("iPhone", r"iPhone"), ("iPad", r"iPad"),
           ("Windows", r"Windows"), ("macOS", r"Macintosh|Mac OS X"), ("Linux", r"Linux"),
           ("curl", r"^curl/")]


def browser_of(user_agent: str | None) -> str:
    """"Chrome, Android", "Safari, iPhone", or "?" when nothing is known."""
    text = (user_agent or "")[:512]
    browser = next((name for name, pattern in BROWSERS if re.search(pattern, text)), None)
    system = next((name for name, pattern in SYSTEMS if re.search(pattern, text)), None)
    words = ", ".join(word for word in (browser, system) if word)
    return words[:BROWSER_LENGTH] or "?"
