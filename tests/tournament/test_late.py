"""Late registration and re-entry of a scheduled event (R-TOUR-11, R-TOUR-12, R-TOUR-15),
on the fake clock through the registry (Decision: off for Sit & Go and Spin)."""

from __future__ import annotations

import asyncio
import random

import pytest

from croupier.table.clock import FakeClock
from croupier.tournament import (
    PlayCashier,
    TournamentError,
    TournamentRegistry,
    scheduled,
    sit_and_go,
)
from croupier.tournament.structures import BlindSchedule, Level

FAST = BlindSchedule("fast", tuple(Level(b, 2 * b, 0, 60.0) for b in (20, 40, 80, 160, 320, 640)))


def test_late_registration_and_reentry_until_the_end_of_level_two() -> None:
    """R-TOUR-11: registration stays open until the end of level 2; a late entrant gets a
    full stack and a seat at the shortest table; a player out may enter again once (a
    second time is refused); busts meanwhile get their places only when late
    registration closes; the pool and the prizes are fixed on every entry taken; after
    that registering is refused; every chip and place is accounted for at the end."""

    async def go() -> None:
        clock = FakeClock()
        cashier = PlayCashier({f"p{i}": 1000 for i in range(12)})
        reg = TournamentRegistry(cashier, clock=clock, rng=random.Random(4), testing=True)
        reg.add(
            scheduled(
                "mtt-l", "MTT late", opens_at=0.0, starts_at=10.0, seats=4, buy_in=100,
                starting_stack=300, schedule=FAST, between_hands=1.0, bot_delay=0.5,
                late_levels=2, reentries=1,
            )
        )  # fmt: skip
        for i in range(7):
            await reg.register("mtt-l", f"p{i}", is_bot=True)
        await clock.advance(15.0)
        event = reg.get("mtt-l")
        d = event.director
        assert d is not None and d.late
        await reg.register("mtt-l", "p7", is_bot=True)  # late, with a full stack
        assert d.where["p7"][0] in d.actors and d.stacks["p7"] == 300
        assert cashier.pool("mtt-l") == 800 and d.total_chips == 8 * 300
        with pytest.raises(TournamentError) as err:
            await reg.register("mtt-l", "p0", is_bot=True)  # still playing
        assert err.value.code == "already_registered"
        # wait for someone to bust during late registration, then let them re-enter
        await clock.run_until(lambda: bool(d.pending) or not d.late, limit=130.0)
        assert d.pending and not d.placings, "busts wait for late registration to close"
        out = d.pending[0][0]
        await reg.register("mtt-l", out, is_bot=True)
        assert out in d.where and all(p != out for p, *_ in d.pending)
        assert cashier.pool("mtt-l") == 900
        await clock.run_until(lambda: out not in d.where or not d.late, limit=130.0)
        if out not in d.where and d.late:
            with pytest.raises(TournamentError) as err:
                await reg.register("mtt-l", out, is_bot=True)
            assert err.value.code == "no_reentry"
        await clock.advance_to(10.0 + 120.0 + 1.0)
        assert not d.late
        with pytest.raises(TournamentError) as err:
            await reg.register("mtt-l", "p9", is_bot=True)
        assert err.value.code == "registration_closed"
        entries = len(event.registration.entrants)
        assert d.launch.pool == 100 * entries == cashier.pool("mtt-l")
        await clock.run_until(lambda: d.finished, limit=50_000)
        await clock.advance(1.0)
        players = {e.player_id for e in event.registration.entrants}
        assert sorted(p.player_id for p in d.placings) == sorted(players)
        assert sorted(p.place for p in d.placings)[0] == 1
        assert sum(p.prize for p in d.placings) == 100 * entries
        assert cashier.pool("mtt-l") == 0
        assert sum(cashier.balances.values()) == 12 * 1000
        await reg.close()

    asyncio.run(go())


def test_no_late_registration_for_sit_and_go() -> None:
    """R-TOUR-11 Decision: a Sit & Go or Spin cannot publish late registration."""
    with pytest.raises(TournamentError) as err:
        sit_and_go("sng-l", "SNG", seats=6, late_levels=2)
    assert err.value.code == "bad_spec"
