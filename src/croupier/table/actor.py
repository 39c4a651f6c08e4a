"""The table actor: one asyncio task per table, the only writer, fed through its mailbox.

Commands from players, bots and the connection layer, and the table's own timer
messages, all go through :meth:`TableActor.submit`/:meth:`TableActor.post` into one
queue; the task hands them to :meth:`Table.handle` one at a time. If the table raises
(a bug, or a crash injected by a test) the actor stops: the journal is what survives,
and :meth:`TableActor.restore` starts a new actor from it.

>>> import asyncio
>>> from croupier.engine.game import Game
>>> from croupier.engine.rng import SeededShuffler
>>> from croupier.table.clock import FakeClock
>>> from croupier.table.commands import SitDown
>>> from croupier.table.config import TableConfig
>>> from croupier.table.journal import InMemoryJournal
>>> async def demo():
...     clock = FakeClock()
...     cfg = TableConfig.default(Game.of("nlhe", blinds=(1, 2)), testing=True)
...     actor = TableActor.open(cfg, clock=clock, journal=InMemoryJournal(),
...                             shuffler=SeededShuffler(1))
...     a = await actor.submit(SitDown("c1", "ann", buy_in=200))
...     b = await actor.submit(SitDown("c1", "ann", buy_in=200))  # same id: same answer
...     await clock.advance(cfg.between_hands_seconds)
...     await actor.stop()
...     return a.accepted, a == b, actor.table.hand_no
>>> asyncio.run(demo())
(True, True, 0)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from croupier.table.commands import Command, Message
from croupier.table.config import TableConfig
from croupier.table.events import TableEvent, TableSnapshot
from croupier.table.results import CommandResult, TableError
from croupier.table.table import Subscription, Table

__all__ = ["EventStream", "TableActor"]

log = logging.getLogger("croupier.table")


class EventStream:
    """A subscription whose events arrive in an :class:`asyncio.Queue`."""

    def __init__(self, actor: TableActor, player_id: str | None) -> None:
        self.queue: asyncio.Queue[TableEvent] = asyncio.Queue()
        self.player_id = player_id
        self._actor = actor
        self.subscription: Subscription | None = None
        self.initial: TableSnapshot | list[TableEvent] = []

    async def get(self) -> TableEvent:
        return await self.queue.get()

    def drain(self) -> list[TableEvent]:
        out = []
        while not self.queue.empty():
            out.append(self.queue.get_nowait())
        return out

    def close(self) -> None:
        if self.subscription is not None:
            self._actor.table.unsubscribe(self.subscription)


class TableActor:
    """Owns a :class:`Table` and runs it in one asyncio task."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._queue: asyncio.Queue[tuple[Message, asyncio.Future[CommandResult | None]]] = (
            asyncio.Queue()
        )
        self.crashed: BaseException | None = None
        table.wake = self.post
        self._task: asyncio.Task[None] = asyncio.get_running_loop().create_task(self._run())

    @classmethod
    def open(cls, config: TableConfig, **kwargs: Any) -> TableActor:
        """A new table in a new actor (call inside a running event loop)."""
        return cls(Table.open(config, **kwargs))

    @classmethod
    def restore(cls, config: TableConfig, **kwargs: Any) -> TableActor:
        """Restart a table from its journal (R-CRASH-1) in a new actor."""
        return cls(Table.restore(config, **kwargs))

    @property
    def alive(self) -> bool:
        return self.crashed is None and not self._task.done()

    def post(self, msg: Message) -> asyncio.Future[CommandResult | None]:
        """Put ``msg`` in the mailbox; the future resolves once it is handled."""
        fut: asyncio.Future[CommandResult | None] = asyncio.get_running_loop().create_future()
        if not self.alive:
            fut.set_exception(TableError("table_down", "the table is not running"))
            fut.exception()  # mark retrieved
            return fut
        self._queue.put_nowait((msg, fut))
        return fut

    async def submit(self, cmd: Command) -> CommandResult:
        """Send a command and wait for its answer."""
        result = await self.post(cmd)
        assert result is not None
        return result

    async def _run(self) -> None:
        while True:
            msg, fut = await self._queue.get()
            try:
                result = self.table.handle(msg)
            except BaseException as exc:  # the table is in an unknown state: stop here
                self.crashed = exc
                if not isinstance(exc, asyncio.CancelledError):
                    table_id = self.table.config.table_id
                    log.error(
                        "table %s crashed handling %s",
                        table_id,
                        type(msg).__name__,
                        exc_info=exc,
                        extra={"event": "table_crashed", "table": table_id},
                    )
                if not fut.done():
                    fut.set_exception(exc)
                self._fail_pending(exc)
                return
            if result is not None and not result.accepted and log.isEnabledFor(logging.INFO):
                table_id = self.table.config.table_id
                log.info(
                    "table %s refused %s: %s",
                    table_id,
                    type(msg).__name__,
                    result.code,
                    extra={"event": "command_refused", "table": table_id, "code": result.code},
                )
            if not fut.done():
                fut.set_result(result)

    def _fail_pending(self, exc: BaseException) -> None:
        while not self._queue.empty():
            _, fut = self._queue.get_nowait()
            if not fut.done():
                fut.set_exception(TableError("table_down", f"the table stopped: {exc}"))

    def subscribe(
        self,
        player_id: str | None,
        callback: Callable[[TableEvent], Any] | None = None,
        *,
        since: int | None = None,
        epoch: int | None = None,
        internal: bool = False,
    ) -> EventStream:
        """Subscribe ``player_id`` (``None``: spectator): events arrive redacted for them in
        the stream's queue, or to ``callback`` if given. ``stream.initial`` holds the
        events after ``since`` or a snapshot (R-TIME-3 resync)."""
        stream = EventStream(self, player_id)
        deliver = callback if callback is not None else stream.queue.put_nowait

        stream.subscription, stream.initial = self.table.subscribe(
            player_id, deliver, since=since, epoch=epoch, internal=internal
        )
        return stream

    async def stop(self) -> None:
        """Stop the task (used by tests to "kill" a table; the journal survives)."""
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        if self.crashed is None:
            self.crashed = asyncio.CancelledError()
        self._fail_pending(self.crashed)
