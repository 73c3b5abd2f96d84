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
