"""Every template filter and global, registered from this one place
(init_app); the small formatters that belong to no other module live here
too. Wording of the game's events and rules: describe.py, rule_texts.py."""

from datetime import date, datetime, timedelta

from flask import Flask, current_app
from flask_babel import (
    format_date,
    format_datetime,
    format_decimal,
    format_percent,
    format_timedelta,
    get_locale,
)
from markupsafe import Markup, escape

from ...engine import RANKS, RULE_KEYS
from ...engine.limits import LIMITS
from ...phone.count import game_data
from ...service.nights import Tie
from ..plumbing import assets, phone_engine
from ..wording import describe, i18n, rule_texts
from ..wording.translate import gettext
from . import charts, forms
from .board import counts_text

# The board's timings, as a phone gets them: how often it asks whether
# another phone changed the game, how close a second tap on one control is
# the same tap, how long a control just answered (and the result's buttons)
# take no tap, how long the connection box says what a tap made offline
# needed before it says the connection again. board.js, outbox.js and
# style.css hold these very values; a server
# configured otherwise (the browser tests, but where a timing is their
# subject) says so on <html>, as data-poll-ms and so on.
BOARD_TIMINGS = {"BOARD_POLL_MS": 1500, "BOARD_DOUBLE_TAP_MS": 600, "BOARD_SETTLE_MS": 500,
                 "BOARD_OVER_SETTLE_MS": 2000, "BOARD_SAID_MS": 5000}


def board_timings() -> Markup:
    """The <html> attributes of the timings configured otherwise than a
    phone's: BOARD_POLL_MS as data-poll-ms, and so on."""
    config = current_app.config
    return Markup("").join(
        Markup(' data-{}="{}"').format(key.removeprefix("BOARD_").lower().replace("_", "-"),
                                       escape(config[key]))
        for key, phone in BOARD_TIMINGS.items() if config[key] != phone)


def when(stored: str | None) -> str:
    """A stored UTC time, in the server's time zone (the table's: it runs at home)."""
    if not stored:
        return ""
    try:
        moment = datetime.fromisoformat(stored)
    except (TypeError, ValueError):  # a store edited by hand: its text, as it is
        return str(stored)
    try:
        moment = moment.astimezone()
    except (OverflowError, ValueError):  # near year 1 or 9999: shown in its own time zone
        pass
    # The day and the hour joined as the language joins them (Arabic: "،").
    joined = get_locale().datetime_formats["medium"]
    return str(joined).format(format_datetime(moment, "HH:mm", rebase=False),
                              format_datetime(moment, "EEE d MMM y", rebase=False))


def changed_ago(stored: str, now: str, tapped: bool = True) -> str:
    """How long ago a game last changed, from `now` (both stored times): the
    way to tell apart games in progress that all have the default names; a
    game not yet `tapped` was started then. A time ahead of now (a clock set
    back) is now; one that cannot be read (a store edited by hand) says nothing."""
    try:
        since = datetime.fromisoformat(now) - datetime.fromisoformat(stored)
    except (TypeError, ValueError):  # unreadable, or without its time zone
        return ""
    if since < timedelta(minutes=1):
        return gettext("last change just now") if tapped else gettext("started just now")
    ago = format_timedelta(-since, granularity="minute", add_direction=True)
    return gettext("last change %(ago)s", ago=ago) if tapped else gettext("started %(ago)s", ago=ago)


def duration(minutes: int) -> str:
    if minutes < 60:
        return gettext("%(minutes)s min", minutes=minutes)
    return gettext("%(hours)s h %(minutes)02d", hours=minutes // 60, minutes=minutes % 60)


def percent(rate: float) -> str:
    return format_percent(rate)


def decimal(number: float) -> str:
    return format_decimal(number, "0.0")


def signed(number: float) -> str:
    text = format_decimal(abs(number), "0.0")
    return f"+{text}" if number > 0 else f"−{text}" if number < 0 else text


def whole(number: int) -> str:
    """A whole number as the language groups its thousands (1,040; 1 040)."""
    return format_decimal(number, "#,##0")


def signed_whole(number: int) -> str:
    """A margin in points: +12, −5, 0 (a real minus sign)."""
    return f"+{number}" if number > 0 else f"−{-number}" if number < 0 else "0"


def tie_margins(tie: Tie) -> str:
    return i18n.join_list(f"{label} {signed_whole(m)}" for label, m in zip(tie.labels, tie.margins))


def day(value: str) -> str:
    """A stored day (YYYY-MM-DD) in the page's language."""
    return format_date(date.fromisoformat(value), "EEE d MMM y")


def manifest_of(language: str) -> str:
    """The installed app's manifest in the page's language (its name and
    description): one static file a language, since a browser fetches a
    manifest without the page's cookies. French, the first, has the plain name."""
    if language == i18n.DEFAULT_LANGUAGE:
        return "manifest.webmanifest"
    return f"manifest.{language}.webmanifest"


FILTERS = {
    "when": when, "changed_ago": changed_ago, "duration": duration, "percent": percent, "decimal": decimal,
    "signed": signed, "signed_whole": signed_whole, "whole": whole, "day": day,
    "join_list": i18n.join_list, "gain_name": describe.gain_name,
    "rule_label": rule_texts.label,
    "rule_value": lambda value, key: rule_texts.value_text(key, value),
    "rules_summary": rule_texts.summary, "preset_name": rule_texts.preset_name,
    "counts_text": counts_text, "game_data": game_data,
    **{function.__name__: function for function in (
        describe.kind_name, describe.hit_call, describe.rank_name, describe.event_text,
        describe.points_text, describe.side_points, describe.score_text, describe.score_number,
        describe.announcement_text, describe.predicted, describe.notes_text,
        describe.to_win_text, describe.winner_text, describe.move_words,
        describe.last_trick_outcome, describe.last_trick_text, describe.bdi, describe.event_words,
        describe.event_label, describe.undo_words, describe.announcement_html, describe.parts_text,
        describe.short_names, describe.line_name, describe.dealer_line,
    )},
    # A page's events: their names isolated (<bdi>), as the board's other sentences.
    "event_text": describe.event_html,
}


def init_app(app: Flask) -> None:
    app.jinja_env.filters.update(FILTERS)
    app.jinja_env.globals.update(
        asset=assets.asset, hidden_keys=forms.hidden_keys, tie_margins=tie_margins,
        # A night's screen link, for a TV's browser to be pointed at.
        qr_data_uri=lambda url: charts.qr_code(url, scale=4, border=2)[0],
        RANKS=RANKS, RANK_NAMES=describe.RANK_NAMES,
        RULE_KEYS=RULE_KEYS, board_timings=board_timings, manifest_of=manifest_of,
        engine_worker_url=phone_engine.worker_url, engine_files_url=phone_engine.files_url,
        engine_count_script=phone_engine.COUNT_SCRIPT,
        to_win_words=describe.to_win_words,
        # A call, not `["", ""]|join_list`: Jinja computes a filter of constants
        # once, when it compiles the template, in no request's language.
        list_separator=lambda: i18n.join_list(["", ""]),
    )
    app.jinja_env.globals.update(LIMITS)  # DECK, ADJUST_LIMIT…: the engine's, never a template's
    app.context_processor(i18n.language_context)
