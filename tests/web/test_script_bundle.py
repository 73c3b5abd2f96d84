"""The board's script: one file per thing it does (static/board/), one request
for a phone (scorekeeper/web/plumbing/assets.py, BUNDLES), served as a static file is."""

import os
import re
import shutil

from scorekeeper.web.plumbing import assets, phone_engine
from scorekeeper.web.plumbing.slim import JS_TRAILING_COMMENT, slimmed
from support.paths import ROOT

PARTS = ROOT / "static" / "board"


def test_the_bundle_holds_every_part_of_the_boards_script_in_its_order():
    order = assets.BUNDLES["board.js"]
    assert order[0] == "board/board.js"  # it sets up window.Ronda, which the others use
    # All but the board's own count and its worker, loaded after the first paint.
    parts = {f"board/{path.name}" for path in PARTS.glob("*.js")} - {
        phone_engine.WORKER, phone_engine.COUNT_SCRIPT}
    assert sorted(order) == sorted(parts)
    data, _, _ = assets.bundle(str(ROOT / "static"), "board.js")
    assert data == b"".join((ROOT / "static" / part).read_bytes() for part in order)


def test_the_page_names_one_script_whose_address_is_its_content(client):
    page = client.get("/").get_data(as_text=True)
    scripts = re.findall(r'<script src="([^"]+)"', page)
    data, version, _ = assets.bundle(client.application.static_folder, "board.js")
    assert scripts == [f"/static/board.js?v={version}"]
    served = client.get(scripts[0])
    assert served.status_code == 200
    assert served.data == slimmed("text/javascript", data)


def test_the_bundle_is_served_with_a_static_scripts_headers(client):
    plain = client.get("/static/club.js", headers={"Accept-Encoding": "gzip"})
    bundle = client.get("/static/board.js", headers={"Accept-Encoding": "gzip"})
    assert bundle.status_code == plain.status_code == 200
    assert sorted(bundle.headers.keys()) == sorted(plain.headers.keys())
    for name in ["Content-Type", "Cache-Control", "Content-Security-Policy", "Vary",
                 "Content-Encoding", "X-Content-Type-Options", "Accept-Ranges"]:
        assert bundle.headers[name] == plain.headers[name], name
    assert bundle.headers["Cache-Control"] == f"public, max-age={assets.ONE_YEAR}"
    assert bundle.headers["Content-Disposition"] == "inline; filename=board.js"
    again = client.get("/static/board.js", headers={"If-None-Match": bundle.headers["ETag"]})
    assert again.status_code == 304 and not again.data
    head = client.head("/static/board.js")
    assert int(head.headers["Content-Length"]) == len(client.get("/static/board.js").data)


def test_a_changed_part_makes_a_new_bundle_at_a_new_address(tmp_path):
    """No build step: the next request after an edit joins the parts again."""
    for part in assets.BUNDLES["board.js"]:
        (tmp_path / part).parent.mkdir(exist_ok=True)
        shutil.copy(ROOT / "static" / part, tmp_path / part)
    before, version, _ = assets.bundle(str(tmp_path), "board.js")
    edited = tmp_path / assets.BUNDLES["board.js"][-1]
    edited.write_text(edited.read_text() + "// edited\n")
    stat = edited.stat()
    os.utime(edited, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    after, new_version, _ = assets.bundle(str(tmp_path), "board.js")
    assert after == before + b"// edited\n"
    assert new_version != version


def test_no_string_of_the_scripts_spans_lines_so_their_indentation_can_go():
    """slim.py takes out the spaces that begin a line and the lines left
    empty: safe only while no string goes on to a next line (a template
    literal, a backslash at a line's end)."""
    scripts = [*(ROOT / "static").glob("*.js"), *PARTS.glob("*.js")]
    assert len(scripts) >= 6
    for path in scripts:
        served = slimmed("text/javascript", path.read_bytes())
        assert b"`" not in served, path.name
        assert not re.search(rb"\\\n", served), path.name
        assert not re.search(rb"^[ \t]", served, re.M), path.name
        assert b"\n\n" not in served, path.name


def _ends_in_code(prefix: bytes) -> bool:
    """Whether a line's `prefix` ends outside any string, with no `/` outside
    one (which could open a regular expression): a `//` after it begins a
    comment."""
    quote = None
    escaped = False
    for char in prefix.decode():
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char == "/":
            return False
    return quote is None


def test_every_comment_taken_from_a_line_of_code_is_a_comment():
    """slim.py takes out a `//` comment that ends a line of code after `;`,
    `{`, `}`, `,` or `(`: safe only while that `//` is not in a string or a
    regular expression."""
    scripts = [*(ROOT / "static").glob("*.js"), *PARTS.glob("*.js")]
    taken = 0
    for path in scripts:
        for line in path.read_bytes().split(b"\n"):
            found = JS_TRAILING_COMMENT.search(line)
            if found:
                taken += 1
                assert _ends_in_code(line[:found.start()]), (path.name, line)
    assert taken >= 40  # what it checks is there
    assert not _ends_in_code(b'var a = "x;') and not _ends_in_code(b"var r = /a;")
    assert _ends_in_code(b'var a = "it\\"s";') and _ends_in_code(b"show('off');")
