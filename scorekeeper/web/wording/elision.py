"""What a name does to the words around it, in one place: French elision
("la Ronda d'Eux"), Arabic «لـ» before a default name («روندا لنا», not
«لـنحن»), and a sentence whose subject is a side (`about`): a team's verb
in the plural ("Karim & Salma ont gagné"), a default name said as the
pronoun it is ("Nous avons gagné", «فزنا»).

French elision before a name: "la Ronda d'Eux", "2 parties d'Ali".

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
from jinja2 import pass_context
from markupsafe import Markup

from ...engine.errors import N_
from ...engine.names import DEFAULT_NAMES, DEFAULT_SIDE_NAMES
from . import translate
from .translate import gettext, language, translations

# "de" or "que" right before a value: "de %(name)s", "que %(side)s".
BEFORE_VALUE = re.compile(r"\b(d|qu)e (?=%\((\w+)\)s)", re.IGNORECASE)
# A value that begins with a vowel. Not y nor h, which a name may begin with
# as a consonant: "de Yasmine", "de Hamid".
VOWEL = re.compile(r"[aeiouàâäéèêëîïôöùûüœæ]", re.IGNORECASE)
# What may come before a name's first letter: a tag (<bdi>), a direction isolate.
LEADING = re.compile(r"^(?:<[^>]*>|[\u2066-\u2069\s])+")


def _begins_with_vowel(value) -> bool:
    return isinstance(value, str) and bool(VOWEL.match(LEADING.sub("", value)))


# Arabic «لـ» ("for", "of") right before a value, and what it makes of a
# default name: «لنا»، «لهم»، «لكم» (us, them, you), never «لـنحن».
LI_BEFORE_VALUE = re.compile(r"لـ ?%\((\w+)\)s")
LI_PRONOUNS = ("لنا", "لهم", "لكم")
TAGS = re.compile(r"<[^>]*>|[\u2066-\u2069]")
# The catalogs' contexts of a sentence about a side: a team's form, and a
# default name's (Us, Them, You), each the pronoun it is.
TEAM = "team"
PRONOUNS = ("we", "they", "you")


def pgettext(context: str, message: str) -> tuple[str, str]:
    """A marker, as engine.errors.N_: pybabel extracts each (context, message)
    the catalogs hold; `about` looks the form up at run time."""
    return context, message


# The sentences whose subject is a side that the templates say (through
# `about`), and the engine's and board's (N_ there).
SENTENCES = (N_("%(name)s won"), N_("%(side)s hid a Ronda → +%(points)s to %(to)s"),
             N_("%(side)s gets the rest of the %(deck)s cards."),
             N_("Cards taken by %(side)s"), N_("%(name)s sits this round out."),
             N_("Best %(kind)s of %(side)s"), N_("Best rank of %(side)s"),
             # A tournament's entrant: a player, or a team of two.
             N_("%(name)s won the knockout."), N_("%(name)s joins from the next round."),
             N_("%(name)s plays again from the next round."),
             N_("%(name)s plays no more rounds; the rounds played stay."))
# Every sentence whose subject is a side, and the forms the catalogs give it.
FORMS = frozenset({
    pgettext("team", "%(name)s won"), pgettext("we", "%(name)s won"),
    pgettext("they", "%(name)s won"), pgettext("you", "%(name)s won"),
    pgettext("team", "%(side)s hid a Ronda → +%(points)s to %(to)s"),
    pgettext("we", "%(side)s hid a Ronda → +%(points)s to %(to)s"),
    pgettext("they", "%(side)s hid a Ronda → +%(points)s to %(to)s"),
    pgettext("you", "%(side)s hid a Ronda → +%(points)s to %(to)s"),
    pgettext("we", "%(side)s has already announced: each player announces once per deal."),
    pgettext("they", "%(side)s has already announced: each player announces once per deal."),
    pgettext("you", "%(side)s has already announced: each player announces once per deal."),
    pgettext("we", "%(side)s has already announced twice: each partner announces once per "
                   "deal."),
    pgettext("they", "%(side)s has already announced twice: each partner announces once per "
                     "deal."),
    pgettext("you", "%(side)s has already announced twice: each partner announces once per "
                    "deal."),
    pgettext("team", "%(side)s gets the rest of the %(deck)s cards."),
    pgettext("we", "%(side)s gets the rest of the %(deck)s cards."),
    pgettext("they", "%(side)s gets the rest of the %(deck)s cards."),
    pgettext("you", "%(side)s gets the rest of the %(deck)s cards."),
    pgettext("team", "Type how many cards %(side)s took."),
    pgettext("we", "Type how many cards %(side)s took."),
    pgettext("they", "Type how many cards %(side)s took."),
    pgettext("you", "Type how many cards %(side)s took."),
    pgettext("we", "Cards taken by %(side)s"), pgettext("they", "Cards taken by %(side)s"),
    pgettext("you", "Cards taken by %(side)s"),
    pgettext("team", "%(name)s sits this round out."),
    pgettext("team", "%(name)s won the knockout."),
    pgettext("team", "%(name)s joins from the next round."),
    pgettext("team", "%(name)s plays again from the next round."),
    pgettext("team", "%(name)s plays no more rounds; the rounds played stay."),
    # A side's possessive: "our best Ronda", not "Best Ronda of Us".
    pgettext("we", "Best %(kind)s of %(side)s"), pgettext("they", "Best %(kind)s of %(side)s"),
    pgettext("you", "Best %(kind)s of %(side)s"),
    pgettext("we", "Best rank of %(side)s"), pgettext("they", "Best rank of %(side)s"),
    pgettext("you", "Best rank of %(side)s"),
    pgettext("we", "Give the rank of %(side)s's best announcement."),
    pgettext("they", "Give the rank of %(side)s's best announcement."),
    pgettext("you", "Give the rank of %(side)s's best announcement."),
})


def default_names() -> tuple[str, ...]:
    """The sides' names before any game was played, in the page's language
    (engine/names.py: Us, Them, You): pronouns, which a sentence about the
    side must say as pronouns ("We win!", not "Us wins!")."""
    return DEFAULT_NAMES.get(language(), DEFAULT_NAMES["en"])


def default_name(name: str) -> int | None:
    """Which of the default names `name` is (0 Us, 1 Them, 2 You), said in any
    language (a French game read in English: "Nous" is "We"); None for a name
    of its own."""
    count = len(DEFAULT_NAMES["en"])
    return DEFAULT_SIDE_NAMES.index(name) % count if name in DEFAULT_SIDE_NAMES else None


def _default(value) -> int | None:
    return default_name(TAGS.sub("", value)) if isinstance(value, str) else None


def _arabic_li(match: re.Match, values: Mapping) -> str:
    index = _default(values.get(match.group(1)))
    return match.group(0) if index is None else LI_PRONOUNS[index]


def elide(template: str, values: Mapping) -> str:
    """`template` (a translation, not yet filled) with "de"/"que" elided
    before the values that begin with a vowel, when the page is French; with
    «لـ» and a default name made one word, when it is Arabic."""
    code = language()
    if not values or code not in ("fr", "ar"):
        return template
    if code == "ar":
        return LI_BEFORE_VALUE.sub(lambda match: _arabic_li(match, values), template)
    return BEFORE_VALUE.sub(
        lambda match: match.group(1) + "'" if _begins_with_vowel(values.get(match.group(2)))
        else match.group(0), template)


def form_of(name, team: bool = False) -> str | None:
    """The catalogs' context for a sentence whose subject is `name`: a
    default name's pronoun, else a team's (four players), else none."""
    index = _default(name)
    if index is not None:
        return PRONOUNS[index]
    return TEAM if team else None


def _about_template(message: str, subject: str, team: bool, values: Mapping) -> str:
    form = form_of(values[subject], team)
    if (form, message) in FORMS:
        template = translate.pgettext(form, message)
    else:
        template = gettext(message)
    return elide(template, values)


def about(message: str, subject: str, team: bool = False, **values) -> str:
    """`message` (a msgid) whose subject is the side `values[subject]`, in the
    form that side asks (form_of), elided. A context the catalogs do not
    have for it falls back to the plain sentence."""
    return _about_template(message, subject, team, values) % values


@pass_context
def _template_about(context, message: str, subject: str, team: bool = False, /, **values) -> str:
    # `about` in a page: a name given as <bdi> (describe.bdi) stays markup.
    template = _about_template(message, subject, team, values)
    return (Markup(template) if context.eval_ctx.autoescape else template) % values


def say(message: str, **values) -> str:
    """flask_babel.gettext, elided: for a sentence made in Python."""
    return elide(gettext(message), values) % values if values else gettext(message)


def sentence(error, translate=gettext, event_text=None) -> str:
    """A refusal's sentence (engine.errors.ScoringError) through `translate`,
    elided before the names it carries; about a side, in the side's form."""
    subject = getattr(error, "subject", None)  # about a side (engine.errors.ScoringError)
    if translate is gettext and subject is not None:
        return about(error.message, subject, error.team, **error.params)
    return error.sentence(lambda message: elide(translate(message), error.params or {}),
                          event_text)


@pass_context
def _template_gettext(context, string: str, /, **values) -> str:
    # As Jinja's own (jinja2.ext's newstyle gettext), with the elision.
    template = elide(translations().ugettext(string), values)
    return (Markup(template) if context.eval_ctx.autoescape else template) % values


@pass_context
def _template_ngettext(context, singular: str, plural: str, count: int, /, **values) -> str:
    values.setdefault("num", count)  # a template may give its own num ("{num}", for the script)
    template = elide(translations().ungettext(singular, plural, count), values)
    return (Markup(template) if context.eval_ctx.autoescape else template) % values


def init_app(app: Flask) -> None:
    """After Flask-Babel's: the templates' gettext and ngettext elide."""
    app.jinja_env.globals.update(gettext=_template_gettext, _=_template_gettext,
                                 ngettext=_template_ngettext, about=_template_about)
