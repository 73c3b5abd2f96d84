"""What the board gives its engine worker (docs/OFFLINE.md, "The board
counts by itself"): the worker's script and the engine's files at addresses
versioned by what they hold, never revalidated; the game it shows as plain
data; each button's event."""

import html
import json
import re

from scorekeeper.engine import parse_event
from scorekeeper.phone import board_files
from scorekeeper.phone.count import start
from support.headers import check_security_headers
from support.pages import api_state, start_game


def _attribute(page: str, name: str) -> str:
    found = re.search(rf"{name}='([^']*)'|{name}=\"([^\"]*)\"", page)
    assert found, f"no {name} on the page"
    return html.unescape(found.group(1) if found.group(1) is not None else found.group(2))


def test_the_engine_worker_and_its_files_are_named_by_the_board_and_cached_for_good(client):
    page = client.get(start_game(client)).get_data(as_text=True)
    for name, kind in [("data-engine-count", "text/javascript"),
                       ("data-engine-worker", "text/javascript"),
                       ("data-engine-files", "application/json"),
                       ("data-engine-runtime", "text/javascript"),
                       ("data-engine-wasm", "application/wasm")]:
        url = _attribute(page, name)
        assert re.search(r"[.=][0-9a-f]{10}(\.js|\.json)?$", url), url  # a content hash
        answer = client.get(url)
        assert answer.status_code == 200, url
        assert answer.mimetype == kind
        assert "immutable" in answer.headers["Cache-Control"]
        assert "max-age=31536000" in answer.headers["Cache-Control"]
    files = client.get(_attribute(page, "data-engine-files")).get_json()
    assert files == board_files()
    assert "scorekeeper/engine/fold.py" in files and "board_count.py" in files


def test_only_the_engine_worker_may_compile_webassembly(client):
    page = client.get(start_game(client))
    address = _attribute(page.get_data(as_text=True), "data-engine-worker")
    worker = client.get(address)
    assert "'wasm-unsafe-eval'" in worker.headers["Content-Security-Policy"]
    assert "wasm" not in page.headers["Content-Security-Policy"]
    # The worker's script itself, not any answer at its address (an OPTIONS,
    # which the fuzzers send, holds no script): those keep every page's policy.
    for method in ("OPTIONS", "POST"):
        answer = client.open(address, method=method)
        check_security_headers(answer)


def test_an_engine_of_another_version_is_not_found(client):
    assert client.get("/phone/engine.0123456789.json").status_code == 404
    assert client.get("/phone/engine-worker.0123456789.js").status_code == 404


def test_the_board_gives_the_game_it_shows_and_each_buttons_event(client):
    board_url = start_game(client)
    page = client.get(board_url).get_data(as_text=True)
    game = json.loads(_attribute(page, "data-engine"))
    state = start(game)
    assert list(state.scores) == api_state(client, board_url)["scores"]
    assert state.setup.sides == ("Nous", "Eux")
    events = [json.loads(html.unescape(raw)) for raw in re.findall(r"data-event='([^']*)'", page)]
    assert {"type": "missa", "side": 0} in events and {"type": "hit", "side": 1, "value": 1} in events
    for event in events:
        parse_event(event, state.setup)  # each reads as the engine's event


def test_the_counts_words_are_at_the_engines_version_in_each_language(client):
    """count.js draws the announcements offline in the page's words, which it
    fetches at the engine files' address ("engine." -> "texts.", the language
    added): cached for good, at a version that changes with them."""
    page = client.get(start_game(client)).get_data(as_text=True)
    files = _attribute(page, "data-engine-files")
    for language, confirm, recorded in [
            ("fr", "Valider", "Les annonces de cette donne sont enregistrées."),
            ("en", "Confirm", "This deal's announcements are recorded."),
            ("ar", "تأكيد", None)]:
        answer = client.get(files.replace("/engine.", "/texts.").replace(".json",
                                                                          f".{language}.html"))
        assert answer.status_code == 200
        assert "immutable" in answer.headers["Cache-Control"]
        words = answer.get_data(as_text=True)
        assert f'<span data-text="confirm">{confirm}</span>' in words
        assert recorded is None or recorded in html.unescape(words)
        assert "{list}" in words and "{kind}" in words and "{side}" in words
    assert client.get(files.replace("/engine.", "/texts.").replace(".json", ".de.html")) \
        .status_code == 404
    assert client.get("/phone/texts.0123456789.fr.html").status_code == 404
