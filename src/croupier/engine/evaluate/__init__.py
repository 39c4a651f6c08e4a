"""Hand evaluators (R-RANK-1 … R-RANK-6): scalar functions for the engine, NumPy batches.

Cards are ints ``rank * 4 + suit`` (:mod:`croupier.engine.cards`). Every scalar evaluator
takes ``(hole, board)`` and returns an ``int`` strength, **higher is better**, equal means a
tie; low games return the strength of the low (the best low has the highest value), and
evaluators with a qualifier return ``None`` when nothing qualifies.

Value scales (see ``docs/evaluators.md``):

- ``high``, ``omaha_high``: dense class numbers 1 … 7462 (7462 = royal flush);
- ``short_deck``: 1 … 1404 (flush above full house, A-6-7-8-9 the lowest straight);
- ``low8``, ``omaha_low8``: ``255 - mask`` of the five low ranks (bit 0 = ace … bit 7 =
  eight): 224 = A-2-3-4-5 … 7 = 8-7-6-5-4; ``None`` (batch: ``-1``) when no low;
- ``deuce_seven``: ``7463 - class`` in the high ranking without the wheel (7462 = 7-5-4-3-2);
- ``ace_five``, ``badugi``, ``thirty_two``: see their docstrings.

The fast path is the C extension ``_ceval``; a pure Python + NumPy fallback gives the same
values and is used when the extension is missing or ``CROUPIER_PURE_EVAL=1``.

>>> from croupier.engine.cards import parse_cards as p
>>> v = high(p("KsKh"), p("Kd7c7s2h3d"))
>>> describe("high", v), category("high", v)
('Full house, kings full of sevens', 'full_house')
>>> high(p("AsAh"), p("2c3d4h5s9c")) == high7(*p("AsAh2c3d4h5s9c"))
True
>>> omaha_high(p("AsKdQdJc"), p("2s3s9sTc8s")) < high(p("AsKd"), p("2s3s9sTc8s"))
True
>>> describe("omaha_low8", omaha_low8(p("Ac2d9h9s"), p("3c5d8hKsKd")))
'8-5-3-2-A low'
>>> import numpy as np
>>> int(high_batch(np.array([p("AsAh2c3d4h5s9c")]))[0]) == high(p("AsAh"), p("2c3d4h5s9c"))
True
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Final

import numpy as np
import numpy.typing as npt

from croupier.engine.errors import InvalidCardError
from croupier.engine.evaluate import _pure
from croupier.engine.evaluate._describe import KINDS, category, describe
from croupier.engine.evaluate._lowball import ace_five, badugi, deuce_seven, thirty_two

__all__ = [
    "BACKEND",
    "EVALUATORS",
    "KINDS",
    "NO_LOW",
    "ace_five",
    "badugi",
    "category",
    "describe",
    "deuce_seven",
    "high",
    "high7",
    "high_batch",
    "low8",
    "low8_batch",
    "omaha_high",
    "omaha_high_batch",
    "omaha_low8",
    "omaha_low8_batch",
    "short_deck",
    "short_deck_batch",
    "thirty_two",
]

NO_LOW: Final = -1
"""Batch sentinel: no qualifying low in this row."""

Evaluator = Callable[[Sequence[int], Sequence[int]], int]
LowEvaluator = Callable[[Sequence[int], Sequence[int]], int | None]
IntArray = npt.NDArray[np.int32]

try:
    if os.environ.get("CROUPIER_PURE_EVAL", "") not in ("", "0"):
        raise ImportError("CROUPIER_PURE_EVAL is set")
    from croupier.engine.evaluate import _ceval as _c

    _HAVE_C = True
except ImportError:  # the build is optional
    _HAVE_C = False

BACKEND: Final[str] = "c" if _HAVE_C else "python"
"""``"c"`` when the C extension is in use, else ``"python"``."""

high: Evaluator
omaha_high: Evaluator
short_deck: Evaluator
low8: LowEvaluator
omaha_low8: LowEvaluator
high7: Callable[[int, int, int, int, int, int, int], int]

if _HAVE_C:
    _c.set_error_class(InvalidCardError)
    high = _c.high
    omaha_high = _c.omaha_high
    short_deck = _c.short_deck
    low8 = _c.low8
    omaha_low8 = _c.omaha_low8
    high7 = _c.high7
else:
    high = _pure.high
    omaha_high = _pure.omaha_high
    short_deck = _pure.short_deck
    low8 = _pure.low8
    omaha_low8 = _pure.omaha_low8
    high7 = _pure.high7


def _as_cards(a: npt.ArrayLike, name: str, widths: range, check: bool = True) -> IntArray:
    arr = np.ascontiguousarray(a, dtype=np.int32)
    if arr.ndim == 1:
        arr = arr.reshape(1, -1)
    if arr.ndim != 2 or arr.shape[1] not in widths:
        raise InvalidCardError(
            "wrong_card_count",
            f"{name} needs an (N, k) array with k in {widths.start}..{widths.stop - 1}",
        )
    if (check or not _HAVE_C) and arr.size and (int(arr.min()) < 0 or int(arr.max()) > 51):
        raise InvalidCardError("invalid_card", "a card is an integer from 0 to 51")
    return arr


def _checked(bad: int) -> None:
    """The C loops check the card range themselves and return the first bad row."""
    if bad >= 0:
        raise InvalidCardError("invalid_card", f"row {bad}: a card is an integer from 0 to 51")


def high_batch(cards: npt.ArrayLike) -> IntArray:
    """``high`` of every row of an (N, 5..7) card array (int32 result, same scale).

    Cards are range-checked; a row holding the same card twice gives an unspecified value.
    """
    arr = _as_cards(cards, "high_batch", range(5, 8), check=False)
    if not _HAVE_C:
        return _pure.high_batch(arr)
    out = np.empty(arr.shape[0], dtype=np.int32)
    _checked(_c.high_batch(arr, arr.shape[1], out, False))
    return out


def short_deck_batch(cards: npt.ArrayLike) -> IntArray:
    """``short_deck`` of every row of an (N, 5..7) card array (cards from 6 up)."""
    arr = _as_cards(cards, "short_deck_batch", range(5, 8))
    if arr.size and int((arr >> 2).min()) < 4:
        raise InvalidCardError("invalid_card", "short-deck hands use only cards from 6 up")
    if not _HAVE_C:
        return _pure.short_deck_batch(arr)
    out = np.empty(arr.shape[0], dtype=np.int32)
    _c.high_batch(arr, arr.shape[1], out, True)
    return out


def _omaha_arrays(hole: npt.ArrayLike, board: npt.ArrayLike, name: str) -> tuple[IntArray, ...]:
    h = _as_cards(hole, name, range(4, 7), check=False)
    b = _as_cards(board, name, range(3, 6), check=False)
    if h.shape[0] != b.shape[0]:
        raise InvalidCardError("wrong_card_count", f"{name}: hole and board row counts differ")
    return h, b


def omaha_high_batch(hole: npt.ArrayLike, board: npt.ArrayLike) -> IntArray:
    """``omaha_high`` of every row: hole (N, 4..6), board (N, 3..5)."""
    h, b = _omaha_arrays(hole, board, "omaha_high_batch")
    if not _HAVE_C:
        return _pure.omaha_high_batch(h, b)
    out = np.empty(h.shape[0], dtype=np.int32)
    _checked(_c.omaha_batch(h, h.shape[1], b, b.shape[1], out, None))
    return out


def omaha_low8_batch(hole: npt.ArrayLike, board: npt.ArrayLike) -> IntArray:
    """``omaha_low8`` of every row; ``NO_LOW`` (-1) where no low qualifies."""
    h, b = _omaha_arrays(hole, board, "omaha_low8_batch")
    if not _HAVE_C:
        return _pure.omaha_low8_batch(h, b)
    out = np.empty(h.shape[0], dtype=np.int32)
    _checked(_c.omaha_batch(h, h.shape[1], b, b.shape[1], None, out))
    return out


def low8_batch(cards: npt.ArrayLike) -> IntArray:
    """``low8`` of every row of an (N, 5..9) array; ``NO_LOW`` (-1) where no low qualifies."""
    arr = _as_cards(cards, "low8_batch", range(5, 10), check=False)
    if not _HAVE_C:
        return _pure.low8_batch(arr)
    out = np.empty(arr.shape[0], dtype=np.int32)
    _checked(_c.low8_batch(arr, arr.shape[1], out))
    return out


EVALUATORS: Final[Mapping[str, Callable[[Sequence[int], Sequence[int]], int | None]]] = (
    MappingProxyType(
        {
            "high": high,
            "omaha_high": omaha_high,
            "low8": low8,
            "omaha_low8": omaha_low8,
            "deuce_seven": deuce_seven,
            "ace_five": ace_five,
            "badugi": badugi,
            "short_deck": short_deck,
            "thirty_two": thirty_two,
        }
    )
)
"""Evaluator kind name → scalar function."""
assert tuple(EVALUATORS) == KINDS
