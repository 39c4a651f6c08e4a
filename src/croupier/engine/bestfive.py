"""The five cards that make a shown hand's value, for the showdown highlight (R-POT-4).

:func:`best_five` picks, among the five-card subsets a variant allows (any five of the
player's cards and the board; exactly two hole and three board cards at Omaha), one whose
value equals the hand's full value. Badugi, not made of five cards, gives ``()``, as
does a hi/lo hand with no qualifying low.

>>> from croupier.engine.cards import parse_cards
>>> hole, board = parse_cards("AsAd"), parse_cards("AhKcKd2s3h")
>>> [str(c) for c in best_five("high", hole, board)]
['As', 'Ad', 'Ah', 'Kc', 'Kd']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Final

from croupier.engine.cards import Card
from croupier.engine.evaluate import EVALUATORS

__all__ = ["best_five"]

_FIVE_OF: Final = {
    "high": "high",
    "short_deck": "short_deck",
    "low8": "low8",
    "deuce_seven": "deuce_seven",
    "ace_five": "ace_five",
    "thirty_two": "thirty_two",
    "omaha_high": "high",
    "omaha_low8": "low8",
}
"""Kind of a hand → the kind that values one of its five-card subsets."""


def _subsets(kind: str, hole: Sequence[Card], board: Sequence[Card]) -> Iterator[tuple[Card, ...]]:
    if kind.startswith("omaha"):
        for two in combinations(hole, 2):
            for three in combinations(board, 3):
                yield (*two, *three)
    else:
        yield from combinations((*hole, *board), 5)


def best_five(kind: str, hole: Sequence[Card], board: Sequence[Card]) -> tuple[Card, ...]:
    """Five of ``hole`` + ``board`` making the value of evaluator ``kind`` (``()`` if none)."""
    five_kind = _FIVE_OF.get(kind)
    if five_kind is None or len(hole) + len(board) < 5:
        return ()
    try:
        target = EVALUATORS[kind](hole, board)
    except ValueError:
        return ()
    if target is None:
        return ()
    value_of = EVALUATORS[five_kind]
    for five in _subsets(kind, hole, board):
        try:
            if value_of(five, ()) == target:
                return tuple(five)
        except ValueError:
            continue
    return ()
