"""Export documents and their import: a round trip recreates every game
exactly (same log, rules, state, summaries); a bad or partial document is
refused whole, with the store unchanged; a different game under an existing
id is never overwritten."""

import copy
import io

import pytest

from scorekeeper import create_app
from scorekeeper.storage.db import connect
from scorekeeper.web.views import transfer as transfer_views
from support.page_forms import forms_of, submit

TABLES = {"games": "id", "events": "game_id, seq", "game_sides": "game_id, side"}


def rows(app):
    """Every row of the game tables, in a fixed order."""
    db = connect(app.config["DATABASE"])
    try:
        return {table: db.execute(f"SELECT * FROM {table} ORDER BY {order}").fetchall()
                for table, order in TABLES.items()}
    finally:
        db.close()


def post_import(client, document, **kwargs):
    return client.post("/api/games/import", json=document, **kwargs)


@pytest.fixture
def history(api, client):
    """Games that went through everything: undos, corrections, a removal, the
    bin, house rules, three sides, a finished one; with Idempotency-Keys."""
    ids = []
    game = api.new_game(sides=["Nous", "Eux"], players=4,
                        rules={"preset": "classique", "target": 45})["id"]
    events = [
        {"type": "announce", "announcements": [{"side": 0, "kind": "ronda"},
                                               {"side": 1, "kind": "ronda", "rank": 7}]},
        {"type": "hit", "side": 0, "value": 1}, {"type": "reveal", "ranks": [3, None]},
        {"type": "hit", "side": 1, "value": 5}, {"type": "missa", "side": 1},
        {"type": "next_deal"}, {"type": "adjust", "side": 0, "points": 4, "note": "café"},
    ]
    for number, event in enumerate(events):
        api.post(f"/api/games/{game}/events", event, headers={"Idempotency-Key": f"k{number}"})
    api.undo(game)
    api.post(f"/api/games/{game}/corrections", {"seq": 5, "event": {"type": "missa", "side": 0}})
    api.post(f"/api/games/{game}/corrections", {"seq": 2, "event": None})
    ids.append(game)
    three = api.new_game(sides=["Ali", "Karim", "Omar"], players=3)["id"]
    api.event(three, type="missa", side=2)
    api.event(three, type="adjust", side=1, points=33)
    ids.append(three)
    binned = api.new_game(sides=["Léa", "Zoé"])["id"]
    api.event(binned, type="hit", side=1, value=1)
    html = client.get(f"/games/{binned}/delete").get_data(as_text=True)
    submit(client, [f for f in forms_of(html) if f.method == "post"][0])
    ids.append(binned)
    ids.append(api.post("/api/games", {"sides": ["A", "B"]},
                        headers={"Idempotency-Key": "made-once"}).get_json()["id"])
    return ids


def test_an_export_imported_elsewhere_recreates_every_game_exactly(app, client, api, history,
                                                                      tmp_path):
    exported = client.get("/games/export.json")
    assert exported.status_code == 200 and exported.mimetype == "application/json"
    assert "attachment" in exported.headers["Content-Disposition"]
    document = exported.get_json()
    assert document["format"] == "ronda-scorekeeper" and document["format_version"] == 2
    assert sorted(g["id"] for g in document["games"]) == sorted(history)

    other = create_app({"TESTING": True, "DATABASE": str(tmp_path / "other.sqlite3")})
    response = post_import(other.test_client(), document)
    assert response.status_code == 200, response.get_json()
    assert sorted(response.get_json()["imported"]) == sorted(history)

    again = other.test_client().get("/games/export.json").get_json()
    for before, after in zip(document["games"], again["games"], strict=True):
        for field in before:
            assert after[field] == before[field], (before["id"], field)
    for game_id in history:
        assert other.test_client().get(f"/api/games/{game_id}").get_json() == \
            client.get(f"/api/games/{game_id}").get_json()
    mine, theirs = rows(app), rows(other)
    for table in TABLES:
        for a, b in zip(mine[table], theirs[table]):
            assert a == b, (table, [(x, y) for x, y in zip(a, b) if x != y])
    assert theirs == mine  # the log, the snapshots, the summaries, the bin


def test_a_keys_used_before_the_export_still_apply_nothing_after_the_import(
        client, history, tmp_path):
    other = create_app({"TESTING": True, "DATABASE": str(tmp_path / "other.sqlite3")})
    post_import(other.test_client(), client.get("/games/export.json").get_json())
    game = history[0]
    state = other.test_client().get(f"/api/games/{game}").get_json()
    replay = other.test_client().post(f"/api/games/{game}/events", json={"type": "chain_end"},
                                      headers={"Idempotency-Key": "k0"})
    assert replay.status_code == 200 and replay.get_json() == state
    made = other.test_client().post("/api/games", json={"sides": ["A", "B"]},
                                    headers={"Idempotency-Key": "made-once"})
    assert made.status_code == 200 and made.get_json()["id"] == history[3]


