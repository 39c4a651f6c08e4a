"""The actor base shared by the poker table and the casino table: one asyncio task fed
through a mailbox, and its supervision.

:class:`MailboxActor` owns one synchronous table object and hands it the messages of its
mailbox one at a time (the table never awaits, so the actor is its only writer). What it
does when the table raises depends on its :class:`Supervision`:

* none (a bare actor, e.g. a test that "kills" a table to restart it from its journal as
  a new process would): the actor stops (``crashed``), every waiting command fails with
  ``table_down``;
* supervised (every table of a server): the crash is logged (``table_crashed``, with the
  traceback), the command that crashed gets a ``table_crashed`` refusal, and the actor
  **recovers** the table from its journal while the process keeps running: the hand in
  play is voided and its chips go back to the stacks as before it (R-CRASH-1), the
  subscribers move to the restored table (they see ``hand_voided``), and the mailbox goes
  on with the next message. A table that crashes ``max_crashes`` times within
  ``window_seconds`` is **given up**: the actor closes it (a cash table sends every stack
  home to its owner's account, as at a restart) and stops; a tournament table, which must
  not close, **pauses** ``pause_seconds`` instead and is restored again (its tournament
  goes on, one attempt per pause).

A failure reported from outside the actor's task (the background journal writer could
not make a record durable) goes through :meth:`MailboxActor.fail`: it is handled in the
mailbox, in order, like a crash of the table.

>>> import asyncio
>>> class Boom(MailboxActor[str, str]):
...     def _handle(self, msg):
...         if msg == "boom":
...             raise RuntimeError("boom")
...         return msg.upper()
...     async def _recover(self, exc): self.recovered += 1
...     async def _give_up(self, exc): self.closed = True
>>> async def demo():
...     a = Boom("t1", "x", Supervision(max_crashes=2, window_seconds=60), now=lambda: 0.0)
...     a.recovered, a.closed = 0, False
...     ok = await a.submit("hi")
...     try:
...         await a.submit("boom")
...     except Exception as exc:
...         first = getattr(exc, "code", None)
...     after = await a.submit("again")
...     bad = [await asyncio.gather(a.submit("boom"), return_exceptions=True)]
...     return ok, first, after, a.recovered, a.closed, a.alive
>>> asyncio.run(demo())
('HI', 'table_crashed', 'AGAIN', 1, True, False)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from croupier.engine.errors import CodedError

__all__ = ["CrashWindow", "Failure", "MailboxActor", "Supervision"]

log = logging.getLogger("croupier.table")

_DOWN = {
    "table_down": "the table is not running",
    "table_paused": "the table is paused after repeated failures; it resumes shortly",
}

M = TypeVar("M")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Supervision:
    """How a supervised actor treats a crash of its table.

    ``max_crashes`` crashes within ``window_seconds`` (monotonic time) give the table up;
    ``close_on_give_up``: a cash table sends every stack home when given up (R-CRASH-1);
    a tournament table (``False``) just stops, its chips stay in its journal for the
    tournament (they are tournament chips, never an account's).
    """

    max_crashes: int = 3
    window_seconds: float = 60.0
    close_on_give_up: bool = True
    pause_seconds: float | None = None
    """For a table that must not close (``close_on_give_up`` false: a tournament's, whose
    players have no other table): instead of stopping when given up, it pauses this long
    (every message meanwhile is refused ``table_paused``), then is restored from its
    journal again with a fresh crash window, and so on: a crash loop is slowed to one
    attempt per pause and never ends the tournament. ``None``: a table given up stops."""

    def __post_init__(self) -> None:
        if self.pause_seconds is not None and (self.close_on_give_up or self.pause_seconds <= 0):
            raise ValueError("pause_seconds > 0, for a table that does not close when given up")


class CrashWindow:
    """The crashes of one table in the last ``window_seconds``: :meth:`record` says
    whether this one is one too many.

    >>> w = CrashWindow(Supervision(max_crashes=2, window_seconds=10))
    >>> w.record(0.0), w.record(5.0), w.record(30.0), w.record(31.0)
    (False, True, False, True)
    """

    def __init__(self, policy: Supervision) -> None:
        self.policy = policy
        self.times: deque[float] = deque()

    def record(self, now: float) -> bool:
        times = self.times
        times.append(now)
        while times and times[0] < now - self.policy.window_seconds:
            times.popleft()
        return len(times) >= self.policy.max_crashes


@dataclass(frozen=True, slots=True)
class Failure:
    """A failure reported from outside the actor (:meth:`MailboxActor.fail`) for the
    table of ``generation`` (a later generation was already recovered: ignored)."""

    error: BaseException
    generation: int


class MailboxActor(Generic[M, R]):
    """One asyncio task running a synchronous table through a mailbox (see the module).

    Subclasses give :meth:`_handle` (one message, synchronous), :meth:`_recover` (restore
    the table from its journal after a crash) and :meth:`_give_up` (close it)."""

    kind = "table"

    def __init__(
        self,
        table_id: str,
        table: Any,
        supervision: Supervision | None = None,
        *,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.table_id = table_id
        self.table = table
        self._queue: asyncio.Queue[tuple[M | Failure, asyncio.Future[R | None]]] = asyncio.Queue()
        self.crashed: BaseException | None = None
        self.supervision = supervision
        self._window = CrashWindow(supervision) if supervision is not None else None
        self._now = now
        self.crashes = 0
        """Crashes recovered so far."""
        self.generation = 0
        """How many times the table was restored in this process."""
        self.gave_up = False
        self.pauses = 0
        """Times the table was paused after too many crashes (``Supervision.pause_seconds``)."""
        self.paused = False
        """In a pause: every message is refused at once (``table_paused``)."""
        self.on_closed: list[Callable[[BaseException], Any]] = []
        """Called once the actor gave the table up (it is closed and stopped)."""
        self._task: asyncio.Task[None] = asyncio.get_running_loop().create_task(self._run())

    # -- supervision ----------------------------------------------------------------------

    def supervise(self, supervision: Supervision | None) -> None:
        """Turn supervision on (or off, ``None``) for the next crashes."""
        self.supervision = supervision
        self._window = CrashWindow(supervision) if supervision is not None else None

    def fail(self, error: BaseException) -> None:
        """Report a failure of the table from outside its task (e.g. a journal write that
        could not be made durable): handled in the mailbox like a crash."""
        if not self.alive:
            return
        fut: asyncio.Future[R | None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((Failure(error, self.generation), fut))

    # -- the mailbox ----------------------------------------------------------------------

    @property
    def alive(self) -> bool:
        return self.crashed is None and not self._task.done()

    def post(self, msg: M) -> asyncio.Future[R | None]:
        """Put ``msg`` in the mailbox; the future resolves once it is handled."""
        fut: asyncio.Future[R | None] = asyncio.get_running_loop().create_future()
        if not self.alive or self.paused:
            code = "table_paused" if self.alive else "table_down"
            fut.set_exception(self._error(code, _DOWN[code]))
            fut.exception()  # mark retrieved
            return fut
        self._queue.put_nowait((msg, fut))
        return fut

    async def submit(self, cmd: M) -> R:
        """Send a command and wait for its answer."""
        result = await self.post(cmd)
        assert result is not None
        return result

    def _error(self, code: str, message: str) -> Exception:
        return CodedError(code, message)

    def _handle(self, msg: M) -> R | None:
        raise NotImplementedError

    async def _serve(self, msg: M) -> R | None:
        """Handle one message (by default :meth:`_handle`; an actor that does blocking
        work for a message off the loop awaits it here)."""
        return self._handle(msg)

    def _answered(self, msg: M, result: R | None) -> None:
        """Called after each message handled without a crash (logging)."""

    async def _recover(self, exc: BaseException) -> None:
        """Restore the table from its journal after a crash (supervised actors)."""
        raise NotImplementedError

    async def _give_up(self, exc: BaseException) -> None:
        """Close the table for good (too many crashes)."""

    async def _pause(self, seconds: float) -> None:
        """Wait ``seconds`` before restoring a table paused after too many crashes (the
        table's own clock in a :class:`~croupier.table.actor.TableActor`)."""
        await asyncio.sleep(seconds)

    async def _run(self) -> None:
        while True:
            msg, fut = await self._queue.get()
            if isinstance(msg, Failure):
                if msg.generation != self.generation:
                    continue  # that table was already restored
                exc: BaseException = msg.error
            else:
                try:
                    result = await self._serve(msg)
                except Exception as error:
                    exc = error
                except BaseException as error:  # cancelled, or the process is stopping
                    self._stop(error, fut)
                    return
                else:
                    self._answered(msg, result)
                    if not fut.done():
                        fut.set_result(result)
                    continue
            if not await self._crash(exc, msg, fut):
                return

    async def _crash(self, exc: BaseException, msg: object, fut: asyncio.Future[R | None]) -> bool:
        """Handle a crash; whether the actor goes on."""
        what = type(msg.error if isinstance(msg, Failure) else msg).__name__
        if getattr(exc, "code", None) == "lease_lost":
            # Another process of the room took the table over (its journal is theirs now,
            # server/cluster.py): nothing to restore here, the actor stops.
            log.warning(
                "%s %s stops: served by another process now",
                self.kind,
                self.table_id,
                extra={"event": "table_moved", "table": self.table_id},
            )
            self._stop(exc, fut)
            return False
        supervised = self.supervision is not None and self._window is not None
        log.error(
            "%s %s crashed handling %s",
            self.kind,
            self.table_id,
            what,
            exc_info=exc,
            extra={
                "event": "table_crashed",
                "table": self.table_id,
                "handling": what,
                "supervised": supervised,
                "crashes": self.crashes + 1,
            },
        )
        if not supervised:
            self._stop(exc, fut)
            return False
        assert self._window is not None
        if not fut.done():
            fut.set_exception(self._error("table_crashed", f"the table crashed: {exc}"))
            fut.exception()
        self.crashes += 1
        if not self._window.record(self._now()):
            restored, exc = await self._restore(exc)
            if restored:
                return True
        policy = self.supervision
        if policy is not None and policy.pause_seconds is not None:
            return await self._paused(exc, policy.pause_seconds)
        log.error(
            "%s %s gave up after %d crashes",
            self.kind,
            self.table_id,
            self.crashes,
            extra={"event": "table_given_up", "table": self.table_id, "crashes": self.crashes},
        )
        self.gave_up = True
        try:
            await self._give_up(exc)
        except Exception:
            log.exception(
                "%s %s could not be closed (the next start recovers it)",
                self.kind,
                self.table_id,
                extra={"event": "table_close_failed", "table": self.table_id},
            )
        self._stop(exc, fut)
        for hook in list(self.on_closed):
            try:
                hook(exc)
            except Exception:
                log.exception("closing hook of %s failed", self.table_id)
        return False

    async def _restore(self, exc: BaseException) -> tuple[bool, BaseException]:
        """Restore the table after ``exc``: whether it worked, and the error to report
        if not (the journal itself could not be read or written)."""
        try:
            await self._recover(exc)
        except Exception as again:
            log.exception(
                "%s %s could not be restored",
                self.kind,
                self.table_id,
                extra={"event": "table_restore_failed", "table": self.table_id},
            )
            return False, again
        self.generation += 1
        log.warning(
            "%s %s restored from its journal after a crash",
            self.kind,
            self.table_id,
            extra={
                "event": "table_restored",
                "table": self.table_id,
                "generation": self.generation,
            },
        )
        return True, exc

    async def _paused(self, exc: BaseException, seconds: float) -> bool:
        """Too many crashes at a table that must not close: pause ``seconds``, restore it
        with a fresh crash window; again while the restore itself fails. True (the actor
        goes on) unless stopped meanwhile (cancelled: :meth:`stop` cleans up)."""
        while True:
            self.pauses += 1
            self.paused = True
            self._fail_pending(exc, "table_paused")
            log.error(
                "%s %s paused %.1f s after %d crashes",
                self.kind,
                self.table_id,
                seconds,
                self.crashes,
                extra={
                    "event": "table_paused",
                    "table": self.table_id,
                    "crashes": self.crashes,
                    "seconds": seconds,
                },
            )
            await self._pause(seconds)
            if self.supervision is not None:
                self._window = CrashWindow(self.supervision)
            restored, exc = await self._restore(exc)
            if restored:
                self.paused = False
                return True

    def _stop(self, exc: BaseException, fut: asyncio.Future[R | None] | None = None) -> None:
        self.crashed = exc
        if fut is not None and not fut.done():
            fut.set_exception(exc)
            if not isinstance(exc, asyncio.CancelledError):
                fut.exception()
        self._fail_pending(exc)

    def _fail_pending(self, exc: BaseException, code: str = "table_down") -> None:
        while not self._queue.empty():
            _, fut = self._queue.get_nowait()
            if not fut.done():
                fut.set_exception(self._error(code, f"{_DOWN[code]}: {exc}"))
                fut.exception()  # mark retrieved

    async def stop(self) -> None:
        """Stop the task (tests "kill" a table this way; the journal survives)."""
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        if self.crashed is None:
            self.crashed = asyncio.CancelledError()
        self._fail_pending(self.crashed)
