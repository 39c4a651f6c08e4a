"""Sit & Go (R-TOUR-1): one table that starts as soon as its seats are full; blind
levels rise on a schedule; a player out of chips is eliminated; the prizes (by number of
entrants) are published with the event and paid at the end.

>>> import random
>>> from croupier.tournament.money import PlayCashier
>>> spec = sit_and_go("sng-6", "6-max turbo 100", seats=6, buy_in=100, speed="turbo")
>>> spec.max_entrants, spec.schedule.name, spec.payouts.shares(6), spec.starting_stack
(6, 'sng-turbo', (6500, 3500), 1500)
>>> reg = Registration(spec, PlayCashier({f"p{i}": 100 for i in range(6)}))
>>> for i in range(6):
...     _ = reg.register(f"p{i}")
>>> launch = reg.start(random.Random(1))
>>> launch.pool, launch.prizes
(600, (390, 210))
"""

from __future__ import annotations

from typing import Any

from croupier.tournament.registration import Registration, TournamentSpec
from croupier.tournament.structures import SNG_PAYOUTS, SNG_SPEEDS, sng_schedule

__all__ = ["Registration", "sit_and_go"]


def sit_and_go(
    tournament_id: str,
    name: str,
    *,
    seats: int = 9,
    buy_in: int = 100,
    speed: str = "regular",
    starting_stack: int | None = None,
    **terms: Any,
) -> TournamentSpec:
    """A Sit & Go of ``seats`` players (2 to 10) at ``speed`` (R-TOUR-8: ``regular`` 10-min
    levels, ``turbo`` 5, ``hyper`` 3 with 500 chips, else 1,500) and the Sit & Go payouts
    (R-TOUR-9), unless given."""
    terms.setdefault("schedule", sng_schedule(speed))
    terms.setdefault("payouts", SNG_PAYOUTS)
    return TournamentSpec(
        tournament_id,
        name,
        kind="sitngo",
        buy_in=buy_in,
        starting_stack=SNG_SPEEDS[speed][1] if starting_stack is None else starting_stack,
        seats=seats,
        max_entrants=seats,
        min_entrants=seats,
        **terms,
    )
