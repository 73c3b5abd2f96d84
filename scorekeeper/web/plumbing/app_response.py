"""The app's response class: Flask's, with text that cannot be encoded
written with a replacement character instead of failing.

A lone surrogate ("\\ud800", which JSON can spell) is a str that UTF-8
cannot encode. Echoed in a page (a refusal's sentence, flashed), it made
the page fail after its view had run, and so did the error page showing the
same flashed message: a bare 500 on every page until the cookies were
cleared. Inputs are refused before such text is stored; this is the net.
"""

from flask import Response as FlaskResponse


class Response(FlaskResponse):
    def set_data(self, value) -> None:
        if isinstance(value, str):
            value = value.encode("utf-8", "replace")
        super().set_data(value)


def add_vary(response: FlaskResponse, *names: str) -> None:
    """Add header names to the response's Vary, as text: werkzeug's HeaderSet
    (`response.vary`) parses and rewrites the header, which cost a tap more
    than the hooks' own decisions, on every tap."""
    present = response.headers.get("Vary")
    if not present:
        response.headers["Vary"] = ", ".join(names)
        return
    known = {name.strip().lower() for name in present.split(",")}
    missing = [name for name in names if name.lower() not in known]
    if missing:
        response.headers["Vary"] = ", ".join([present, *missing])
