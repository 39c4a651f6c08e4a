"""Tournament structures as data: blind-level schedules, payout tables, Spin multipliers.

Everything here is frozen data and pure functions. Percentages are in basis points
(1/100 of a percent, so 10,000 is the whole pool); probabilities in parts per million.

>>> TURBO.level_at(0.0), TURBO.level_at(179.9), TURBO.level_at(180.0)
(0, 0, 1)
>>> TURBO.levels[TURBO.level_at(10_000.0)] == TURBO.levels[-1]
True
>>> STANDARD_PAYOUTS.prizes(1000, 9)
(500, 300, 200)
>>> STANDARD_PAYOUTS.prizes(101, 2)
(101,)
>>> STANDARD_PAYOUTS.prizes(1000, 30)
(350, 220, 150, 110, 90, 80)
>>> SPIN_MULTIPLIERS.expected_multiplier(), SPIN_MULTIPLIERS.expected_return()
(Fraction(2773, 1000), Fraction(93, 100))
"""

from __future__ import annotations

import bisect
import itertools
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Protocol

from croupier.engine.game import Stakes
from croupier.tournament.errors import TournamentError

__all__ = [
    "HYPER",
    "SNG_HYPER",
    "SNG_PAYOUTS",
    "SNG_REGULAR",
    "SNG_SPEEDS",
    "SNG_TURBO",
    "SPIN_MULTIPLIERS",
    "STANDARD",
    "STANDARD_PAYOUTS",
    "TURBO",
    "WHOLE",
    "BlindSchedule",
    "Level",
    "PayoutTable",
    "PayoutTier",
    "SpinPrize",
    "SpinTable",
    "sng_blinds",
    "sng_schedule",
    "split",
]

WHOLE = 10_000
"""Basis points in a whole pool."""
MILLION = 1_000_000


@dataclass(frozen=True, slots=True)
class Level:
    """One blind level: blinds and ante (chips) for ``seconds`` of the tournament clock.
    Any ante is a big-blind ante (R-TOUR-7): the big blind posts it after the blind."""

    small_blind: int
    big_blind: int
    ante: int = 0
    seconds: float = 300.0

    def __post_init__(self) -> None:
        ok = all(type(v) is int for v in (self.small_blind, self.big_blind, self.ante))
        if not ok or not 0 < self.small_blind <= self.big_blind or self.ante < 0:
            raise TournamentError(
                "bad_level", f"a level has 0 < small blind <= big blind and ante >= 0: {self!r}"
            )
        if not self.seconds > 0:
            raise TournamentError("bad_level", f"a level lasts a positive time, not {self.seconds}")

    @property
    def stakes(self) -> Stakes:
        """The table stakes of this level."""
        return Stakes(
            small_blind=self.small_blind,
            big_blind=self.big_blind,
            ante=self.ante,
            big_blind_ante=self.ante > 0,
        )


@dataclass(frozen=True, slots=True)
class BlindSchedule:
    """Levels in order; the last one lasts until the end. Levels change on the tournament
    clock (seconds since the start) and apply from the next hand at each table."""

    name: str
    levels: tuple[Level, ...]

    def __post_init__(self) -> None:
        if not self.levels:
            raise TournamentError("bad_schedule", "a schedule has at least one level")
        for a, b in itertools.pairwise(self.levels):
            if b.big_blind < a.big_blind:
                raise TournamentError("bad_schedule", "blinds never go down")

    @property
    def starts(self) -> tuple[float, ...]:
        """When each level starts, in seconds after the tournament starts."""
        return tuple(itertools.accumulate((lv.seconds for lv in self.levels[:-1]), initial=0.0))

    def level_at(self, elapsed: float) -> int:
        """The index of the level in force ``elapsed`` seconds after the start."""
        return max(0, bisect.bisect_right(self.starts, elapsed) - 1)

    def scaled(self, factor: float) -> BlindSchedule:
        """The same blinds with every level lasting ``factor`` times as long (a demo or a
        test room's shorter clock).

        >>> TURBO.scaled(0.5).levels[0].seconds, TURBO.scaled(0.5).levels[0].big_blind
        (90.0, 20)
        """
        if not factor > 0:
            raise TournamentError("bad_level", f"a level lasts a positive time, not x{factor}")
        levels = tuple(replace(lv, seconds=lv.seconds * factor) for lv in self.levels)
        return BlindSchedule(self.name, levels)


