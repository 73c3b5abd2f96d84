"""Flask-WTF forms. Every form that changes a game carries a one-time token:
it becomes the request's Idempotency-Key, so a double tap, a resubmission
or a retry after a timeout is applied once."""

import secrets

from markupsafe import Markup

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, RadioField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from ..engine.newgame import NAME_LENGTH

TOKEN_LENGTH = 100
# WTForms' own Arabic catalog lacks its Length sentence: ours is in our catalogs.
NAME_TOO_LONG = _l("A name takes at most %(max)d characters.")


def one_time_token() -> str:
    return secrets.token_urlsafe(12)


class TokenForm(FlaskForm):
    token = HiddenField(validators=[DataRequired(), Length(max=TOKEN_LENGTH)])


class PlayForm(TokenForm):
    """The scoreboard's taps: the pressed button sends its move."""

    move = HiddenField(validators=[DataRequired(), Length(max=60)])
    back = HiddenField(validators=[Optional(), Length(max=300)])
    # The version the tap was made on (the board's, or for a tap that waited
    # for the server the board's plus the taps before it): refused, not
    # applied blindly, if another phone has changed the game since, so two
    # phones tapping the same Missa count it once.
    expected_version = IntegerField(validators=[Optional(), NumberRange(min=0)])


class UndoForm(TokenForm):
    # The version the scorer saw: an undo from an out-of-date screen is refused
    # instead of undoing another phone's tap.
    expected_version = IntegerField(validators=[InputRequired(), NumberRange(min=0)])


class NewGameForm(TokenForm):
    players = RadioField(
        _l("Players"),
        choices=[
            SelectChoice("2", _l("2 players")),
            SelectChoice("3", _l("3 players")),
            SelectChoice("4", _l("4 players, two teams")),
        ],
        default="2",
    )
    name0 = StringField(_l("First side"), validators=[
        DataRequired(), Length(max=NAME_LENGTH, message=NAME_TOO_LONG)])
    name1 = StringField(_l("Second side"), validators=[
        DataRequired(), Length(max=NAME_LENGTH, message=NAME_TOO_LONG)])
    name2 = StringField(_l("Third side (3 players)"), validators=[
        Optional(), Length(max=NAME_LENGTH, message=NAME_TOO_LONG)])
    # With four players: each side's two partners (players.py). The side's
    # name then defaults to "Karim & Salma": unless the scorer changed the name
    # the page offered (given0/given1), which stays.
    p0a = StringField(_l("Team 1, player 1"), validators=[
        Optional(), Length(max=NAME_LENGTH, message=NAME_TOO_LONG)])
    p0b = StringField(_l("Team 1, player 2"), validators=[
        Optional(), Length(max=NAME_LENGTH, message=NAME_TOO_LONG)])
    p1a = StringField(_l("Team 2, player 1"), validators=[
        Optional(), Length(max=NAME_LENGTH, message=NAME_TOO_LONG)])
    p1b = StringField(_l("Team 2, player 2"), validators=[
        Optional(), Length(max=NAME_LENGTH, message=NAME_TOO_LONG)])
    given0 = HiddenField(validators=[Optional(), Length(max=NAME_LENGTH)])
    given1 = HiddenField(validators=[Optional(), Length(max=NAME_LENGTH)])
    preset = SelectField(_l("Rules"), default="appli")
    first_dealer = RadioField(
        _l("First dealer"), choices=[SelectChoice(str(n), str(n + 1)) for n in range(3)], default="0"
    )


def hidden_keys(form: FlaskForm) -> Markup:
    """A form's CSRF and one-time token fields, without ids: a page holds
    several forms, and ids must stay unique."""
    csrf = getattr(form, "csrf_token", None)  # absent when CSRF is off (tests)
    return Markup(csrf(id=False) if csrf else "") + Markup(form.token(id=False))
