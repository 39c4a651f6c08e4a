"""Name and password rules (R-ACC-1 accounts).

Names: 3 to 20 characters after Unicode NFKC normalization, ASCII letters, digits, ``_``,
``-`` and ``.``, starting with a letter; unique case-insensitively; a few names are
reserved (``admin``, ``house``, …) and names starting with ``bot`` or ``guest`` are kept
for bots (labelled BOT, R-BOT-1) and guests.

Passwords: 8 to 128 characters (NIST SP 800-63B: no composition rules, long passphrases
welcome), not only spaces, and not the name itself.

>>> check_name("  Ann_42 "), name_key("Ann_42")
('Ann_42', 'ann_42')
>>> check_name("42ann")
Traceback (most recent call last):
...
croupier.accounts.errors.InvalidNameError: a name starts with a letter and holds only letters, digits, '_', '-' and '.' (3 to 20 characters)
>>> check_password("correct horse", "Ann_42")
>>> check_password("short", "Ann_42")
Traceback (most recent call last):
...
croupier.accounts.errors.InvalidPasswordError: a password has 8 to 128 characters
"""

from __future__ import annotations

import re
import unicodedata

from croupier.accounts.errors import InvalidNameError, InvalidPasswordError

__all__ = [
    "MAX_NAME",
    "MAX_PASSWORD",
    "MIN_NAME",
    "MIN_PASSWORD",
    "RESERVED_NAMES",
    "check_name",
    "check_password",
    "name_key",
]

MIN_NAME, MAX_NAME = 3, 20
MIN_PASSWORD, MAX_PASSWORD = 8, 128
RESERVED_NAMES = frozenset(
    {"admin", "administrator", "croupier", "dealer", "house", "mint", "moderator", "root", "system"}
)
RESERVED_PREFIXES = ("bot", "guest")
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.\-]*")


def name_key(name: str) -> str:
    """The form names are compared in (NFKC, case-folded)."""
    return unicodedata.normalize("NFKC", name).strip().casefold()


def check_name(name: object) -> str:
    """The normalized name, or :class:`InvalidNameError`."""
    if not isinstance(name, str):
        raise InvalidNameError("a name is text")
    clean = unicodedata.normalize("NFKC", name).strip()
    if not (MIN_NAME <= len(clean) <= MAX_NAME) or not _NAME.fullmatch(clean):
        raise InvalidNameError(
            "a name starts with a letter and holds only letters, digits, '_', '-' and '.' "
            f"({MIN_NAME} to {MAX_NAME} characters)"
        )
    key = clean.casefold()
    if key in RESERVED_NAMES or key.startswith(RESERVED_PREFIXES):
        raise InvalidNameError("reserved_name", f"the name {clean!r} is reserved")
    return clean


def check_password(password: object, name: str = "") -> None:
    """Nothing, or :class:`InvalidPasswordError`."""
    if not isinstance(password, str):
        raise InvalidPasswordError("a password is text")
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise InvalidPasswordError(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    if not password.strip():
        raise InvalidPasswordError("a password is not only spaces")
    if name and password.strip().casefold() == name_key(name):
        raise InvalidPasswordError("a password is not the name")
