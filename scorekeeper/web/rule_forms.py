"""Forms for house rules, built from the engine's own checks (rule_form), so
a settings page offers exactly the values the engine takes."""

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, IntegerField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange

from . import rule_texts
from ..engine import RULE_KEYS, HouseRules
from ..engine.houserules import rule_form
from ..engine.newgame import NAME_LENGTH

PREFIX = "rule_"


def _hits_text(values) -> str:
    return "-".join(str(v) for v in values)


def _field(key: str):
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
    fields = {PREFIX + key: _field(key) for key in RULE_KEYS}
    return type(base.__name__ + "WithRules", (base,), fields)


def rule_field_list(form: FlaskForm) -> list:
    return [form[PREFIX + key] for key in RULE_KEYS]


def fill(form: FlaskForm, rules: HouseRules) -> None:
    """Put a preset's values in the form's rule fields."""
    for key in RULE_KEYS:
        value = getattr(rules, key)
        if key == "hits":
            value = _hits_text(value)
        elif key == "four_card_first_deal":
            value = "1" if value else "0"
        form[PREFIX + key].data = value


def values(form: FlaskForm) -> dict[str, Any]:
    """The rule values the form holds, as the engine reads them."""
    result = {}
    for key in RULE_KEYS:
        value = form[PREFIX + key].data
        if key == "hits":
            value = [int(v) for v in str(value).split("-")]
        elif key == "four_card_first_deal":
            value = value == "1"
        result[key] = value
    return result


class _PresetBase(FlaskForm):
    name = StringField(_l("Name"), validators=[DataRequired(), Length(
        max=NAME_LENGTH, message=_l("A name takes at most %(max)d characters."))])


PresetForm = with_rule_fields(_PresetBase)
