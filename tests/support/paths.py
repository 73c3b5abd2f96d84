"""Where things are: the repository, the tests' own data."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
ROOT = TESTS.parent
DATA = TESTS / "data"
# Written once by the first schema (data/make_schema_v1.py, frozen); never changes.
FIRST_SCHEMA = DATA / "schema_v1.sqlite3"
