"""Final-table deals (R-TOUR-19): ICM (Malmuth-Harville) and equal splits offered when
every player opts in; a unanimous choice fixes each prize and play continues for the
ranking; no deals in a Sit & Go."""

from __future__ import annotations

import asyncio
import random

import pytest

from croupier.table.clock import FakeClock
from croupier.tournament import PlayCashier, TournamentError, TournamentRegistry, scheduled
from croupier.tournament.deal import equal_split, icm
from croupier.tournament.structures import BlindSchedule, Level

FAST = BlindSchedule("fast", tuple(Level(b, 2 * b, 0, 60.0) for b in (20, 40, 80, 160, 320, 640)))


def test_icm_and_equal_splits() -> None:
    """R-TOUR-19: ICM of equal stacks is the equal split; a bigger stack gets more but less
    than first prize; both sum to the prizes."""
    assert sorted(icm([100, 100, 100], [50, 30, 20])) == [33, 33, 34]
    fair = icm([6000, 3000, 1000], [500, 300, 200])
    assert sum(fair) == 1000 and fair[0] > fair[1] > fair[2] and fair[0] < 500
    assert equal_split(4, [400, 300, 200, 100, 50]) == [250, 250, 250, 250]


def test_a_final_table_deal_is_paid_as_agreed() -> None:
    """R-TOUR-19: two players and two bots at the final table of a scheduled event; one
    opting in is not enough; when both have, play pauses and both splits are offered
    (summing to the prizes left); both accept ICM: play resumes, and each player's prize
    at the end is the amount agreed; the pool is paid out exactly."""

    async def go() -> None:
        clock = FakeClock()
        cashier = PlayCashier({p: 100 for p in ("h1", "h2", "b1", "b2")})
        reg = TournamentRegistry(cashier, clock=clock, rng=random.Random(9), testing=True)
        reg.add(
            scheduled(
                "mtt-d", "MTT deal", opens_at=0.0, starts_at=5.0, seats=6, buy_in=100,
                starting_stack=500, schedule=FAST, between_hands=1.0, bot_delay=0.5,
            )
        )  # fmt: skip
        for p in ("h1", "h2"):
            await reg.register("mtt-d", p)
        for p in ("b1", "b2"):
            await reg.register("mtt-d", p, is_bot=True)
        await clock.advance(6.0)
        d = reg.get("mtt-d").director
        assert d is not None and len(d.actors) == 1
        with pytest.raises(TournamentError) as err:
            d.deal_action("h1", "icm")
        assert err.value.code == "no_deal_offered"
        view = d.deal_action("h1", "in")
        assert view["opted"] == ["h1"] and not view["offers"]
        view = d.deal_action("h2", "in")
        left = len(d.where)
        prizes_left = sum(d.launch.prizes[:left])
        assert sum(view["offers"]["icm"].values()) == prizes_left
        assert sum(view["offers"]["equal"].values()) == prizes_left
        (table,) = d.actors
        assert d.actors[table].table.held or d.actors[table].table.hand is not None
        assert d.deal_action("h1", "icm")["agreed"] is None
        agreed = d.deal_action("h2", "icm")["agreed"]
        assert agreed == view["offers"]["icm"]
        with pytest.raises(TournamentError) as err:
            d.deal_action("h1", "in")
        assert err.value.code == "deal_done"
        await clock.run_until(lambda: d.finished, limit=50_000)
        await clock.advance(1.0)
        prizes = {p.player_id: p.prize for p in d.placings}
        for p, amount in agreed.items():
            assert prizes[p] == amount
        assert sum(prizes.values()) == 400 and cashier.pool("mtt-d") == 0
        await reg.close()

    asyncio.run(go())
