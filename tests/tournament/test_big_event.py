"""A simulated 200-entrant scheduled event on the fake clock (R-TOUR-3, R-TOUR-11..18):
late registration, 23 tables of 9 balanced and broken down to the final table,
hand-for-hand on the bubble, a break, every chip and place accounted for, the prizes of
200 entrants paid to the last chip."""

from __future__ import annotations

import asyncio
import os
import random

import pytest

from croupier.table.clock import FakeClock
from croupier.tournament import PlayCashier, TournamentRegistry, scheduled
from croupier.tournament.structures import HYPER

N = 400 if os.environ.get("CROUPIER_SOAK") == "1" else 200


@pytest.mark.slow
def test_two_hundred_entrants_on_the_fake_clock() -> None:
    """R-TOUR-3, R-TOUR-11, R-TOUR-13, R-TOUR-14, R-TOUR-17, R-TOUR-18: see the module
    docstring (CROUPIER_SOAK=1: 400 entrants)."""

    async def go() -> None:
        clock = FakeClock()
        cashier = PlayCashier({f"b{i}": 100 for i in range(N)})
        # a seed whose bubble is not burst by two busts at once (hand-for-hand is played);
        # the dead button changed the deals of seed 202
        reg = TournamentRegistry(cashier, clock=clock, rng=random.Random(7), testing=True)
        reg.add(
            scheduled(
                "mtt-200", "Sunday 200", opens_at=0.0, starts_at=10.0, seats=9,
                max_entrants=1000, buy_in=100, starting_stack=1000, schedule=HYPER,
                between_hands=1.0, bot_delay=0.5, late_levels=1, breaks=(600.0, 600.0, 60.0),
            )
        )  # fmt: skip
        late = N // 20
        for i in range(N - late):
            await reg.register("mtt-200", f"b{i}", is_bot=True)
        await clock.advance(20.0)
        d = reg.get("mtt-200").director
        assert d is not None and d.late
        for i in range(N - late, N):
            await reg.register("mtt-200", f"b{i}", is_bot=True)
        assert d.total_chips == N * 1000 and cashier.pool("mtt-200") == N * 100
        await clock.run_until(lambda: d.finished, limit=200_000)
        await clock.advance(1.0)
        assert len(d.late_entries) == late
        assert sorted(p.player_id for p in d.placings) == sorted(f"b{i}" for i in range(N))
        assert sorted(p.place for p in d.placings)[0] == 1
        assert len(d.broken) >= 20 and len(d.actors) == 1
        assert d.h4h_rounds and d.breaks_taken
        assert d.checks > 500  # chips checked at every hand end
        paid = [p.prize for p in d.placings if p.prize]
        assert sum(paid) == N * 100  # ties at a paid place share its prize
        assert cashier.pool("mtt-200") == 0 and sum(cashier.balances.values()) == N * 100
        await reg.close()

    asyncio.run(go())
