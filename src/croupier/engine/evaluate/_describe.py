"""Readable names of evaluator values, for showdown display.

>>> describe("high", 7462), describe("high", 1)
('Royal flush', 'High card, 7-5-4-3-2')
>>> describe("low8", 224), describe("badugi", (4 << 13) | (8191 - 0b10101001))
('5-4-3-2-A low', 'Badugi 8-6-4-A')
>>> category("short_deck", 1404), category("deuce_seven", 7462)
('royal_flush', 'high_card')
"""

from __future__ import annotations

from typing import Final

from croupier.engine.evaluate._lowball import A5_CATEGORIES
from croupier.engine.evaluate._tables import tables

__all__ = ["KINDS", "category", "describe"]

KINDS: Final = (
    "high",
    "omaha_high",
    "low8",
    "omaha_low8",
    "deuce_seven",
    "ace_five",
    "badugi",
    "short_deck",
    "thirty_two",
)

_CHARS: Final = "23456789TJQKA"
_NAMES: Final = [
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
]
_PLURAL: Final = tuple("sixes" if n == "six" else n + "s" for n in _NAMES)
_STD_CATS: Final = {
    0: "high_card",
    1: "pair",
    2: "two_pair",
    3: "three_of_a_kind",
    4: "straight",
    7: "four_of_a_kind",
    8: "straight_flush",
}


def _digits(raw: int) -> list[int]:
    return [(raw >> s) & 15 for s in (16, 12, 8, 4, 0)]


def _std_category(cat: int, short: bool, top: int) -> str:
    if cat == 8 and top == 12:
        return "royal_flush"
    if cat in (5, 6):
        return "flush" if cat == (6 if short else 5) else "full_house"
    return _STD_CATS[cat]


def _name_high(cat_name: str, d: list[int]) -> str:
    seq = "-".join(_CHARS[r] for r in d)
    match cat_name:
        case "royal_flush":
            return "Royal flush"
        case "straight_flush":
            return f"Straight flush, {_NAMES[d[0]]} high"
        case "four_of_a_kind":
            return f"Four of a kind, {_PLURAL[d[0]]}"
        case "full_house":
            return f"Full house, {_PLURAL[d[0]]} full of {_PLURAL[d[1]]}"
        case "flush":
            return f"Flush, {seq}"
        case "straight":
            return f"Straight, {_NAMES[d[0]]} high"
        case "three_of_a_kind":
            return f"Three of a kind, {_PLURAL[d[0]]}"
        case "two_pair":
            return f"Two pair, {_PLURAL[d[0]]} and {_PLURAL[d[1]]}"
        case "pair":
            return f"Pair of {_PLURAL[d[0]]}"
        case _:
            return f"High card, {seq}"


def _high_parts(kind: str, value: int) -> tuple[str, list[int]]:
    short = kind == "short_deck"
    wheel = kind != "deuce_seven"
    t = tables(short, wheel)
    dense = 7463 - value if kind == "deuce_seven" else value
    if not 1 <= dense <= len(t.raws):
        raise ValueError(f"not a {kind} value: {value}")
    raw = t.raws[dense - 1]
    cat, d = raw >> 20, _digits(raw)
    name = _std_category(cat, short, d[0])
    if name in ("flush", "high_card"):
        return name, d
    n = {"pair": 4, "two_pair": 3, "three_of_a_kind": 3, "full_house": 2}.get(name, 2)
    return name, d[:n] if name not in ("straight", "straight_flush", "royal_flush") else d[:1]


def _low_ranks(mask: int) -> str:
    """Ranks of an ace-low mask (bit 0 = ace), highest first."""
    chars = "A23456789TJQK"
    return "-".join(chars[b] for b in range(12, -1, -1) if mask >> b & 1)


def category(kind: str, value: int) -> str:
    """The hand category of a value: "flush", "full_house", "low", "badugi", ...

    >>> category("high", 5864), category("low8", 200), category("badugi", 3 << 13)
    ('flush', 'low', 'three_card')
    """
    if kind in ("high", "omaha_high", "short_deck", "deuce_seven"):
        return _high_parts(kind, value)[0]
    if kind in ("low8", "omaha_low8"):
        return "low"
    if kind == "ace_five":
        return A5_CATEGORIES[((1 << 24) - value) >> 20]
    if kind == "badugi":
        return ("one_card", "two_card", "three_card", "badugi")[(value >> 13) - 1]
    if kind == "thirty_two":
        cat = value >> 40
        if cat == 8 and (value >> 36) & 15 == 12:
            return "royal_flush"
        return _std_category({5: 6, 6: 5}.get(cat, cat), False, 0)
    raise ValueError(f"unknown evaluator kind: {kind!r}")


def describe(kind: str, value: int) -> str:
    """A readable English name of a value of evaluator ``kind``.

    >>> describe("high", 7296)  # the best full house
    'Full house, aces full of kings'
    >>> describe("ace_five", (1 << 24) - 0x0_43210)
    '5-4-3-2-A low'
    """
    if kind in ("high", "omaha_high", "short_deck", "deuce_seven"):
        name, d = _high_parts(kind, value)
        if kind == "deuce_seven" and name == "high_card":
            return "-".join(_CHARS[r] for r in d) + " low"
        return _name_high(name, d)
    if kind in ("low8", "omaha_low8"):
        return _low_ranks(255 - value) + " low"
    if kind == "ace_five":
        raw = (1 << 24) - value
        cat, d = raw >> 20, _digits(raw)
        chars = "A23456789TJQK"
        if cat == 0:
            return "-".join(chars[r] for r in d) + " low"
        plural = ("aces", *_PLURAL[:-1])
        name = A5_CATEGORIES[cat]
        return {
            "pair": f"Pair of {plural[d[0]]}",
            "two_pair": f"Two pair, {plural[d[0]]} and {plural[d[1]]}",
            "three_of_a_kind": f"Three of a kind, {plural[d[0]]}",
            "full_house": f"Full house, {plural[d[0]]} full of {plural[d[1]]}",
            "four_of_a_kind": f"Four of a kind, {plural[d[0]]}",
        }[name]
    if kind == "badugi":
        size, mask = value >> 13, 8191 - (value & 8191)
        ranks = _low_ranks(mask)
        if size == 4:
            return f"Badugi {ranks}"
        return f"{('One', 'Two', 'Three')[size - 1]}-card {ranks}"
    if kind == "thirty_two":
        name = category(kind, value)
        d = _digits(value >> 20)
        suit = "cdhs"[(1, 2, 3, 0).index((value >> 16) & 15)]
        suit_name = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}[suit]
        base = _name_high(name, d)
        return f"{base} ({suit_name})" if name != "royal_flush" else f"{base} of {suit_name}"
    raise ValueError(f"unknown evaluator kind: {kind!r}")
