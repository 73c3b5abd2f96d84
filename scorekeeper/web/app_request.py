"""The app's request class: Flask's, with a query string that is not UTF-8
read instead of failing.

Browsers percent-encode what they send, but a script may put raw bytes in
the request line (`GET /?x=\xff`). Werkzeug's own `args` then raises
UnicodeDecodeError, on every page (the language is chosen from `?lang=`) and
again on the error page: a bare 500. Here such bytes stay percent-encoded
(`%FF`), as werkzeug already leaves a percent-encoded byte that is not UTF-8.
"""

from urllib.parse import parse_qsl

from flask import Request as FlaskRequest
from werkzeug.utils import cached_property

# Registered by werkzeug.urls (imported by werkzeug's request): quotes the
# bytes a codec could not read.
QUOTE_BAD_BYTES = "werkzeug.url_quote"


class Request(FlaskRequest):
    @cached_property
    def args(self):
        return self.parameter_storage_class(parse_qsl(
            self.query_string.decode("utf-8", QUOTE_BAD_BYTES),
            keep_blank_values=True, errors=QUOTE_BAD_BYTES,
        ))
