"""The app's request class: Flask's, with a query string that is not UTF-8
read instead of failing.

Browsers percent-encode what they send, but a script may put raw bytes in
the request line (`GET /?x=\xff`). Werkzeug's own `args` then raises
UnicodeDecodeError, on every page (the language is chosen from `?lang=`) and
again on the error page: a bare 500. Here such bytes stay percent-encoded
(`%FF`), as werkzeug already leaves a percent-encoded byte that is not UTF-8.
"""

import codecs
from urllib.parse import parse_qsl, quote

from flask import Request as FlaskRequest
from werkzeug.utils import cached_property


def quote_bad_bytes(error: UnicodeDecodeError) -> tuple[str, int]:
    """A codec's error handler: the bytes it could not read, percent-encoded."""
    return quote(error.object[error.start:error.end], safe=""), error.end


# The largest body the app takes: an import's file. The import's views raise
# a request's limit to it (views/transfer.py), and the server reads no more
# from the table's devices (server.py).
MAX_IMPORT_BYTES = 64 * 1024 * 1024

# Registered here, under a name of the app's own: werkzeug registers one like
# it, but under a name that is its internal detail.
QUOTE_BAD_BYTES = "scorekeeper.quote_bad_bytes"
codecs.register_error(QUOTE_BAD_BYTES, quote_bad_bytes)


class Request(FlaskRequest):
    @cached_property
    def args(self):
        return self.parameter_storage_class(parse_qsl(
            self.query_string.decode("utf-8", QUOTE_BAD_BYTES),
            keep_blank_values=True, errors=QUOTE_BAD_BYTES,
        ))
