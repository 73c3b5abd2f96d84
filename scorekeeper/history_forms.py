"""The forms of the history pages. Each carries a one-time token (forms.py):
it becomes the Idempotency-Key of a correction, so a resubmission applies
nothing twice."""

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import IntegerField
from wtforms.validators import InputRequired, NumberRange

from .forms import TokenForm


class ConfirmForm(TokenForm):
    """Delete, restore, empty the bin: a button and the keys."""


class CorrectForm(TokenForm):
    # The version the scorer saw: a correction made on an out-of-date page is
    # refused instead of changing a game that has moved on.
    expected_version = IntegerField(validators=[InputRequired(), NumberRange(min=0)])


class ImportForm(FlaskForm):
    file = FileField(validators=[FileRequired()])
