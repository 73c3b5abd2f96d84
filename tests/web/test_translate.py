"""The request's words, looked up once per request (web/wording/translate.py):
the same words as Flask-Babel's, in the request's language, and again when
that language changes within the request."""

import flask_babel
from flask_babel import force_locale

from scorekeeper.web.wording import translate

# A sentence, a plural, a sentence with a context (a side's pronoun) and a label.
MESSAGE = "The server could not take this tap: reload the page, then check the score."
SINGULAR, PLURAL = "%(num)s game", "%(num)s games"
CONTEXT, ABOUT = "we", "%(name)s won"
LABEL = "Target score"


def words() -> tuple:
    return (translate.gettext(MESSAGE), translate.ngettext(SINGULAR, PLURAL, 1),
            translate.ngettext(SINGULAR, PLURAL, 5), translate.pgettext(CONTEXT, ABOUT),
            str(translate.lazy_gettext(LABEL)), translate.language())


def flask_babels_words() -> tuple:
    return (flask_babel.gettext(MESSAGE), flask_babel.ngettext(SINGULAR, PLURAL, 1),
            flask_babel.ngettext(SINGULAR, PLURAL, 5), flask_babel.pgettext(CONTEXT, ABOUT),
            str(flask_babel.lazy_gettext(LABEL)), str(flask_babel.get_locale()))


def test_each_request_gets_its_own_languages_words(app):
    seen = {}
    for language in ("fr", "ar", "en", "fr"):
        with app.test_request_context(f"/?lang={language}"):
            seen[language] = words()
            assert seen[language] == flask_babels_words()
            assert seen[language][-1] == language
    assert len({seen[language][0] for language in seen}) == 3  # three languages, three sentences


def test_a_language_forced_within_a_request_is_followed_then_left(app):
    with app.test_request_context("/?lang=fr"):
        french = words()
        for language in ("ar", "en"):
            with force_locale(language):
                assert words() == flask_babels_words()
                assert words()[-1] == language
            assert words() == french


def test_a_lazy_label_is_read_in_the_language_of_the_request_reading_it(app):
    label = translate.lazy_gettext(LABEL)
    read = []
    for language in ("fr", "en"):
        with app.test_request_context(f"/?lang={language}"):
            read.append(str(label))
    assert read[1] == LABEL and read[0] != LABEL


def test_outside_a_request_the_words_are_the_messages_themselves():
    assert translate.gettext(MESSAGE) == MESSAGE
    assert translate.ngettext(SINGULAR, PLURAL, 2) == "2 games"
