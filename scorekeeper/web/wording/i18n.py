"""Which language a request is answered in: ?lang=, then the cookie, then
the browser's Accept-Language, then French. A ?lang= choice is kept in a
cookie, so the switcher works without JavaScript."""

from itertools import chain
from urllib.parse import urlencode

from flask import Flask, Response, request
from flask_babel import Babel, get_locale
from markupsafe import Markup

from ..plumbing.app_response import add_vary
from ..plumbing.local_paths import local_path
from . import catalogs, elision
from .translate import language

LANGUAGES = ("fr", "ar", "en")
DEFAULT_LANGUAGE = "fr"
RIGHT_TO_LEFT = {"ar"}
LANGUAGE_COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 3600
# Each language by its own name (endonyms are never translated).
LANGUAGE_NAMES = {"fr": "Français", "ar": "العربية", "en": "English"}


def select_language() -> str:
    for choice in (request.args.get("lang"), request.cookies.get(LANGUAGE_COOKIE)):
        if choice in LANGUAGES:
            return choice
    return request.accept_languages.best_match(LANGUAGES) or DEFAULT_LANGUAGE


# How a list's items are separated: Arabic has its own comma.
LIST_SEPARATORS = {"ar": "، "}


def join_list(items) -> str:
    """Items in a row, with the language's own comma ("A, B"; «A، B»)."""
    items = list(items)
    separator = LIST_SEPARATORS.get(language(), ", ")
    if any(isinstance(item, Markup) for item in items):  # a page's: its names in <bdi>
        return Markup(separator).join(items)
    return separator.join(str(item) for item in items)


def text_direction(language: str) -> str:
    return "rtl" if language in RIGHT_TO_LEFT else "ltr"


def right_to_left() -> bool:
    """Whether this request's page reads right to left."""
    return text_direction(language()) == "rtl"


def language_links() -> list[dict]:
    """The switcher's links: this very page (its query kept, but not a typed
    access key) in each language."""
    query = [(k, v) for k, v in request.args.items(multi=True) if k not in ("lang", "key")]
    return [
        {"code": code, "name": name,
         "url": local_path(request.path) + "?" + urlencode(query + [("lang", code)])}
        for code, name in LANGUAGE_NAMES.items()
    ]


def plural_samples() -> list[tuple[str, int]]:
    """One number of each CLDR plural category of the page's language, for a
    plural text that the page's script fills with a count: it picks the form
    with Intl.PluralRules, which names the same CLDR categories."""
    rule = get_locale().plural_form
    samples: dict[str, int] = {}
    for number in chain(range(200), (1_000_000,)):
        samples.setdefault(rule(number), number)
    return sorted(samples.items())


def remember_choice(response: Response) -> Response:
    """`?lang=xx` on any page: keep the choice for the next pages. The API
    keeps none (its answers follow the request alone), so a tap reads no query."""
    choice = None if request.path.startswith("/api/") else request.args.get("lang")
    if choice in LANGUAGES and request.cookies.get(LANGUAGE_COOKIE) != choice:
        response.set_cookie(LANGUAGE_COOKIE, choice, max_age=COOKIE_AGE,
                            httponly=True, samesite="Lax")
    if request.endpoint != "static":  # a page's words depend on both
        add_vary(response, "Accept-Language", "Cookie")
    return response


def init_app(app: Flask) -> None:
    # Before Babel reads them: every language's catalog, compiled and current.
    folders = app.config["BABEL_TRANSLATION_DIRECTORIES"].split(";")
    for compiled in catalogs.ensure_compiled(folders, LANGUAGES):
        app.logger.info("compiled %s", compiled)
    Babel(app, locale_selector=select_language)
    elision.init_app(app)  # the templates' gettext: "d'Eux", not "de Eux"
    app.after_request(remember_choice)


def language_context() -> dict:
    """What every page knows of its language (a context processor)."""
    code = str(get_locale() or DEFAULT_LANGUAGE)
    return {"language": code, "direction": text_direction(code),
            "language_links": language_links, "plural_samples": plural_samples}
