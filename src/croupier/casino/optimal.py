"""The exact optimal strategy of Texas Hold'em Bonus and its expected return.

The turn and river bets are separate even-money wagers on the final showdown, each a
fixed 1x ante, and neither changes what the player learns later. So the optimal player
bets the turn exactly when, knowing the hole cards and the flop, the player's hand wins
more of the remaining deals than it loses, and the river on the same test knowing the
turn; and plays pre-flop exactly when that whole line is worth more than the lost ante.

For a hole pair ``h`` and a 5-card board ``B`` let ``D(h, B)`` be the dealer pairs the
player beats minus those he loses to (990 dealer pairs in all). Then with ``Q`` the flop
and turn, the river bet is worth ``max(0, sum_r D(h, Q + r))`` and with ``F`` the flop the
turn bet ``max(0, sum_{t != r} D(h, F + t + r))``. ``D`` is computed once per class of
boards under suit permutations (134,459 classes, :func:`croupier.casino.returns.board_counts`)
and read back for every board through the permutation that maps it to its class; one
representative hole pair per hand class (169) is enough, as a suit permutation maps a
class onto itself. Sums over the 4- and 3-card subsets are NumPy ``bincount`` over
combinatorial indices. Takes a few minutes (``croupier bonus edge --optimal``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

import numpy as np
import numpy.typing as npt

from croupier.casino.paytable import MAIN, MainPaytable
from croupier.casino.returns import (
    _PAIR_INDEX,
    BOARDS,
    DEALER_PAIRS,
    HOLES,
    _chunks,
    _combinations,
    board_counts,
    hand_class,
)

__all__ = [
    "EXACT_OPTIMAL_EV",
    "EXACT_OPTIMAL_PLAYED",
    "EXACT_OPTIMAL_STAKED",
    "ORDERED_DEALS",
    "BoardClasses",
    "OptimalReturns",
    "board_classes",
    "hole_diffs",
    "optimal_returns",
]

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]

ORDERED_DEALS: Final = math.comb(50, 3) * 47 * 46 * DEALER_PAIRS
"""Deals a hole pair meets with the flop, turn and river in order: 19600 x 47 x 46 x 990."""


EXACT_OPTIMAL_EV: Final = Fraction(-578107733, 28381438800)
"""The optimal strategy's expected profit per ante: -2.0369 % (computed once by
:func:`optimal_returns`; the soak test recomputes it)."""
EXACT_OPTIMAL_STAKED: Final = Fraction(582981977, 152688900)
"""Mean antes staked per round under the optimal strategy (3.8181)."""
EXACT_OPTIMAL_PLAYED: Final = Fraction(211, 221)
"""Hands played by the optimal strategy: all but 32o 42o 52o 62o 72o (95.48 %)."""


@dataclass(frozen=True, slots=True)
class BoardClasses:
    """Every 5-card board (``boards``, lexicographic), the index of its suit class
    (``klass``), the permutation of suits taking it onto the class representative
    (``sigma[b, old_suit] = new_suit``), the representatives and the class sizes."""

    boards: I32
    klass: I64
    sigma: npt.NDArray[np.int8]
    reps: I32
    weights: I64


def board_classes() -> BoardClasses:
    """The 2,598,960 boards, their 134,459 suit classes and the maps onto them."""
    boards = _combinations(52, 5)
    n = len(boards)
    rows = np.arange(n)
    masks = np.zeros((n, 4), dtype=np.int64)
    for k in range(5):
        masks[rows, boards[:, k] & 3] += np.int64(1) << (boards[:, k] >> 2)
    order = np.argsort(masks, axis=1, kind="stable")  # new suit j holds old suit order[j]
    sigma = np.empty((n, 4), dtype=np.int8)
    np.put_along_axis(sigma, order, np.arange(4, dtype=np.int8)[None, :].repeat(n, 0), axis=1)
    sm = np.take_along_axis(masks, order, axis=1)
    key = ((sm[:, 0] * 8192 + sm[:, 1]) * 8192 + sm[:, 2]) * 8192 + sm[:, 3]
    _, first, klass, weights = np.unique(
        key, return_index=True, return_inverse=True, return_counts=True
    )
    fb = boards[first]
    mapped = (fb >> 2) * 4 + np.take_along_axis(sigma[first], fb & 3, axis=1)
    reps = np.sort(mapped, axis=1).astype(np.int32)
    return BoardClasses(boards, klass.astype(np.int64), sigma, reps, weights.astype(np.int64))


def hole_diffs(bc: BoardClasses, diff: npt.NDArray[np.int16], a: int, b: int) -> I64:
    """``D(h, B)`` for the hole pair ``h = {a, b}`` and every board ``B`` (0 where they
    share a card), read from ``diff[class, hole]`` through each board's suit permutation."""
    sa = (a >> 2) * 4 + bc.sigma[:, a & 3].astype(np.int64)
    sb = (b >> 2) * 4 + bc.sigma[:, b & 3].astype(np.int64)
    out: I64 = diff.ravel()[bc.klass * len(HOLES) + _PAIR_INDEX[sa, sb]].astype(np.int64)
    return out


