"""Injected time (R-TIME-1): a :class:`Clock` protocol, the asyncio clock and a
:class:`FakeClock` advanced by hand, so tests never sleep.

A clock schedules callbacks at absolute times. A callback may return an awaitable (the
table actor returns the future of the message it posted); :meth:`FakeClock.advance`
awaits it before firing the next timer, so everything due in the advanced window happens
in time order.

>>> import asyncio
>>> async def demo():
...     clock = FakeClock()
...     seen = []
...     clock.call_at(2.0, lambda: seen.append(clock.now()))
...     h = clock.call_at(1.0, lambda: seen.append(-1))
...     h.cancel()
...     await clock.advance(5)
...     return seen, clock.now()
>>> asyncio.run(demo())
([2.0], 5.0)
"""

from __future__ import annotations

import asyncio
import heapq
import inspect
import itertools
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

__all__ = ["AsyncioClock", "Clock", "FakeClock", "StoppableClock", "TimerHandle"]

Callback = Callable[[], Any]
_background: set[asyncio.Future[Any]] = set()


class TimerHandle(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    """Time for a table: ``now()`` in seconds and timers at absolute times."""

    def now(self) -> float: ...

    def call_at(self, when: float, callback: Callback) -> TimerHandle: ...


class AsyncioClock:
    """The live clock: the running event loop's monotonic time.

    The loop is looked up once and kept while it is open: ``asyncio.get_running_loop()``
    costs a ``getpid`` system call on Python 3.11, and ``now()`` runs for every event
    delivered to every connection."""

    __slots__ = ("_loop",)

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None

    def _running(self) -> asyncio.AbstractEventLoop:
        loop = self._loop
        if loop is None or loop.is_closed():
            loop = self._loop = asyncio.get_running_loop()
        return loop

    def now(self) -> float:
        return self._running().time()

    def call_at(self, when: float, callback: Callback) -> TimerHandle:
        loop = self._running()

        def fire() -> None:
            out = callback()
            if inspect.isawaitable(out):
                task = asyncio.ensure_future(out)
                _background.add(task)
                task.add_done_callback(_background.discard)

        return loop.call_at(when, fire)


class StoppableClock:
    """A clock whose timers all stop at once: after :meth:`stop`, a timer that comes due
    does nothing (what runs on it was stopped: the room's tournaments, when another
    process took them over).

    >>> import asyncio
    >>> async def demo():
    ...     clock = StoppableClock(FakeClock())
    ...     seen = []
    ...     clock.call_at(1.0, lambda: seen.append(1))
    ...     clock.call_at(3.0, lambda: seen.append(3))
    ...     await clock.inner.advance(2)
    ...     clock.stop()
    ...     await clock.inner.advance(2)
    ...     return seen, clock.now()
    >>> asyncio.run(demo())
    ([1], 4.0)
    """

    __slots__ = ("inner", "stopped")

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.stopped = False

    def now(self) -> float:
        return float(self.inner.now())

    def call_at(self, when: float, callback: Callback) -> TimerHandle:
        def fire() -> Any:
            return None if self.stopped else callback()

        handle: TimerHandle = self.inner.call_at(when, fire)
        return handle

    def stop(self) -> None:
        self.stopped = True


class _FakeHandle:
    __slots__ = ("cancelled",)

    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """A clock that moves only when told: ``await clock.advance(seconds)``."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)
        self._heap: list[tuple[float, int, _FakeHandle, Callback]] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callback) -> TimerHandle:
        handle = _FakeHandle()
        heapq.heappush(self._heap, (max(when, self._now), next(self._seq), handle, callback))
        return handle

    @property
    def pending(self) -> int:
        """Timers not cancelled and not fired yet."""
        return sum(1 for _, _, h, _ in self._heap if not h.cancelled)

    def next_due(self) -> float | None:
        """When the next live timer fires, or ``None``."""
        while self._heap and self._heap[0][2].cancelled:
            heapq.heappop(self._heap)
        return self._heap[0][0] if self._heap else None

    async def advance(self, seconds: float) -> None:
        """Move time forward by ``seconds``, firing every timer due, in time order."""
        await self.advance_to(self._now + seconds)

    async def advance_to(self, target: float) -> None:
        while True:
            due = self.next_due()
            if due is None or due > target:
                break
            _, _, handle, callback = heapq.heappop(self._heap)
            self._now = max(self._now, due)
            handle.cancelled = True
            out = callback()
            if inspect.isawaitable(out):
                await _quietly(out)
        self._now = max(self._now, target)

    async def run_until(
        self, done: Callable[[], bool], *, limit: float = 1e9, max_timers: int = 10**7
    ) -> bool:
        """Fire timers one by one until ``done()`` or no timer is left before ``limit``."""
        for _ in range(max_timers):
            if done():
                return True
            due = self.next_due()
            if due is None or due > limit:
                return done()
            await self.advance_to(due)
        return done()


async def _quietly(awaitable: Awaitable[Any]) -> None:
    try:
        await awaitable
    except asyncio.CancelledError:
        raise
    except Exception:  # the actor reports its own failures; the clock goes on
        pass
