"""Answers are gzip-compressed for clients that accept it: fewer bytes on the
table's Wi-Fi."""

import gzip

import pytest

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def unpacked(response) -> bytes:
    assert response.headers.get("Content-Encoding") == "gzip"
    return gzip.decompress(response.data)


@pytest.mark.parametrize("path", ["/static/style.css", "/static/board.js",
                                  "/static/manifest.webmanifest"])
def test_a_static_text_file_comes_compressed_and_whole(client, path):
    plain = client.get(path)
    packed = client.get(path, headers=GZIP)
    assert packed.status_code == plain.status_code == 200
    assert unpacked(packed) == plain.data
    assert len(packed.data) < len(plain.data)
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert packed.headers["Cache-Control"] == plain.headers["Cache-Control"]


def test_a_compressed_static_file_can_still_be_revalidated(client):
    first = client.get("/static/style.css", headers=GZIP)
    assert first.headers["ETag"].startswith('W/"')
    again = client.get("/static/style.css",
                       headers={**GZIP, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and not again.data


def test_a_page_comes_compressed(client):
    response = client.get("/", headers=GZIP)
    assert response.status_code == 200
    assert unpacked(response).lstrip().lower().startswith(b"<!doctype html>")
    assert "Accept-Encoding" in response.headers["Vary"]


def test_a_game_state_comes_compressed_and_equal(client, api):
    game = api.new_game(sides=["Nous", "Eux"])
    plain = client.get(f"/api/games/{game['id']}")
    packed = client.get(f"/api/games/{game['id']}", headers=GZIP)
    assert unpacked(packed) == plain.data


def test_nothing_is_compressed_for_a_client_that_does_not_ask(client):
    response = client.get("/static/style.css")
    assert "Content-Encoding" not in response.headers
    assert "Accept-Encoding" in response.headers["Vary"]
    refused = client.get("/static/style.css", headers={"Accept-Encoding": "gzip;q=0"})
    assert "Content-Encoding" not in refused.headers


def test_small_bodies_images_and_heads_are_left_alone(client):
    error = client.get("/api/games/nosuchgame", headers=GZIP)  # a short JSON error
    assert error.status_code == 404 and "Content-Encoding" not in error.headers
    image = client.get("/static/icon-192.png", headers=GZIP)
    assert image.status_code == 200 and "Content-Encoding" not in image.headers
    head = client.head("/static/style.css", headers=GZIP)
    assert head.status_code == 200 and "Content-Encoding" not in head.headers


@pytest.mark.parametrize("path, comment", [("/static/board.js", b"\n  // "),
                                           ("/static/style.css", b"/*")])
def test_the_script_and_style_sheet_are_served_without_their_comments(client, path, comment):
    from pathlib import Path

    from scorekeeper.web.plumbing.assets import BUNDLES

    served = client.get(path).data
    name = path.rsplit("/", 1)[1]
    source = b"".join((Path(client.application.static_folder) / part).read_bytes()
                      for part in BUNDLES.get(name, (name,)))
    assert comment in source and comment not in served
    assert len(served) < len(source)
    head = client.head(path)
    assert int(head.headers["Content-Length"]) == len(served)


@pytest.mark.parametrize("accepted", ["GZIP", "*", "br, gzip;q=0.5", "identity, *;q=0.1"])
def test_gzip_named_in_any_case_or_by_a_wildcard_is_honoured(client, accepted):
    response = client.get("/", headers={"Accept-Encoding": accepted})
    assert unpacked(response).lstrip().lower().startswith(b"<!doctype html>")


def test_an_api_answer_names_each_header_it_varies_on_once(client, api):
    game = api.new_game(sides=["Nous", "Eux"])
    for response in (client.get(f"/api/games/{game['id']}"),
                     client.get(f"/api/games/{game['id']}", headers=GZIP),
                     api.event(game["id"], type="missa", side=0)):
        names = [name.strip() for name in response.headers["Vary"].split(",")]
        assert sorted(names) == ["Accept-Encoding", "Accept-Language", "Cookie"]
