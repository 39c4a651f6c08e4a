"""The optimal-strategy calculator's building blocks (R-BONUS-2, R-BONUS-3)."""

from __future__ import annotations

import itertools
import math
import os
from fractions import Fraction

import numpy as np
import pytest

from croupier.casino import optimal as O
from croupier.casino import returns as R


def test_subset_index_is_the_combinatorial_number_system() -> None:
    """R-BONUS-2: 4- and 3-card subsets get distinct dense indices (the turn and river
    decisions are summed over them)."""
    for k in (3, 4):
        rows = np.array(list(itertools.combinations(range(52), k)), dtype=np.int32)
        idx = O._subset_index(rows)
        assert sorted(idx.tolist()) == list(range(math.comb(52, k)))


@pytest.mark.slow
def test_differences_read_through_suit_classes_match_direct_counts() -> None:
    """R-BONUS-3: D(h, B) read from the board's suit class through its permutation equals
    D counted on the board itself, summed over every turn and river of a flop."""
    bc = O.board_classes()
    assert int(bc.weights.sum()) == math.comb(52, 5) and len(bc.reps) == 134_459
    a, b = 4 * 12 + 3, 4 * 11 + 1  # As Kd
    flop = [0, 21, 38]  # 2c 7d Jh
    rest = [c for c in range(52) if c not in (a, b, *flop)]
    boards = np.array([sorted([*flop, t, r]) for t, r in itertools.combinations(rest, 2)])
    code = lambda x: (((x[:, 0] * 52 + x[:, 1]) * 52 + x[:, 2]) * 52 + x[:, 3]) * 52 + x[:, 4]  # noqa: E731
    where = np.searchsorted(code(bc.boards.astype(np.int64)), code(boards.astype(np.int64)))
    assert (bc.boards[where] == boards).all()
    classes = np.unique(bc.klass[where])
    diff = np.zeros((len(bc.reps), len(R.HOLES)), dtype=np.int16)
    wins, _strong, _ties, losses = R.board_counts(bc.reps[classes])
    diff[classes] = wins - losses
    d = O.hole_diffs(bc, diff, a, b)
    direct_w, _, _, direct_l = R.board_counts(boards)
    hole = int(R._PAIR_INDEX[a, b])
    assert d[where].tolist() == (direct_w[:, hole] - direct_l[:, hole]).tolist()
    assert d[where].sum() != 0


@pytest.mark.slow
@pytest.mark.soak
@pytest.mark.skipif(os.environ.get("CROUPIER_SOAK") != "1", reason="set CROUPIER_SOAK=1")
def test_optimal_strategy_reproduces_the_constants() -> None:
    """R-BONUS-2, R-BONUS-3: the full optimal-strategy enumeration (a few minutes) gives
    the documented figures; it is at least as good as every simpler strategy."""
    r = O.optimal_returns()
    assert (r.ev, r.played, r.staked) == (
        O.EXACT_OPTIMAL_EV,
        O.EXACT_OPTIMAL_PLAYED,
        O.EXACT_OPTIMAL_STAKED,
    )
    assert r.folds == ("32o", "42o", "62o", "72o", "52o")
    assert all(r.ev >= f.ev for f in R.EXACT_FIGURES)
    assert r.play_ev["AA"] > Fraction(2)
