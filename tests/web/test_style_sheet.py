"""The style sheet's blocks are closed: one missing brace (a merge can drop
one) silently puts every later rule inside the block before it, as it once
put the whole end of the sheet inside the big screen's media query."""

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "static"


@pytest.mark.parametrize("sheet", sorted(p.name for p in STATIC.glob("*.css")))
def test_every_block_of_the_style_sheets_is_closed_where_it_should_be(sheet):
    text = re.sub(r"/\*.*?\*/", "", (STATIC / sheet).read_text(), flags=re.S)
    depth, at_rules = 0, []
    for number, line in enumerate(text.splitlines(), 1):
        for char in line:
            if char == "{":
                depth += 1
                if line.lstrip().startswith("@"):
                    at_rules.append((depth, number))
            elif char == "}":
                depth -= 1
                assert depth >= 0, f"line {number}: a brace closes nothing"
                while at_rules and at_rules[-1][0] > depth:
                    at_rules.pop()
        # A rule written at the left margin is a top-level rule: nothing is open around it.
        if line[:1] not in ("", " ", "}", "@") and "{" in line:
            assert depth == line.count("{") - line.count("}") or at_rules == [], \
                f"line {number} is inside the block opened at line {at_rules[-1][1]}"
    assert depth == 0
