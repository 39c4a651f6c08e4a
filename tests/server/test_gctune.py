"""The collector by the clock (issue #16, server/gctune.py): a ``GcPacer`` collects the
young generation every tick, the middle one every ``middle_every`` ticks and all of them
every ``middle_every * full_every``; ``croupier serve`` starts one with the room and stops
it at shutdown; ``CROUPIER_GC_PACE_SECONDS`` sets its tick or turns it off."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import pytest
from starlette.applications import Starlette

from croupier.server.gctune import THRESHOLDS, GcPacer
from croupier.server.serve import tuned
from croupier.server.settings import Settings, SettingsError


@pytest.fixture
def quiet_collector() -> Iterator[None]:
    """The automatic collections off (every collection counted is the pacer's), and the
    collector as it was afterwards (thresholds, nothing left frozen)."""
    thresholds = gc.get_threshold()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        if was_enabled:
            gc.enable()


def collections() -> list[int]:
    return [g["collections"] for g in gc.get_stats()]


def test_each_tick_collects_its_generation_and_stop_ends_the_ticks(quiet_collector: None) -> None:
    async def body() -> None:
        pacer = GcPacer(interval=0.005, middle_every=2, full_every=2)
        before = collections()
        pacer.start()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 10
        while pacer.ticks < 8 and loop.time() < deadline:
            await asyncio.sleep(0.01)
        pacer.stop()
        ticks = pacer.ticks
        assert ticks >= 8
        after = collections()
        # ticks 1..n: every 4th collects everything, every other 2nd the middle one
        full = ticks // 4
        middle = ticks // 2 - full
        assert after[2] - before[2] == full
        assert after[1] - before[1] == middle
        assert after[0] - before[0] == ticks - middle - full
        assert 0 < pacer.longest < 10
        await asyncio.sleep(0.05)
        assert pacer.ticks == ticks  # stopped

    asyncio.run(body())


def test_croupier_serve_paces_the_collector_while_the_room_is_open(
    quiet_collector: None,
) -> None:
    async def body() -> None:
        app = tuned(Starlette(), 0.01)
        async with app.router.lifespan_context(app):
            # the full collections are the pacer's: its middle ones (every 3 ticks) do not
            # bring CPython's automatic full one after 100 of them
            assert gc.get_threshold() == (*THRESHOLDS[:2], 2 * GcPacer().full_every)
            assert GcPacer().middle_every * GcPacer().full_every * 0.2 == pytest.approx(300)
            assert gc.get_freeze_count() > 0  # what was alive at start-up is frozen
            before = collections()[0]
            for _ in range(1000):
                if collections()[0] >= before + 3:
                    break
                await asyncio.sleep(0.01)
            assert collections()[0] >= before + 3  # three paced collections
        stopped = collections()
        await asyncio.sleep(0.1)  # ten ticks' time: the shutdown stopped the pacer
        assert collections() == stopped
        plain = tuned(Starlette(), 0.0)
        async with plain.router.lifespan_context(plain):
            assert gc.get_threshold() == THRESHOLDS  # no pacer: the automatic ones
            before = collections()
            await asyncio.sleep(0.1)
            assert collections() == before  # no pacer

    asyncio.run(body())


def test_the_pace_is_a_setting() -> None:
    assert Settings().gc_pace_seconds == 0.2
    assert Settings.from_env({"CROUPIER_GC_PACE_SECONDS": "0"}).gc_pace_seconds == 0
    assert Settings.from_env({"CROUPIER_GC_PACE_SECONDS": "0.5"}).gc_pace_seconds == 0.5
    for bad in ("-1", "0.001", "11", "nan"):
        with pytest.raises(SettingsError):
            Settings.from_env({"CROUPIER_GC_PACE_SECONDS": bad})
    with pytest.raises(SettingsError, match="a number"):
        Settings.from_env({"CROUPIER_GC_PACE_SECONDS": "often"})