def test_one_games_export_imports_and_an_identical_game_is_skipped(app, client, history):
    document = client.get(f"/games/{history[1]}/export.json").get_json()
    assert [g["id"] for g in document["games"]] == [history[1]]
    before = rows(app)
    response = post_import(client, document)
    assert response.status_code == 200
    assert response.get_json() == {"imported": [], "skipped": [history[1]]}
    assert rows(app) == before


def broken(document, change):
    spoiled = copy.deepcopy(document)
    change(spoiled)
    return spoiled


def _second(change):
    return lambda d: change(d["games"][1])


BAD_DOCUMENTS = {  # what is wrong: (how to spoil an export, what the refusal says)
    "not an export": (lambda d: d.update(format="something else"), "n'est pas un export"),
    "a newer format": (lambda d: d.update(format_version=3), "version du format"),
    "no game": (lambda d: d.update(games=[]), "ne contient aucune partie"),
    "an unknown field": (_second(lambda g: g.update(colour="red")), "exactement les champs"),
    "a missing field": (_second(lambda g: g.pop("rules")), "exactement les champs"),
    "a gap in the log": (_second(lambda g: g["log"].pop(0)), "sans trou"),
    "a record cut short": (_second(lambda g: g["log"][0].pop("payload")),
                           "Enregistrement 1 : Un enregistrement du journal"),
    "an impossible event": (_second(lambda g: g["log"][0].update(
        payload={"type": "hit", "side": 0, "value": 5})), "n'aurait pas pu être accepté"),
    "a result the log does not give": (_second(lambda g: g["result"].update(scores=[9, 9, 9])),
                                       "ne mène pas au résultat"),
    "a wrong version": (_second(lambda g: g.update(version=1)), "version doit être"),
    "an undo naming no standing event": (lambda d: d["games"][0]["log"][7]["payload"].update(
        undoes=99), "Enregistrement 8 : Une annulation"),
    "undone_by that no undo made": (lambda d: d["games"][0]["log"][0].update(undone_by=3),
                                    "undone_by ne correspond pas"),
    "a bad time": (_second(lambda g: g.update(created_at="yesterday")), "ISO 8601"),
    "an out-of-range rule": (_second(lambda g: g["rules"].update(target=500)), "target"),
    "untrimmed names": (_second(lambda g: g.update(sides=[" Ali", "Karim", "Omar"])),
                        "sans espaces"),
    "a bad id": (_second(lambda g: g.update(id="../etc")), "id doit compter"),
    "an id the site uses": (_second(lambda g: g.update(id="bin")), "id doit compter"),
    "the same id twice": (lambda d: d["games"][1].update(id=d["games"][0]["id"]),
                          "deux fois dans l'export"),
    "the same creation key twice": (lambda d: [g.update(creation_key="same")
                                               for g in d["games"][:2]], "même clé de création"),
    "a correction that changes nothing": (lambda d: d["games"][0]["log"][8]["payload"].update(
        event=d["games"][0]["log"][4]["payload"]), "Enregistrement 9 : Une correction doit"),
}


@pytest.mark.parametrize("fault", BAD_DOCUMENTS)
def test_a_bad_document_is_refused_whole_and_the_store_is_unchanged(client, history, tmp_path,
                                                                        fault):
    spoil, says = BAD_DOCUMENTS[fault]
    document = client.get("/games/export.json").get_json()
    target = create_app({"TESTING": True, "DATABASE": str(tmp_path / "target.sqlite3")})
    target_client = target.test_client()
    target_client.post("/api/games", json={"sides": ["Already", "Here"]})
    before = rows(target)
    response = post_import(target_client, broken(document, spoil))
    assert response.status_code == 400, (fault, response.get_json())
    assert says in response.get_json()["error"], response.get_json()["error"]
    assert rows(target) == before


def test_a_refusal_names_the_game_and_the_record(client, history):
    document = client.get("/games/export.json").get_json()
    document["games"][1]["log"][0]["payload"] = {"type": "hit", "side": 0, "value": 5}
    response = post_import(client, document, headers={"Accept-Language": "en"})
    assert response.get_json()["error"] == (
        f"Nothing was imported. Game 2 ({history[1]}): Record 1 could not have been accepted: "
        "A 5 only follows an open 1 of another side.")


def test_a_game_that_differs_under_an_existing_id_is_never_overwritten(app, client, history):
    document = client.get("/games/export.json").get_json()
    document["games"][2]["log"][0]["created_at"] = "2020-01-01T00:00:00.000+00:00"
    document["games"].append(copy.deepcopy(document["games"][0]))
    document["games"][-1]["id"] = "brandnewgame"
    document["games"][-1]["creation_key"] = None
    before = rows(app)
    response = post_import(client, document)
    assert response.status_code == 409
    assert history[2] in response.get_json()["error"]
    assert rows(app) == before  # not even the new game went in


