"""The forms of the history pages. Each carries a one-time token (forms.py):
it becomes the Idempotency-Key of a correction, so a resubmission applies
nothing twice."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import IntegerField, StringField
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from .forms import NAME_TOO_LONG, TokenForm
from .rules.newgame import NAME_LENGTH


class ConfirmForm(TokenForm):
    """Delete, restore, empty the bin: a button and the keys."""


class CorrectForm(TokenForm):
    # The version the scorer saw: a correction made on an out-of-date page is
    # refused instead of changing a game that has moved on.
    expected_version = IntegerField(validators=[InputRequired(), NumberRange(min=0)])


class ImportForm(FlaskForm):
    file = FileField(validators=[FileRequired()])


class PlayerForm(TokenForm):
    """A player's name and nickname (players.py checks them)."""

    name = StringField(_l("Name"), validators=[
        DataRequired(), Length(max=NAME_LENGTH, message=NAME_TOO_LONG)])
    nickname = StringField(_l("Nickname (optional)"), validators=[Optional(), Length(max=NAME_LENGTH)])


class MergeForm(TokenForm):
    into = IntegerField(validators=[InputRequired(), NumberRange(min=1)])
