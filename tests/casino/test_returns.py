"""Exact returns of Texas Hold'em Bonus (R-BONUS-3, R-BONUS-4)."""

from __future__ import annotations

import itertools
import math
import os
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from croupier.casino import returns as R
from croupier.casino.paytable import BONUS_LINES
from croupier.engine.evaluate import high


def test_bonus_bet_return_matches_the_hand_count() -> None:
    """R-BONUS-4: the bonus bet's exact return against a count done by hand.

    Of the 1,326 hole pairs: A-A 6 (the dealer holds the other two aces in 1 of the
    C(50,2) = 1,225 pairs left), A-K suited 4, A-Q/A-J suited 8, A-K offsuit 12,
    K-K/Q-Q/J-J 18, A-Q/A-J offsuit 24, 2-2 to 10-10 54; the other 1,200 lose.
    """
    aa = 6 * Fraction(1 * 1000 + 1224 * 30, 1225)
    wins = 4 * 25 + 8 * 20 + 12 * 15 + 18 * 10 + 24 * 5 + 54 * 3
    expected = (aa + wins - 1200) / 1326
    assert R.bonus_return() == expected
    assert round(float(expected), 6) == -0.085406  # house edge 8.54 %


def test_bonus_return_follows_the_pay_table_data() -> None:
    """R-BONUS-4: the calculator reads the pay table: pay 4 to 1 on small pairs, and the
    return rises by exactly 54 / 1326."""
    lines = tuple(replace(ln, pays=4) if ln.key == "pair_2_10" else ln for ln in BONUS_LINES)
    assert R.bonus_return(lines) - R.bonus_return() == Fraction(54, 1326)


def test_canonical_boards_cover_every_board_once() -> None:
    """R-BONUS-3: the 134,459 suit classes of boards weigh C(52, 5) boards in all."""
    boards, weights = R.canonical_boards()
    assert len(boards) == 134_459
    assert int(weights.sum()) == math.comb(52, 5)
    assert (np.diff(boards, axis=1) > 0).all()  # distinct cards, sorted


def _brute(hole: list[int], board: list[int]) -> tuple[int, int, int, int]:
    rest = [c for c in range(52) if c not in hole and c not in board]
    pv = high(hole, board)
    w = t = lo = 0
    for d in itertools.combinations(rest, 2):
        dv = high(list(d), board)
        w += pv > dv
        t += pv == dv
        lo += pv < dv
    return w, (w if pv >= 5854 else 0), t, lo


def test_board_counts_match_a_brute_force_count() -> None:
    """R-BONUS-3: per board, the wins/ties/losses of hole pairs against all 990 dealer
    pairs agree with evaluating every dealer pair one by one."""
    rng = np.random.default_rng(8)
    boards = np.array(
        [sorted(rng.choice(52, 5, replace=False)) for _ in range(2)] + [[32, 36, 40, 44, 48]]
    )  # the last board is a straight on the board (many ties)
    counts = R.board_counts(boards)
    for bi, board in enumerate(boards.tolist()):
        picks = rng.choice(len(R.HOLES), 12, replace=False)
        for hi in picks:
            hole = R.HOLES[hi].tolist()
            got = tuple(int(a[bi, hi]) for a in counts)
            if set(hole) & set(board):
                assert got == (0, 0, 0, 0)
            else:
                assert got == _brute(hole, board)
                assert sum(got) - got[1] == R.DEALER_PAIRS


def test_pair_rule_bet_orders() -> None:
    """R-BONUS-2: the pair rule's turn/river bets over the 20 deal orders of a board,
    against listing the orders one by one."""
    rng = np.random.default_rng(2)
    boards = np.array([sorted(rng.choice(52, 5, replace=False)) for _ in range(3)])
    got = R.pair_rule_bets(boards)
    for bi, board in enumerate(boards.tolist()):
        for hi in rng.choice(len(R.HOLES), 30, replace=False):
            hr = {c >> 2 for c in R.HOLES[hi].tolist()}
            pocket = len(hr) == 1
            n = 0
            for flop in itertools.combinations(board, 3):
                for turn in (c for c in board if c not in flop):
                    n += pocket or any(c >> 2 in hr for c in flop)
                    n += pocket or any(c >> 2 in hr for c in (*flop, turn))
            assert got[bi, hi] == n


def test_main_returns_from_counts() -> None:
    """R-BONUS-3: the settlement arithmetic of the calculator on a part of the boards:
    a hand that always wins with a straight gets +3 antes, one that always loses -3."""
    part = R.canonical_boards()
    sub = (part[0][:40], part[1][:40])
    counts = R.exact_counts(boards=sub)
    ev = R.main_returns(counts)
    per = R.BOARDS * R.DEALER_PAIRS
    # the counts cover only part of the boards: rescale the arithmetic by hand for AA
    members = [i for i, (a, b) in enumerate(R.HOLES.tolist()) if R.hand_class(a, b) == "AA"]
    i = members[0]
    w, s, lo = (int(x[i]) for x in (counts.wins, counts.strong_wins, counts.losses))
    assert ev.play_ev["AA"] == Fraction(2 * w + s - 3 * lo, per)
    assert ev.best_fold >= ev.always_play
    assert 0 < ev.played <= 1


def test_documented_figures_agree_with_a_seeded_simulation() -> None:
    """R-BONUS-3: the exact figures of docs/bonus.md against dealing 400,000 seeded
    rounds (an independent path: random deals, one evaluation per hand)."""
    for bets, exact in ((False, R.EXACT_ALWAYS_PLAY_CHECK), (True, R.EXACT_ALWAYS_PLAY_PAIR)):
        sim = R.simulate_strategy(400_000, seed=20261130, bets=bets)
        assert abs(sim.mean - float(exact)) < 1.5 * sim.half_width, (bets, sim, float(exact))


@pytest.mark.slow
@pytest.mark.soak
@pytest.mark.skipif(os.environ.get("CROUPIER_SOAK") != "1", reason="set CROUPIER_SOAK=1")
def test_full_exact_enumeration_reproduces_the_constants() -> None:
    """R-BONUS-3: the full enumeration (about a minute) gives the documented constants."""
    counts = R.exact_counts()
    check, pair = R.main_returns(counts), R.main_returns(counts, bets=True)
    assert check.always_play == R.EXACT_ALWAYS_PLAY_CHECK
    assert pair.always_play == R.EXACT_ALWAYS_PLAY_PAIR
    assert check.best_fold == R.EXACT_BEST_FOLD_CHECK
    assert pair.best_fold == R.EXACT_BEST_FOLD_PAIR
    assert R.figures(counts) == R.EXACT_FIGURES
    total = R.BOARDS * R.DEALER_PAIRS
    assert ((counts.wins + counts.ties + counts.losses) == total).all()
    assert counts.wins.sum() == counts.losses.sum()  # the two hands are dealt alike
