"""Ids and keys that people read aloud across the table or type on a phone
(a game's id, the table's access key, a club night's screen key): random,
short, in one alphabet without the symbols that look alike (no 0/o, 1/l/i)."""

import secrets

ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def random_id(length: int) -> str:
    """`length` symbols of ALPHABET, each drawn by the `secrets` module."""
    return "".join(secrets.choice(ALPHABET) for _ in range(length))
