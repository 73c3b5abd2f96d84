"""Which language a request is answered in: ?lang=, then the cookie, then
the browser's Accept-Language, then French."""

from flask import Flask, request
from flask_babel import Babel, get_locale

LANGUAGES = ("fr", "ar", "en")
DEFAULT_LANGUAGE = "fr"
RIGHT_TO_LEFT = {"ar"}
LANGUAGE_COOKIE = "lang"


def select_language() -> str:
    for choice in (request.args.get("lang"), request.cookies.get(LANGUAGE_COOKIE)):
        if choice in LANGUAGES:
            return choice
    return request.accept_languages.best_match(LANGUAGES) or DEFAULT_LANGUAGE


def text_direction(language: str) -> str:
    return "rtl" if language in RIGHT_TO_LEFT else "ltr"


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_language)

    @app.context_processor
    def language_context():
        language = str(get_locale() or DEFAULT_LANGUAGE)
        return {"language": language, "direction": text_direction(language)}