def _levels(blinds: list[tuple[int, int, int]], seconds: float) -> tuple[Level, ...]:
    return tuple(Level(sb, bb, ante, seconds) for sb, bb, ante in blinds)


_BLINDS = [
    (10, 20, 0),
    (15, 30, 0),
    (25, 50, 0),
    (50, 100, 0),
    (75, 150, 0),
    (100, 200, 200),
    (150, 300, 300),
    (200, 400, 400),
    (300, 600, 600),
    (400, 800, 800),
    (600, 1200, 1200),
    (1000, 2000, 2000),
    (1500, 3000, 3000),
    (2500, 5000, 5000),
    (4000, 8000, 8000),
    (6000, 12000, 12000),
]
"""Scheduled-event levels (small, big, ante): a big-blind ante equal to the big blind from
100/200 on (R-TOUR-7)."""
STANDARD = BlindSchedule("standard", _levels(_BLINDS, 600.0))
"""Ten-minute levels (scheduled tournaments, 1,500 to 3,000 chips)."""
TURBO = BlindSchedule("turbo", _levels(_BLINDS, 180.0))
"""Three-minute levels."""
HYPER = BlindSchedule("hyper", _levels(_BLINDS, 60.0))
"""One-minute levels (Spin)."""


def split(pool: int, shares: tuple[int, ...]) -> tuple[int, ...]:
    """``pool`` chips split by ``shares`` (basis points summing to :data:`WHOLE`): each
    place gets the floor of its share and the chips left over go to 1st (R-TOUR-9), so
    the prizes always sum to the pool.

    >>> split(100, (5000, 3000, 2000)), split(8, (5000, 3000, 2000)), split(0, (WHOLE,))
    ((50, 30, 20), (5, 2, 1), (0,))
    """
    if type(pool) is not int or pool < 0:
        raise TournamentError("bad_pool", f"a prize pool is a whole number >= 0, not {pool!r}")
    base = [pool * s // WHOLE for s in shares]
    base[0] += pool - sum(base)
    return tuple(base)


def _check_shares(shares: tuple[int, ...]) -> None:
    if not shares or sum(shares) != WHOLE or any(type(s) is not int or s < 0 for s in shares):
        raise TournamentError("bad_payouts", f"shares must be >= 0 and sum to {WHOLE}: {shares}")
    if list(shares) != sorted(shares, reverse=True):
        raise TournamentError("bad_payouts", f"a better place never gets less: {shares}")


@dataclass(frozen=True, slots=True)
class PayoutTier:
    """Shares per place (basis points) for up to ``max_entrants`` entrants."""

    max_entrants: int
    shares: tuple[int, ...]

    def __post_init__(self) -> None:
        _check_shares(self.shares)
        if len(self.shares) > self.max_entrants:
            raise TournamentError("bad_payouts", "more paid places than entrants")


@dataclass(frozen=True, slots=True)
class PayoutTable:
    """Prize structure by number of entrants (published with the event, R-TOUR-1/3): the
    first tier whose ``max_entrants`` covers the field applies."""

    tiers: tuple[PayoutTier, ...]

    def __post_init__(self) -> None:
        caps = [t.max_entrants for t in self.tiers]
        if not caps or caps != sorted(set(caps)):
            raise TournamentError("bad_payouts", "tiers are in increasing order of entrants")

    def shares(self, entrants: int) -> tuple[int, ...]:
        """The shares that apply to a field of ``entrants``."""
        for tier in self.tiers:
            if entrants <= tier.max_entrants:
                return tier.shares
        raise TournamentError(
            "too_many_entrants", f"the payout table stops at {self.tiers[-1].max_entrants}"
        )

    def prizes(self, pool: int, entrants: int) -> tuple[int, ...]:
        """The prize of each paid place, best first."""
        return split(pool, self.shares(entrants))

    @property
    def max_entrants(self) -> int:
        return self.tiers[-1].max_entrants


STANDARD_PAYOUTS = PayoutTable(
    (
        PayoutTier(2, (10_000,)),
        PayoutTier(6, (6_500, 3_500)),
        PayoutTier(10, (5_000, 3_000, 2_000)),
        PayoutTier(20, (4_000, 2_500, 1_500, 1_200, 800)),
        PayoutTier(30, (3_500, 2_200, 1_500, 1_100, 900, 800)),
        PayoutTier(50, (3_000, 2_000, 1_400, 1_000, 800, 600, 500, 400, 300)),
        PayoutTier(
            100, (2_700, 1_700, 1_200, 900, 700, 600, 500, 400, 300, 250, 250, 200, 150, 150)
        ),
        PayoutTier(
            1000,
            (2_500, 1_600, 1_100, 850, 650, 550, 450, 380, 320, 260, 220, 200)
            + (150,) * 4
            + (80,) * 4,
        ),
    )
)
"""The default prize structure of scheduled events (pokersource: 50/30/20 for up to ten
entrants, and so on)."""

SNG_PAYOUTS = PayoutTable(
    (
        PayoutTier(3, (10_000,)),
        PayoutTier(5, (7_000, 3_000)),
        PayoutTier(8, (6_500, 3_500)),
        PayoutTier(30, (5_000, 3_000, 2_000)),
    )
)
"""Sit & Go prizes (R-TOUR-9): 2-3 entrants 100 %; 4-5: 70/30; 6-8: 65/35; 9-30: 50/30/20.

>>> [SNG_PAYOUTS.prizes(100 * n, n) for n in (2, 3, 4, 5, 6, 8, 9, 10)]
[(200,), (300,), (280, 120), (350, 150), (390, 210), (520, 280), (450, 270, 180), (500, 300, 200)]
"""


# -- Sit & Go levels (R-TOUR-8) -----------------------------------------------------------

SNG_BLINDS: tuple[tuple[int, int], ...] = (
    (10, 20),
    (15, 30),
    (25, 50),
    (50, 100),
    (75, 150),
    (100, 200),
    (100, 200),
    (200, 400),
    (300, 600),
    (400, 800),
    (600, 1200),
    (800, 1600),
    (1000, 2000),
    (1500, 3000),
    (2000, 4000),
)
"""The published Sit & Go blinds (small, big): PokerStars' L1-7, then the house levels."""
SNG_ANTE_FROM = 7
"""The first level (counted from 1) with a big-blind ante (= the big blind, R-TOUR-7)."""
SNG_BLIND_CHIP = 500
"""The smallest chip in play from 1,500/3,000: blinds past the table are multiples of it."""
SNG_LEVELS = 30
"""Levels generated (+50 % each past the published table); the last one lasts to the end."""
SNG_SPEEDS: dict[str, tuple[float, int]] = {
    "regular": (600.0, 1500),
    "turbo": (300.0, 1500),
    "hyper": (180.0, 500),
}
"""Sit & Go speeds: level length (seconds) and starting stack (R-TOUR-8)."""


def sng_blinds(count: int = SNG_LEVELS) -> tuple[tuple[int, int], ...]:
    """``count`` Sit & Go blind levels: the published ones, then +50 % of the big blind per
    level, the small blind rounded to the nearest blind chip and the big blind twice it.

    >>> sng_blinds(18)[-4:]
    ((2000, 4000), (3000, 6000), (4500, 9000), (7000, 14000))
    """
    out = list(SNG_BLINDS[:count])
    while len(out) < count:
        half = out[-1][1] * 3 // 4  # half of the big blind + 50 %
        sb = max(SNG_BLIND_CHIP, (half + SNG_BLIND_CHIP // 2) // SNG_BLIND_CHIP * SNG_BLIND_CHIP)
        out.append((sb, 2 * sb))
    return tuple(out)


def sng_schedule(speed: str = "regular") -> BlindSchedule:
    """The Sit & Go schedule of ``speed`` (``regular`` 10 min, ``turbo`` 5, ``hyper`` 3):
    a big-blind ante equal to the big blind from level 7 (R-TOUR-7, R-TOUR-8).

    >>> h = sng_schedule("hyper")
    >>> h.levels[0], h.levels[6].ante, h.levels[5].ante
    (Level(small_blind=10, big_blind=20, ante=0, seconds=180.0), 200, 0)
    """
    if speed not in SNG_SPEEDS:
        raise TournamentError("bad_speed", f"a Sit & Go is {', '.join(SNG_SPEEDS)}, not {speed!r}")
    seconds = SNG_SPEEDS[speed][0]
    levels = tuple(
        Level(sb, bb, bb if i + 1 >= SNG_ANTE_FROM else 0, seconds)
        for i, (sb, bb) in enumerate(sng_blinds())
    )
    return BlindSchedule(f"sng-{speed}", levels)


SNG_REGULAR = sng_schedule("regular")
SNG_TURBO = sng_schedule("turbo")
SNG_HYPER = sng_schedule("hyper")


# -- Spin (R-TOUR-2) ----------------------------------------------------------------------


class _Rng(Protocol):
    def randrange(self, stop: int, /) -> int: ...


@dataclass(frozen=True, slots=True)
class SpinPrize:
    """One row of a Spin's multiplier table (R-TOUR-10): ``multiplier`` drawn with
    probability ``ppm`` / 1,000,000. The *nominal pool* is ``multiplier`` × one buy-in;
    ``shares`` are the prizes of 1st, 2nd, 3rd in basis points of that nominal pool: the
    winner takes it whole (10,000) and at 100× and above 2nd and 3rd get an extra 10 %
    each (1,000). ``level_seconds``: the length of each level at this multiplier."""

    multiplier: int
    ppm: int
    shares: tuple[int, ...] = (WHOLE,)
    level_seconds: float = 120.0

    def __post_init__(self) -> None:
        if type(self.multiplier) is not int or self.multiplier < 1:
            raise TournamentError("bad_multiplier", f"a multiplier is >= 1: {self.multiplier!r}")
        if type(self.ppm) is not int or self.ppm <= 0:
            raise TournamentError("bad_multiplier", f"a probability is > 0 ppm: {self.ppm!r}")
        shares = self.shares
        if not shares or any(type(s) is not int or s < 0 for s in shares) or sum(shares) < WHOLE:
            raise TournamentError("bad_payouts", f"spin shares are >= 0, sum >= {WHOLE}: {shares}")
        if list(shares) != sorted(shares, reverse=True):
            raise TournamentError("bad_payouts", f"a better place never gets less: {shares}")
        if not self.level_seconds > 0:
            raise TournamentError("bad_level", "a level lasts a positive time")

    def prizes(self, buy_in: int) -> tuple[int, ...]:
        """The prize of each paid place for a Spin of ``buy_in`` (whole chips, floored)."""
        nominal = buy_in * self.multiplier
        return tuple(nominal * s // WHOLE for s in self.shares)


@dataclass(frozen=True, slots=True)
class SpinTable:
    """The published multiplier table of a Spin (R-TOUR-10, PokerStars 2014): the drawn
    multiplier times ONE buy-in to the winner (plus the extras of 2nd and 3rd at 100× and
    above). The three buy-ins go to the house, which pays the prizes: it keeps the
    difference at low multipliers and adds it at high ones (return to player 93 %)."""

    prizes: tuple[SpinPrize, ...]
    blinds: tuple[tuple[int, int], ...] = ()
    """Blind levels (small, big), no antes; their length depends on the multiplier."""

    def __post_init__(self) -> None:
        if sum(p.ppm for p in self.prizes) != MILLION:
            raise TournamentError("bad_multiplier", "the probabilities sum to 1,000,000 ppm")

    def scaled(self, factor: float) -> SpinTable:
        """The same table with every multiplier's levels lasting ``factor`` times as long.

        >>> SPIN_MULTIPLIERS.scaled(0.1).prizes[0].level_seconds
        12.0
        """
        if not factor > 0:
            raise TournamentError("bad_level", f"a level lasts a positive time, not x{factor}")
        prizes = tuple(replace(p, level_seconds=p.level_seconds * factor) for p in self.prizes)
        return SpinTable(prizes, self.blinds)

    def draw(self, rng: _Rng) -> SpinPrize:
        """Draw a multiplier: one uniform integer in ``[0, 1,000,000)`` from ``rng``."""
        x = rng.randrange(MILLION)
        for prize in self.prizes:
            if x < prize.ppm:
                return prize
            x -= prize.ppm
        raise AssertionError("unreachable: probabilities sum to a million")

    def pool(self, prize: SpinPrize, buy_in: int, entrants: int = 3) -> int:
        """The prize pool for a drawn ``prize``: the sum of its prizes."""
        return sum(prize.prizes(buy_in))

    def schedule(self, prize: SpinPrize) -> BlindSchedule | None:
        """The levels played at ``prize``'s multiplier (``None``: the event's schedule)."""
        if not self.blinds:
            return None
        levels = tuple(Level(sb, bb, 0, prize.level_seconds) for sb, bb in self.blinds)
        return BlindSchedule(f"spin-{prize.multiplier}x", levels)

    def expected_multiplier(self) -> Fraction:
        """E[multiplier], exactly."""
        return sum((Fraction(p.multiplier * p.ppm, MILLION) for p in self.prizes), Fraction(0))

    def expected_return(self, entrants: int = 3) -> Fraction:
        """The return to player: the expected prizes paid per chip of buy-in collected
        (every prize counted, 2nd and 3rd included), exactly."""
        paid = sum(
            (Fraction(p.multiplier * sum(p.shares) * p.ppm, WHOLE * MILLION) for p in self.prizes),
            Fraction(0),
        )
        return paid / entrants


def _spin_blinds() -> tuple[tuple[int, int], ...]:
    """10/20 … 100/200, then +25 % per level rounded to 10 (R-TOUR-10)."""
    out = [(10, 20), (15, 30), (20, 40), (25, 50), (30, 60), (40, 80), (50, 100), (60, 120)]
    out += [(80, 160), (100, 200)]
    while len(out) < 30:
        bb = (out[-1][1] * 5 // 4 + 19) // 20 * 20
        out.append((bb // 2, bb))
    return tuple(out)


_EXTRA = (WHOLE, 1_000, 1_000)
SPIN_MULTIPLIERS = SpinTable(
    (
        SpinPrize(2, 773_800, level_seconds=120.0),
        SpinPrize(4, 135_100, level_seconds=180.0),
        SpinPrize(6, 80_000, level_seconds=180.0),
        SpinPrize(10, 10_000, level_seconds=240.0),
        SpinPrize(25, 800, level_seconds=240.0),
        SpinPrize(100, 150, _EXTRA, level_seconds=300.0),
        SpinPrize(200, 100, _EXTRA, level_seconds=300.0),
        SpinPrize(1000, 50, _EXTRA, level_seconds=300.0),
    ),
    blinds=_spin_blinds(),
)
"""The published table (R-TOUR-10): 2× 77.38 %, 4× 13.51 %, 6× 8 %, 10× 1 %, 25× 0.08 %
(winner takes multiplier × buy-in), 100× 0.015 %, 200× 0.01 %, 1000× 0.005 % (and 10 % of
the nominal pool each to 2nd and 3rd). E[multiplier] = 2.773; return to player 93 %."""
