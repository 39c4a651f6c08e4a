"""The optimal decision for one player, as the strategy hint of the casino table.

It is the strategy whose exact return ``croupier.casino.optimal`` computes (-2.0369 %):

- pre-flop, fold exactly the classes whose optimal play is worth less than the lost ante
  (:data:`OPTIMAL_FOLDS`: 32o 42o 52o 62o 72o), play everything else;
- on the turn (flop known), bet when the hand beats the dealer in more of the remaining
  (turn, river, dealer pair) deals than it loses to, else check;
- on the river (turn known), the same test over the remaining (river, dealer pair) deals.

The turn test counts 1,081 boards x 990 dealer pairs (about a million 7-card evaluations
through the batch evaluator), the river 46 x 990; both are exact.

>>> from croupier.engine.cards import parse_cards as p
>>> advise(p("7c2d"), ()).move, advise(p("7c2c"), ()).move
('fold', 'play')
>>> a = advise(p("AsAh"), p("Kd7c2s4h"))
>>> a.move, a.wins > a.losses
('bet', True)
>>> advise(p("3c2d"), p("AsKsQsJs")).move     # the dealer often holds a spade or a ten
'check'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

import numpy as np

from croupier.casino.returns import hand_class
from croupier.engine.cards import DECK_52, Card
from croupier.engine.errors import IllegalActionError
from croupier.engine.evaluate import high_batch

__all__ = ["OPTIMAL_FOLDS", "Advice", "advise"]

OPTIMAL_FOLDS: Final = frozenset({"32o", "42o", "52o", "62o", "72o"})
"""The hand classes the optimal strategy folds (``croupier bonus edge``, docs/bonus.md)."""


@dataclass(frozen=True, slots=True)
class Advice:
    """The optimal move and why: ``wins``/``ties``/``losses`` count the remaining deals
    (after the flop or the turn); pre-flop they are 0 and ``hand`` names the class."""

    move: str
    hand: str
    wins: int = 0
    ties: int = 0
    losses: int = 0

    def to_dict(self) -> dict[str, object]:
        return {
            "move": self.move,
            "hand": self.hand,
            "wins": self.wins,
            "ties": self.ties,
            "losses": self.losses,
        }


def _counts(hole: Sequence[Card], board: Sequence[Card]) -> tuple[int, int, int]:
    known = {*hole, *board}
    rest = [c for c in DECK_52 if c not in known]
    need = 5 - len(board)
    wins = ties = losses = 0
    for more in combinations(rest, need):
        full = [*board, *more]
        left = np.array([c for c in rest if c not in more], dtype=np.int32)
        i, j = np.triu_indices(len(left), 1)
        dealer = np.empty((len(i), 7), dtype=np.int32)
        dealer[:, 0], dealer[:, 1] = left[i], left[j]
        dealer[:, 2:] = np.array(full, dtype=np.int32)
        dv = high_batch(dealer)
        pv = int(high_batch(np.array([[*hole, *full]], dtype=np.int32))[0])
        wins += int((dv < pv).sum())
        ties += int((dv == pv).sum())
        losses += int((dv > pv).sum())
    return wins, ties, losses


def advise(hole: Sequence[Card], board: Sequence[Card]) -> Advice:
    """The optimal decision with these hole cards and this board (0, 3 or 4 cards)."""
    if (
        len(hole) != 2
        or len(board) not in (0, 3, 4)
        or len({*hole, *board}) != len(hole) + len(board)
    ):
        raise IllegalActionError(
            "no_advice", "advice needs two hole cards and 0, 3 or 4 board cards"
        )
    name = hand_class(int(hole[0]), int(hole[1]))
    if not board:
        return Advice("fold" if name in OPTIMAL_FOLDS else "play", name)
    wins, ties, losses = _counts(hole, board)
    return Advice("bet" if wins > losses else "check", name, wins, ties, losses)
