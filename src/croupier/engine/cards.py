"""Cards and decks (R-CARD-1, R-CARD-2).

A :class:`Card` is a small frozen value: an ``int`` from 0 to 51 with a readable text
form. The integer is ``rank * 4 + suit`` with ranks ``2 … A`` as 0 … 12 and suits
``c d h s`` as 0 … 3, so evaluators and NumPy code can use cards as plain integers.

>>> Card.parse("As")
Card('As')
>>> int(Card.parse("2c")), int(Card.parse("As"))
(0, 51)
>>> Card.parse("10h"), Card.parse("td")
(Card('Th'), Card('Td'))
>>> parse_cards("AsKd 7c")
(Card('As'), Card('Kd'), Card('7c'))
>>> format_cards(parse_cards("ah kh"))
'AhKh'
>>> len(DECK_52), len(DECK_32), len(DECK_36)
(52, 32, 36)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import ClassVar, Final

from croupier.engine.errors import InvalidCardError

__all__ = [
    "DECK_32",
    "DECK_36",
    "DECK_52",
    "RANKS",
    "SUITS",
    "Card",
    "format_cards",
    "parse_cards",
]

RANKS: Final = "23456789TJQKA"
"""Rank characters, lowest first; a card's rank index is its position here."""
SUITS: Final = "cdhs"
"""Suit characters in index order (clubs 0, diamonds 1, hearts 2, spades 3)."""

_TOKEN = re.compile(r"(10|[2-9TJQKAtjqka])([cdhsCDHS])")


class Card(int):
    """A playing card, an ``int`` in ``0..51`` equal to ``rank * 4 + suit``.

    Instances are interned: ``Card(n)`` always returns the same object for ``n``.

    >>> c = Card.parse("Qh")
    >>> c.rank, c.suit, c.rank_char, c.suit_char
    (10, 2, 'Q', 'h')
    >>> Card(c) is c
    True
    """

    __slots__ = ()
    _cache: ClassVar[list[Card]] = []

    def __new__(cls, value: int) -> Card:
        if cls._cache and type(value) is int and 0 <= value < 52:
            return cls._cache[value]
        if isinstance(value, Card):
            return value
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 52:
            raise InvalidCardError(f"a card is an integer from 0 to 51, not {value!r}")
        return int.__new__(cls, value)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card: rank (``A K Q J T 9 … 2``, ``10`` for ``T``) then suit, any case."""
        m = _TOKEN.fullmatch(text.strip()) if isinstance(text, str) else None
        if m is None:
            raise InvalidCardError(f"not a card: {text!r} (expected e.g. 'As', 'Td', '7c')")
        rank = "T" if m.group(1) == "10" else m.group(1).upper()
        return cls._cache[RANKS.index(rank) * 4 + SUITS.index(m.group(2).lower())]

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        """The card of rank index ``rank`` (0 = deuce … 12 = ace) and suit index ``suit``."""
        if not (0 <= rank < 13 and 0 <= suit < 4):
            raise InvalidCardError(f"no card with rank {rank} and suit {suit}")
        return cls._cache[rank * 4 + suit]

    @property
    def rank(self) -> int:
        """Rank index, 0 (deuce) to 12 (ace)."""
        return int(self) >> 2

    @property
    def suit(self) -> int:
        """Suit index, 0 (clubs) to 3 (spades)."""
        return int(self) & 3

    @property
    def rank_char(self) -> str:
        return RANKS[int(self) >> 2]

    @property
    def suit_char(self) -> str:
        return SUITS[int(self) & 3]

    def __str__(self) -> str:
        return RANKS[int(self) >> 2] + SUITS[int(self) & 3]

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


Card._cache = [int.__new__(Card, i) for i in range(52)]


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse cards written together or apart: ``"AsKd"``, ``"As Kd"``, ``["As", "Kd"]``.

    >>> parse_cards("")
    ()
    >>> parse_cards("Ah Ah")
    (Card('Ah'), Card('Ah'))
    >>> parse_cards("Ax")
    Traceback (most recent call last):
    ...
    croupier.engine.errors.InvalidCardError: not a card: 'Ax' (expected e.g. 'As', 'Td', '7c')
    """
    if not isinstance(text, str):
        return tuple(Card.parse(t) for t in text)
    squeezed = re.sub(r"[\s,]+", "", text)
    out: list[Card] = []
    pos = 0
    while pos < len(squeezed):
        m = _TOKEN.match(squeezed, pos)
        if m is None:
            bad = squeezed[pos : pos + 2]
            raise InvalidCardError(f"not a card: {bad!r} (expected e.g. 'As', 'Td', '7c')")
        out.append(Card.parse(m.group(0)))
        pos = m.end()
    return tuple(out)


def format_cards(cards: Iterable[int]) -> str:
    """Canonical text of cards, written together (``'AsKd'``)."""
    return "".join(str(Card(c)) for c in cards)


DECK_52: Final[tuple[Card, ...]] = tuple(Card._cache)
"""The standard 52-card deck (R-CARD-1), in index order."""
DECK_32: Final[tuple[Card, ...]] = tuple(c for c in DECK_52 if c.rank >= 5)
"""The 32-card deck: A K Q J T 9 8 7 of each suit (R-CARD-2)."""
DECK_36: Final[tuple[Card, ...]] = tuple(c for c in DECK_52 if c.rank >= 4)
"""The 36-card short deck (6 and up) of short-deck Hold'em."""
