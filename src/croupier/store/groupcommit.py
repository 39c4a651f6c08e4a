"""Group commit: the table journal written off the event loop, many tables per transaction.

:class:`GroupCommitJournal` wraps the :class:`~croupier.store.journal.SqlJournal` as the
tables' journal port. The records of a hand's life at a table being watched (the start of
a hand, its settlement with the ledger transfer, a seat map that moves no money) are
queued and returned from at once; one writer thread takes everything queued, from every
table, and writes it in **one transaction** (one commit, one fsync). Durability is
unchanged: the table's event log (:class:`~croupier.table.eventlog.EventLog`) holds
every event published after a queued record until the writer reports that record
durable, so nothing is published before it is durable (R-CRASH-1), and
:meth:`GroupCommitJournal.flushed` lets the edge acknowledge a command only then.

Records that move money outside the journal's own transaction, or that must be durable
before the bank is asked (buy-in intents and their seat maps, seat maps paying cash-outs,
restarts), are written synchronously by :meth:`GroupCommitJournal.append`, on the
caller's thread. The one exception is explicit: a seat map carrying cash-outs handed to
:meth:`GroupCommitJournal.append_payer_waits` is queued like the other records, because
its caller (the table's actor) promises to pay those cash-outs only after
``flushed(table_id, strict=True)`` returned, i.e. once the seat map is durable
(R-CRASH-1: the bank never pays a cash-out whose seat map a crash could lose). Plain
``append`` still refuses to defer it (:func:`deferrable`), so a payer that does not
wait (a restart, a table driven directly) gets it durable before it returns. When a
synchronous record's table has records waiting, those are taken out of the queue and
written first in the same transaction (after the group being written, if it holds some), so a table's records
keep their order and the caller never waits for other tables' records.

If a group fails, its records are written one by one; a record that still fails breaks
its table: its later records are not written (the journal stays a prefix of what the table
did, so recovery reads a consistent state), a later write of it raises
``journal_failed``, its held events are never published, and ``on_failure`` tells the
table's actor, whose supervision restores the table from what is durable (voiding the
hand in play) after :meth:`GroupCommitJournal.reset`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from croupier.store.errors import StoreError
from croupier.store.journal import SqlJournal
from croupier.store.latency import Latency
from croupier.table.journal import (
    BuyInAborted,
    CashOutDone,
    HandEndRecord,
    HandStartRecord,
    HandVoidRecord,
    ProtectionUsed,
    Record,
    SeatsRecord,
)

__all__ = ["GroupCommitJournal", "HeldLog"]

log = logging.getLogger("croupier.store")

MAX_GROUP = 512
"""Records per transaction at most."""

GROUP_AFTER = 0.050
"""Seconds after which a queued record joins the next transaction of any writer lane,
with other tables' records. On PostgreSQL a lane writes one table's records, so that a
table whose write stalls holds up no other (issue #11; on SQLite a lane takes every
table's: :attr:`GroupCommitJournal.alone`); but when records wait this long, the lanes
are not keeping up, and many tables in one transaction cost little more than one
(:meth:`SqlJournal.append_many` writes a group set-wise; SQLite has one writer anyway):
at 1,000 tables a transaction per table saturated the database (issue #16)."""


class HeldLog(Protocol):
    """What the journal needs of a table's event log (``EventLog``)."""

    pending: Callable[[], int] | None

    def release(self, durable: int) -> None: ...


@dataclass(slots=True)
class _Item:
    table_id: str
    record: Record
    seq: int
    done: threading.Event | None = None
    error: BaseException | None = None
    watch: _Watch | None = None
    queued: float = 0.0
    """When it was queued (``time.monotonic``)."""


@dataclass(slots=True)
class _Watch:
    log: HeldLog
    loop: asyncio.AbstractEventLoop
    on_failure: Callable[[BaseException], Any]
    last: int = 0
    durable: int = 0
    failed: bool = False
    waiters: list[tuple[int, asyncio.Future[None]]] = field(default_factory=list)


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether the caller runs on ``loop``'s thread, inside it."""
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def deferrable(record: Record, *, payer_waits: bool = False) -> bool:
    """Whether ``record`` may be written in the background: it moves no money outside the
    journal's own transaction and nothing reads it back before the next hand. Markers
    whose loss a restart repairs (a cash-out confirmed, a buy-in refused: the restart asks
    the bank again with the same reference, applied once), voids (they move nothing) and
    all-in protections (counted by the room's quota; this record only reloads a table's
    own count) are deferrable too.

    A seat map carrying cash-outs is deferrable only with ``payer_waits``: its caller
    pays the cash-outs after awaiting the record's durability
    (:meth:`GroupCommitJournal.append_payer_waits`); lost in a crash before that, nothing
    was paid and the player is restored seated with the stack."""
    if isinstance(record, HandStartRecord | HandEndRecord | HandVoidRecord):
        return True
    if isinstance(record, CashOutDone | BuyInAborted | ProtectionUsed):
        return True
    # A seat map naming a buy-in may wait: its intent is durable and the bank answered
    # before it; lost in a crash, the restart refunds the intent.
    return isinstance(record, SeatsRecord) and (payer_waits or not record.cash_outs)


class GroupCommitJournal:
    """The journal port over ``inner`` with a background writer (see the module)."""

    def __init__(
        self,
        inner: SqlJournal,
        *,
        max_group: int = MAX_GROUP,
        lanes: int = 1,
        group_after: float = GROUP_AFTER,
        alone: bool | None = None,
    ) -> None:
        self.inner = inner
        self.max_group = max_group
        self.lanes = max(1, lanes)
        """Writer threads. One: every table's queued records in one transaction. More:
        the lanes write different tables at once, each transaction one table's queued
        records where :attr:`alone` (the records of other tables that have waited
        ``group_after`` seconds join it: the lanes are not keeping up, see
        :data:`GROUP_AFTER`)."""
        self.group_after = group_after
        self.alone = (self.lanes > 1 and not inner.one_writer) if alone is None else alone
        """Whether a lane's transaction holds one table's records (and the records of
        other tables that have waited ``group_after``), so that a table whose write
        stalls holds up no other: with several lanes on PostgreSQL. Not on SQLite, whose
        one writer at a time makes a lane holding the turn hold up every other lane
        whatever it writes: there a lane takes every table's queued records, and a
        record waits for one turn rather than for one per table queued before it
        (issue #16)."""
        self._queue: deque[_Item] = deque()
        self._cond = threading.Condition()
        self._watched: dict[str, _Watch] = {}
        self._seq = 0
        self._threads: list[threading.Thread] = []
        self._closed = False
        self._inflight: dict[str, threading.Event] = {}
        """The tables whose records a writer is writing now (set when written)."""
        self._broken: set[str] = set()
        """Tables with a record that could not be written (until :meth:`reset`)."""
        self.groups = 0
        self.records_written = 0
        self.waits = Latency()
        """Per queued record: from queued to durable (what holds its table's events)."""
        self.writes = Latency()
        """Per transaction of the writer threads, waiting for the database's lock included."""
        self.sync_writes = Latency()
        """Per record written on the caller's thread (often the event loop's)."""

    # -- the Journal port ----------------------------------------------------------------

    def __getattr__(self, name: str) -> Any:  # records, unsettled, hand_status, …
        return getattr(self.inner, name)

    def append(self, table_id: str, record: Record) -> None:
        """Queue ``record`` (a watched table's deferrable record) or write it now, after
        everything queued before it."""
        self._append(table_id, record, payer_waits=False)

    def append_payer_waits(self, table_id: str, record: Record) -> None:
        """Like :meth:`append`, but a seat map carrying cash-outs is queued too: the caller
        must pay them only after ``await flushed(table_id, strict=True)`` returned (it
        raises if the record could not be made durable; then nothing may be paid, the
        table's recovery pays what is durable). Call on the table's event loop. If the
        table is not watched (or the journal is closing) the record is written now."""
        self._append(table_id, record, payer_waits=True)

    def _append(self, table_id: str, record: Record, *, payer_waits: bool) -> None:
        if table_id in self._broken:
            raise StoreError("journal_failed", f"the journal of {table_id} failed; it recovers")
        watch = self._watched.get(table_id)
        if watch is not None and not self._closed and deferrable(record, payer_waits=payer_waits):
            with self._cond:  # a worker thread of the table's actor may append too: the
                # number and the place in the queue are taken together (the lock is an RLock)
                self._seq += 1
                seq = watch.last = self._seq
                self._put(_Item(table_id, record, seq, watch=watch, queued=time.monotonic()))
            return
        started = time.monotonic()
        if watch is None or watch.last <= watch.durable:
            # Nothing of this table is waiting: write now (on the caller's thread).
            self.inner.append(table_id, record)
            self.sync_writes.observe(time.monotonic() - started)
            return
        # This table has records waiting: take them out of the queue and write them with
        # this one, here, in one transaction (after the group being written, if it holds
        # some of them), rather than waiting for every other table's records.
        with self._cond:
            mine = [i for i in self._queue if i.table_id == table_id]
            if mine:
                self._queue = deque(i for i in self._queue if i.table_id != table_id)
            done = self._inflight.get(table_id)
        if done is not None:
            done.wait()
        items = [(i.table_id, i.record) for i in mine]
        self.inner.append_many([*items, (table_id, record)])
        now = time.monotonic()
        self.sync_writes.observe(now - started)
        for i in mine:
            self.waits.observe(now - i.queued)
        if mine and watch is not None:
            written = {table_id: (watch, mine[-1].seq)}
            if _on_loop(watch.loop):
                self._durable(written, {})
            else:  # a worker thread of the actor (a buy-in funded off the loop): the
                # events are released on the table's loop, never on this thread
                with contextlib.suppress(RuntimeError):  # the loop is closed
                    watch.loop.call_soon_threadsafe(self._durable, written, {})

    # -- watching a table ----------------------------------------------------------------

    def watch(
        self, table_id: str, log: HeldLog, on_failure: Callable[[BaseException], Any]
    ) -> None:
        """Write ``table_id``'s deferrable records in the background; ``log`` holds its
        events until they are durable. Call on the table's event loop."""
        watch = _Watch(log, asyncio.get_running_loop(), on_failure)
        self._watched[table_id] = watch
        log.pending = lambda: 0 if watch.last <= watch.durable else watch.last

    def unwatch(self, table_id: str) -> None:
        self._watched.pop(table_id, None)

    def reset(self, table_id: str) -> None:
        """Before a table is restored from its journal (blocking: call off the loop): stop
        watching it, drop its records still queued (not durable, their events never
        published), wait for the group writing some of them, and forget a failure, so the
        restore writes straight to the store on a durable prefix."""
        with self._cond:
            self._watched.pop(table_id, None)
            self._queue = deque(i for i in self._queue if i.table_id != table_id)
            done = self._inflight.get(table_id)
        if done is not None:
            done.wait()
        with self._cond:
            self._broken.discard(table_id)

    async def flushed(self, table_id: str, *, strict: bool = False) -> None:
        """Return once every record queued so far for ``table_id`` is durable. A write of
        the table that failed raises while waiting; ``strict`` (a payer waiting for its
        seat map, :meth:`append_payer_waits`) also raises ``journal_failed`` if the
        table's journal had already failed, rather than return."""
        watch = self._watched.get(table_id)
        if strict and (table_id in self._broken or (watch is not None and watch.failed)):
            raise StoreError("journal_failed", f"the journal of {table_id} failed; it recovers")
        if watch is None or watch.last <= watch.durable or watch.failed:
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        watch.waiters.append((watch.last, fut))
        await fut

    def _durable(
        self,
        written: dict[str, tuple[_Watch, int]],
        failed: dict[str, tuple[_Watch, BaseException]],
    ) -> None:
        """On the loop: records up to these numbers are durable (or failed). A report for
        a watch that was replaced since (the table was restored) is ignored."""
        for table_id, (watch, seq) in written.items():
            if self._watched.get(table_id) is not watch or watch.failed:
                continue
            watch.durable = max(watch.durable, seq)
            watch.log.release(watch.durable)
            keep = []
            for need, fut in watch.waiters:
                if need <= watch.durable:
                    if not fut.done():
                        fut.set_result(None)
                else:
                    keep.append((need, fut))
            watch.waiters = keep
        for table_id, (watch, exc) in failed.items():
            if self._watched.get(table_id) is not watch or watch.failed:
                continue
            watch.failed = True
            for _, fut in watch.waiters:
                if not fut.done():
                    fut.set_exception(exc)
            watch.waiters = []
            log.error("journal write failed at %s: %s; the table stops", table_id, exc)
            watch.on_failure(exc)

    # -- the writer thread ---------------------------------------------------------------

    def _put(self, item: _Item) -> None:
        with self._cond:
            if not self._threads:
                for n in range(self.lanes):
                    thread = threading.Thread(
                        target=self._writer, name=f"croupier-journal-{n}", daemon=True
                    )
                    self._threads.append(thread)
                    thread.start()
            self._queue.append(item)
            self._cond.notify()

    def _take(self) -> list[_Item] | None:
        """Under the lock: the next group to write (``None``: nothing for this writer
        now): every table's records, or where :attr:`alone` the first table's records
        and those of other tables queued :attr:`group_after` ago or more.
        Records of a table another writer is writing wait for it (a table's records stay
        in order)."""
        busy = self._inflight
        first = next((i for i in self._queue if i.table_id not in busy), None)
        if first is None:
            return None
        solo = self.alone
        late = time.monotonic() - self.group_after
        group: list[_Item] = []
        rest: deque[_Item] = deque()
        for i in self._queue:
            # queued in time order: a table's records taken are always its oldest ones
            eligible = i.table_id not in busy and (
                not solo or i.table_id == first.table_id or i.queued <= late
            )
            if eligible and len(group) < self.max_group:
                group.append(i)
            else:
                rest.append(i)
        self._queue = rest
        return group

    def _ready(self) -> bool:
        """Under the lock: whether a record waits that a writer could take now."""
        busy = self._inflight
        return any(i.table_id not in busy for i in self._queue)

    def _writer(self) -> None:
        while True:
            with self._cond:
                while not self._ready():
                    if self._closed and not self._queue:
                        return
                    self._cond.wait()
            # The database's write turn first, the group after: on SQLite the writers of
            # the room's processes take turns, and a group taken before waiting for the
            # turn (hundreds of ms at 1,000 tables) left every record queued meanwhile to
            # the next one. Taken once the turn is ours, a group holds all that waited,
            # so transactions grow with the load (issue #16). The turn is re-entrant:
            # the write below takes it again. On PostgreSQL it is nothing.
            with self.inner.turn:
                with self._cond:
                    group = self._take() if self._queue else None
                    if group is None:
                        continue  # another writer took them while this one waited
                    done = threading.Event()
                    tables = {i.table_id for i in group}
                    for t in tables:
                        self._inflight[t] = done
                try:
                    self._write(group)
                finally:
                    with self._cond:
                        for t in tables:
                            if self._inflight.get(t) is done:
                                del self._inflight[t]
                        done.set()
                        self._cond.notify_all()

    def _write(self, group: Sequence[_Item]) -> None:
        with self._cond:
            broken = set(self._broken)
        todo = [i for i in group if i.table_id not in broken]
        for i in group:
            if i.table_id in broken:
                i.error = StoreError("journal_failed", f"the journal of {i.table_id} failed")
        started = time.monotonic()
        try:
            self.inner.append_many([(i.table_id, i.record) for i in todo])
        except Exception:
            for i in todo:  # isolate the record that fails; its table's later ones wait
                if i.table_id in broken:
                    i.error = StoreError("journal_failed", f"the journal of {i.table_id} failed")
                    continue
                try:
                    self.inner.append_many([(i.table_id, i.record)])
                except Exception as exc:
                    i.error = exc
                    broken.add(i.table_id)
                    with self._cond:
                        self._broken.add(i.table_id)
        now = time.monotonic()
        self.writes.observe(now - started)
        for i in group:
            self.waits.observe(now - i.queued)
        self.groups += 1
        self.records_written += len(group)
        written: dict[str, dict[str, tuple[_Watch, int]]] = {}
        failed: dict[str, dict[str, tuple[_Watch, BaseException]]] = {}
        loops: dict[str, asyncio.AbstractEventLoop] = {}
        for i in group:
            if i.done is not None:
                i.done.set()
                continue
            watch = i.watch
            if watch is None:
                continue
            key = str(id(watch.loop))
            loops[key] = watch.loop
            if i.error is not None:
                failed.setdefault(key, {}).setdefault(i.table_id, (watch, i.error))
            else:
                written.setdefault(key, {})[i.table_id] = (watch, i.seq)
        for key, loop in loops.items():
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(self._durable, written.get(key, {}), failed.get(key, {}))

    def close(self, timeout: float = 30.0) -> None:
        """Write everything queued, then stop the writer thread."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
            threads = list(self._threads)
        for thread in threads:
            thread.join(timeout)
