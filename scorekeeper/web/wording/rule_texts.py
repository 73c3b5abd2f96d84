"""The house rules in the players' words: a label and a one-line explanation
per rule, how a value reads, a game's summary, and the plain explanation of
how scoring works, all made from the rules' values so they cannot disagree
with the engine."""


from ...engine import HouseRules
from ...engine.houserules import PRESET_NAMES
from .translate import _, _l, language


def preset_name(name: str) -> str:
    """A preset as a page names it: a built-in one in the page's language
    (the key stays the contract's, `appli`, `classique`: the API, the forms'
    values, the stored rules); a table's own as it was named."""
    names = PRESET_NAMES.get(name)
    return name if names is None else names.get(language(), names["en"])


LABELS = {
    "target": (_l("Target score"), _l("The first side to reach it alone in the lead wins.")),
    "stop": (_l("When the game stops"),
             _l("At once, even mid-hand, or only once the hand's cards are counted.")),
    "ronda": (_l("Ronda"), _l("A pair in hand, announced before your first card.")),
    "double_ronda": (_l("Double Ronda"), _l("Two pairs in a four-card hand.")),
    "tringa": (_l("Tringa"), _l("Three of a kind in hand; any Tringa beats any Ronda.")),
    "tringa_contest": (_l("Tringa against Tringa"), _l("Which of two Tringas takes the pool.")),
    "missa": (_l("Missa"), _l("Clearing the table.")),
    "card_threshold": (_l("Card count, two sides"),
                       _l("Each card beyond this number scores a point at the end of a hand.")),
    "card_threshold_3": (_l("Card count, three sides"),
                         _l("The same threshold when three play, each for themselves.")),
    "hits": (_l("Hit chain values"), _l("Bount, Khamsa, Âachra: only the chain's last hit scores.")),
    "missa_with_hit": (_l("Missa added to the chain's last hit"),
                       _l("The hit that clears the table scores 2, 6 or 11.")),
    "missa_exclusion": (_l("Missas that score nothing"),
                        _l("The dealer's very last card, the whole last deal, or none.")),
    "chain_with_two_players": (_l("Chain with two players"),
                               _l("Whether a 5 and a 10 can follow the 1 when two play.")),
    "four_card_first_deal": (_l("First deal with four players"),
                             _l("Four cards each and none on the table, where a double Ronda exists.")),
    "hidden_ronda_penalty": (_l("Hidden Ronda found out"),
                             _l("Points to one opponent when a Ronda kept quiet is found out (with "
                                "three players, the one who holds the biggest Ronda); 0 is off.")),
    "dealer_last_trick": (_l("Dealer's last trick"),
                          _l("With a 12 the dealer's side scores these points; missed or with a 1, "
                             "the opponents do; 0 is off.")),
}

CHOICE_NAMES = {
    "immediate": _l("at once, even mid-hand"),
    "end_of_hand": _l("at the end of the hand"),
    "higher": _l("the higher wins"),
    "lower": _l("the lower wins"),
    "last_card": _l("the hand's very last card"),
    "last_deal": _l("the whole last deal"),
    "none": _l("none"),
}


def label(key: str) -> str:
    return str(LABELS[key][0])


def explanation(key: str) -> str:
    return str(LABELS[key][1])


def value_text(key: str, value) -> str:
    """How one rule's value reads on a settings page."""
    if key == "hits":
        return " / ".join(str(v) for v in value)
    if key == "four_card_first_deal":
        return _("4 cards, none on the table") if value else _("3 cards, 4 on the table")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if key in ("hidden_ronda_penalty", "dealer_last_trick") and value == 0:
        return _("off")
    if isinstance(value, str):
        return str(CHOICE_NAMES.get(value, value))
    return str(value)


# The summary's words for each rule shown only when it differs from the
# default rules (HouseRules()), in the order of the settings page.
CHANGED = {
    "stop": lambda value: _("stops at the end of the hand"),
    "ronda": lambda value: _("Ronda %(points)s", points=value),
    "double_ronda": lambda value: _("double Ronda %(points)s", points=value),
    "tringa_contest": lambda value: _("lower Tringa wins"),
    "missa": lambda value: _("Missa %(points)s", points=value),
    "card_threshold": lambda value: _("cards beyond %(count)s", count=value),
    "card_threshold_3": lambda value: _("cards beyond %(count)s with three sides", count=value),
    "missa_with_hit": lambda value: _("a Missa not added to the hit"),
    "missa_exclusion": lambda value: (_("no Missa in the last deal") if value == "last_deal"
                                      else _("a Missa with the last card scores")),
    "chain_with_two_players": lambda value: _("no 5 nor 10 with two players"),
    "four_card_first_deal": lambda value: _("a first deal of 4 cards with four players"),
    "hidden_ronda_penalty": lambda value: _("hidden Ronda %(points)s", points=value),
    "dealer_last_trick": lambda value: _("dealer's last trick %(points)s", points=value),
}
DEFAULT = HouseRules()


