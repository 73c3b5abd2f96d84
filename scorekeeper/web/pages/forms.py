"""Every Flask-WTF form of the pages, in one place (the views only use them).

Every form that changes a game carries a one-time token: it becomes the
request's Idempotency-Key, so a double tap, a resubmission or a retry after
a timeout is applied once. The house rules' fields are built from the
engine's own checks (rule_form), so a form offers exactly the values the
engine takes. The sections: the keys, the scoreboard, house rules, the new
game, the history and players, the club nights."""

import secrets
from typing import Any

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from markupsafe import Markup
from wtforms import (
    BooleanField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import (
    AnyOf,
    DataRequired,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    Regexp,
)

from ...engine import RULE_KEYS, HouseRules
from ...engine.houserules import rule_form
from ...engine.limits import NAME_LENGTH
from ...service.nights import MAX_ENTRANTS, MAX_TOURNAMENT
from ..wording import rule_texts
from ..wording.translate import _l

TOKEN_LENGTH = 100
# WTForms' own Arabic catalog lacks its Length sentence: ours is in our catalogs.
NAME_TOO_LONG = _l("A name takes at most %(max)d characters.")


# -- the keys ----------------------------------------------------------------------------------

def one_time_token() -> str:
    return secrets.token_urlsafe(12)


class CsrfForm(FlaskForm):
    """A button and the CSRF token, no one-time token: what it does is the
    same done twice (choose the default preset, delete a preset)."""


class TokenForm(FlaskForm):
    token = HiddenField(validators=[DataRequired(), Length(max=TOKEN_LENGTH)])


def hidden_keys(form: FlaskForm) -> Markup:
    """A form's CSRF and one-time token fields, without ids: a page holds
    several forms, and ids must stay unique."""
    csrf = getattr(form, "csrf_token", None)  # absent when CSRF is off (tests)
    return Markup(csrf(id=False) if csrf else "") + Markup(form.token(id=False))


def _name_field(label, required: bool = False) -> StringField:
    return StringField(label, validators=[
        DataRequired() if required else Optional(),
        Length(max=NAME_LENGTH, message=NAME_TOO_LONG)])


# -- the scoreboard ----------------------------------------------------------------------------

# A phone's device id: the page's, or the one its script keeps.
DEVICE = r"^[A-Za-z0-9_-]{1,40}$"


class PlayForm(TokenForm):
    """The scoreboard's taps: the pressed button sends its move."""

    move = HiddenField(validators=[DataRequired(), Length(max=60)])
    back = HiddenField(validators=[Optional(), Length(max=300)])
    # The version of the board the finger saw, and the phone that tapped:
    # the records after that version made by another phone are merged by
    # one rule (docs/BOARD.md, "Two phones").
    expected_version = IntegerField(validators=[Optional(), NumberRange(min=0)])
    device = StringField(validators=[Optional(), Regexp(DEVICE)])


class UndoForm(TokenForm):
    # The version the scorer saw, and the phone: an Undo takes back the last
    # event that phone knew, or the record it names (`undoes`), whatever
    # another phone recorded since.
    expected_version = IntegerField(validators=[InputRequired(), NumberRange(min=0)])
    device = StringField(validators=[Optional(), Regexp(DEVICE)])
    undoes = IntegerField(validators=[Optional(), NumberRange(min=1)])
    # "1": the scorer said yes to reopening a finished game (asked first).
    reopen = HiddenField(validators=[Optional(), AnyOf(["1"])])


# -- house rules -------------------------------------------------------------------------------

RULE_PREFIX = "rule_"


def _hits_text(values) -> str:
    return "-".join(str(v) for v in values)


def _rule_field(key: str):
    spec = rule_form(key)
    label, explanation = rule_texts.LABELS[key]
    if spec["kind"] == "whole":
        return IntegerField(label, description=explanation, validators=[
            InputRequired(message=_l("Give a whole number.")),
            NumberRange(spec["low"], spec["high"],
                        message=_l("A whole number from %(min)s to %(max)s.")),
        ])
    if spec["kind"] == "switch":
        if key == "four_card_first_deal":
            return SelectField(label, description=explanation, choices=[
                SelectChoice("0", _l("3 cards, 4 on the table")),
                SelectChoice("1", _l("4 cards, none on the table")),
            ])
        return BooleanField(label, description=explanation)
    if spec["kind"] == "hits":
        return SelectField(label, description=explanation, choices=[
            SelectChoice(_hits_text(v), " / ".join(map(str, v))) for v in spec["choices"]
        ])
    return SelectField(label, description=explanation, choices=[
        SelectChoice(c, rule_texts.CHOICE_NAMES[c]) for c in spec["choices"]
    ])


def with_rule_fields(base: type[FlaskForm]) -> type[FlaskForm]:
    """`base` with one field per house rule, named rule_<key>."""
    fields = {RULE_PREFIX + key: _rule_field(key) for key in RULE_KEYS}
    return type(base.__name__ + "WithRules", (base,), fields)


def rule_field_list(form: FlaskForm) -> list:
    return [form[RULE_PREFIX + key] for key in RULE_KEYS]


def fill_rules(form: FlaskForm, rules: HouseRules) -> None:
    """Put a preset's values in the form's rule fields."""
    for key in RULE_KEYS:
        value = getattr(rules, key)
        if key == "hits":
            value = _hits_text(value)
        elif key == "four_card_first_deal":
            value = "1" if value else "0"
        form[RULE_PREFIX + key].data = value


def rule_values(form: FlaskForm) -> dict[str, Any]:
    """The rule values the form holds, as the engine reads them."""
    result = {}
    for key in RULE_KEYS:
        value = form[RULE_PREFIX + key].data
        if key == "hits":
            value = [int(v) for v in str(value).split("-")]
        elif key == "four_card_first_deal":
            value = value == "1"
        result[key] = value
    return result


class ProvisionalForm(CsrfForm):
    """The finished games a rating takes to be more than provisional."""

    games = IntegerField(_l("A rating is provisional until this many finished games"),
                         validators=[InputRequired(message=_l("Give a whole number.")),
                                     NumberRange(1, 50, message=_l(
                                         "A whole number from %(min)s to %(max)s."))])


class _PresetBase(FlaskForm):
    name = _name_field(_l("Name"), required=True)


PresetForm = with_rule_fields(_PresetBase)


# -- the new game ------------------------------------------------------------------------------

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
    # Empty: the side's default name, or a team's partners' (validate below).
    name0 = _name_field(_l("First side"))
    name1 = _name_field(_l("Second side"))
    name2 = _name_field(_l("Third side (3 players)"))
    # With four players: each side's two partners (service/players.py). The
    # side's name then defaults to "Karim & Salma": unless the scorer changed
    # the name the page offered (given0/given1), which stays.
    p0a = _name_field(_l("Team 1, player 1"))
    p0b = _name_field(_l("Team 1, player 2"))
    p1a = _name_field(_l("Team 2, player 1"))
    p1b = _name_field(_l("Team 2, player 2"))
    given0 = HiddenField(validators=[Optional(), Length(max=NAME_LENGTH)])
    given1 = HiddenField(validators=[Optional(), Length(max=NAME_LENGTH)])
    preset = SelectField(_l("Rules"), default="appli")
    first_dealer = RadioField(
        _l("First dealer"), choices=[SelectChoice(str(n), str(n + 1)) for n in range(3)], default="0"
    )


    def validate(self, extra_validators=None) -> bool:
        # A side left empty takes its default name, a team its partners'
        # names (service/side_names.py); a team with one partner only and no
        # name of its own is asked which.
        valid = super().validate(extra_validators)
        for side, field in enumerate((self.name0, self.name1)):
            if (field.data or "").strip() or self.players.data != "4":
                continue
            partners = [(self[f"p{side}{seat}"].data or "").strip() for seat in "ab"]
            if all(partners) or not any(partners):
                continue
            field.errors.append(_l("Name this team, or both its partners."))
            valid = False
        return valid


# The new game's page: the preset's rules, which the scorer may change for this game only.
NewGameRulesForm = with_rule_fields(NewGameForm)


# -- the history and players -------------------------------------------------------------------

class ConfirmForm(TokenForm):
    """Delete, restore, empty the bin: a button and the keys."""


class CorrectForm(TokenForm):
    # The version the scorer saw: a correction made on an out-of-date page is
    # refused instead of changing a game that has moved on.
    expected_version = IntegerField(validators=[InputRequired(), NumberRange(min=0)])


class ImportForm(FlaskForm):
    file = FileField(validators=[FileRequired()])


class PlayerForm(TokenForm):
    """A player's name and nickname (service/players.py checks them)."""

    name = _name_field(_l("Name"), required=True)
    nickname = StringField(_l("Nickname (optional)"), validators=[Optional(), Length(max=NAME_LENGTH)])


class MergeForm(TokenForm):
    into = IntegerField(validators=[InputRequired(), NumberRange(min=1)])


# -- the club nights ---------------------------------------------------------------------------

class NightForm(TokenForm):
    name = _name_field(_l("Name of the night"), required=True)
    date = StringField(_l("Date"), validators=[DataRequired(), Length(max=10)])
    preset = SelectField(_l("Rules"))
    players = RadioField(_l("The games"), choices=[
        SelectChoice("2", _l("2 players")), SelectChoice("4", _l("Teams of two (4 players)"))],
        default="2")
    format = RadioField(_l("The evening"), choices=[
        SelectChoice("round_robin", _l("Round robin, or free tables")),
        SelectChoice("knockout", _l("Knockout")),
        SelectChoice("swiss", _l("Swiss rounds"))], default="round_robin")
    match_games = RadioField(_l("A match (knockout, Swiss)"), choices=[
        SelectChoice("1", _l("One game")), SelectChoice("3", _l("Best of three"))], default="1")
    seeding = RadioField(_l("Seeding (knockout, Swiss)"), choices=[
        SelectChoice("rating", _l("By rating")), SelectChoice("draw", _l("Drawn"))],
        default="rating")
    rounds = IntegerField(_l("Swiss rounds (optional)"), validators=[
        Optional(), NumberRange(1, MAX_TOURNAMENT - 1,
                                message=_l("A whole number from %(min)s to %(max)s."))])
    # More entrants than the fields below: one a line ("Karim & Salma" a team).
    more = TextAreaField(_l("More entrants, one a line (a team: Karim & Salma)"),
                         validators=[Optional(), Length(max=MAX_TOURNAMENT * 90)])


# Up to 8 entrants, each one player or a team's two partners.
for _number in range(MAX_ENTRANTS):
    setattr(NightForm, f"e{_number}a", _name_field(
        _l("Entrant %(number)s", number=_number + 1)))
    setattr(NightForm, f"e{_number}b", _name_field(
        _l("Entrant %(number)s, partner", number=_number + 1)))


class RoundForm(TokenForm):
    round = IntegerField(validators=[InputRequired(), NumberRange(min=1, max=999)])
    # The director confirmed starting it while the round before was being played.
    force = HiddenField(validators=[Optional(), Length(max=1)])


class WithdrawForm(TokenForm):
    action = HiddenField(validators=[DataRequired(), Length(max=3)])  # "out", or "in" again


class EntrantForm(TokenForm):
    """A late entrant of a Swiss evening: a player, or a team's two."""

    first = _name_field(_l("Player"), required=True)
    second = _name_field(_l("Partner"))


class ScreenForm(TokenForm):
    action = HiddenField(validators=[DataRequired(), Length(max=3)])
