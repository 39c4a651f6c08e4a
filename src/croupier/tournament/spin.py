"""Spin (R-TOUR-2, R-TOUR-10): a three-player turbo Sit & Go whose winner takes a
multiplier drawn when it starts (from the published :data:`SPIN_MULTIPLIERS`) times ONE
buy-in; at 100× and above 2nd and 3rd get 10 % of that nominal pool each.

The draw happens in :meth:`Registration.start` with the injected rng; the house keeps the
difference between the three buy-ins and the prizes, or adds it (return to player 93 %).

>>> import random
>>> from croupier.tournament.money import PlayCashier
>>> spec = spin("spin-1", "Spin 10", buy_in=10)
>>> cashier = PlayCashier({p: 10 for p in "abc"})
>>> reg = Registration(spec, cashier)
>>> for p in "abc":
...     _ = reg.register(p)
>>> launch = reg.start(random.Random(3))
>>> launch.multiplier.multiplier, launch.pool, launch.prizes, cashier.pool("spin-1")
(2, 20, (20,), 20)
>>> cashier.house, float(spec.spin.expected_return())
(10, 0.93)
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
    first = table.schedule(table.prizes[0])
    terms.setdefault("schedule", first if first is not None else HYPER)
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
