"""Waits on conditions, not sleeps: poll a predicate until it holds, bounded in time,
failing with a message that says what was awaited.

A test that sleeps "long enough" either waits too long or fails at random on a slow
machine; a test that waits for the condition it needs returns as soon as it holds and,
when it never does, says which condition and after how long.

>>> wait_until(lambda: True, 1.0, "never fails")
True
>>> wait_until(lambda: 0, 0.05, "the answer", interval=0.01)
Traceback (most recent call last):
...
tests.waiting.WaitTimeout: timed out after 0.05 s waiting for the answer (last value: 0)
>>> import asyncio
>>> asyncio.run(async_wait_until(lambda: [1], 1.0, "a list"))
[1]
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

__all__ = ["WaitTimeout", "async_wait_until", "wait_until"]

T = TypeVar("T")

POLL = 0.02
"""Seconds between two looks at the condition (the poll interval, not a wait)."""


class WaitTimeout(AssertionError):
    """The awaited condition did not hold in time."""


def _fail(message: str, timeout: float, last: object) -> WaitTimeout:
    return WaitTimeout(
        f"timed out after {timeout:g} s waiting for {message} (last value: {last!r})"
    )


def wait_until(
    predicate: Callable[[], T], timeout: float, message: str, *, interval: float = POLL
) -> T:
    """Call ``predicate`` until it returns a true value (returned), every ``interval``
    seconds, for at most ``timeout`` seconds; then raise :class:`WaitTimeout`."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise _fail(message, timeout, value)
        time.sleep(interval)


async def async_wait_until(
    predicate: Callable[[], T | Awaitable[T]],
    timeout: float,
    message: str,
    *,
    interval: float = POLL,
) -> T:
    """:func:`wait_until` on the event loop: ``predicate`` may be a coroutine function;
    the loop runs other tasks between two looks."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value  # type: ignore[return-value]
        if time.monotonic() >= deadline:
            raise _fail(message, timeout, value)
        await asyncio.sleep(interval)
