# Our own, not a minifier: taking out comments and indentation needs no dependency a phone must install.
"""The script and the style sheet are served without their comments and
their indentation.

The files keep them for their readers; a phone gets the same code, a
quarter smaller once gzipped, which keeps a first visit within its
25 KB target (docs/PERFORMANCE.md). Only what cannot be code is taken out: whole
lines of `//` comment in JavaScript (no line of board.js starts a string or
a template with `//`), a `//` comment at the end of a line of code after a
`;`, `{`, `}`, `,` or `(` (none of ours comes inside a string or a regular
expression there), `/* ... */` in CSS (no rule holds those in a string), the
spaces that begin a line and the lines left empty (no string of ours spans
lines: the scripts have no template literal and no line continued by a
backslash).
tests/web/test_script_bundle.py checks each of these.

The pages' templates are read without the spaces that begin their lines,
once, when Jinja compiles them: a page costs nothing more to draw, and a
board's page about 100 bytes less once gzipped. No template holds a <pre>,
a <textarea> or an attribute value over several lines, and the one element
whose text keeps its line breaks (a count's needs, `white-space: pre-line`)
drops the spaces that begin a line itself.
"""

import os
import re
from functools import lru_cache, wraps

from flask import Flask, Response
from jinja2 import FileSystemLoader

JS_TYPES = {"text/javascript", "application/javascript"}
JS_COMMENT_LINE = re.compile(rb"^[ \t]*//[^\n]*\n", re.M)
JS_TRAILING_COMMENT = re.compile(rb"(?<=[;{},(])[ \t]+//[^\n]*$", re.M)
CSS_COMMENT = re.compile(rb"/\*.*?\*/\n?", re.S)
INDENT = re.compile(rb"^[ \t]+", re.M)
EMPTY_LINES = re.compile(rb"\n\n+")
TEMPLATE_INDENT = re.compile(r"^[ \t]+", re.M)


class UnindentedLoader(FileSystemLoader):
    """The app's templates, each line without the spaces that begin it."""

    def get_source(self, environment, template):
        source, filename, uptodate = super().get_source(environment, template)
        return TEMPLATE_INDENT.sub("", source), filename, uptodate


@lru_cache(maxsize=32)
def slimmed(mimetype: str, data: bytes) -> bytes:
    if mimetype in JS_TYPES:
        data = JS_TRAILING_COMMENT.sub(b"", JS_COMMENT_LINE.sub(b"", data))
    else:
        data = CSS_COMMENT.sub(b"", data)
    return EMPTY_LINES.sub(b"\n", INDENT.sub(b"", data))


def slim(response: Response) -> Response:
    if response.status_code != 200 or (
            response.mimetype not in JS_TYPES and response.mimetype != "text/css"):
        return response
    response.direct_passthrough = False  # the file's bytes, read to be slimmed
    response.set_data(slimmed(response.mimetype, response.get_data()))
    return response


def init_app(app: Flask) -> None:
    app.jinja_loader = UnindentedLoader(os.path.join(app.root_path, app.template_folder))
    # Around the static view itself, not an after-request hook: no other
    # answer (a tap, a page) pays for the check, and a tap is the one
    # answer that must stay cheap; and so the slim
    # copy is what compress.py, an after-request hook, compresses.
    serve = app.view_functions["static"]

    @wraps(serve)
    def static(*args, **kwargs):
        return slim(app.make_response(serve(*args, **kwargs)))

    app.view_functions["static"] = static
