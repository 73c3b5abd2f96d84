"""The forms of the club nights' pages (views/nights.py)."""

from flask_babel import lazy_gettext as _l
from wtforms import HiddenField, IntegerField, RadioField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from .forms import NAME_TOO_LONG, TokenForm
from ..service.nights import MAX_ENTRANTS, NAME_LENGTH


class NightForm(TokenForm):
    name = StringField(_l("Name of the night"), validators=[
        DataRequired(), Length(max=NAME_LENGTH, message=NAME_TOO_LONG)])
    date = StringField(_l("Date"), validators=[DataRequired(), Length(max=10)])
    preset = SelectField(_l("Rules"))
    players = RadioField(_l("The games"), choices=[
        SelectChoice("2", _l("2 players")), SelectChoice("4", _l("Teams of two (4 players)"))],
        default="2")


def _name_field(label):
    return StringField(label, validators=[
        Optional(), Length(max=NAME_LENGTH, message=NAME_TOO_LONG)])


# Up to 8 entrants, each one player or a team's two partners.
for _number in range(MAX_ENTRANTS):
    setattr(NightForm, f"e{_number}a", _name_field(
        _l("Entrant %(number)s", number=_number + 1)))
    setattr(NightForm, f"e{_number}b", _name_field(
        _l("Entrant %(number)s, partner", number=_number + 1)))


class RoundForm(TokenForm):
    round = IntegerField(validators=[InputRequired(), NumberRange(min=1, max=99)])


class ScreenForm(TokenForm):
    action = HiddenField(validators=[DataRequired(), Length(max=3)])
