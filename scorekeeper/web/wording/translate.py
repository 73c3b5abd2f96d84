"""Flask-Babel's gettext family, with the request's catalog and language
looked up once per request.

Flask-Babel finds the catalog again for every string it translates: half a
dozen lookups of the request's context, and the locale's name made again,
each time. A board asks for a few hundred strings (its forms' labels, the
log's words, the template's own), and those lookups took about a fifth of a
page's time (cProfile over tests/web/test_fuzz_forms.py). Here the catalog
and the language's code are kept beside the locale Flask-Babel chose for
the request (its context on flask.g, which is why pyproject.toml bounds its
version), and found again when that locale changes (force_locale, refresh).
Outside a request, Flask-Babel's own answers.

The modules that may not import the wording (web/plumbing, web/guard) use
Flask-Babel's, on their few error pages.
"""

from flask import g, has_app_context
from flask_babel import get_locale, get_translations
from flask_babel.speaklater import LazyString


def _words():
    """(the request's locale, its catalog, its code), or None outside a request."""
    if not has_app_context():
        return None
    context = g.get("_flask_babel")  # Flask-Babel's own, made by its first lookup
    words = getattr(context, "ronda_words", None)
    if words is not None and words[0] is getattr(context, "babel_locale", None):
        return words
    catalog = get_translations()
    locale = get_locale()
    g._flask_babel.ronda_words = words = (locale, catalog, str(locale))
    return words


def translations():
    """The request's catalog (a babel.support.Translations)."""
    words = _words()
    return get_translations() if words is None else words[1]


def language() -> str:
    """The request's language code ("fr", "ar", "en"); "None" outside a request."""
    words = _words()
    return str(get_locale()) if words is None else words[2]


def gettext(message: str, **values) -> str:
    text = translations().ugettext(message)
    return text % values if values else text


def ngettext(singular: str, plural: str, num: int, **values) -> str:
    values.setdefault("num", num)
    return translations().ungettext(singular, plural, num) % values


def pgettext(context: str, message: str, **values) -> str:
    text = translations().upgettext(context, message)
    return text % values if values else text


def lazy_gettext(message: str, **values) -> LazyString:
    """Translated when it is read, in the language of the request reading it."""
    return LazyString(gettext, message, **values)


# The names the call sites write (and `pybabel extract -k _l` looks for).
_ = gettext
_l = lazy_gettext
