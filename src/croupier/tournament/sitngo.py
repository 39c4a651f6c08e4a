"""Sit & Go (R-TOUR-1): one table that starts as soon as its seats are full; blind
levels rise on a schedule; a player out of chips is eliminated; the prizes (by number of
entrants) are published with the event and paid at the end.

>>> import random
>>> from croupier.tournament.money import PlayCashier
>>> spec = sit_and_go("sng-6", "6-max turbo 100", seats=6, buy_in=100)
>>> spec.max_entrants, spec.schedule.name, spec.payouts.shares(6)
(6, 'turbo', (6500, 3500))
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
from croupier.tournament.structures import STANDARD_PAYOUTS, TURBO

__all__ = ["Registration", "sit_and_go"]


def sit_and_go(
    tournament_id: str,
    name: str,
    *,
    seats: int = 9,
    buy_in: int = 100,
    starting_stack: int = 1500,
    **terms: Any,
) -> TournamentSpec:
    """A Sit & Go of ``seats`` players (2 to 10), turbo levels and the standard payouts
    unless given."""
    terms.setdefault("schedule", TURBO)
    terms.setdefault("payouts", STANDARD_PAYOUTS)
    return TournamentSpec(
        tournament_id,
        name,
        kind="sitngo",
        buy_in=buy_in,
        starting_stack=starting_stack,
        seats=seats,
        max_entrants=seats,
        min_entrants=seats,
        **terms,
    )