def summary(rules: HouseRules) -> str:
    """One line: the values a table argues about first, then every other
    rule that is not the default (a preset's 3-side threshold, say)."""
    parts = [
        _("game in %(target)s", target=rules.target),
        _("Tringa %(points)s", points=rules.tringa),
        _("hits %(values)s", values="/".join(str(v) for v in rules.hits)),
    ]
    parts += [say(getattr(rules, key)) for key, say in CHANGED.items()
              if getattr(rules, key) != getattr(DEFAULT, key)]
    return " · ".join(parts)


def explain(rules: HouseRules) -> list[tuple[str, list[str]]]:
    """How scoring works under these rules: (heading, sentences) in plain words."""
    one, five, ten = rules.hits
    sections = [
        (_("Announcements"), [
            _("Announce before playing your first card of the deal: a Ronda (a pair) is worth "
              "%(ronda)s, a Tringa (three of a kind) %(tringa)s.", ronda=rules.ronda,
              tringa=rules.tringa),
            _("The best announcement of the deal takes the value of every announcement, the "
              "opponents' included. Any Tringa beats any Ronda; between Rondas the higher pair "
              "wins."),
            _("Between two Tringas the higher wins.") if rules.tringa_contest == "higher"
            else _("Between two Tringas the lower wins."),
            _("On a perfect tie the pool is shared, each share rounded down."),
            _("The scorer records the deal's announcements together, once, at any moment of "
              "the deal: the first players may already have played a card when the last one "
              "announces. Points already scored in the deal stay."),
        ]),
        (_("The hit chain"), [
            _("Taking the card just played is a hit: Bount, %(one)s. The third copy makes it "
              "Khamsa, %(five)s; the fourth, Âachra, %(ten)s.", one=one, five=five, ten=ten),
            _("Only the chain's last player scores, never the sum; the points count when the "
              "chain stops: another value played, a new deal, the count, or the fourth copy."),
        ]),
        (_("The missa"), [
            _("Clearing the table scores %(missa)s.", missa=rules.missa),
        ]),
        (_("The end of a hand"), [
            _("When the 40 cards are played, each side counts its cards: every card beyond "
              "%(threshold)s scores a point (beyond %(threshold_3)s with three sides).",
              threshold=rules.card_threshold, threshold_3=rules.card_threshold_3),
        ]),
        (_("The end of the game"), [
            _("The first side to reach %(target)s alone in the lead wins.", target=rules.target),
            _("The game stops at once, even in the middle of a hand.")
            if rules.stop == "immediate"
            else _("The target is checked only once a hand's cards are counted."),
        ]),
    ]
    if rules.missa_with_hit:
        sections[2][1].append(_("A hit that clears the table adds the missa to it: %(a)s, %(b)s "
                                "or %(c)s.", a=one + rules.missa, b=five + rules.missa,
                                c=ten + rules.missa))
    else:
        sections[2][1].append(_("A hit that clears the table scores the hit alone."))
    sections[2][1].append({
        "last_card": _("A missa with the hand's very last card scores nothing (record it as "
                       "such in the end-of-hand sheet); a chain it ends still scores its hit."),
        "last_deal": _("A missa in the hand's last deal scores nothing."),
        "none": _("Every missa scores, the last card's included."),
    }[rules.missa_exclusion])
    if rules.stop == "immediate":
        sections[4][1].append(_("Points count in the order they are won: when the next player's "
                                "Missa, or the count, stops a chain whose hit wins, the game is "
                                "over before them."))
    if not rules.chain_with_two_players:
        sections[1][1].append(_("With two players a chain stops at its first hit."))
    if rules.four_card_first_deal:
        sections[0][1].append(_("With four players the first deal gives four cards each: a "
                                "double Ronda (two pairs) is worth %(points)s.",
                                points=rules.double_ronda))
    extras = []
    if rules.hidden_ronda_penalty:
        extras.append(_("A Ronda kept quiet and found out gives %(points)s to the other side; "
                        "with three players, to the one opponent who holds the biggest Ronda, "
                        "whom the scorer names. The side that hid it loses nothing.",
                        points=rules.hidden_ronda_penalty))
    if rules.dealer_last_trick:
        extras.append(_("The dealer must take the last trick: with a 12 the dealer's side "
                        "scores %(points)s; missed, or taken with a 1, the opponents score "
                        "%(points)s.", points=rules.dealer_last_trick))
    if extras:
        sections.append((_("House rules"), extras))
    return sections
