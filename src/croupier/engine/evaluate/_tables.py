"""Hand classes of the high games, computed from first principles (pure Python).

A 5-card hand has a *raw score*: ``category << 20`` followed by its distinct ranks ordered by
(multiplicity, rank), four bits each. Sorting every possible raw score gives the dense class
numbers used as values (1 = worst, 7462 = royal flush for standard high; 1 .. 1404 for short
deck). The C extension builds the same numbering with the same rules (see ``_ceval.c``).

>>> t = tables(False)
>>> len(t.raws), t.dense[raw5((12, 11, 10, 9, 8), True, False)]
(7462, 7462)
>>> t.dense[raw5((3, 2, 1, 0, 12), False, False)] == t.dense_of_category_start(4)
True
>>> len(tables(True).raws)
1404
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import Final

import numpy as np
import numpy.typing as npt

__all__ = ["K5", "HighTables", "raw5", "tables"]

K5: Final[tuple[int, ...]] = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
"""Rank keys whose sums over 5-card rank multisets are unique (SKPokerEval's 5-card keys)."""

# categories, standard order; short deck swaps flush (6) and full house (5)
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT = 0, 1, 2, 3, 4
STRAIGHT_FLUSH, QUADS = 8, 7


def flush_category(short: bool) -> int:
    """Category number of a flush."""
    return 6 if short else 5


def full_house_category(short: bool) -> int:
    """Category number of a full house."""
    return 5 if short else 6


def straight_top(ranks: tuple[int, ...] | list[int], short: bool, wheel: bool = True) -> int:
    """The top rank of a 5-card straight made by ``ranks``, or -1 (``wheel``: A-2-3-4-5)."""
    m = 0
    for r in ranks:
        m |= 1 << r
    if m.bit_count() != 5:
        return -1
    for t in range(12, 3, -1):
        if (m >> (t - 4)) & 31 == 31:
            return t
    if wheel and not short and m == (1 << 12) | 0xF:
        return 3
    if short and m == (1 << 12) | (0xF << 4):
        return 7
    return -1


def raw5(ranks: tuple[int, ...] | list[int], flush: bool, short: bool, wheel: bool = True) -> int:
    """Raw score of five cards of these ranks (``flush``: all one suit)."""
    cnt = [0] * 13
    for r in ranks:
        cnt[r] += 1
    groups = sorted(((c, r) for r, c in enumerate(cnt) if c), reverse=True)
    top = straight_top(ranks, short, wheel)
    if top >= 0 and flush:
        return (STRAIGHT_FLUSH << 20) | (top << 16)
    shape = tuple(c for c, _ in groups)
    if shape[0] == 4:
        cat = QUADS
    elif shape == (3, 2):
        cat = full_house_category(short)
    elif flush:
        cat = flush_category(short)
    elif top >= 0:
        return (STRAIGHT << 20) | (top << 16)
    elif shape[0] == 3:
        cat = TRIPS
    elif shape[:2] == (2, 2):
        cat = TWO_PAIR
    elif shape[0] == 2:
        cat = PAIR
    else:
        cat = HIGH_CARD
    raw = cat
    digits = [r for _, r in groups] + [0] * (5 - len(groups))
    for d in digits:
        raw = (raw << 4) | d
    return raw


@dataclass(frozen=True)
class HighTables:
    """Dense class numbers of one high ranking (standard or short deck)."""

    short: bool
    wheel: bool
    raws: tuple[int, ...]
    dense: dict[int, int]
    by_ranks: dict[tuple[tuple[int, ...], bool], int]
    nonflush5: npt.NDArray[np.int32] = field(repr=False)
    flush13: npt.NDArray[np.int32] = field(repr=False)

    def dense_of_category_start(self, category: int) -> int:
        """The smallest dense value of a category."""
        return min(v for r, v in self.dense.items() if r >> 20 == category)


@cache
def tables(short: bool, wheel: bool = True) -> HighTables:
    """Build (once) the tables of the standard (``short=False``) or short-deck ranking.

    ``wheel=False`` is the deuce-to-seven variant: A-2-3-4-5 is no straight (R-RANK-5).
    """
    lowest = 4 if short else 0
    rank_range = range(lowest, 13)
    entries: dict[tuple[tuple[int, ...], bool], int] = {}
    for ms in combinations_with_replacement(rank_range, 5):
        if ms[0] == ms[4]:
            continue
        entries[ms, False] = raw5(ms, False, short, wheel)
    for combo in combinations(rank_range, 5):
        entries[combo, True] = raw5(combo, True, short, wheel)
    raws = tuple(sorted(set(entries.values())))
    dense = {r: i + 1 for i, r in enumerate(raws)}
    by_ranks = {k: dense[r] for k, r in entries.items()}
    nonflush = np.zeros(4 * K5[12] + K5[11] + 1, dtype=np.int32)
    flush = np.zeros(8192, dtype=np.int32)
    for (rs, fl), v in by_ranks.items():
        if fl:
            flush[sum(1 << r for r in rs)] = v
        else:
            nonflush[sum(K5[r] for r in rs)] = v
    return HighTables(short, wheel, raws, dense, by_ranks, nonflush, flush)
