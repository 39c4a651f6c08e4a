"""Garbage-collector settings for a serving process.

Once the room is open (store, tables, bots, code all loaded) everything alive is moved to
the permanent generation with :func:`gc.freeze`, so collections never scan it again, and
the thresholds are raised: a young collection every 20,000 allocations instead of 700,
and full collections ten times rarer. Live tables keep bounded, compact histories
(``EventLog``), so the heap a full collection scans stays small.

>>> import gc
>>> old = gc.get_threshold()
>>> tune_gc(freeze=False)
(20000, 20, 100)
>>> gc.set_threshold(*old)

CPython 3.11 starts a young collection when the allocations *minus the deallocations*
of tracked objects pass the threshold. A busy room frees old objects about as fast as it
makes new ones, so that count creeps and the young generation grows for seconds: every
connection's latest frame, coroutine and future are in it, and one collection of 120,000
objects stops the event loop for 80–140 ms at 500 tables (docs/benchmarks.md, "Paced
collections"). :class:`GcPacer` collects by the clock instead, from the event loop: the
young generation every ``interval``, the middle one every ``middle_every`` young ones,
and a full collection every ``full_every`` middle ones: every 200 ms, 600 ms and 5 min by
default (the collector's own automatic collections stay on behind it, for a burst of
allocations between two ticks). A middle collection scans what survived the young ones
since the previous: every 600 ms rather than every 2 s, its longest took 51 instead of
64–89 ms of CPU at 1,000 tables on two processes (docs/benchmarks.md, "Cyclic garbage
and the middle generation").

While the pacer runs, the full collections are its own: each middle collection counts
towards CPython's automatic full one (the third threshold), which would otherwise come
after 100 of them, every minute at this pace, and scan the whole heap (0.3–0.5 s at
3,000 connections a process). :func:`tune_and_pace` raises that threshold to twice the
pacer's ``full_every``.

>>> pacer = GcPacer(interval=0.2)       # as ``croupier serve`` by default
>>> pacer.middle_every, pacer.full_every
(3, 500)
>>> [pacer.generation(n) for n in (1, 2, 3, 6, 1500)]
[0, 0, 1, 1, 2]
"""

from __future__ import annotations

import asyncio
import gc
import time
from dataclasses import dataclass, field

__all__ = ["THRESHOLDS", "GcPacer", "tune_and_pace", "tune_gc"]

THRESHOLDS = (20_000, 20, 100)


def tune_gc(*, freeze: bool = True) -> tuple[int, int, int]:
    """Collect, freeze what is alive (``freeze``) and set :data:`THRESHOLDS`."""
    if freeze:
        gc.collect()
        gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    return THRESHOLDS


def tune_and_pace(pace: float) -> GcPacer | None:
    """What a serving process does once its room is open: :func:`tune_gc`, then, with
    ``pace`` seconds, a started :class:`GcPacer` (on the running loop) to stop at
    shutdown."""
    tune_gc()
    if pace <= 0:
        return None
    pacer = GcPacer(interval=pace)
    young, middle, _ = THRESHOLDS
    gc.set_threshold(young, middle, 2 * pacer.full_every)  # the full collections: the pacer's
    pacer.start()
    return pacer


@dataclass
class GcPacer:
    """Collections by the clock on the event loop (see the module): ``interval`` seconds
    between ticks; each tick collects the young generation, every ``middle_every``-th
    the middle one, every ``middle_every * full_every``-th all of them."""

    interval: float = 0.2
    middle_every: int = 3
    full_every: int = 500
    ticks: int = 0
    longest: float = 0.0
    """The longest collection the pacer ran, in seconds."""
    _handle: asyncio.TimerHandle | None = field(default=None, repr=False)

    def generation(self, tick: int) -> int:
        """The generation collected at tick number ``tick`` (from 1)."""
        if tick % (self.middle_every * self.full_every) == 0:
            return 2
        return 1 if tick % self.middle_every == 0 else 0

    def start(self) -> None:
        """Tick every ``interval`` on the running loop until :meth:`stop`."""
        loop = asyncio.get_running_loop()
        self._handle = loop.call_later(self.interval, self._tick, loop)

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _tick(self, loop: asyncio.AbstractEventLoop) -> None:
        self.ticks += 1
        began = time.perf_counter()
        gc.collect(self.generation(self.ticks))
        self.longest = max(self.longest, time.perf_counter() - began)
        self._handle = loop.call_later(self.interval, self._tick, loop)
