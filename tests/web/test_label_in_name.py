"""WCAG 2.5.3, label in name: a board control whose
accessible name is its aria-label begins that name with the words it shows
("5 Khamsa pour Nous" for the button that shows "5 Khamsa"), so that a
voice-control user says what they see; the names stay unique per side. An
icon (✕) shows no words and is named by its label alone."""

import re
from html import unescape

import pytest

from support.pages import start_game

LABELLED = re.compile(r'<(a|button)\b([^>]*\baria-label="([^"]*)"[^>]*)>(.*?)</\1>', re.S)


def shown(inner: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", inner)).split())


@pytest.mark.parametrize("language", ["fr", "ar", "en"])
@pytest.mark.parametrize("players, names", [("2", ("Nous", "Eux", "")),
                                            ("3", ("Ali", "Karim", "Omar"))])
def test_every_labelled_board_control_begins_its_name_with_its_words(
        client, language, players, names):
    client.set_cookie("lang", language)
    board = start_game(client, players=players, names=names)
    page = client.get(board).get_data(as_text=True)
    labelled = [(unescape(label), shown(inner)) for _, _, label, inner in LABELLED.findall(page)]
    hits = [(label, text) for label, text in labelled if re.match(r"\d", text)]
    assert len(hits) == 3 * int(len([n for n in names if n]))
    for label, text in labelled:
        if re.search(r"\w", text):
            assert label.startswith(text), (label, text)
    assert len({label for label, _ in labelled}) == len(labelled)  # one name per control
