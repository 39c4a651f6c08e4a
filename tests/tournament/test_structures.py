"""Blind schedules, payout tables and the Spin's multiplier table (R-TOUR-1..3)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.tournament.errors import TournamentError
from croupier.tournament.structures import (
    SPIN_MULTIPLIERS,
    STANDARD,
    STANDARD_PAYOUTS,
    WHOLE,
    BlindSchedule,
    Level,
    PayoutTable,
    PayoutTier,
    SpinPrize,
    SpinTable,
    split,
)


@given(st.integers(0, 10**9), st.integers(2, STANDARD_PAYOUTS.max_entrants))
def test_prizes_sum_to_the_pool_best_first(pool: int, entrants: int) -> None:
    """R-TOUR-1, R-TOUR-3: prizes by number of entrants add up to the pool exactly, a
    better place never gets less, and no more places are paid than there are entrants."""
    prizes = STANDARD_PAYOUTS.prizes(pool, entrants)
    assert sum(prizes) == pool
    assert list(prizes) == sorted(prizes, reverse=True)
    assert len(prizes) <= entrants


def test_payout_tiers_by_entrants() -> None:
    """R-TOUR-1: the prize structure depends on the number of entrants."""
    assert STANDARD_PAYOUTS.prizes(200, 2) == (200,)
    assert STANDARD_PAYOUTS.prizes(600, 6) == (390, 210)
    assert STANDARD_PAYOUTS.prizes(900, 9) == (450, 270, 180)
    assert len(STANDARD_PAYOUTS.shares(30)) == 6
    with pytest.raises(TournamentError) as err:
        STANDARD_PAYOUTS.shares(STANDARD_PAYOUTS.max_entrants + 1)
    assert err.value.code == "too_many_entrants"


def test_split_gives_odd_chips_from_the_top() -> None:
    """R-TOUR-1, R-TOUR-9: integer prizes, floored; the chips left over go to 1st."""
    assert split(10, (5000, 3000, 2000)) == (5, 3, 2)
    assert split(11, (5000, 3000, 2000)) == (6, 3, 2)
    assert split(2, (3400, 3300, 3300)) == (2, 0, 0)
    assert split(19, (5000, 3000, 2000)) == (11, 5, 3)


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (lambda: Level(20, 10), "bad_level"),
        (lambda: Level(10, 20, seconds=0), "bad_level"),
        (lambda: BlindSchedule("x", ()), "bad_schedule"),
        (lambda: BlindSchedule("x", (Level(20, 40), Level(10, 20))), "bad_schedule"),
        (lambda: PayoutTier(3, (5000, 4000)), "bad_payouts"),
        (lambda: PayoutTier(3, (4000, 6000)), "bad_payouts"),
        (lambda: PayoutTier(1, (5000, 5000)), "bad_payouts"),
        (lambda: PayoutTable((PayoutTier(9, (WHOLE,)), PayoutTier(3, (WHOLE,)))), "bad_payouts"),
        (lambda: SpinTable((SpinPrize(2, 999_999),)), "bad_multiplier"),
        (lambda: SpinPrize(0, 1_000_000), "bad_multiplier"),
    ],
)
def test_bad_structures_are_refused(make: object, code: str) -> None:
    """R-TOUR-1: a structure that cannot work is refused with a code."""
    with pytest.raises(TournamentError) as err:
        make()  # type: ignore[operator]
    assert err.value.code == code


def test_schedule_levels_by_elapsed_time() -> None:
    """R-TOUR-1: the level in force is read from the tournament clock; the last one stays."""
    starts = STANDARD.starts
    assert starts[:3] == (0.0, 600.0, 1200.0)
    assert [STANDARD.level_at(t) for t in (0, 599.9, 600, 1199, 1200)] == [0, 0, 1, 1, 2]
    assert STANDARD.level_at(10**9) == len(STANDARD.levels) - 1


def test_spin_table_is_published_with_its_expected_return() -> None:
    """R-TOUR-10, R-TOUR-2: the published table (PokerStars 2014) sums to 1; the winner
    takes multiplier × ONE buy-in, at 100× and above 2nd and 3rd take 10 % of that each;
    E[multiplier] = 2.773 and the return to player is exactly 93 %."""
    table = SPIN_MULTIPLIERS
    assert [(p.multiplier, p.ppm) for p in table.prizes] == [
        (2, 773_800), (4, 135_100), (6, 80_000), (10, 10_000), (25, 800),
        (100, 150), (200, 100), (1000, 50),
    ]  # fmt: skip
    assert sum(p.ppm for p in table.prizes) == 1_000_000
    assert table.expected_multiplier() == Fraction(2773, 1000)
    assert table.expected_return() == Fraction(93, 100)
    assert table.prizes[0].prizes(10) == (20,) and table.pool(table.prizes[0], 10) == 20
    assert table.prizes[-1].prizes(10) == (10_000, 1_000, 1_000)
    big = [p for p in table.prizes if p.multiplier >= 100]
    assert big and all(p.shares == (WHOLE, 1_000, 1_000) for p in big)
    assert all(p.shares == (WHOLE,) for p in table.prizes if p.multiplier < 100)
    # levels: 2 min at 2x, 3 at 4x-6x, 4 at 10x-25x, 5 at 100x+; 10/20 first, no antes
    assert [p.level_seconds for p in table.prizes] == [120, 180, 180, 240, 240, 300, 300, 300]
    sched = table.schedule(table.prizes[3])
    assert sched is not None and sched.levels[0].seconds == 240
    assert [(lv.small_blind, lv.big_blind) for lv in sched.levels[:10]] == [
        (10, 20), (15, 30), (20, 40), (25, 50), (30, 60), (40, 80), (50, 100), (60, 120),
        (80, 160), (100, 200),
    ]  # fmt: skip
    assert sched.levels[10].big_blind == 260 and all(lv.ante == 0 for lv in sched.levels)


def test_spin_multiplier_distribution_chi_square() -> None:
    """R-TOUR-2: multipliers drawn with a seeded rng follow the published probabilities
    (chi-square, 7 degrees of freedom, below 24.32: p = 0.001); a table drawn with other
    probabilities fails the same test."""
    n = 200_000

    def chi2(drawn_from: SpinTable) -> float:
        rng = random.Random(20261130)
        counts: dict[int, int] = {}
        for _ in range(n):
            m = drawn_from.draw(rng).multiplier
            counts[m] = counts.get(m, 0) + 1
        return sum(
            (counts.get(p.multiplier, 0) - n * p.ppm / 1e6) ** 2 / (n * p.ppm / 1e6)
            for p in SPIN_MULTIPLIERS.prizes
        )

    assert chi2(SPIN_MULTIPLIERS) < 24.32
    skewed = SpinTable(
        tuple(
            SpinPrize(p.multiplier, p.ppm + d, p.shares)
            for p, d in zip(
                SPIN_MULTIPLIERS.prizes, (-10_000, 10_000, 0, 0, 0, 0, 0, 0), strict=True
            )
        )
    )
    assert chi2(skewed) > 24.32
