"""Headers that every response carries, pages, JSON and errors alike.

The policy allows only the app's own files: no inline script or style, nothing
from a third party, no framing (a foreign page cannot dress a score button up
as something else), and no address of a game leaking to another site.
"""

from flask import Flask

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "img-src 'self' data:",  # data: for the QR code drawn inline
    "style-src 'self'",
    "script-src 'self'",
    "worker-src 'self'",  # the service worker (/sw.js), on a secure origin
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
])

# The board's engine worker runs the phone's Python, a WebAssembly module,
# which a policy must allow by name; only that worker's script gets it (a
# worker keeps the policy its script came with), never a page.
ENGINE_WORKER_POLICY = CONTENT_SECURITY_POLICY.replace(
    "script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")
ENGINE_WORKER_PATH = "/phone/engine-worker."

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",  # frame-ancestors, for browsers that predate it
}


class HeadersOnEveryResponse:
    """WSGI middleware: the headers go on every response the app gives, even
    the bare 500 Flask falls back to when an error page itself fails (an
    after_request hook never sees that one); and a failure that escapes
    Flask altogether still gets a sentence, not the server's traceback page."""

    def __init__(self, wsgi_app, logger):
        self.wsgi_app, self.logger = wsgi_app, logger

    def __call__(self, environ, start_response):
        def start(status, headers, exc_info=None):
            present = {name.lower() for name, _ in headers}  # a view may set a stricter one
            missing = [(n, v) for n, v in HEADERS.items() if n.lower() not in present]
            if status.startswith("200") and environ.get("REQUEST_METHOD") in ("GET", "HEAD") \
                    and environ.get("PATH_INFO", "").startswith(ENGINE_WORKER_PATH):
                missing = [(n, ENGINE_WORKER_POLICY if n == "Content-Security-Policy" else v)
                           for n, v in missing]
            return start_response(status, list(headers) + missing, exc_info)

        try:
            return self.wsgi_app(environ, start)
        except Exception:
            self.logger.exception("a request failed past every error page")
            start("500 Internal Server Error", [("Content-Type", "text/plain; charset=utf-8")])
            return [LAST_RESORT]


LAST_RESORT = b"Something went wrong on our side. Nothing was changed.\n"


def init_app(app: Flask) -> None:
    app.wsgi_app = HeadersOnEveryResponse(app.wsgi_app, app.logger)
