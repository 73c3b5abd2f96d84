"""The board's timings: a phone gets its own, written in one place
(template_helpers.BOARD_TIMINGS) and kept by the board's script and style.css; a
server configured otherwise says so on <html>, and on nothing else."""

import re

from scorekeeper import create_app
from scorekeeper.web.pages.template_helpers import BOARD_TIMINGS
from support.paths import ROOT

PHONE = {"BOARD_POLL_MS": 1500, "BOARD_DOUBLE_TAP_MS": 600, "BOARD_SETTLE_MS": 500,
         "BOARD_OVER_SETTLE_MS": 2000, "BOARD_SAID_MS": 5000}


def html_tag(app) -> str:
    page = app.test_client().get("/").get_data(as_text=True)
    return re.search(r"<html[^>]*>", page).group(0)


def test_a_phone_gets_a_phones_timings_and_no_attribute_for_them(app):
    assert BOARD_TIMINGS == PHONE
    assert {key: app.config[key] for key in PHONE} == PHONE
    assert html_tag(app) == '<html lang="fr" dir="ltr">'


def test_the_script_and_the_style_sheet_fall_back_to_the_same_values():
    script = (ROOT / "static" / "board" / "board.js").read_text()
    assert re.search(r"POLL_MS = Number\(timings\.pollMs\) \|\| (\d+);", script).group(1) == "1500"
    assert re.search(r"DOUBLE_TAP_MS = Number\(timings\.doubleTapMs\) \|\| (\d+);",
                     script).group(1) == "600"
    outbox = (ROOT / "static" / "board" / "outbox.js").read_text()
    assert re.search(r"SAID_MS = Number\(document\.documentElement\.dataset\.saidMs\) \|\| (\d+);",
                     outbox).group(1) == "5000"
    style = (ROOT / "static" / "style.css").read_text()
    for name, attribute, seconds in [("settle", "data-settle-ms", ".5s"),
                                     ("over-settle", "data-over-settle-ms", "2s")]:
        assert f"--{name}: {seconds};" in style
        assert f"--{name}: attr({attribute} ms, {seconds});" in style
    # After a sheet's move, and on a whole page, three times the settle.
    assert "animation: settle-once 1ms calc(3 * var(--settle)) backwards;" in style
    assert ".settling.long { animation-delay: calc(3 * var(--settle)); }" in style
    assert "animation: settle-pressed 1ms var(--settle) backwards;" in style
    assert "animation: settle 1ms var(--over-settle) backwards;" in style


def test_a_server_configured_otherwise_says_so_on_html(fresh_store, monkeypatch):
    monkeypatch.setenv("FLASK_BOARD_POLL_MS", "200")  # as a live server of the tests is
    monkeypatch.setenv("FLASK_BOARD_SETTLE_MS", "50")
    app = create_app({"TESTING": True, "DATABASE": str(fresh_store)})
    assert app.config["BOARD_POLL_MS"] == 200 and app.config["BOARD_DOUBLE_TAP_MS"] == 600
    assert html_tag(app) == '<html lang="fr" dir="ltr" data-poll-ms="200" data-settle-ms="50">'
