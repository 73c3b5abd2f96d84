"""The limits the forms show are the engine's, never a copy that could
disagree: defined once in
scorekeeper/engine/limits.py, offered to every template as globals, and
written as a number by no template."""

import re
from pathlib import Path

import pytest

from scorekeeper import create_app, engine
from scorekeeper.engine import limits

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
# An input's limit typed as a number (min="0", the least count, is no rule).
LIMIT_ATTRIBUTE = re.compile(r"""\b(maxlength|minlength|max|min)\s*=\s*["']?(-?\d+)""")
# One of the engine's limits written in a template, in a text or anywhere else.
NUMBERS = re.compile(r"(?<![\w.#-])(%s)(?![\w.%%])" % "|".join(
    str(value) for value in limits.LIMITS.values()))


@pytest.mark.parametrize("template", sorted(TEMPLATES.rglob("*.html")),
                         ids=lambda path: str(path.relative_to(TEMPLATES)))
def test_no_template_writes_a_limit_of_its_own(template):
    text = template.read_text()
    typed = [m.group(0) for m in LIMIT_ATTRIBUTE.finditer(text) if m.group(2) != "0"]
    assert not typed, f"use the engine's globals ({', '.join(limits.LIMITS)}): {typed}"
    assert not NUMBERS.findall(text), "a limit of the engine's, written as a number"


def test_the_templates_globals_are_the_engines_limits(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "store.sqlite3")})
    for name, value in limits.LIMITS.items():
        assert app.jinja_env.globals[name] == value


def test_the_adjust_sheet_offers_what_the_engine_takes(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "store.sqlite3")})
    client = app.test_client()
    game_id = client.post("/api/games", json={"sides": ["A", "B"]}).get_json()["id"]
    page = client.get(f"/games/{game_id}?sheet=more",
                      headers={"Accept-Language": "en"}).get_data(as_text=True)
    limit = limits.ADJUST_LIMIT
    assert f'min="-{limit}" max="{limit}"' in page
    assert f'maxlength="{limits.NOTE_LENGTH}"' in page
    assert f"Points (−{limit} to {limit}" in page
    setup = engine.parse_new_game({"sides": ["A", "B"]})
    assert engine.parse_event({"type": "adjust", "side": 0, "points": -limit}, setup)
    with pytest.raises(engine.InvalidInput):
        engine.parse_event({"type": "adjust", "side": 0, "points": limit + 1}, setup)
