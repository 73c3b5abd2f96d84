"""What the pages share: a game or a 404, a list's page number and name
filter and the answer past its last page, a game's review (its own page and
a finished game's), the chart of a name's gains."""

import re

from flask import abort, request
from werkzeug.datastructures import MultiDict

from ...engine import tally
from ...engine.errors import N_, InvalidInput, ScoringError
from ...engine.names import clean_name
from ...engine.newgame import NAME_LENGTH
from ...service import games, history
from ...service.review import review_page
from ..pages import charts, review
from ..pages.forms import ConfirmForm, one_time_token
from ..pages.template_helpers import decimal
from ..plumbing.db import get_db
from ..plumbing.errors import error_answer
from ..wording.describe import gain_name
from ..wording.i18n import join_list, right_to_left
from ..wording.translate import gettext

PAGE_NUMBER = re.compile(r"[1-9]\d{0,5}")
# A posted form without its keys or fields: only a hand-made post, or a page
# from before a change of the app, sends one.
INCOMPLETE_FORM = N_("This form is incomplete: reload the page and try again.")
# The engine's sentences about malformed input name the API's fields
# (ScoringError.field): a page's form has no such fields to show. What a
# scorer can type wrong gets the page's own words, by the field's name; the
# rest only a hand-made post can send.
POINTS_WORDS = {
    "points": N_("The points are a whole number from -%(limit)s to %(limit)s, not 0: type "
                 "them again."),
}


def in_page_words(error: ScoringError, words: dict[str, str], incomplete: str) -> ScoringError:
    """`error` in a page's words: when its sentence is about an API field,
    `words` for that field, else `incomplete` (the form was not the page's)."""
    if not isinstance(error, InvalidInput) or error.field is None:
        return error
    found = words.get(error.field)
    params = {k: v for k, v in error.params.items() if k != "field"}
    return InvalidInput(found, **params) if found else InvalidInput(incomplete)


def load_game_or_404(game_id: str) -> games.Game:
    try:
        return games.load(get_db(), game_id)
    except games.GameNotFound:
        abort(404)


def page_number(args: MultiDict) -> int:
    """?page=, from 1; anything else is a 400 with a sentence."""
    value = args.get("page", "1")
    if not PAGE_NUMBER.fullmatch(value):
        raise InvalidInput(N_("The page number must be a whole number from 1."))
    return int(value)


def name_filter(args: MultiDict, field: str = "name") -> str | None:
    value = clean_name(args.get(field, ""))
    if len(value) > NAME_LENGTH:
        raise InvalidInput(N_("A name has at most %(length)s characters."), length=NAME_LENGTH)
    return value or None


def no_such_page(pages: int):
    return error_answer(
        gettext("There is no such page: the list has %(pages)s.", pages=pages), 404)


def confirm_form() -> ConfirmForm:
    return ConfirmForm(formdata=None, token=one_time_token())


def review_context(game: games.Game) -> dict:
    """A game's review, this request's page of it (NoSuchPage past the last)."""
    db = get_db()
    return {
        "review": review.review_of(review_page(db, game, page_number(request.args))),
        "line": history.game_line(db, game.id),
        "restore_form": confirm_form(),
    }


def bars(rows: list[tuple[str, float, str]], scale: float | None = None):
    """A bar chart and its text alternative (every bar in words)."""
    chart = charts.bar_chart(rows, scale, right_to_left=right_to_left())
    return chart, join_list(f"{label} {text}" for label, _, text in rows)


def gains_bars(gains):
    """The chart of each kind of gain per game (a name's, a person's)."""
    return bars([(gain_name(kind), gains.per_game(kind), decimal(gains.per_game(kind)))
                 for kind in tally.COUNTS if gains.counts[kind]])
