"""The group-commit journal (store/groupcommit.py, issue #16) on SQLite and PostgreSQL:
many tables' records in one transaction, events held until their record is durable
(R-CRASH-1: nothing is published before it is durable), a table's records kept in order
when a synchronous record follows queued ones, and a failing record stopping its table
only."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from croupier.store import Store
from croupier.store.errors import StoreError
from croupier.store.groupcommit import GroupCommitJournal
from croupier.table.eventlog import EventLog
from croupier.table.events import SatIn, TableEvent
from croupier.table.journal import CashOutRecord, HandEndRecord, Restarted, SeatsRecord
from croupier.table.seating import Seat
from tests.waiting import async_wait_until

pytestmark = pytest.mark.rules("R-CRASH-1")

SEATS = (Seat(0, "1", "Ann", stack=100), Seat(1, "2", "Bob", stack=50))


def _watched(
    journal: GroupCommitJournal, tables: list[str], store: Store
) -> tuple[dict[str, EventLog], dict[str, list[tuple[int, int]]], list[str]]:
    """Event logs watched by ``journal``; each delivery records (version, journal records
    durable at that moment)."""
    logs: dict[str, EventLog] = {}
    seen: dict[str, list[tuple[int, int]]] = {t: [] for t in tables}
    failed: list[str] = []
    for t in tables:
        log = EventLog(64)

        def deliver(e: TableEvent, t: str = t) -> None:
            seen[t].append((e.version, len(store.journal.records(t))))

        log.add(None, deliver)
        journal.watch(t, log, lambda exc, t=t: failed.append(t))
        logs[t] = log
    return logs, seen, failed


def test_many_tables_in_one_transaction_and_events_held_until_durable(store: Store) -> None:
    tables = [f"g{i}" for i in range(20)]

    async def go() -> GroupCommitJournal:
        journal = GroupCommitJournal(store.journal)
        logs, seen, failed = _watched(journal, tables, store)
        with journal._cond:  # the writer waits until every table has queued its record
            for t in tables:
                journal.append(t, SeatsRecord(SEATS, "sit"))
                logs[t].publish(SatIn(0), hand_no=0)
            assert all(seen[t] == [] for t in tables), "published before durable"
        for t in tables:
            await asyncio.wait_for(journal.flushed(t), 30)
        await async_wait_until(
            lambda: all(seen[t] for t in tables), 10, "every table's event published once durable"
        )
        assert {t: seen[t] for t in tables} == {t: [(1, 1)] for t in tables}
        assert failed == []
        journal.close()
        return journal

    journal = asyncio.run(go())
    assert (journal.groups, journal.records_written) == (1, 20)
    # each record's wait from queued to durable is counted, the one transaction once
    assert (journal.waits.count, journal.writes.count, journal.sync_writes.count) == (20, 1, 0)
    assert journal.waits.max >= journal.writes.max > 0
    for t in tables:
        assert list(store.journal.records(t)) == [SeatsRecord(SEATS, "sit")]


def test_a_synchronous_record_follows_the_tables_queued_records(store: Store) -> None:
    async def go() -> dict[str, list[tuple[int, int]]]:
        journal = GroupCommitJournal(store.journal)
        logs, seen, _ = _watched(journal, ["s1", "s2"], store)
        with journal._cond:
            journal.append("s2", SeatsRecord(SEATS, "other table"))
            journal.append("s1", SeatsRecord(SEATS, "sit"))
            logs["s1"].publish(SatIn(0), hand_no=0)
            # Restarted is written synchronously: s1's queued seat map goes first, in the
            # same transaction, without waiting for the writer (which is held here).
            journal.append("s1", Restarted(2))
            assert seen["s1"] == [(1, 2)]
            assert seen["s2"] == []
        await asyncio.wait_for(journal.flushed("s2"), 30)
        journal.close()
        return seen

    asyncio.run(go())
    assert list(store.journal.records("s1")) == [SeatsRecord(SEATS, "sit"), Restarted(2)]
    assert list(store.journal.records("s2")) == [SeatsRecord(SEATS, "other table")]


def test_a_failing_record_stops_its_table_only(store: Store) -> None:
    async def go() -> tuple[dict[str, list[tuple[int, int]]], list[str]]:
        journal = GroupCommitJournal(store.journal)
        logs, seen, failed = _watched(journal, ["ok", "bad"], store)
        with journal._cond:
            journal.append("ok", SeatsRecord(SEATS, "sit"))
            logs["ok"].publish(SatIn(0), hand_no=0)
            # the settlement of a hand never started: refused by the store
            journal.append("bad", HandEndRecord(7, SEATS, (100, 50), 0))
            logs["bad"].publish(SatIn(0), hand_no=7)
        await asyncio.wait_for(journal.flushed("ok"), 30)
        await asyncio.wait_for(journal.flushed("bad"), 30)
        await async_wait_until(lambda: failed, 10, "the failed table told of its failure")
        journal.close()
        return seen, failed

    seen, failed = asyncio.run(go())
    assert failed == ["bad"]
    assert seen == {"ok": [(1, 1)], "bad": []}, "the failed table's event was published"
    assert list(store.journal.records("bad")) == []


def test_a_table_with_nothing_waiting_writes_at_once(store: Store) -> None:
    """A table not watched (or with nothing queued) writes at once, as the plain journal."""
    journal = GroupCommitJournal(store.journal)
    journal.append("plain", SeatsRecord(SEATS, "sit"))
    assert list(store.journal.records("plain")) == [SeatsRecord(SEATS, "sit")]
    assert journal.groups == 0
    journal.close()


LEFT = SeatsRecord(SEATS[1:], "left", (CashOutRecord("w:co-1", "1", 100),))
"""A seat map paying a cash-out (Ann left with 100)."""


def _escrow(store: Store, table_id: str, user_id: int, amount: int) -> None:
    """``amount`` of ``user_id``'s chips in escrow at ``table_id`` (the journal's ledger
    pays a seat map's cash-outs from there, in the same transaction)."""
    key = f"{table_id}:{user_id}"
    store.ledger.grant_diamonds(user_id, amount, key=f"grant:{key}")
    store.ledger.buy_chips(user_id, amount, key=f"chips:{key}")
    store.ledger.buy_in(table_id, user_id, amount, key=f"buy-in:{key}")


