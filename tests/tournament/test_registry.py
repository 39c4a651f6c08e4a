"""The process's tournaments (R-TOUR-1, R-TOUR-3): a Sit & Go starts when full, a
scheduled event at its time (or is cancelled and refunded when short); refusals have
codes and change nothing."""

from __future__ import annotations

import asyncio
import random

import pytest

from croupier.table.clock import FakeClock
from croupier.tournament import (
    PlayCashier,
    Status,
    TournamentError,
    TournamentRegistry,
    scheduled,
    sit_and_go,
)
from croupier.tournament.structures import HYPER


def _registry(n: int, clock: FakeClock) -> tuple[TournamentRegistry, PlayCashier]:
    cashier = PlayCashier({f"b{i}": 100 for i in range(n)})
    return TournamentRegistry(cashier, clock=clock, rng=random.Random(3), testing=True), cashier


def test_sit_and_go_starts_when_its_seats_are_full() -> None:
    """R-TOUR-1: the last registration starts the Sit & Go; it plays to the end and the
    lobby row shows the standings and the prizes paid."""

    async def go() -> None:
        clock = FakeClock()
        reg, cashier = _registry(3, clock)
        reg.add(sit_and_go("sng-r", "SNG 3", seats=3, buy_in=100, schedule=HYPER), recurring=True)
        await reg.register("sng-r", "b0", is_bot=True)
        await reg.register("sng-r", "b1", is_bot=True)
        assert reg.get("sng-r").director is None
        assert reg.summaries()[0]["status"] == "registering"
        await reg.register("sng-r", "b2", is_bot=True)
        director = reg.get("sng-r").director
        assert director is not None and len(director.actors) == 1
        rows = reg.summaries()
        assert [(r["id"], r["status"]) for r in rows] == [
            ("sng-r", "running"),
            ("sng-r.2", "registering"),
        ]
        await clock.run_until(lambda: director.finished, limit=20_000)
        await clock.advance(1)
        row = reg.summaries()[0]
        assert row["status"] == "finished" and row["prizes"] == [300]  # 3 entrants (R-TOUR-9)
        assert [s["place"] for s in row["standings"]] == [1, 2, 3]
        assert sum(cashier.balances.values()) == 300 and cashier.pool("sng-r") == 0
        await reg.close()

    asyncio.run(go())


def test_scheduled_start_and_cancellation() -> None:
    """R-TOUR-3: registration in the window; at the start time the event starts (enough
    entrants) or is cancelled with every buy-in refunded."""

    async def go() -> None:
        clock = FakeClock()
        reg, cashier = _registry(8, clock)
        reg.add(scheduled("mtt-a", "MTT A", opens_at=0, starts_at=100, seats=6, buy_in=100))
        reg.add(scheduled("mtt-b", "MTT B", opens_at=0, starts_at=100, buy_in=100, min_entrants=4))
        for i in range(6):
            await reg.register("mtt-a", f"b{i}", is_bot=True)
        for i in (6, 7):
            await reg.register("mtt-b", f"b{i}", is_bot=True)
        with pytest.raises(TournamentError) as err:
            await reg.register("mtt-b", "b0")
        assert err.value.code == "insufficient_funds"
        await clock.advance(100)
        a, b = reg.get("mtt-a"), reg.get("mtt-b")
        assert a.status is Status.RUNNING and a.director is not None
        assert b.status is Status.CANCELLED
        assert cashier.balances["b6"] == cashier.balances["b7"] == 100
        with pytest.raises(TournamentError) as err:
            await reg.register("mtt-a", "b7")
        assert err.value.code == "registration_closed"
        await reg.close()

    asyncio.run(go())


def test_unknown_and_duplicate_events_are_refused() -> None:
    """R-TOUR-1: unknown ids and duplicate events are refused with codes."""
    reg, _ = _registry(1, FakeClock())
    reg.add(sit_and_go("sng-x", "X", seats=2))
    with pytest.raises(TournamentError) as err:
        reg.add(sit_and_go("sng-x", "X again", seats=2))
    assert err.value.code == "tournament_exists"
    with pytest.raises(TournamentError) as err:
        reg.unregister("nope", "b0")
    assert err.value.code == "unknown_tournament"
    assert len(reg.summaries()) == 1
