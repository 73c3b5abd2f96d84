"""House rules: every number and switch of BAREME.md §7, as validated data.

A game keeps its own copy of these (a `HouseRules` value), so changing a
preset later never changes a game already started.
"""

from dataclasses import dataclass, fields, replace
from typing import Any, Mapping

from .errors import N_, InvalidInput

STOP_MODES = ("immediate", "end_of_hand")
TRINGA_CONTESTS = ("higher", "lower")
# Which missas score nothing: made with the hand's very last card (the scorer
# says so with `last_card`), any missa of the hand's last deal, or none.
MISSA_EXCLUSIONS = ("last_card", "last_deal", "none")
HIT_VALUE_CHOICES = ((1, 5, 10), (1, 6, 15))


@dataclass(frozen=True, slots=True)
class HouseRules:
    preset: str = "appli"
    target: int = 33
    stop: str = "immediate"
    ronda: int = 1
    double_ronda: int = 2
    tringa: int = 5
    tringa_contest: str = "higher"
    missa: int = 1
    card_threshold: int = 20
    card_threshold_3: int = 13
    # Bount, Khamsa, Âachra: what the last player of a chain scores.
    hits: tuple[int, int, int] = (1, 5, 10)
    # A missa made by the chain's last hit is added to it (2, 6, 11).
    missa_with_hit: bool = True
    missa_exclusion: str = "last_card"
    # The chain beyond its first hit (5 and 10) with only two players.
    chain_with_two_players: bool = True
    # Four players: the first deal gives 4 cards each and none to the table
    # (the only hand where a double Ronda exists), instead of 3 + 4 on the table.
    four_card_first_deal: bool = False
    # Points the receiver gets when a hidden Ronda is found out (events.HiddenRonda); 0 is off.
    hidden_ronda_penalty: int = 0
    # Points of the dealer's last trick rule (12: dealer +, missed or 1:
    # opponents +); 0 is off.
    dealer_last_trick: int = 0

    def hit_step(self, value: int) -> int:
        """0, 1 or 2 for a value of `hits`; -1 when it is not one."""
        try:
            return self.hits.index(value)
        except ValueError:
            return -1

    def card_threshold_for(self, sides: int) -> int:
        return self.card_threshold_3 if sides == 3 else self.card_threshold

    def to_dict(self) -> dict[str, Any]:
        # Field by field: every answer of the API carries it, and asdict's
        # deep copy cost a tap more than its lookups (measured against a bare INSERT).
        data = {name: getattr(self, name) for name in _RULE_FIELDS}
        data["hits"] = list(self.hits)
        return data


_RULE_FIELDS = tuple(field.name for field in fields(HouseRules))


# Each kind of rule value, with its own check: `check(key, value)` returns
# the value as the rules keep it, or raises InvalidInput.

@dataclass(frozen=True, slots=True)
class _Whole:
    low: int
    high: int

    def check(self, key: str, value: Any) -> int:
        if not is_whole(value) or not self.low <= value <= self.high:
            raise InvalidInput(
                N_("The rule %(key)s takes a whole number from %(low)s to %(high)s."),
                key=key, low=self.low, high=self.high,
            )
        return value


@dataclass(frozen=True, slots=True)
class _Choice:
    choices: tuple

    def check(self, key: str, value: Any) -> str:
        if not isinstance(value, str) or value not in self.choices:
            raise InvalidInput(
                N_("The rule %(key)s takes one of: %(choices)s."),
                key=key, choices=", ".join(self.choices),
            )
        return value


