"""Spin (R-TOUR-2): a three-player turbo Sit & Go whose prize pool is the buy-ins times
a multiplier drawn when it starts, from a published table (:data:`SPIN_MULTIPLIERS`).

The draw happens in :meth:`Registration.start` with the injected rng; the house adds the
difference to the pool (or keeps the excess when the pool is below the buy-ins).

>>> import random
>>> from croupier.tournament.money import PlayCashier
>>> spec = spin("spin-1", "Spin 10", buy_in=10)
>>> cashier = PlayCashier({p: 10 for p in "abc"})
>>> reg = Registration(spec, cashier)
>>> for p in "abc":
...     _ = reg.register(p)
>>> launch = reg.start(random.Random(3))
>>> launch.multiplier.multiplier, launch.pool, launch.prizes, cashier.pool("spin-1")
(2, 60, (60,), 60)
>>> float(spec.spin.expected_return())
3.95
"""

from __future__ import annotations

from typing import Any

from croupier.tournament.registration import Registration, TournamentSpec
from croupier.tournament.structures import HYPER, SPIN_MULTIPLIERS, SpinTable

__all__ = ["Registration", "spin"]


def spin(
    tournament_id: str,
    name: str,
    *,
    buy_in: int = 10,
    starting_stack: int = 500,
    table: SpinTable = SPIN_MULTIPLIERS,
    **terms: Any,
) -> TournamentSpec:
    """A Spin's terms: three seats, hyper-turbo levels, ``table`` of multipliers."""
    terms.setdefault("schedule", HYPER)
    return TournamentSpec(
        tournament_id,
        name,
        kind="spin",
        buy_in=buy_in,
        starting_stack=starting_stack,
        seats=3,
        max_entrants=3,
        min_entrants=3,
        spin=table,
        **terms,
    )
