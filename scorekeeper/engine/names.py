"""A name as the app keeps it: what a person sees, and nothing hidden.

Names are typed on phones and pasted from chats. They can carry what nobody
sees (a zero-width space, a byte-order mark, NUL, ESC, direction marks, a
Hangul filler) and one letter spelled two ways (é as one character, or e
and an accent), so that "Nous" and "Nous\u200b" were two sides, two lines
of the statistics, and a name could look empty. The one rule, for every
name the app takes (sides, players' names and nicknames, nights and their
entrants, presets, the history's filter): NFC, no control, format (bidi
marks and overrides among them) or surrogate character, every run of
blanks one space, trimmed; a name that held only invisible characters is
refused, not kept empty.
"""

import unicodedata

from .errors import N_, InvalidInput

INVISIBLE_ONLY = N_("A name must show something: this one holds only invisible characters.")

BLANKS = {"\t", "\n", "\r", "\x0b", "\x0c", "\x85"}  # controls that separate words
# Letters and symbols that draw nothing: Hangul fillers, the blank braille cell.
INVISIBLE = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"}
HIDDEN = {"Cc", "Cf", "Cs"}  # controls, format characters (U+200B, U+FEFF…), surrogates
# Between two partners' names, in a team's name: "Karim & Salma".
PARTNERS_JOINER = " & "


def clean_name(text: str) -> str:
    """`text` as a name is kept; "" when nothing visible is left."""
    kept = []
    for char in text:
        if char in BLANKS:
            kept.append(" ")
        elif unicodedata.category(char) not in HIDDEN and char not in INVISIBLE:
            kept.append(char)
    return " ".join(unicodedata.normalize("NFC", "".join(kept)).split())


def visible_name(text: str, refusal: str = INVISIBLE_ONLY) -> str:
    """`text` cleaned; refused with `refusal` when something was typed and
    nothing of it can be seen ("" stays "": the caller says a name is needed)."""
    name = clean_name(text)
    if not name and text.strip():
        raise InvalidInput(refusal)
    return name


def name_key(name: str) -> str:
    """The key names are compared by, everywhere (the roster, the history's
    filter, the statistics, the sides nobody named): one name whatever its
    case and blanks, and however its letters are composed ("Amélie" typed
    with a combining accent, "Karim  BENALI" with two spaces) and whatever
    it hides (the cleaning above)."""
    return clean_name(name).casefold()


# The sides' default names, in each of the app's languages: Us, Them, You,
# the first side's, the second's, the third's (a pronoun each: a sentence
# about such a side says it as one, "We win!"). The one place these words
# are written: the store holds them as any name, the service reads them as
# the sides nobody named (service/unnamed.py), the pages say them in their
# language (web/wording/elision.py), and no catalog holds a second copy.
DEFAULT_NAMES = {
    "en": ("Us", "Them", "You"),
    "fr": ("Nous", "Eux", "Vous"),
    "ar": ("نحن", "هم", "أنتم"),
}
# Every language's, in DEFAULT_NAMES' order, language after language.
DEFAULT_SIDE_NAMES = tuple(name for names in DEFAULT_NAMES.values() for name in names)
