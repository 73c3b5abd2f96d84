"""The scoring engine: plain data in, plain data out.

It imports nothing of the web or the database, reads no clock and makes no
ids: the shell (scorekeeper.service) passes all of that in.
"""

from .errors import GameOver, InvalidInput, NotFound, RuleViolation, ScoringError
from .events import (
    RANKS,
    Adjust,
    Announce,
    Announcement,
    ChainEnd,
    DealerLastTrick,
    EndHand,
    Event,
    HiddenRonda,
    Hit,
    Missa,
    NextDeal,
    Reveal,
    parse_event,
    recorded_event,
    to_dict,
)
from .fold import apply, new_game, replay
from .houserules import BUILT_IN_PRESETS, RULE_KEYS, HouseRules, rules_from_dict, rules_from_spec
from .newgame import parse_new_game, rematch
from .state import Chain, Gain, Pool, Setup, State

__all__ = [
    "apply", "new_game", "replay", "GameOver", "InvalidInput", "NotFound", "RuleViolation",
    "ScoringError",
    "RANKS",
    "Adjust", "Announce", "Announcement", "ChainEnd", "DealerLastTrick", "EndHand", "Event",
    "HiddenRonda", "Hit", "Missa", "NextDeal", "Reveal", "parse_event", "recorded_event",
    "to_dict",
    "BUILT_IN_PRESETS", "RULE_KEYS", "HouseRules", "rules_from_dict", "rules_from_spec",
    "parse_new_game", "rematch", "Chain", "Gain", "Pool", "Setup", "State",
]
