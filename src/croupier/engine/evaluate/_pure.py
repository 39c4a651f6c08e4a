"""Pure Python (+ NumPy) evaluators: the fallback of the C extension, with the same values.

Used when ``_ceval`` is missing or when ``CROUPIER_PURE_EVAL=1``.

>>> from croupier.engine.cards import parse_cards as p
>>> high(p("AsKsQsJsTs"), ())
7462
>>> omaha_high(p("AsKsQsJs"), p("2s3s4h5d9c")) < 5864  # no flush with one spade pair + 2s3s
True
>>> low8(p("Ac2d3h4s5c"), ()), low8(p("9c2d3h4s5c"), ()) is None
(224, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final

import numpy as np
import numpy.typing as npt

from croupier.engine.errors import InvalidCardError
from croupier.engine.evaluate._tables import K5, tables

__all__ = [
    "LOW_MASK",
    "check_cards",
    "high",
    "high7",
    "high_batch",
    "low8",
    "low8_batch",
    "low8_of_mask",
    "omaha_high",
    "omaha_high_batch",
    "omaha_low8",
    "omaha_low8_batch",
    "short_deck",
    "short_deck_batch",
]

_RANKS: Final = "23456789TJQKA"
_SUITS: Final = "cdhs"

LOW_MASK: Final[tuple[int, ...]] = tuple(
    (1 if (c >> 2) == 12 else (1 << ((c >> 2) + 1)) if (c >> 2) <= 6 else 0) for c in range(52)
)
"""Per card, its bit among the eight low ranks (bit 0 = ace … bit 7 = eight), or 0."""


def _best5_of_low_mask(m: int) -> int:
    if m.bit_count() < 5:
        return -1
    while m.bit_count() > 5:
        m &= ~(1 << (m.bit_length() - 1))
    return 255 - m


_LOW_VALUE: Final[tuple[int, ...]] = tuple(_best5_of_low_mask(m) for m in range(256))
_LOW_VALUE_NP: Final = np.array(_LOW_VALUE, dtype=np.int32)


def low8_of_mask(m: int) -> int:
    """Value of the best 8-or-better low in a set of low ranks, -1 if none qualifies."""
    return _LOW_VALUE[m]


def check_cards(hole: Sequence[int], board: Sequence[int]) -> list[int]:
    """All cards as plain ints, refusing non-cards and duplicates (codes as the C module)."""
    out: list[int] = []
    seen = 0
    for c in (*hole, *board):
        if isinstance(c, bool) or not isinstance(c, int | np.integer):
            raise InvalidCardError("invalid_card", "a card is an integer from 0 to 51")
        v = int(c)
        if not 0 <= v <= 51:
            raise InvalidCardError("invalid_card", f"a card is an integer from 0 to 51, not {v}")
        if seen >> v & 1:
            raise InvalidCardError(
                "duplicate_card", f"card {_RANKS[v >> 2]}{_SUITS[v & 3]} appears twice"
            )
        seen |= 1 << v
        out.append(v)
    return out


def _count(name: str, n: int, lo: int, hi: int, what: str = "cards in all") -> None:
    if not lo <= n <= hi:
        raise InvalidCardError("wrong_card_count", f"{name} needs {lo} to {hi} {what}, got {n}")


def _eval5(cards: Sequence[int], short: bool) -> int:
    t = tables(short)
    ranks = tuple(sorted(c >> 2 for c in cards))
    s = cards[0] & 3
    flush = all(c & 3 == s for c in cards)
    return t.by_ranks[ranks, flush]


def _best(cards: Sequence[int], short: bool) -> int:
    return max(_eval5(five, short) for five in combinations(cards, 5))


def high(hole: Sequence[int], board: Sequence[int]) -> int:
    """Best 5 of all cards, standard high (1 … 7462)."""
    cards = check_cards(hole, board)
    _count("high", len(cards), 5, 9)
    return _best(cards, False)


def short_deck(hole: Sequence[int], board: Sequence[int]) -> int:
    """Best 5 of all cards, short-deck high (1 … 1404)."""
    cards = check_cards(hole, board)
    _count("short_deck", len(cards), 5, 9)
    if any(c < 16 for c in cards):
        raise InvalidCardError("invalid_card", "short-deck hands use only cards from 6 up")
    return _best(cards, True)


def high7(c1: int, c2: int, c3: int, c4: int, c5: int, c6: int, c7: int) -> int:
    """Seven cards, standard high."""
    return high((c1, c2, c3, c4, c5, c6, c7), ())


def _omaha_cards(name: str, hole: Sequence[int], board: Sequence[int]) -> tuple[list[int], ...]:
    cards = check_cards(hole, board)
    _count(name, len(hole), 4, 6, "hole cards")
    _count(name, len(board), 3, 5, "board cards")
    return cards[: len(hole)], cards[len(hole) :]


def omaha_high(hole: Sequence[int], board: Sequence[int]) -> int:
    """Exactly two hole cards and three board cards (R-RANK-3)."""
    h, b = _omaha_cards("omaha_high", hole, board)
    return max(
        _eval5((*two, *three), False) for two in combinations(h, 2) for three in combinations(b, 3)
    )


def low8(hole: Sequence[int], board: Sequence[int]) -> int | None:
    """Eight-or-better low, best 5 of all cards (R-RANK-4); ``None`` if no low."""
    cards = check_cards(hole, board)
    _count("low8", len(cards), 5, 9)
    m = 0
    for c in cards:
        m |= LOW_MASK[c]
    v = _LOW_VALUE[m]
    return None if v < 0 else v


def omaha_low8(hole: Sequence[int], board: Sequence[int]) -> int | None:
    """Eight-or-better low with exactly two hole and three board cards."""
    h, b = _omaha_cards("omaha_low8", hole, board)
    best = -1
    for two in combinations(h, 2):
        pm = LOW_MASK[two[0]] | LOW_MASK[two[1]]
        if pm.bit_count() != 2 or not (LOW_MASK[two[0]] and LOW_MASK[two[1]]):
            continue
        for three in combinations(b, 3):
            if not all(LOW_MASK[c] for c in three):
                continue
            tm = LOW_MASK[three[0]] | LOW_MASK[three[1]] | LOW_MASK[three[2]]
            if tm.bit_count() == 3 and not pm & tm:
                best = max(best, 255 - (pm | tm))
    return None if best < 0 else best


# ----------------------------------------------------------------------------- batch

IntArray = npt.NDArray[np.int32]
_K5_NP: Final = np.array(K5, dtype=np.int32)
_LOW_NP: Final = np.array(LOW_MASK, dtype=np.int32)


def _batch5(cols: list[IntArray], short: bool) -> IntArray:
    t = tables(short)
    ranks = [c >> 2 for c in cols]
    suits = [c & 3 for c in cols]
    key = sum((_K5_NP[r] for r in ranks), start=np.zeros_like(cols[0]))
    mask = sum((np.left_shift(1, r) for r in ranks), start=np.zeros_like(cols[0]))
    flush = np.ones(cols[0].shape, dtype=bool)
    for s in suits[1:]:
        flush &= s == suits[0]
    out: IntArray = np.where(flush, t.flush13[mask & 8191], t.nonflush5[key])
    return out


def _high_batch(cards: IntArray, short: bool) -> IntArray:
    k = cards.shape[1]
    best = np.zeros(cards.shape[0], dtype=np.int32)
    for idx in combinations(range(k), 5):
        best = np.maximum(best, _batch5([cards[:, i] for i in idx], short))
    return best


def high_batch(cards: IntArray) -> IntArray:
    """``high`` of every row of an (N, 5..7) int32 array."""
    return _high_batch(cards, False)


def short_deck_batch(cards: IntArray) -> IntArray:
    """``short_deck`` of every row of an (N, 5..7) int32 array."""
    return _high_batch(cards, True)


def omaha_high_batch(hole: IntArray, board: IntArray) -> IntArray:
    """``omaha_high`` of every row pair."""
    best = np.zeros(hole.shape[0], dtype=np.int32)
    for two in combinations(range(hole.shape[1]), 2):
        for three in combinations(range(board.shape[1]), 3):
            cols = [hole[:, i] for i in two] + [board[:, j] for j in three]
            best = np.maximum(best, _batch5(cols, False))
    return best


def low8_batch(cards: IntArray) -> IntArray:
    """``low8`` of every row; -1 where no low qualifies."""
    m = np.bitwise_or.reduce(_LOW_NP[cards], axis=1)
    out: IntArray = _LOW_VALUE_NP[m]
    return out


def omaha_low8_batch(hole: IntArray, board: IntArray) -> IntArray:
    """``omaha_low8`` of every row pair; -1 where no low qualifies."""
    best = np.full(hole.shape[0], 0x1FF, dtype=np.int32)
    lh, lb = _LOW_NP[hole], _LOW_NP[board]
    for a, b in combinations(range(hole.shape[1]), 2):
        pm = lh[:, a] | lh[:, b]
        pok = (lh[:, a] != 0) & (lh[:, b] != 0) & (lh[:, a] != lh[:, b])
        for i, j, k in combinations(range(board.shape[1]), 3):
            tm = lb[:, i] | lb[:, j] | lb[:, k]
            tok = (lb[:, i] != 0) & (lb[:, j] != 0) & (lb[:, k] != 0)
            tok &= (lb[:, i] != lb[:, j]) & (lb[:, i] != lb[:, k]) & (lb[:, j] != lb[:, k])
            ok = pok & tok & ((pm & tm) == 0)
            best = np.where(ok, np.minimum(best, pm | tm), best)
    out: IntArray = np.where(best == 0x1FF, -1, 255 - best).astype(np.int32)
    return out
