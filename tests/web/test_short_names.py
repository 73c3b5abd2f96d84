"""A long name is cut between its words, never dropped nor cut at a word's
start: the Undo's label keeps every side's name within its two lines,
whatever the event."""

import html
import re
import unicodedata

import pytest

from scorekeeper import engine
from scorekeeper.web.wording import describe

TEAMS = ("Karim & Salma", "Abdelkader & Mohammed")


def test_a_name_is_cut_between_its_words_keeping_its_start_and_its_end():
    assert describe.short_name("Abdelkader & Mohammed", 19) == "Abdelkader…Mohammed"
    assert describe.short_name("Abdelkader & Mohammed", 11) == "Abdelkader…"
    assert describe.short_name("Karim", 11) == "Karim"
    assert len(describe.short_name("x" * 40, 26)) == 26


@pytest.mark.parametrize("name, length, shown", [
    ("Youssef & نادية", 14, "Youssef…نادية"),
    ("Youssef & نادية", 11, "Youss…نادية"),  # was "Youss…ادية": نادية without its ن
    ("عبد الرحمن & محمد الأمين", 15, "عبد…محمد الأمين"),
    ("Abdelkader & Mohammed", 12, "Abd…Mohammed"),
    ("Karim & Salma", 7, "Karim…"),
])
def test_no_word_loses_a_letter_at_its_start(name, length, shown):
    assert describe.short_name(name, length) == shown
    head, _, tail = shown.partition("…")
    assert name.startswith(head) and (not tail or name.endswith(" " + tail))


def test_a_single_long_word_is_cut_at_its_end_between_two_letters_as_drawn():
    vowelled = "مُحَمَّدٌ" * 5  # each letter with its vowel signs
    cut = describe.short_name(vowelled, 8)
    assert cut.endswith("…") and vowelled.startswith(cut[:-1])
    assert not unicodedata.combining(vowelled[len(cut) - 1])  # no sign left without its letter


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
@pytest.mark.parametrize("event", [
    {"type": "end_hand", "cards": [22, None]},
    {"type": "announce", "announcements": [{"side": 0, "kind": "ronda"},
                                           {"side": 0, "kind": "tringa"},
                                           {"side": 1, "kind": "ronda"},
                                           {"side": 1, "kind": "ronda"}]},
    {"type": "missa", "side": 1},
], ids=lambda e: e["type"])
def test_the_undo_label_keeps_every_name_in_its_room(app, language, event):
    setup = engine.Setup(TEAMS, 4)
    with app.test_request_context(headers={"Cookie": f"lang={language}"}):
        label = str(describe.event_label(engine.parse_event(event, setup), TEAMS))
    # Each name an isolate; a team's whole name, its partners' each, "&" between them.
    text = html.unescape(re.sub(r"<[^>]+>", "", label))
    names = [first + (f" & {second}" if second else "") for first, second in re.findall(
        "\u2068([^\u2069]*)\u2069(?: & \u2068([^\u2069]*)\u2069)?", text)]
    wanted = sorted({a["side"] for a in event.get("announcements", [])}) or (
        [event["side"]] if "side" in event else [0, 1])
    assert len(names) == len(wanted)
    for name, side in zip(names, wanted):
        head, _, tail = name.partition("…")
        assert TEAMS[side].startswith(head) and TEAMS[side].endswith(tail) and len(head) >= 3
    shown = html.unescape(label.replace("<bdi>", "").replace("</bdi>", "").replace(
        "\u2068", "").replace("\u2069", ""))
    # Within its room, or every cut name as short as a name is cut (then the
    # label's two lines still hold it: tests/browser/test_words_keep_the_names.py).
    cut = [name for name in names if "…" in name]
    assert len(shown) <= describe.UNDO_LABEL_CHARS or all(
        len(name) <= describe.SHORTEST_NAME for name in cut)
