"""Texas Hold'em Bonus pay tables as data (R-BONUS-3, R-BONUS-4).

The main game pays even money on the flop, turn and river bets when the player beats the
dealer; the ante pays even money only when the player's winning hand is a straight or
better (it pushes otherwise). Ties push every main bet.

The bonus bet is settled on the player's two hole cards alone (and, for the top line, the
dealer's), win or lose, whether the player folds or plays. Its lines are records, checked
in order; the first that matches pays.

>>> from croupier.engine.cards import parse_cards as p
>>> bonus_line(p("AsAh"), p("AdAc")).key, bonus_line(p("AsAh"), p("KdKc")).pays
('aa_vs_aa', 30)
>>> [bonus_line(p(h), p("2c3d")).pays for h in ("AhKh", "KhAd", "JdAd", "Ts9s", "2c2d")]
[25, 15, 20, -1, 3]
>>> bonus_line(p("QhJh"), p("2c3d")).key
'lose'
>>> ante_qualifies(5854), ante_qualifies(5853)   # lowest straight, best three of a kind
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from croupier.engine.cards import Card

__all__ = [
    "BONUS_LINES",
    "LOSE",
    "MAIN",
    "STRAIGHT_MIN",
    "BonusLine",
    "MainPaytable",
    "ante_qualifies",
    "bonus_line",
]

_A, _K, _Q, _J, _T = 12, 11, 10, 9, 8

STRAIGHT_MIN: Final = 5854
"""The ``high`` value of the lowest straight (5-4-3-2-A): straight or better is ``>=``."""


@dataclass(frozen=True, slots=True)
class MainPaytable:
    """How the main bets pay when the player beats the dealer (profit per unit staked)."""

    ante_pays: int = 1
    """Ante profit per unit when the player wins with ``ante_min_value`` or better."""
    ante_min_value: int = STRAIGHT_MIN
    """Weakest ``high`` value for which a winning ante is paid (else it pushes)."""
    street_pays: int = 1
    """Flop, turn and river bets profit per unit when the player wins."""


MAIN: Final = MainPaytable()
"""The published table: ante 1 to 1 with a straight or better, flop/turn/river 1 to 1."""


def ante_qualifies(value: int, table: MainPaytable = MAIN) -> bool:
    """Whether a winning hand of ``high`` value ``value`` is paid on the ante."""
    return value >= table.ante_min_value


@dataclass(frozen=True, slots=True)
class BonusLine:
    """One line of the bonus pay table.

    ``ranks`` lists the (high, low) rank-index pairs the hole cards may form (0 = deuce …
    12 = ace); ``suited`` is True/False for suited/offsuit only, None for either;
    ``dealer_ranks`` further requires the dealer's hole cards to be one of those pairs.
    ``pays`` is the profit per unit staked (``-1``: the stake is lost).
    """

    key: str
    label: str
    pays: int
    ranks: frozenset[tuple[int, int]]
    suited: bool | None = None
    dealer_ranks: frozenset[tuple[int, int]] | None = None

    def matches_hole(self, hole: Sequence[Card]) -> bool:
        """Whether the player's cards fit this line (the dealer's condition aside)."""
        a, b = Card(hole[0]), Card(hole[1])
        if (max(a.rank, b.rank), min(a.rank, b.rank)) not in self.ranks:
            return False
        return self.suited is None or (a.suit == b.suit) == self.suited

    def matches(self, hole: Sequence[Card], dealer: Sequence[Card]) -> bool:
        if not self.matches_hole(hole):
            return False
        if self.dealer_ranks is not None:
            c, d = Card(dealer[0]), Card(dealer[1])
            if (max(c.rank, d.rank), min(c.rank, d.rank)) not in self.dealer_ranks:
                return False
        return True


def _pairs(*ranks: int) -> frozenset[tuple[int, int]]:
    return frozenset((r, r) for r in ranks)


BONUS_LINES: Final[tuple[BonusLine, ...]] = (
    BonusLine("aa_vs_aa", "A-A, dealer A-A", 1000, _pairs(_A), dealer_ranks=_pairs(_A)),
    BonusLine("aa", "A-A", 30, _pairs(_A)),
    BonusLine("ak_suited", "A-K suited", 25, frozenset({(_A, _K)}), suited=True),
    BonusLine("aq_aj_suited", "A-Q or A-J suited", 20, frozenset({(_A, _Q), (_A, _J)}), True),
    BonusLine("ak_offsuit", "A-K offsuit", 15, frozenset({(_A, _K)}), suited=False),
    BonusLine("kk_qq_jj", "K-K, Q-Q or J-J", 10, _pairs(_K, _Q, _J)),
    BonusLine("aq_aj_offsuit", "A-Q or A-J offsuit", 5, frozenset({(_A, _Q), (_A, _J)}), False),
    BonusLine("pair_2_10", "2-2 to 10-10", 3, _pairs(*range(0, _T + 1))),
)
"""The bonus pay table of R-BONUS-4, best line first."""

LOSE: Final = BonusLine("lose", "no bonus hand", -1, frozenset())
"""What every other hand gets: the bonus stake is lost."""


def bonus_line(
    hole: Sequence[Card], dealer: Sequence[Card], lines: Sequence[BonusLine] = BONUS_LINES
) -> BonusLine:
    """The first line of ``lines`` that the hole cards (and dealer's cards) match, else LOSE."""
    for line in lines:
        if line.matches(hole, dealer):
            return line
    return LOSE