def _subset_index(cards: I32) -> I64:
    """Combinatorial-number-system index of sorted card subsets (rows)."""
    k = cards.shape[1]
    binom = np.array([[math.comb(c, j) for j in range(k + 1)] for c in range(52)], dtype=np.int64)
    out = np.zeros(len(cards), dtype=np.int64)
    for j in range(k):
        out += binom[cards[:, j], j + 1]
    return out


@dataclass(frozen=True, slots=True)
class OptimalReturns:
    """Exact figures of the optimal strategy, per unit of ante.

    ``play_ev[name]``: expected profit of playing a hand class and then betting the turn
    and river optimally; ``ev``: of the whole strategy (folding the classes worth less
    than -1); ``played``: fraction of hands played; ``turn_bets`` / ``river_bets``: how
    often (over all rounds) the turn and river are bet; ``staked``: mean antes per round.
    """

    play_ev: dict[str, Fraction]
    folds: tuple[str, ...]
    ev: Fraction
    played: Fraction
    turn_bets: Fraction
    river_bets: Fraction
    staked: Fraction

    @property
    def per_staked(self) -> Fraction:
        return self.ev / self.staked


def optimal_returns(
    progress: Callable[[str, int, int], None] | None = None,
    table: MainPaytable = MAIN,
    chunk: int = 256,
) -> OptimalReturns:
    """Enumerate every deal and return the optimal strategy's exact figures."""
    bc = board_classes()
    nrep = len(bc.reps)
    diff = np.zeros((nrep, len(HOLES)), dtype=np.int16)  # D(h, representative board)
    base = np.zeros((2, len(HOLES)), dtype=np.int64)  # sum of wins x2 + strong - 3 losses
    for part in _chunks(nrep, chunk):
        wins, strong, _ties, losses = board_counts(bc.reps[part])
        diff[part] = wins - losses
        w = bc.weights[part][:, None]
        base[0] += ((2 * table.street_pays * wins + table.ante_pays * strong - 3 * losses) * w).sum(
            axis=0
        )
        if progress is not None:
            progress("boards", part.stop, nrep)

    names = [hand_class(a, b) for a, b in HOLES.tolist()]
    members: dict[str, list[int]] = {}
    for i, nm in enumerate(names):
        members.setdefault(nm, []).append(i)

    sub4 = np.stack(
        [_subset_index(np.delete(bc.boards, j, axis=1)) for j in range(5)], axis=1
    ).ravel()
    pairs = [(i, j) for i in range(5) for j in range(i + 1, 5)]
    sub3 = np.stack(
        [_subset_index(np.delete(bc.boards, [i, j], axis=1)) for i, j in pairs], axis=1
    ).ravel()

    play_ev: dict[str, Fraction] = {}
    turn_freq: dict[str, Fraction] = {}
    river_freq: dict[str, Fraction] = {}
    for done, (name, idx) in enumerate(sorted(members.items())):
        rep = int(idx[0])
        d = hole_diffs(bc, diff, *(int(x) for x in HOLES[rep]))
        s4 = np.bincount(sub4, weights=np.repeat(d, 5).astype(np.float64), minlength=270725)
        s3 = np.bincount(sub3, weights=np.repeat(d, 10).astype(np.float64), minlength=22100)
        river_value = 4 * int(np.maximum(s4, 0).sum())
        turn_value = 2 * int(np.maximum(s3, 0).sum())
        play_base = Fraction(int(base[0, idx].sum()), len(idx) * BOARDS * DEALER_PAIRS)
        play_ev[name] = play_base + Fraction(turn_value + river_value, ORDERED_DEALS)
        turn_freq[name] = Fraction(int((s3 > 0).sum()), math.comb(50, 3))
        river_freq[name] = Fraction(int((s4 > 0).sum()), math.comb(50, 4))
        if progress is not None:
            progress("hands", done + 1, len(members))

    n = len(HOLES)
    combos = {nm: len(ix) for nm, ix in members.items()}
    folds = tuple(sorted((nm for nm, ev in play_ev.items() if ev <= -1), key=play_ev.__getitem__))
    ev = sum((max(play_ev[nm], Fraction(-1)) * combos[nm] for nm in play_ev), Fraction(0)) / n
    kept = [nm for nm in play_ev if nm not in folds]
    played = Fraction(sum(combos[nm] for nm in kept), n)
    turn = sum((turn_freq[nm] * combos[nm] for nm in kept), Fraction(0)) / n
    river = sum((river_freq[nm] * combos[nm] for nm in kept), Fraction(0)) / n
    staked = 1 + 2 * played + turn + river
    return OptimalReturns(play_ev, folds, ev, played, turn, river, staked)