def test_the_import_is_json_and_refused_above_its_own_limit(client, history, tmp_path,
                                                          monkeypatch):
    assert client.post("/api/games/import", data="{}",
                       content_type="text/plain").status_code == 415
    assert client.post("/api/games/import", data="{not json",
                       content_type="application/json").status_code == 400
    text = client.get("/games/export.json").get_data(as_text=True)
    other = create_app({"TESTING": True, "DATABASE": str(tmp_path / "other.sqlite3")})
    monkeypatch.setattr(transfer_views, "MAX_IMPORT_BYTES", 1000)
    response = other.test_client().post("/api/games/import", data=text,
                                        content_type="application/json",
                                        headers={"Accept-Language": "en"})
    assert response.status_code == 413 and "at most" in response.get_json()["error"]
    assert other.test_client().get("/games/export.json").get_json()["games"] == []


def test_a_big_export_is_imported_above_the_apis_64_kib(client, api, tmp_path):
    game = api.new_game(sides=["Nous", "Eux"])["id"]
    for _ in range(70):  # 420 events that score nothing
        for _ in range(5):
            api.event(game, type="next_deal")
        assert api.event(game, type="end_hand", cards=[20, None]).status_code == 200
    text = client.get("/games/export.json").get_data(as_text=True)
    assert len(text.encode()) > 64 * 1024
    other = create_app({"TESTING": True, "DATABASE": str(tmp_path / "other.sqlite3")})
    response = other.test_client().post("/api/games/import", data=text,
                                        content_type="application/json")
    assert response.status_code == 200 and response.get_json()["imported"] == [game]
    assert other.test_client().get(f"/api/games/{game}").get_json()["hand"] == 71


def test_the_import_page_takes_a_file_and_says_what_it_did(client, history, tmp_path):
    exported = client.get("/games/export.json").get_data()
    other = create_app({"TESTING": True, "DATABASE": str(tmp_path / "other.sqlite3")})
    browser = other.test_client()
    browser.set_cookie("lang", "fr")
    form = forms_of(browser.get("/games/import").get_data(as_text=True))[0]
    data = dict(form.fields)
    data["file"] = (io.BytesIO(exported), "export.json")
    response = browser.post(form.action, data=data, content_type="multipart/form-data")
    assert response.status_code == 303 and response.headers["Location"] == "/games"
    assert "4 parties importées." in browser.get("/games").get_data(as_text=True)

    data["file"] = (io.BytesIO(exported[:500]), "cut.json")
    response = browser.post(form.action, data=data, content_type="multipart/form-data")
    assert response.headers["Location"] == "/games/import"
    assert "pas du JSON valide" in browser.get("/games/import").get_data(as_text=True)
    # Without its CSRF token, nothing is read.
    data = {"file": (io.BytesIO(exported), "export.json")}
    response = browser.post(form.action, data=data, content_type="multipart/form-data")
    assert response.headers["Location"] == "/games/import"


def test_a_game_export_of_no_game_is_404(client):
    assert client.get("/games/nosuchgame/export.json").status_code == 404


def test_two_phones_records_go_through_an_export_and_an_import(client, tmp_path):
    """A `same` record, a record placed in the deal another phone left, and
    an Undo of an earlier record (docs/BOARD.md, "Two phones"): exported
    with their `place`, imported into a fresh store, the same game."""
    game = client.post("/api/games", json={"sides": ["A", "B"]}).get_json()["id"]
    api = f"/api/games/{game}"

    def tap(event, seen, device, key, path="/events"):
        answer = client.post(api + path, json={**event, "expected_version": seen,
                                               "device": device},
                             headers={"Idempotency-Key": key})
        assert answer.status_code == 200, answer.get_json()

    tap({"type": "missa", "side": 0}, 0, "a", "a1")
    tap({"type": "missa", "side": 0}, 0, "b", "b1")  # the same Missa: a `same` record
    tap({"type": "next_deal"}, 2, "a", "a2")
    tap({"type": "missa", "side": 1}, 2, "b", "b2")  # of deal 1, placed before the Next deal
    tap({"type": "adjust", "side": 0, "points": 2}, 4, "a", "a3")
    tap({}, 3, "b", "b3", path="/undo")  # b's Missa, not the last event
    before = client.get(api).get_json()
    document = client.get("/games/export.json").get_json()
    assert any("place" in record for record in document["games"][0]["log"])
    target = create_app({"TESTING": True, "DATABASE": str(tmp_path / "target.sqlite3")})
    target_client = target.test_client()
    assert post_import(target_client, document).status_code == 200
    after = target_client.get(api).get_json()
    assert (after["scores"], after["deal"], after["version"]) == (
        before["scores"], before["deal"], before["version"])
