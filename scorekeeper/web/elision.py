"""French elision before a name: "la Ronda d'Eux", "2 parties d'Ali".

The French catalog writes "de %(side)s"; whether it reads "de" or "d'" is
the name's to say, and the name is known only when the sentence is made.
Every template's gettext and ngettext go through `elide` (init_app), as do
the sentences made in Python that may put a name after "de" (`say`, a
refusal's sentence). A translation never writes "de" before a vowel itself,
so only the values are concerned.
"""

import re
from typing import Mapping

from flask import Flask
from flask_babel import get_locale, get_translations, gettext
from jinja2 import pass_context
from markupsafe import Markup

# "de" or "que" right before a value: "de %(name)s", "que %(side)s".
BEFORE_VALUE = re.compile(r"\b(d|qu)e (?=%\((\w+)\)s)", re.IGNORECASE)
# A value that begins with a vowel. Not y nor h, which a name may begin with
# as a consonant: "de Yasmine", "de Hamid".
VOWEL = re.compile(r"[aeiouàâäéèêëîïôöùûüœæ]", re.IGNORECASE)
# What may come before a name's first letter: a tag (<bdi>), a direction isolate.
LEADING = re.compile(r"^(?:<[^>]*>|[\u2066-\u2069\s])+")


def _begins_with_vowel(value) -> bool:
    return isinstance(value, str) and bool(VOWEL.match(LEADING.sub("", value)))


def elide(template: str, values: Mapping) -> str:
    """`template` (a translation, not yet filled) with "de"/"que" elided
    before the values that begin with a vowel, when the page is French."""
    if not values or str(get_locale()) != "fr":
        return template
    return BEFORE_VALUE.sub(
        lambda match: match.group(1) + "'" if _begins_with_vowel(values.get(match.group(2)))
        else match.group(0), template)


def say(message: str, **values) -> str:
    """flask_babel.gettext, elided: for a sentence made in Python."""
    return elide(gettext(message), values) % values if values else gettext(message)


def sentence(error, translate=gettext, event_text=None) -> str:
    """A refusal's sentence (engine.errors.ScoringError) through `translate`,
    elided before the names it carries."""
    return error.sentence(lambda message: elide(translate(message), error.params or {}),
                          event_text)


@pass_context
def _template_gettext(context, string: str, /, **values) -> str:
    # As Jinja's own (jinja2.ext's newstyle gettext), with the elision.
    template = elide(get_translations().ugettext(string), values)
    return (Markup(template) if context.eval_ctx.autoescape else template) % values


@pass_context
def _template_ngettext(context, singular: str, plural: str, count: int, /, **values) -> str:
    values.setdefault("num", count)  # a template may give its own num ("{num}", for the script)
    template = elide(get_translations().ungettext(singular, plural, count), values)
    return (Markup(template) if context.eval_ctx.autoescape else template) % values


def init_app(app: Flask) -> None:
    """After Flask-Babel's: the templates' gettext and ngettext elide."""
    app.jinja_env.globals.update(gettext=_template_gettext, _=_template_gettext,
                                 ngettext=_template_ngettext)
