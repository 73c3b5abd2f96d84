"""The fuzz tests' values (hypothesis strategies): hostile text, names,
counts, ids, bodies, rule fields, a request's query, headers and method."""

import os
from collections import Counter
from urllib.parse import quote

from hypothesis import HealthCheck
from hypothesis import strategies as st

from scorekeeper.engine import RULE_KEYS
from scorekeeper.engine.events import KINDS, LAST_TRICK_OUTCOMES
from scorekeeper.engine.houserules import rule_form

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


# -- a request's query, headers, method and address ------------------------------------------

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
