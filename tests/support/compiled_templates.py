"""Each template compiled once per test process, not once per app.

The tests build a new app for almost every test (a store of its own), and a
new app's Jinja environment compiles every template it renders again: the
board alone took longer than most tests. Flask passes `Flask.jinja_options`
to every app's environment; a bytecode cache held in memory and shared by
them all hands each later app the code the first one compiled. Jinja checks
each template's source against the code's checksum, so an edited template
is compiled again."""

from flask import Flask
from jinja2 import BytecodeCache


class InMemory(BytecodeCache):
    """Compiled templates, by Jinja's key (the template's name and file)."""

    def __init__(self):
        self.codes: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        code = self.codes.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket) -> None:
        self.codes[bucket.key] = bucket.bytecode_to_string()


def share_compiled_templates() -> None:
    """From now on, every Flask app of this process shares one cache."""
    if "bytecode_cache" not in Flask.jinja_options:
        Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": InMemory()}
