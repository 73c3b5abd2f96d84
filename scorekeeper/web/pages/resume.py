"""Which game the home page resumes: the one this device used last.

A device that shows or plays a game keeps its id in a cookie, and the home
page resumes that game while it runs. Without one (a new device, or its
game is over or in the bin), none is resumed for it: the home page offers
the games in progress by their names (at a club night, the game added last
was another table's). Never a clock: set back two hours, or an imported
game dated 9999, it sent the next taps to another game.
"""

import re

from flask import Flask, Response, request

COOKIE = "ronda_game"
COOKIE_AGE = 30 * 24 * 3600
GAME_ID = re.compile(r"[a-z0-9]{1,40}")
# A game used from this device: its board, its taps (forms and API).
ENDPOINTS = {"games.show", "games.play", "games.undo", "api.get_game", "api.post_event",
             "api.post_undo"}


def wanted() -> str | None:
    """The game this device used last, as its cookie says."""
    value = request.cookies.get(COOKIE, "")
    return value if GAME_ID.fullmatch(value) else None


def _sent(game_id: str) -> bool:
    """Whether the request's cookie names this game already. Without a quoted
    value, the Cookie header splits at its semicolons as werkzeug splits it,
    and its first cookie of our name is the one `wanted()` reads; anything
    stranger is left to werkzeug. Parsing every cookie cost a tap more than
    the rest of this hook, on every tap."""
    header = request.environ.get("HTTP_COOKIE", "")
    if '"' not in header:
        for part in header.split(";"):
            name, _, value = part.partition("=")
            if name.strip(" \t") == COOKIE:
                value = value.strip(" \t")
                if " " in value or "\t" in value:
                    break  # werkzeug skips such a cookie: let it say which one counts
                return value == game_id
        else:
            return False
    return wanted() == game_id


def remember(response: Response) -> Response:
    if request.endpoint not in ENDPOINTS or response.status_code >= 400:
        return response
    game_id = (request.view_args or {}).get("game_id")
    if game_id and GAME_ID.fullmatch(game_id) and not _sent(game_id):
        response.set_cookie(COOKIE, game_id, max_age=COOKIE_AGE, httponly=True, samesite="Lax")
    return response


def init_app(app: Flask) -> None:
    app.after_request(remember)