class _Switch:
    def check(self, key: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise InvalidInput(N_("The rule %(key)s takes true or false."), key=key)
        return value


class _Hits:
    def check(self, key: str, value: Any) -> tuple[int, int, int]:
        hits = tuple(value) if isinstance(value, (list, tuple)) else None
        if hits is None or len(hits) != 3 or not all(is_whole(v) and 1 <= v <= 50 for v in hits) \
                or not hits[0] < hits[1] < hits[2]:
            raise InvalidInput(N_(
                "The rule hits takes three increasing whole numbers from 1 to 50, such as [1, 5, 10]."))
        return hits


# How each rule key is checked, in the order of HouseRules' fields.
_CHECKS: dict[str, Any] = {
    "target": _Whole(11, 101),
    "stop": _Choice(STOP_MODES),
    "ronda": _Whole(0, 20),
    "double_ronda": _Whole(0, 20),
    "tringa": _Whole(0, 20),
    "tringa_contest": _Choice(TRINGA_CONTESTS),
    "missa": _Whole(0, 20),
    "card_threshold": _Whole(0, 40),
    "card_threshold_3": _Whole(0, 40),
    "hits": _Hits(),
    "missa_with_hit": _Switch(),
    "missa_exclusion": _Choice(MISSA_EXCLUSIONS),
    "chain_with_two_players": _Switch(),
    "four_card_first_deal": _Switch(),
    "hidden_ronda_penalty": _Whole(0, 20),
    "dealer_last_trick": _Whole(0, 20),
}
# In the fields' order, not the dict's: a dict on the phone (MicroPython) keeps no order.
RULE_KEYS = tuple(f.name for f in fields(HouseRules))[1:]
assert set(RULE_KEYS) == set(_CHECKS)

APPLI = HouseRules()
CLASSIQUE = HouseRules(
    preset="classique",
    target=41,
    tringa=3,
    tringa_contest="lower",
    missa_exclusion="last_deal",
    four_card_first_deal=True,
    hidden_ronda_penalty=5,
    dealer_last_trick=5,
)
BUILT_IN_PRESETS: dict[str, HouseRules] = {"appli": APPLI, "classique": CLASSIQUE}
# The built-in presets' names as the pages say them, in each of the app's
# languages: the one place they are written (the service refuses them as a
# table preset's name, web/wording/rule_texts.py says them in the page's language),
# since neither the engine nor the service reads a catalog.
PRESET_NAMES = {
    "appli": {"fr": "appli", "en": "app", "ar": "التطبيق"},
    "classique": {"fr": "classique", "en": "classic", "ar": "الكلاسيكية"},
}


def is_whole(value: Any) -> bool:
    """A JSON integer: not a bool, not a float such as 2.0."""
    return type(value) is int


def check_rule(key: str, value: Any) -> Any:
    """The value of one rule key, checked; raises InvalidInput."""
    check = _CHECKS.get(key)
    if check is None:
        raise InvalidInput(N_("Unknown rule: %(key)s."), key=str(key)[:40])
    return check.check(key, value)


def rules_from_spec(
    spec: Mapping[str, Any] | None,
    presets: Mapping[str, HouseRules] = BUILT_IN_PRESETS,
) -> HouseRules:
    """The effective rules of `{"preset": name, <key>: value, ...}`.

    The preset gives every value; the other keys override single rules.
    `None` values count as absent. Raises InvalidInput.
    """
    if spec is None:
        spec = {}
    if not isinstance(spec, Mapping):
        raise InvalidInput(N_("The rules must be an object."))
    name = spec.get("preset")
    if name is None:
        name = "appli"
    if not isinstance(name, str) or name not in presets:
        raise InvalidInput(
            N_("Unknown rules preset: %(name)s."), name=str(name)[:40]
        )
    overrides = {
        key: check_rule(key, value)
        for key, value in spec.items()
        if key != "preset" and value is not None
    }
    return replace(presets[name], preset=name, **overrides)


def rules_from_dict(data: Mapping[str, Any]) -> HouseRules:
    """Rules read back from storage; keys added since they were stored keep
    their defaults (which are the behaviour those games were played with)."""
    known = {f.name for f in fields(HouseRules)}
    values = {k: v for k, v in data.items() if k in known}
    if "hits" in values:
        values["hits"] = tuple(values["hits"])
    return HouseRules(**values)


def rule_form(key: str) -> dict[str, Any]:
    """What values a rule takes, for a settings form built from the engine's
    own checks: {"kind": "whole", "low", "high"}, {"kind": "choice",
    "choices"}, {"kind": "switch"} or {"kind": "hits", "choices"}."""
    check = _CHECKS[key]
    if isinstance(check, _Whole):
        return {"kind": "whole", "low": check.low, "high": check.high}
    if isinstance(check, _Choice):
        return {"kind": "choice", "choices": check.choices}
    if isinstance(check, _Switch):
        return {"kind": "switch"}
    return {"kind": "hits", "choices": HIT_VALUE_CHOICES}
