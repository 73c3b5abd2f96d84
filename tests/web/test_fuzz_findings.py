"""What the fuzz of the pages and forms found, kept as plain tests."""

import codecs

import pytest

from scorekeeper.web.plumbing import app_request
from support.page_forms import forms_of, press


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


def test_the_bytes_that_are_not_utf8_are_quoted_by_the_apps_own_codec_handler():
    """The query string's unreadable bytes are quoted by a handler of the
    app's own, not by one that werkzeug registers as its internal detail."""
    handler = codecs.lookup_error(app_request.QUOTE_BAD_BYTES)
    assert handler is app_request.quote_bad_bytes
    assert b"a\xff\xfeb%".decode("utf-8", app_request.QUOTE_BAD_BYTES) == "a%FF%FEb%"
