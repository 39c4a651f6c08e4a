"""The table actor: one asyncio task per table, the only writer, fed through its mailbox.

Commands from players, bots and the connection layer, and the table's own timer
messages, all go through :meth:`TableActor.submit`/:meth:`TableActor.post` into one
queue; the task hands them to :meth:`Table.handle` one at a time (the mailbox loop and
its supervision are :class:`~croupier.table.supervise.MailboxActor`, shared with the
casino table). If the table raises (a bug, a journal write that failed, or a crash
injected by a test): a bare actor stops, the journal is what survives and
:meth:`TableActor.restore` starts a new actor from it (a process restart); a supervised
actor (every table of a server) restores the table from its journal in place, the hand
in play voided and refunded, and keeps serving (:mod:`croupier.table.recover`).

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

from croupier.table import seatcmds
from croupier.table.commands import Message, Reload, SitDown
from croupier.table.config import TableConfig
from croupier.table.events import TableEvent, TableSnapshot
from croupier.table.journal import CashOutDone, CashOutRecord
from croupier.table.recover import recover_table
from croupier.table.results import CommandResult, TableError
from croupier.table.supervise import MailboxActor, Supervision
from croupier.table.table import Subscription, Table

__all__ = ["EventStream", "Supervision", "TableActor"]

log = logging.getLogger("croupier.table")


class EventStream:
    """A subscription whose events arrive in an :class:`asyncio.Queue`, or to a callback
    (a WebSocket session's): then the stream has no queue (``queued`` false), since an
    unused queue is six more objects a connection keeps and every full collection scans
    (issue #16)."""

    def __init__(self, actor: TableActor, player_id: str | None, *, queued: bool = True) -> None:
        self._queue: asyncio.Queue[TableEvent] | None = asyncio.Queue() if queued else None
        self.player_id = player_id
        self._actor = actor
        self.subscription: Subscription | None = None
        self.initial: TableSnapshot | list[TableEvent] = []

    @property
    def queue(self) -> asyncio.Queue[TableEvent]:
        """Where the events arrive; a stream delivering to a callback has none."""
        if self._queue is None:
            raise RuntimeError("this stream delivers its events to a callback")
        return self._queue

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


class TableActor(MailboxActor[Message, CommandResult]):
    """Owns a :class:`Table` and runs it in one asyncio task (:class:`MailboxActor`).

    Supervised (``supervision``, every table of a server), a crash is recovered in place:
    :meth:`_recover` restores the table from its journal with its seats (the hand in play
    voided, every stack as before it), moves every subscriber to the restored table and
    keeps serving; :meth:`_give_up` closes it after too many crashes."""

    def __init__(self, table: Table, supervision: Supervision | None = None) -> None:
        super().__init__(table.config.table_id, table, supervision)
        self.table: Table = table
        self.on_restored: list[Callable[[Table], Any]] = []
        """Called with the restored table after each recovery (the server watches its
        journal writes again)."""
        table.wake = self.post

    @classmethod
    def open(cls, config: TableConfig, **kwargs: Any) -> TableActor:
        """A new table in a new actor (call inside a running event loop)."""
        return cls(Table.open(config, **kwargs))

    @classmethod
    def restore(cls, config: TableConfig, **kwargs: Any) -> TableActor:
        """Restart a table from its journal (R-CRASH-1) in a new actor."""
        return cls(Table.restore(config, **kwargs))

    def _error(self, code: str, message: str) -> Exception:
        return TableError(code, message)

    def _handle(self, msg: Message) -> CommandResult | None:
        return self.table.handle(msg)

    async def _serve(self, msg: Message) -> CommandResult | None:
        """Handle ``msg``. With a background journal (a server), the bank is never asked
        on the event loop (R-CRASH-1 holds as for a table driven directly):

        - a buy-in or reload is funded off the loop (:meth:`_funded`);
        - a stand-up (a Leave, a leaving or disconnected player at a hand's end, a
          reconnection window expired) queues its seat map with its cash-outs and leaves
          them in ``table.owed``; after the table handled the message, the actor waits for
          that seat map to be durable, then pays on a worker thread and journals
          ``CashOutDone`` (:meth:`_pay`), before it takes its next message: the answer to
          a Leave resolves with the balance paid."""
        table = self.table
        if not hasattr(table.journal, "watch"):
            return table.handle(msg)
        table.owed = []
        try:
            if isinstance(msg, SitDown | Reload):
                result = await self._funded(table, msg)
            else:
                result = table.handle(msg)
        finally:
            # On a crash the owed cash-outs are not paid here: the table's recovery (or the
            # next start) pays those whose seat map is durable, with the same reference.
            owed, table.owed = table.owed, None
        if owed:
            await self._pay(table, owed)
        return result

    async def _funded(self, table: Table, msg: SitDown | Reload) -> CommandResult | None:
        """A buy-in or reload funded off the event loop: the table checks the command and
        asks for the chips (nothing changed), the intent is journaled and the bank asked
        on a worker thread, then the table handles the command with that answer
        (R-CRASH-1: the intent is durable before the bank moves anything, as before)."""
        table.funding = seatcmds.ASK_FUNDING
        try:
            return table.handle(msg)
        except seatcmds.NeedsFunding as need:
            # without its traceback: kept past the except, it would make a cycle
            # (exception → traceback → this frame → exception) for the collector to find
            ask = need.with_traceback(None)
        finally:
            if table.funding == seatcmds.ASK_FUNDING:
                table.funding = None
        work = asyncio.ensure_future(asyncio.to_thread(seatcmds.fund, table, ask))
        try:
            funded = await asyncio.shield(work)
        except asyncio.CancelledError:
            # The actor is stopping (a graceful shutdown) while the bank moves the chips:
            # the worker thread goes on regardless, so wait for it and give the chips back
            # now, rather than leave them in the escrow for the next start to refund.
            funded = await work
            await asyncio.to_thread(seatcmds.refund, table, funded)
            raise
        table.funding = funded
        try:
            return table.handle(msg)
        finally:
            left = table.funding
            table.funding = None
            if isinstance(left, seatcmds.Funded) and left.ok:  # not used: give it back
                await asyncio.to_thread(seatcmds.refund, table, left)

    async def _pay(self, table: Table, owed: list[CashOutRecord]) -> None:
        """Pay ``owed`` once their seat map is durable, off the loop. A stop (the actor
        cancelled) in the middle waits for the payment to finish and be journaled: a
        cash-out is never lost, and never paid twice (a crash between the payment and
        ``CashOutDone`` makes the restart pay again with the same reference, which the
        ledger applies once)."""
        work = asyncio.ensure_future(_pay_owed(table, owed))
        try:
            await asyncio.shield(work)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):  # failed: the restart pays what is durable
                await work
            raise

    def _answered(self, msg: Message, result: CommandResult | None) -> None:
        if result is not None and not result.accepted and log.isEnabledFor(logging.INFO):
            table_id = self.table.config.table_id
            log.info(
                "table %s refused %s: %s",
                table_id,
                type(msg).__name__,
                result.code,
                extra={"event": "command_refused", "table": table_id, "code": result.code},
            )

    async def _recover(self, exc: BaseException) -> None:
        """Restore the table from its journal, seats kept (the hand in play voided and
        refunded to the stacks, R-CRASH-1), subscribers moved to it."""
        old = self.table
        self.table = await recover_table(old, keep_seats=True)
        self.table.wake = self.post
        for hook in list(self.on_restored):
            hook(self.table)

    async def _pause(self, seconds: float) -> None:
        """Wait on the table's clock (a tournament's clock in tests is a FakeClock)."""
        done = asyncio.get_running_loop().create_future()
        clock = self.table.clock
        handle = clock.call_at(clock.now() + seconds, lambda: _set(done))
        try:
            await done
        finally:
            handle.cancel()

    async def _give_up(self, exc: BaseException) -> None:
        """Close the table: a cash table sends every stack home (R-CRASH-1) and its
        players see ``player_left``; a tournament table just stops."""
        policy = self.supervision
        if policy is not None and policy.close_on_give_up:
            self.table = await recover_table(self.table, keep_seats=False)
            self.table.wake = _drop
        else:
            self.table.wake = _drop

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
        stream = EventStream(self, player_id, queued=callback is None)
        deliver = callback if callback is not None else stream.queue.put_nowait

        stream.subscription, stream.initial = self.table.subscribe(
            player_id, deliver, since=since, epoch=epoch, internal=internal
        )
        return stream


def _set(done: asyncio.Future[None]) -> None:
    if not done.done():
        done.set_result(None)


async def _pay_owed(table: Table, owed: list[CashOutRecord]) -> None:
    """Wait for the seat map naming ``owed`` to be durable (``journal_failed`` if it
    cannot be: then nothing is paid, the table's recovery pays what is durable), pay on a
    worker thread, then journal each ``CashOutDone`` (queued: a restart repairs its loss)."""
    journal: Any = table.journal
    flushed = getattr(journal, "flushed", None)
    if flushed is not None:
        await flushed(table.id, strict=True)
    cash = tuple(owed)
    await asyncio.to_thread(_pay_all, table, cash)
    for co in cash:
        journal.append(table.id, CashOutDone(co.ref))


def _pay_all(table: Table, cash: tuple[CashOutRecord, ...]) -> None:
    for co in cash:
        seatcmds.pay(table, co)


def _drop(msg: Message) -> None:
    """The wake of a table given up: its timers do nothing."""
