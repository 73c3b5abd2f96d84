"""The game's numbers that the forms show as limits, defined here once.

The engine checks them (events.py, newgame.py); the web layer offers them
to every template as globals of the same names, so that no page writes 40
or 50 of its own (tests/test_limits.py)."""

DECK = 40  # cards in a Spanish deck without its 8s and 9s
ADJUST_LIMIT = 50  # an adjustment gives or takes at most this many points
NOTE_LENGTH = 200  # characters of an adjustment's note
NAME_LENGTH = 40  # characters of a side's, a player's, a preset's or a night's name

LIMITS = {"DECK": DECK, "ADJUST_LIMIT": ADJUST_LIMIT, "NOTE_LENGTH": NOTE_LENGTH,
          "NAME_LENGTH": NAME_LENGTH}
