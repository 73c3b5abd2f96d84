"""Page weight: everything a phone loads to show the scoreboard on a first visit.

The served app (waitress) holds a game in progress (a few taps, a chain
open, so the board shows its strip and its last events). A new browser
context, so an empty cache, opens the game's page on a phone viewport; every
request Chromium makes until the network is idle is recorded with its
transferred size (headers and body as sent). Headless Chromium fetches
neither the icons nor the manifest a page names in its head, which a phone
does (the tab's icon, the install prompt), so these are added to the count
from the page's own `<link>`s. The icons the manifest lists are fetched only
when the app is installed: they are reported beside the count, not in it.

Each resource is then asked for again, once as is and once with
`Accept-Encoding: gzip`, for its raw size and the size served compressed
(the server compresses text, not PNG images, which gzip cannot shrink; what
gzip would make of each file is recorded too). Any request to another host
than the server counts against the target.

The board's own count (its script, its engine worker, MicroPython's runtime
and the engine's files: docs/OFFLINE.md, "The board counts by itself") is fetched after the
page's load, once the phone is idle, at addresses cached for good, with the
server's end-of-hand sheet it draws while the server is away (`?sheet=end`,
asked by count.js): it is reported apart (`engine_*`), not in the first
page's count.

Afterwards, the script's first poll of the game's version (every 1.5 s
while the board is open) is recorded apart: it is not part of the load.
"""

import gzip
import urllib.request
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from .chromium import PHONE, api_post, chromium, live_server
from .common import Check, Row, median

WHAT = "page weight"
HOW = ("a scoreboard page on a first visit (empty cache, phone viewport, Chromium): every "
       "request (HTML, CSS, JS) plus the manifest and icons the page names, raw and gzip "
       "(`Accept-Encoding: gzip`), and the number of requests")
TARGET = "≤ 25 KB gzip, ≤ 6 requests, 0 to other hosts"
SIZES = {
    "full": {"repeats": 3},
    "smoke": {"repeats": 1},
}
GZIP_LIMIT_BYTES = 25_000  # 25 KB, read as 25,000 bytes (the stricter reading of "KB")
REQUEST_LIMIT = 6
HEAD_LINKS = {"manifest", "icon", "apple-touch-icon"}
# A game in progress: a missa, a deal, then a chain opened by a hit of 1.
TAPS = [{"type": "missa", "side": 0}, {"type": "next_deal"}, {"type": "missa", "side": 1},
        {"type": "hit", "side": 1, "value": 1}]
POLL_WAIT_MS = 2000
ENGINE_PATHS = ("/phone/", "/static/vendor/micropython/", "/static/board/count.js")


class HeadLinks(HTMLParser):
    """The hrefs of the <link rel=...> elements in HEAD_LINKS."""

    def __init__(self):
        super().__init__()
        self.found: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        rels = (values.get("rel") or "").split()
        if tag == "link" and values.get("href"):
            for rel in rels:
                if rel in HEAD_LINKS:
                    self.found.append((rel, values["href"]))


def fetch(url: str, gzip_ok: bool) -> tuple[bytes, str | None]:
    """The body as sent, and its Content-Encoding."""
    headers = {"Accept-Language": "fr-FR,fr;q=0.9", "Accept-Encoding":
               "gzip" if gzip_ok else "identity"}
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers),
                                timeout=30) as response:
        return response.read(), response.headers.get("Content-Encoding")


def sizes_of(url: str) -> dict:
    raw, _ = fetch(url, gzip_ok=False)
    served, encoding = fetch(url, gzip_ok=True)
    return {
        "raw_bytes": len(raw),
        "gzip_bytes": len(served),  # as served to a client that accepts gzip
        "encoding": encoding or "identity",
        "gzip_would_give": len(gzip.compress(raw, compresslevel=6, mtime=0)),
    }


def _engine(url: str) -> bool:
    address = urlsplit(url)
    return address.path.startswith(ENGINE_PATHS) or "sheet=end" in address.query


