"""The casino table's actor: one asyncio task per Texas Hold'em Bonus table, the only
writer of its :class:`~croupier.casino.table.CasinoTable`, fed through a mailbox (the
mailbox loop and its supervision are :class:`~croupier.table.supervise.MailboxActor`,
shared with the poker tables' :class:`~croupier.table.actor.TableActor`).

Commands from players and the table's own timer messages go through :meth:`post` into
one queue and are handled one at a time. If the table raises, a bare actor stops
(``crashed``) and :meth:`CasinoActor.restore` starts a new one that voids the rounds the
old one left open, every bet returned (R-CRASH-1); a supervised actor does that in place
(:meth:`CasinoActor._recover`): the open round is voided, the watchers move to the new
table and the mailbox goes on.

**The cashier off the event loop.** The table handles a message as a generator of
cashier calls (:meth:`CasinoTable.steps`); the actor (:meth:`CasinoActor._serve`) runs
each call on a worker thread (``asyncio.to_thread``) and awaits it, so a slow store
stalls this table only, never the loop nor the other tables, and the table is still
touched on the loop only (its watchers' queues, its timers, its mailbox), one message
at a time. The voiding of a restored table's open rounds runs on a worker thread too.
A stop (the server shutting down) while a call runs waits for the call's transaction to
end (each call is atomic: it moved all its chips or none) and then stops; a round left
open is voided by the room's close or at the next start (R-CRASH-1), so no chip is ever
lost between a player's balance and the table's escrow. ``offload=False`` (an in-memory
SQLite database, one connection shared by every thread) makes the calls on the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any, TypeVar

from croupier.casino.cashier import Cashier
from croupier.casino.table import (
    CasinoResult,
    CasinoTable,
    CasinoTableConfig,
    Clock,
    Command,
    run_inline,
)
from croupier.engine.rng import Shuffler
from croupier.table.supervise import MailboxActor, Supervision

__all__ = ["CasinoActor", "finish_off_loop"]

T = TypeVar("T")


async def finish_off_loop(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` on a worker thread. Cancelled meanwhile (a stop), it still waits for
    the call to end (the thread cannot be interrupted: its transaction commits or rolls
    back as a whole) before passing the cancellation on, so nothing reads or closes the
    store under it and the caller never stops with its chips in an unknown state."""
    work = asyncio.ensure_future(asyncio.to_thread(fn, *args))
    try:
        return await asyncio.shield(work)
    except asyncio.CancelledError:
        while not work.done():
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait({work})
        if not work.cancelled():
            work.exception()  # retrieved: a round it left open is voided at close or restart
        raise


class CasinoActor(MailboxActor[Any, CasinoResult]):
    """Runs a :class:`CasinoTable` as one asyncio task with a mailbox (the only writer),
    its cashier calls on worker threads (``offload``, see the module).

    If the table raises, a bare actor stops (``crashed``) and :meth:`restore` starts a new
    one that voids the rounds left open (R-CRASH-1); a supervised one recovers in place."""

    kind = "casino table"

    def __init__(
        self,
        table: CasinoTable,
        supervision: Supervision | None = None,
        *,
        offload: bool = True,
    ) -> None:
        super().__init__(table.config.table_id, table, supervision)
        self.table: CasinoTable = table
        self.offload = offload
        """Cashier calls on worker threads (False: on the loop, an in-memory database)."""
        table.wake = self.post

    @classmethod
    async def restore(
        cls,
        config: CasinoTableConfig,
        cashier: Cashier,
        clock: Clock,
        shuffler: Shuffler | None = None,
        supervision: Supervision | None = None,
        *,
        offload: bool = True,
    ) -> CasinoActor:
        """A table whose open rounds (if any) are voided first, off the loop with
        ``offload`` (call in a running loop)."""
        table = CasinoTable(config, cashier, clock, shuffler)
        await cls._void_open(table, offload)
        return cls(table, supervision, offload=offload)

    @staticmethod
    async def _void_open(table: CasinoTable, offload: bool) -> list[str]:
        if offload:
            return await finish_off_loop(table.recover)
        return table.recover()

    async def submit(self, cmd: Command) -> CasinoResult:
        return await super().submit(cmd)

    def _handle(self, msg: Any) -> CasinoResult | None:
        return self.table.handle(msg)

    async def _serve(self, msg: Any) -> CasinoResult | None:
        """Handle ``msg``: the table's state changes on the loop, each cashier call it
        asks for runs on a worker thread meanwhile (its answer, or its error, is sent
        back into the table's steps)."""
        table = self.table
        steps = table.steps(msg)
        if not self.offload:
            result: CasinoResult | None = run_inline(steps, table.cashier)
            return result
        reply: Any = None
        failed: BaseException | None = None
        while True:
            try:
                call = steps.send(reply) if failed is None else steps.throw(failed)
            except StopIteration as done:
                answer: CasinoResult | None = done.value
                return answer
            try:
                reply, failed = await finish_off_loop(call.run, table.cashier), None
            except Exception as exc:
                reply, failed = None, exc

    async def _recover(self, exc: BaseException) -> None:
        """Void the round the crashed table left open (every bet back, R-CRASH-1) and go
        on with a new table; its watchers move to it and get its state."""
        old = self.table
        old.wake = None
        table = CasinoTable(old.config, old.cashier, old.clock, old.shuffler)
        await self._void_open(table, self.offload)
        table.wake = self.post
        table.adopt_watchers(old)
        self.table = table

    async def _give_up(self, exc: BaseException) -> None:
        """Stop; the room restores the table (voiding its open round) on next use."""
        self.table.wake = None

    async def close(self) -> list[str]:
        """Stop the actor and void the round it had open (every bet back at once rather
        than at the next start); the voided round ids. A store that fails here leaves
        the round to the next start."""
        await self.stop()
        self.table.wake = None
        return await self._void_open(self.table, self.offload)
