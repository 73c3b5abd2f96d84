"""Text that hides things: names of invisible characters, lone surrogates,
formulas in a spreadsheet: what a name or a file hides must not fool a
reader, break a page or run in a spreadsheet."""

import csv
import io
import json

import pytest
from flask import flash, redirect

from scorekeeper import create_app
from scorekeeper.engine.names import clean_name
from support.headers import check_security_headers
from support.page_forms import forms_of

# -- names -------------------------------------------------------------------------------------

@pytest.mark.parametrize("typed, kept", [
    ("Nous\u200b", "Nous"), ("\ufeffEux", "Eux"), ("A\x00li", "Ali"), ("Ka\nrim", "Ka rim"),
    ("\x1bRed", "Red"), ("Le\u0301a", "Léa"), ("  Zoé \u00a0\t B ", "Zoé B"),
    ("\u202eKarim", "Karim"), ("سلمى\u200f", "سلمى"),
])
def test_a_name_is_kept_as_one_sees_it(api, typed, kept):
    game = api.new_game(sides=[typed, "Autres"])
    assert game["sides"][0] == kept
    assert clean_name(typed) == kept


@pytest.mark.parametrize("typed", ["\u200b", "\ufeff\u200d", "\x00\x1b", "\u3164", "\u2800 "])
def test_a_name_of_invisible_characters_is_refused(api, client, typed):
    response = api.post("/api/games", {"sides": [typed, "Eux"]})
    assert response.status_code == 400 and "invisible" in response.get_json()["error"].lower()
    assert client.get("/games/export.json").get_json()["games"] == []


def test_a_look_alike_name_is_the_same_name(api):
    response = api.post("/api/games", {"sides": ["Nous", "Nous\u200b"]})
    assert response.status_code == 400
    first = api.new_game(sides=["Nous", "Eux"])
    second = api.new_game(sides=["Nous\u200b", "Eux\ufeff"])
    assert first["sides"] == second["sides"]  # one line each in the statistics


def test_a_preset_name_is_cleaned_the_same_way(app):
    from scorekeeper.engine.errors import InvalidInput
    from scorekeeper.service import presets
    from scorekeeper.storage.db import connect

    db = connect(app.config["DATABASE"])
    try:
        presets.save(db, "Maison\u200b", {}, "2025-01-01T00:00:00+00:00")
        assert [p["name"] for p in presets.table_presets(db)] == ["Maison"]
        with pytest.raises(InvalidInput):
            presets.save(db, "\u200bmaison", {}, "2025-01-01T00:00:00+00:00")  # the same name
    finally:
        db.close()


# -- lone surrogates ---------------------------------------------------------------------------

def _exported(api, client) -> dict:
    game = api.new_game(sides=["Nous", "Eux"])["id"]
    api.event(game, type="adjust", side=0, points=3, note="café")
    return json.loads(client.get("/games/export.json").data)


def _with_surrogate(document: dict, where: str) -> bytes:
    game = document["games"][0]
    if where == "id":
        game["id"] = "ab\ud800cdefgh"
    elif where == "side":
        game["sides"][0] = "Nous\ud800"
    elif where == "note":
        game["log"][0]["payload"]["note"] = "caf\udce9"
    elif where == "preset":
        game["rules"]["preset"] = "appli\ud800"
    return json.dumps(document).encode()  # ensure_ascii: "\ud800" spelled as an escape


@pytest.mark.parametrize("where", ["id", "side", "note", "preset"])
def test_a_lone_surrogate_in_a_json_import_is_a_400(api, client, tmp_path, where):
    body = _with_surrogate(_exported(api, client), where)
    other = create_app({"TESTING": True, "DATABASE": str(tmp_path / "o.sqlite3")})
    response = other.test_client().post("/api/games/import", data=body,
                                        content_type="application/json")
    assert response.status_code == 400 and response.get_json()["error"]
    check_security_headers(response)


@pytest.mark.parametrize("where", ["id", "side"])
def test_a_lone_surrogate_in_an_import_file_leaves_the_browser_working(api, client, tmp_path,
                                                                      where):
    """Before: the refusal's flashed sentence held the surrogate, and every
    page of that browser was a bare 500 until its cookies were cleared."""
    body = _with_surrogate(_exported(api, client), where)
    other = create_app({"TESTING": True, "DATABASE": str(tmp_path / "o.sqlite3")})
    browser = other.test_client()
    form = forms_of(browser.get("/games/import").get_data(as_text=True))[0]
    data = dict(form.fields, file=(io.BytesIO(body), "export.json"))
    response = browser.post(form.action, data=data, content_type="multipart/form-data")
    assert response.status_code == 303
    for path in ("/games/import", "/", "/games"):
        page = browser.get(path)
        assert page.status_code == 200, path
        check_security_headers(page)


def test_a_flashed_surrogate_cannot_break_a_page(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite3")})
    app.add_url_rule("/_test/flash", "flash_surrogate",
                     lambda: (flash("Nous\ud800"), redirect("/"))[1])
    client = app.test_client()
    client.get("/_test/flash")
    page = client.get("/")
    assert page.status_code == 200 and "Nous?" in page.get_data(as_text=True)
    assert client.get("/").status_code == 200


def test_an_error_page_that_fails_still_carries_the_security_headers(tmp_path, monkeypatch):
    from scorekeeper.web.plumbing import errors

    app = create_app({"TESTING": True, "PROPAGATE_EXCEPTIONS": False,
                      "DATABASE": str(tmp_path / "t.sqlite3")})
    monkeypatch.setattr(errors, "render_template", lambda *a, **k: 1 / 0)
    response = app.test_client().get("/nowhere")
    assert response.status_code == 404 and response.mimetype == "text/plain"
    assert "Il n'y a rien à cette adresse." in response.get_data(as_text=True)
    check_security_headers(response)
    # Even Flask's own bare 500, when every error handler fails.
    monkeypatch.setattr(errors, "error_answer", lambda *a, **k: 1 / 0)
    response = app.test_client().get("/nowhere")
    assert response.status_code == 500 and b"Traceback" not in response.data
    check_security_headers(response)


# -- spreadsheet formulas ----------------------------------------------------------------------

FORMULA = ("=", "+", "-", "@")


def test_no_csv_cell_starts_a_formula_whatever_the_separator(api, client):
    game = api.new_game(sides=["a;=1+2;b", "x,@SUM(A1)"])["id"]
    api.event(game, type="adjust", side=0, points=2, note="ok|+cmd\t=2;  -3")
    api.event(game, type="missa", side=1)
    text = client.get(f"/games/{game}/export.csv").get_data(as_text=True)
    cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
    for cell in cells:
        if cell.lstrip("-").isdigit():
            continue  # a number, not text
        for separator in (",", ";", "\t", "|"):
            for part in cell.split(separator):
                assert not part.lstrip(" ").startswith(FORMULA), (cell, separator)
    assert any("a;'=1+2;b" in cell for cell in cells)  # still readable