def test_a_seat_map_paying_cash_outs_is_queued_only_for_a_payer_that_waits(store: Store) -> None:
    """R-CRASH-1: plain ``append`` writes a seat map carrying cash-outs before it returns
    (its caller pays next); ``append_payer_waits`` queues it in order with the table's
    other records, and ``flushed(strict=True)`` returns once it is durable."""

    for table_id, user_id, amount in (("w", 1, 100), ("w", 2, 50), ("unwatched", 1, 100)):
        _escrow(store, table_id, user_id, amount)

    async def go() -> None:
        journal = GroupCommitJournal(store.journal)
        _watched(journal, ["w"], store)
        with journal._cond:  # the writer is held
            journal.append("w", SeatsRecord(SEATS, "sit"))
            assert list(store.journal.records("w")) == []  # queued
            journal.append("w", LEFT)  # plain: written now, after the queued one
            assert list(store.journal.records("w")) == [SeatsRecord(SEATS, "sit"), LEFT]
            again = SeatsRecord((), "left", (CashOutRecord("w:co-2", "2", 50),))
            journal.append_payer_waits("w", again)
            assert len(store.journal.records("w")) == 2, "a payer that waits got it written"
        await asyncio.wait_for(journal.flushed("w", strict=True), 30)
        assert list(store.journal.records("w")) == [SeatsRecord(SEATS, "sit"), LEFT, again]
        journal.append_payer_waits("unwatched", LEFT)  # not watched: written at once
        assert list(store.journal.records("unwatched")) == [LEFT]
        journal.close()

    asyncio.run(go())
    assert store.ledger.escrow("w") == {} and store.ledger.escrow("unwatched") == {}


def test_a_strict_flush_raises_when_the_seat_map_could_not_be_written(store: Store) -> None:
    """A payer waiting for its seat map learns that it failed (and so pays nothing): the
    wait raises, and so does any later strict wait; the seat map was never written."""

    async def go() -> list[str]:
        journal = GroupCommitJournal(store.journal)
        _, _, failed = _watched(journal, ["bad"], store)
        with journal._cond:
            journal.append("bad", HandEndRecord(7, SEATS, (100, 50), 0))  # refused by the store
            journal.append_payer_waits("bad", LEFT)
        with pytest.raises(Exception):  # noqa: B017 - the store's own error
            await asyncio.wait_for(journal.flushed("bad", strict=True), 30)
        await async_wait_until(lambda: failed, 10, "the failed table told of its failure")
        with pytest.raises(StoreError, match="failed"):
            await journal.flushed("bad", strict=True)
        await journal.flushed("bad")  # not strict: returns (the edge acknowledges nothing)
        journal.close()
        return failed

    assert asyncio.run(go()) == ["bad"]
    assert list(store.journal.records("bad")) == []


def test_a_record_that_cannot_be_encoded_stops_its_table_only(store: Store) -> None:
    """A record refused before any statement (here a table id over 100 characters, found
    when the group is encoded) fails its table alone; the group's other records are
    written."""
    bad = "b" * 101

    async def go() -> tuple[dict[str, list[tuple[int, int]]], list[str]]:
        journal = GroupCommitJournal(store.journal)
        logs, seen, failed = _watched(journal, ["ok", bad], store)
        with journal._cond:
            journal.append(bad, SeatsRecord(SEATS, "sit"))
            logs[bad].publish(SatIn(0), hand_no=0)
            journal.append("ok", SeatsRecord(SEATS, "sit"))
            logs["ok"].publish(SatIn(0), hand_no=0)
        await asyncio.wait_for(journal.flushed("ok"), 30)
        await asyncio.wait_for(journal.flushed(bad), 30)
        await async_wait_until(lambda: failed, 10, "the failed table told of its failure")
        journal.close()
        return seen, failed

    seen, failed = asyncio.run(go())
    assert failed == [bad]
    assert seen == {"ok": [(1, 1)], bad: []}, "the failed table's event was published"
    assert list(store.journal.records("ok")) == [SeatsRecord(SEATS, "sit")]


