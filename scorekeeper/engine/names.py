"""A name as the app keeps it: what a person sees, and nothing hidden.

Names are typed on phones and pasted from chats. They can carry what nobody
sees (a zero-width space, a byte-order mark, NUL, ESC, direction marks, a
Hangul filler) and one letter spelled two ways (é as one character, or e
and an accent), so that "Nous" and "Nous\u200b" were two sides, two lines
of the statistics, and a name could look empty. The one rule, for every
name the app takes (sides, presets, the history's filter): NFC, no control,
format or surrogate character, every run of blanks one space, trimmed.
"""

import unicodedata

BLANKS = {"\t", "\n", "\r", "\x0b", "\x0c", "\x85"}  # controls that separate words
# Letters and symbols that draw nothing: Hangul fillers, the blank braille cell.
INVISIBLE = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"}
HIDDEN = {"Cc", "Cf", "Cs"}  # controls, format characters (U+200B, U+FEFF…), surrogates


def clean_name(text: str) -> str:
    """`text` as a name is kept; "" when nothing visible is left."""
    kept = []
    for char in text:
        if char in BLANKS:
            kept.append(" ")
        elif unicodedata.category(char) not in HIDDEN and char not in INVISIBLE:
            kept.append(char)
    return " ".join(unicodedata.normalize("NFC", "".join(kept)).split())


def name_key(name: str) -> str:
    """The key names are compared by, everywhere (the roster, the history's
    filter, the statistics, the sides nobody named): one name whatever its
    case and blanks, and however its letters are composed ("Amélie" typed
    with a combining accent, "Karim  BENALI" with two spaces)."""
    return unicodedata.normalize("NFC", " ".join(name.split())).casefold()

