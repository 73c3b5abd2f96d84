"""Answers compressed with gzip for the clients that accept it, so that a
phone on a weak Wi-Fi loads a page in few bytes.

Text only (pages, JSON, CSS, JavaScript, SVG, the manifest, CSV), and only
when it pays: a body of at least MIN_BYTES that comes out smaller. Static
files are read from their file to be compressed; a response streamed by a
view (an export, say) is left as it is rather than held in memory.
"""

import gzip

from flask import Flask, Response, request

from .app_response import add_vary

MIN_BYTES = 512  # below this, gzip's own header and trailer eat the gain
LEVEL = 6  # zlib's default: nearly the size of 9 at a fraction of its time
TEXT_TYPES = {
    "text/html", "text/css", "text/plain", "text/csv", "text/javascript",
    "application/javascript", "application/json", "application/manifest+json",
    "image/svg+xml",
}
NO_BODY = {204, 206, 304}


def compress(response: Response) -> Response:
    if response.mimetype not in TEXT_TYPES:
        return response
    # Whatever the answer, a cache must not give one client's encoding to another.
    add_vary(response, "Accept-Encoding")
    accepted = request.environ.get("HTTP_ACCEPT_ENCODING", "").lower()
    if "gzip" not in accepted and "*" not in accepted:
        return response  # asked for no gzip (the parsing below is what costs)
    if (
        request.method == "HEAD"
        or response.status_code < 200
        or response.status_code in NO_BODY
        or "Content-Encoding" in response.headers
        or request.accept_encodings["gzip"] <= 0
    ):
        return response
    if response.direct_passthrough:
        response.direct_passthrough = False  # a static file: read it, to compress it
    elif response.is_streamed:
        return response
    data = response.get_data()
    if len(data) < MIN_BYTES:
        return response
    packed = gzip.compress(data, compresslevel=LEVEL, mtime=0)
    if len(packed) >= len(data):
        return response
    response.set_data(packed)
    response.headers["Content-Encoding"] = "gzip"
    etag, weak = response.get_etag()
    if etag and not weak:
        # The same content in another encoding: a weak validator still
        # matches If-None-Match, so a revalidation can answer 304.
        response.set_etag(etag, weak=True)
    return response


def init_app(app: Flask) -> None:
    app.after_request(compress)