def one_load(browser, base: str, game_path: str) -> dict:
    context = browser.new_context(**PHONE, base_url=base)  # a new context: an empty cache
    try:
        page = context.new_page()
        finished, failed = [], []
        page.on("requestfinished", lambda request: finished.append(request))
        page.on("requestfailed", lambda request: failed.append(request))
        page.goto(game_path, wait_until="load")
        page.wait_for_load_state("networkidle")
        loaded = [r for r in finished if not _engine(r.url)]
        html = page.content()
        page.wait_for_timeout(POLL_WAIT_MS)
        later = [r for r in finished if not _engine(r.url)][len(loaded):]
        engine = [r for r in finished if _engine(r.url)]
        observed = []
        for request in loaded:
            response = request.response()
            sizes = request.sizes()
            observed.append({
                "url": request.url, "type": request.resource_type,
                "status": response.status if response else None,
                "encoding": (response.headers.get("content-encoding") if response else None)
                or "identity",
                "transferred_bytes": sizes["responseBodySize"] + sizes["responseHeadersSize"],
                "body_bytes_on_the_wire": sizes["responseBodySize"],
            })
        poll = [{"url": r.url, "transferred_bytes": r.sizes()["responseBodySize"]
                 + r.sizes()["responseHeadersSize"]} for r in later]
        failures = [r.url for r in failed]
        engine_bytes = sum(r.sizes()["responseBodySize"] + r.sizes()["responseHeadersSize"]
                           for r in engine)
    finally:
        context.close()

    page_url = observed[0]["url"] if observed else base + game_path
    parser = HeadLinks()
    parser.feed(html)
    named = [(rel, urljoin(page_url, href)) for rel, href in parser.found]
    resources = {r["url"]: dict(r, source="loaded by Chromium") for r in observed}
    for rel, url in named:
        resources.setdefault(url, {"url": url, "type": rel, "source": "named by the page"})
    manifest_icons = []
    for rel, url in named:
        if rel == "manifest":
            import json

            data = json.loads(fetch(url, gzip_ok=False)[0])
            manifest_icons = sorted({urljoin(url, icon["src"]) for icon in data.get("icons", [])})
    for url, resource in resources.items():
        resource.update(sizes_of(url))
    install = [dict(sizes_of(url), url=url) for url in manifest_icons if url not in resources]

    host = urlsplit(base).netloc
    every_url = list(resources) + [r["url"] for r in poll]
    return {
        "requests": len(resources),
        "requests_by_chromium": len(observed),
        "other_hosts": sum(1 for url in every_url if urlsplit(url).netloc != host),
        "failed": len(failures),
        "raw_bytes": sum(r["raw_bytes"] for r in resources.values()),
        "gzip_bytes": sum(r["gzip_bytes"] for r in resources.values()),
        "transferred_bytes_by_chromium": sum(r["transferred_bytes"] for r in observed),
        "html_gzip_bytes": resources[page_url]["gzip_bytes"] if page_url in resources else None,
        "install_icons_bytes": sum(r["raw_bytes"] for r in install),
        "poll_transferred_bytes": poll[0]["transferred_bytes"] if poll else None,
        "engine_requests": len(engine),
        "engine_transferred_bytes": engine_bytes,
        "resources": list(resources.values()),
        "install_icons": install,
        "poll": poll,
        "failures": failures,
    }


def measure(repeats: int) -> Row:
    runs = []
    with live_server("weight") as server, chromium() as browser:
        game = api_post(server.url, "/api/games", {"sides": ["Nous", "Eux"], "players": 2})
        for tap in TAPS:
            api_post(server.url, f"/api/games/{game['id']}/events", tap)
        for _ in range(repeats):
            runs.append(one_load(browser, server.url, f"/games/{game['id']}"))
    keys = ("requests", "requests_by_chromium", "other_hosts", "failed", "raw_bytes",
            "gzip_bytes", "transferred_bytes_by_chromium", "html_gzip_bytes",
            "install_icons_bytes", "engine_requests", "engine_transferred_bytes")
    figures = {key: median([run[key] for run in runs]) for key in keys}
    # Any request to another host in any load counts.
    figures["other_hosts"] = max(run["other_hosts"] for run in runs)
    figures["repeats"] = repeats
    figures["resources"] = [
        {k: r.get(k) for k in ("url", "type", "source", "encoding", "raw_bytes", "gzip_bytes",
                               "gzip_would_give", "transferred_bytes")}
        for r in runs[-1]["resources"]
    ]
    polls = [run["poll_transferred_bytes"] for run in runs if run["poll_transferred_bytes"]]
    figures["poll_transferred_bytes"] = median(polls) if polls else None
    checks = [
        Check("gzip bytes", figures["gzip_bytes"], "<=", GZIP_LIMIT_BYTES, "bytes"),
        Check("requests", figures["requests"], "<=", REQUEST_LIMIT),
        Check("requests to other hosts", figures["other_hosts"], "<=", 0),
    ]
    parts = ", ".join(
        f"{_short(r['url'])} {r['gzip_bytes'] / 1000:.1f}" for r in figures["resources"])
    measured = (
        f"{figures['gzip_bytes'] / 1000:.1f} KB gzip ({figures['raw_bytes'] / 1000:.1f} KB raw) "
        f"in {figures['requests']} requests ({figures['requests_by_chromium']} made by headless "
        f"Chromium, {figures['transferred_bytes_by_chromium'] / 1000:.1f} KB transferred with "
        f"headers; the rest named in the page's head), {figures['other_hosts']} to other hosts; "
        f"KB gzip: {parts}; installing adds the manifest's icons "
        f"({figures['install_icons_bytes'] / 1000:.1f} KB); after the load, once idle, the "
        f"board's engine: {figures['engine_requests']} requests, "
        f"{figures['engine_transferred_bytes'] / 1000:.1f} KB transferred"
    )
    return Row(measured, checks, figures, runs)


def _short(url: str) -> str:
    path = urlsplit(url).path
    return "the page" if path.startswith("/games/") else path.rsplit("/", 1)[-1]
