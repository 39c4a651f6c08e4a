"""Lowball and special rankings (pure Python): deuce-to-seven, ace-to-five, badugi, 32-card.

Values are ints, higher is better.

>>> from croupier.engine.cards import parse_cards as p
>>> deuce_seven(p("7c5d4h3s2c"), ()) == 7462  # the best 2-7 hand (R-RANK-5)
True
>>> deuce_seven(p("5c4d3h2sAc"), ()) > deuce_seven(p("8c6d4h3s2c"), ())  # ace high loses
False
>>> ace_five(p("5c4d3h2sAc"), ()) > ace_five(p("6c4d3h2sAc"), ())
True
>>> badugi(p("Ac2d3h4s"), ()) > badugi(p("Ac2d3h5s"), ()) > badugi(p("Ac2d3h3s"), ())
True
>>> thirty_two(p("AhKhQhJhTh"), ()) > thirty_two(p("AdKdQdJdTd"), ())  # hearts > diamonds
True
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final

from croupier.engine.errors import InvalidCardError
from croupier.engine.evaluate._pure import _count, check_cards
from croupier.engine.evaluate._tables import tables

__all__ = [
    "A5_CATEGORIES",
    "SUIT_STRENGTH",
    "ace_five",
    "badugi",
    "deuce_seven",
    "thirty_two",
    "thirty_two5",
]

# ----------------------------------------------------------------------------- 2-7


def _d27_5(cards: Sequence[int]) -> int:
    t = tables(False, False)
    ranks = tuple(sorted(c >> 2 for c in cards))
    s = cards[0] & 3
    return 7463 - t.by_ranks[ranks, all(c & 3 == s for c in cards)]


def deuce_seven(hole: Sequence[int], board: Sequence[int]) -> int:
    """Deuce-to-seven low (R-RANK-5): ``7463 - class`` of the high ranking without the wheel.

    7462 is 7-5-4-3-2 unsuited; the best 5 of the cards given.
    """
    cards = check_cards(hole, board)
    _count("deuce_seven", len(cards), 5, 9)
    return max(_d27_5(five) for five in combinations(cards, 5))


# -----------------------------------------------------------------------------

A5_CATEGORIES: Final = ("high_card", "pair", "two_pair", "three_of_a_kind", "full_house",
                        "four_of_a_kind")  # fmt: skip
_A5_TOP: Final = 1 << 24


def _a5_raw(cards: Sequence[int]) -> int:
    low = [((c >> 2) + 1) % 13 for c in cards]  # ace 0, deuce 1, ... king 12
    cnt = [0] * 13
    for r in low:
        cnt[r] += 1
    groups = sorted(((c, r) for r, c in enumerate(cnt) if c), reverse=True)
    shape = tuple(c for c, _ in groups)
    cat = {
        (1, 1, 1, 1, 1): 0,
        (2, 1, 1, 1): 1,
        (2, 2, 1): 2,
        (3, 1, 1): 3,
        (3, 2): 4,
        (4, 1): 5,
    }[shape]
    raw = cat
    for d in [r for _, r in groups] + [0] * (5 - len(groups)):
        raw = (raw << 4) | d
    return raw


def ace_five(hole: Sequence[int], board: Sequence[int]) -> int:
    """Ace-to-five low without qualifier (Razz): ``2**24 - raw``; straights and flushes
    are ignored, pairs count; best 5 of the cards given."""
    cards = check_cards(hole, board)
    _count("ace_five", len(cards), 5, 9)
    return _A5_TOP - min(_a5_raw(five) for five in combinations(cards, 5))


# ----------------------------------------------------------------------------- badugi


def badugi(hole: Sequence[int], board: Sequence[int]) -> int:
    """Badugi: the largest set of cards of distinct ranks and suits (ace low), then the
    lowest from the top card down: ``size << 13 | (8191 - rank mask)``."""
    cards = check_cards(hole, board)
    _count("badugi", len(cards), 4, 9)
    for size in range(4, 0, -1):
        best = -1
        for sub in combinations(cards, size):
            if len({c & 3 for c in sub}) != size:
                continue
            m = 0
            for c in sub:
                m |= 1 << (((c >> 2) + 1) % 13)
            if m.bit_count() != size:
                continue
            best = max(best, (size << 13) | (8191 - m))
        if best >= 0:
            return best
    raise AssertionError("unreachable: one card is always a badugi")  # pragma: no cover


# ----------------------------------------------------------------------------- 32-card

SUIT_STRENGTH: Final = (1, 2, 3, 0)
"""R-RANK-6 suit order, by suit index c d h s: hearts 3 > diamonds 2 > clubs 1 > spades 0."""

T32_HIGH_CARD, T32_PAIR, T32_TWO_PAIR, T32_TRIPS, T32_STRAIGHT = 0, 1, 2, 3, 4
T32_FULL_HOUSE, T32_FLUSH, T32_QUADS, T32_STRAIGHT_FLUSH = 5, 6, 7, 8


def thirty_two5(cards: Sequence[int]) -> int:
    """Value of exactly five cards of the 32-card deck under R-RANK-6.

    ``category << 40 | rank digits << 20 | suit digits``: categories as R-RANK-6 (flush 6
    above full house 5); rank digits as in high poker (a straight by its top card, A-7-8-9-T
    topped by the ten); suit digits (hearts 3 > diamonds 2 > clubs 1 > spades 0) of the cards
    in the order R-RANK-6 uses them: straights top card first; one/two pair, trips and high
    card the kickers from the highest, then the paired cards; full house trips then pair.
    """
    ranks = [c >> 2 for c in cards]
    cnt = [0] * 13
    for r in ranks:
        cnt[r] += 1
    groups = sorted(((n, r) for r, n in enumerate(cnt) if n), reverse=True)
    shape = tuple(n for n, _ in groups)
    flush = len({c & 3 for c in cards}) == 1
    m = sum(1 << r for r in set(ranks))
    top = -1
    if len(groups) == 5:
        for t in range(12, 8, -1):
            if (m >> (t - 4)) & 31 == 31:
                top = t
        if m == (1 << 12) | (0xF << 5):  # A-7-8-9-T
            top = 8

    def strength(c: int) -> int:
        return SUIT_STRENGTH[c & 3]

    rank_digits: list[int]
    if top >= 0:
        cat = T32_STRAIGHT_FLUSH if flush else T32_STRAIGHT
        rank_digits = [top]
        order = sorted(cards, key=lambda c: (c >> 2) if not (top == 8 and c >> 2 == 12) else -1)
        suit_cards = order[::-1]
    else:
        if shape[0] == 4:
            cat = T32_QUADS
        elif flush:
            cat = T32_FLUSH
        elif shape == (3, 2):
            cat = T32_FULL_HOUSE
        elif shape[0] == 3:
            cat = T32_TRIPS
        elif shape[:2] == (2, 2):
            cat = T32_TWO_PAIR
        elif shape[0] == 2:
            cat = T32_PAIR
        else:
            cat = T32_HIGH_CARD
        rank_digits = [r for _, r in groups]
        singles = sorted((c for c in cards if cnt[c >> 2] == 1), key=lambda c: -(c >> 2))
        multis: list[int] = []
        for n, r in groups:
            if n > 1:
                multis += sorted((c for c in cards if c >> 2 == r), key=strength, reverse=True)
        suit_cards = singles + multis
    value = cat
    for d in rank_digits + [0] * (5 - len(rank_digits)):
        value = (value << 4) | d
    for c in suit_cards:
        value = (value << 4) | strength(c)
    return value


def thirty_two(hole: Sequence[int], board: Sequence[int]) -> int:
    """32-card draw (R-RANK-6): best 5 of the cards given; distinct hands never tie."""
    cards = check_cards(hole, board)
    _count("thirty_two", len(cards), 5, 9)
    if any(c >> 2 < 5 for c in cards):
        raise InvalidCardError("invalid_card", "the 32-card deck has no card below the seven")
    return max(thirty_two5(five) for five in combinations(cards, 5))