def test_lanes_take_their_group_once_the_databases_turn_is_theirs(store: Store, url: str) -> None:
    """Issue #16: at 1,000 tables on two processes a lane took its group, then waited
    hundreds of ms for SQLite's write turn, and what was queued meanwhile waited for the
    next transaction. A lane now takes its group once it holds the turn: the records that
    waited behind it are written in one transaction, not one per lane."""
    if not url.startswith("sqlite"):
        pytest.skip("PostgreSQL's writers have no turn to take: the lanes write side by side")
    tables = [f"t{i}" for i in range(6)]

    async def go() -> GroupCommitJournal:
        journal = GroupCommitJournal(store.journal, lanes=4, group_after=0.05)
        logs, seen, failed = _watched(journal, tables, store)
        with store.journal.turn:  # another writer (another process's) holds the turn
            for t in tables:
                journal.append(t, SeatsRecord(SEATS, "sit"))
                logs[t].publish(SatIn(0), hand_no=0)
            await asyncio.sleep(0.2)  # the lanes wake, and wait for the turn
            assert all(seen[t] == [] for t in tables), "published before durable"
        for t in tables:
            await asyncio.wait_for(journal.flushed(t), 30)
        assert failed == []
        journal.close()
        return journal

    journal = asyncio.run(go())
    # every record waited 0.2 s (over ``group_after``): one transaction took them all
    assert (journal.groups, journal.records_written) == (1, 6)
    for t in tables:
        assert list(store.journal.records(t)) == [SeatsRecord(SEATS, "sit")]


def test_lanes_write_a_table_alone_until_records_wait(store: Store) -> None:
    """Issue #11 and #16: a lane's transaction holds one table's records (a table whose
    write stalls holds up no other), and the records of other tables join it only once
    they have waited ``group_after`` (the lanes are not keeping up); a table another lane
    is writing never joins, and a table's records are taken oldest first."""
    from croupier.store.groupcommit import _Item

    journal = GroupCommitJournal(store.journal, lanes=4, group_after=10.0, alone=True)
    now = time.monotonic()
    record = SeatsRecord(SEATS, "sit")

    def queue(*items: tuple[str, float]) -> None:
        journal._queue.clear()
        for n, (table_id, age) in enumerate(items):
            journal._queue.append(_Item(table_id, record, n, queued=now - age))

    def taken() -> list[tuple[str, int]]:
        with journal._cond:
            group = journal._take() or []
        return [(i.table_id, i.seq) for i in group]

    queue(("a", 30.0), ("b", 20.0), ("a", 15.0), ("c", 5.0), ("b", 1.0))
    assert taken() == [("a", 0), ("b", 1), ("a", 2)]  # b waited 20 s: it joins; c did not
    assert [(i.table_id, i.seq) for i in journal._queue] == [("c", 3), ("b", 4)]
    queue(("a", 1.0), ("b", 2.0), ("c", 3.0))
    assert taken() == [("a", 0)]  # nobody waited: one table per transaction
    queue(("a", 30.0), ("b", 20.0), ("c", 20.0))
    journal._inflight["b"] = threading.Event()  # another lane writes b
    assert taken() == [("a", 0), ("c", 2)]
    journal._inflight.clear()
    single = GroupCommitJournal(store.journal, group_after=10.0)  # one lane: every table
    single._queue.extend(_Item(t, record, n, queued=now) for n, t in enumerate("abc"))
    with single._cond:
        assert [i.table_id for i in single._take() or []] == ["a", "b", "c"]


def test_on_sqlite_a_lane_takes_every_tables_records(store: Store, url: str) -> None:
    """Issue #16: SQLite writes one transaction at a time, so a lane holding its turn holds
    up the others whatever it writes; writing one table per transaction only made a
    record wait for one turn per table queued before it (at 1,000 tables a fifth of the
    records waited over 50 ms). There a lane takes every table's queued records (but never
    a table another lane is writing); on PostgreSQL the lanes write one table each."""
    from croupier.store.groupcommit import _Item

    journal = GroupCommitJournal(store.journal, lanes=4, group_after=10.0)
    sqlite = url.startswith("sqlite")
    assert journal.alone is not sqlite
    now = time.monotonic()
    journal._queue.extend(
        _Item(t, SeatsRecord(SEATS, "sit"), n, queued=now) for n, t in enumerate("abcb")
    )
    journal._inflight["c"] = threading.Event()  # another lane writes c
    with journal._cond:
        group = [(i.table_id, i.seq) for i in journal._take() or []]
    assert group == ([("a", 0), ("b", 1), ("b", 3)] if sqlite else [("a", 0)])
