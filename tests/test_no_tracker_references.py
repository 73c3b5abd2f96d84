"""No reference to a tracker the reader cannot open: a comment, a docstring,
a document or a test name says the reason in words ("a double tap on Undo took
back two events"), not where it was once written down (an issue's or a table
trial's number, a finding's "#4" or "F-a"). A link to an outside project's own
bug tracker is a place anyone can open, so addresses are let be."""

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Each form as it was written in this code before.
TRACKER = re.compile(
    r"""
    (?<![a-z])(?:issue|playtest)s?[\s,_]*\#?\d+      # "issue 14", "issues 6", "test_issue_14"
    | (?<![a-z])(?:finding|item)s?[\s,]*\#?\d+      # "finding 7", "items 8, 9 and 13"
    | (?<![a-z])playtest                             # a table trial, numbered or not
    | (?:^|(?<=[\s(,]))\#\d{1,2}\b                   # "#4" (a colour has 3 hex digits or more)
    | (?-i:\bF-[a-f]\b)                              # a finding's label, "F-a"
    """,
    re.IGNORECASE | re.VERBOSE,
)
ADDRESS = re.compile(r"\b[a-z][a-z+.-]*://\S+", re.IGNORECASE)
# The versions the tests passed with are not prose, and this file's examples
# are references on purpose. Files that are not text (images, videos, the test
# stores) are left out by their bytes.
LEFT_OUT = {"constraints.txt", Path(__file__).relative_to(ROOT).as_posix()}


def tracked_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    names = [name for name in listed.stdout.decode("utf-8").split("\0") if name]
    return [ROOT / name for name in names if name not in LEFT_OUT]


def text_of(path: Path) -> str | None:
    try:
        data = path.read_bytes()
    except FileNotFoundError:  # deleted in the work tree, not yet in git
        return None
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def references(text: str) -> list[tuple[int, str]]:
    """(line number, the reference) for each one in the text, addresses aside."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for match in TRACKER.finditer(ADDRESS.sub("", line)):
            found.append((number, match.group(0)))
    return found


@pytest.mark.parametrize("written", [
    "issue 14", "Issue 7's measurements", "(issues 6 and 13)", "issue #4",
    "(playtest 1, #4)", "Playtest 2 #10 and #16", "the playtest's skipped deal",
    "(playtest 4, finding 4)", "(finding 7)", "(item 13)", "items 8, 9 and 13",
    "Playtest 2, F-a and F-e", "Step 7 of issue 14", "def test_issue_14_", "test_playtest3",
])
def test_each_form_of_a_reference_is_caught(written):
    assert references(written)


@pytest.mark.parametrize("written", [
    "https://github.com/microsoft/playwright/issues/4",
    "--text: #111827;", 'dark="#000"', "&#1589;", '"#,##0"', "[#0 +-]*", "round 2 of 3", "One flex item: the gap",
    "a known issue of Chromium's", "commit 03e48bb", "tissue 3", "item_2 = pair",
])
def test_what_is_no_reference_is_let_be(written):
    assert references(written) == []


def test_no_file_refers_to_a_tracker():
    found = [f"{path.relative_to(ROOT)}:{number}: {reference}"
             for path in tracked_files() if (text := text_of(path)) is not None
             for number, reference in references(text)]
    assert found == [], "say the reason in words instead:\n" + "\n".join(found)
