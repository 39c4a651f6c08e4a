"""The injected clocks (R-TIME-1): fake time in order, cancellation, awaited callbacks."""

from __future__ import annotations

import asyncio

from tests.waiting import async_wait_until

from croupier.table import AsyncioClock, FakeClock


def test_fake_clock_fires_in_time_order_and_awaits_callbacks() -> None:
    """R-TIME-1: timers fire in time order; a callback's awaitable completes before the next
    timer fires; cancelled timers never fire; time stops at the target."""

    async def body() -> None:
        clock = FakeClock(100.0)
        seen: list[tuple[str, float]] = []

        async def slow(tag: str) -> None:
            await asyncio.sleep(0)  # not a wait: the callback yields, the clock must await it
            seen.append((tag, clock.now()))

        clock.call_at(105, lambda: slow("b"))
        clock.call_at(103, lambda: seen.append(("a", clock.now())))
        clock.call_at(104, lambda: clock.call_at(104.5, lambda: seen.append(("nested", 0))))
        dead = clock.call_at(101, lambda: seen.append(("dead", 0)))
        dead.cancel()
        clock.call_at(200, lambda: seen.append(("late", 0)))
        await clock.advance(10)
        assert seen == [("a", 103.0), ("nested", 0), ("b", 105.0)]
        assert clock.now() == 110.0 and clock.pending == 1
        assert clock.next_due() == 200
        assert await clock.run_until(lambda: len(seen) == 4)
        assert clock.now() == 200

    asyncio.run(body())


def test_asyncio_clock_uses_the_loop() -> None:
    """The live clock schedules on the running loop (no waiting: due now)."""

    async def body() -> None:
        clock = AsyncioClock()
        seen: list[str] = []

        async def later() -> None:
            seen.append("awaitable")

        clock.call_at(clock.now(), lambda: seen.append("plain"))
        clock.call_at(clock.now(), later)
        await async_wait_until(lambda: len(seen) == 2, 5, "both timers due now to fire")
        assert seen == ["plain", "awaitable"]
        assert clock.now() <= asyncio.get_running_loop().time()

    asyncio.run(body())
