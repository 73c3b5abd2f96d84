"""Headers that every response carries, pages, JSON and errors alike.

The policy allows only the app's own files: no inline script or style, nothing
from a third party, no framing (a foreign page cannot dress a score button up
as something else), and no address of a game leaking to another site.
"""

from flask import Flask, Response

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "img-src 'self' data:",  # data: for the QR code drawn inline
    "style-src 'self'",
    "script-src 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
])

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",  # frame-ancestors, for browsers that predate it
}


def add_headers(response: Response) -> Response:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)  # a view may set a stricter one
    return response


def init_app(app: Flask) -> None:
    app.after_request(add_headers)
