"""The service worker's script (static/sw.js), served at the site's root.

A worker serves only the pages under its own address: at /sw.js its scope
is every page, the board's included, with no header to widen it. Browsers
ask for it again at each visit: `no-cache` makes a new version of the app
bring its worker at once, where static files keep theirs for a year.
"""

from flask import Flask, Response, current_app

from . import slim

PATH = "/sw.js"


def script() -> Response:
    response = slim.slim(current_app.make_response(current_app.send_static_file("sw.js")))
    response.headers["Cache-Control"] = "no-cache"
    return response


def init_app(app: Flask) -> None:
    app.add_url_rule(PATH, "service_worker", script)
