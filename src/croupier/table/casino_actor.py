"""The casino table's actor: one asyncio task per Texas Hold'em Bonus table, the only
writer of its :class:`~croupier.casino.table.CasinoTable`, fed through a mailbox (the
design of the poker tables' :class:`~croupier.table.actor.TableActor`).

Commands from players and the table's own timer messages go through :meth:`post` into
one queue and are handled one at a time. If the table raises, the actor stops
(``crashed``); :meth:`CasinoActor.restore` starts a new one that voids the rounds the old
one left open, every bet returned (R-CRASH-1).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from croupier.casino.cashier import Cashier
from croupier.casino.table import CasinoResult, CasinoTable, CasinoTableConfig, Clock, Command
from croupier.engine.errors import CodedError
from croupier.engine.rng import Shuffler

__all__ = ["CasinoActor"]


class CasinoActor:
    """Runs a :class:`CasinoTable` as one asyncio task with a mailbox (the only writer).

    If the table raises, the actor stops (``crashed``); :meth:`restore` starts a new one
    that voids the rounds left open (R-CRASH-1)."""

    def __init__(self, table: CasinoTable) -> None:
        self.table = table
        self._queue: asyncio.Queue[tuple[Any, asyncio.Future[CasinoResult | None]]] = (
            asyncio.Queue()
        )
        self.crashed: BaseException | None = None
        table.wake = self.post
        self._task = asyncio.get_running_loop().create_task(self._run())

    @classmethod
    def restore(
        cls,
        config: CasinoTableConfig,
        cashier: Cashier,
        clock: Clock,
        shuffler: Shuffler | None = None,
    ) -> CasinoActor:
        """A table whose open rounds (if any) are voided first (call in a running loop)."""
        table = CasinoTable(config, cashier, clock, shuffler)
        table.recover()
        return cls(table)

    @property
    def alive(self) -> bool:
        return self.crashed is None and not self._task.done()

    def post(self, msg: Any) -> asyncio.Future[CasinoResult | None]:
        fut: asyncio.Future[CasinoResult | None] = asyncio.get_running_loop().create_future()
        if not self.alive:
            fut.set_exception(CodedError("table_down", "the table is not running"))
            fut.exception()
            return fut
        self._queue.put_nowait((msg, fut))
        return fut

    async def submit(self, cmd: Command) -> CasinoResult:
        result = await self.post(cmd)
        assert result is not None
        return result

    async def _run(self) -> None:
        while True:
            msg, fut = await self._queue.get()
            try:
                result = self.table.handle(msg)
            except BaseException as exc:  # unknown state: stop, the cashier's journal survives
                self.crashed = exc
                if not fut.done():
                    fut.set_exception(exc)
                self._fail_pending(exc)
                return
            if not fut.done():
                fut.set_result(result)

    def _fail_pending(self, exc: BaseException) -> None:
        while not self._queue.empty():
            _, fut = self._queue.get_nowait()
            if not fut.done():
                fut.set_exception(CodedError("table_down", f"the table stopped: {exc}"))

    async def stop(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        if self.crashed is None:
            self.crashed = asyncio.CancelledError()
        self._fail_pending(self.crashed)
