"""Hostile input on the HTML side: every page. The forms are
test_fuzz_forms.py; the values and the checks, tests/support/fuzz_*.py;
the JSON API, test_fuzz.py.

Every route of `app.url_map`, mostly GET, with random query strings: the
parameters the views read with random and malformed values, extra ones,
repeated ones, bad ids, huge values, unicode, lone surrogates and bytes
that are not UTF-8 (percent-encoded, and raw as a hostile client may send
them), random headers. A GET changes nothing.

After every request: no 5xx, no traceback, the security headers, no
version down, every changed game equal to its replay (the checks:
tests/support/fuzz_site.py).
"""

import dataclasses
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support.fuzz_site import (
    ARGUMENT,
    Choice,
    Request,
    Site,
    choices,
    game_of,
    preset_of,
    segment,
    send,
    seq_of,
    static_of,
)
from support.fuzz_values import (
    HEADERS,
    METHODS,
    PAGE_EXAMPLES,
    QUERY_PARAMETERS,
    QUERY_VALUES,
    REMOTE_ADDRS,
    REQUEST_LINE_ENDS,
    SETTINGS,
    TALLY,
    encode,
    hostile,
    query_names,
    usually,
)

pytestmark = pytest.mark.xdist_group("fuzz_pages")  # the module fixture `site` (web/conftest.py), built once a run

# -- the GET fuzz: every route of the url map ----------------------------------------------------

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
# in the query what broke pages before: digits int() refuses, raw
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


