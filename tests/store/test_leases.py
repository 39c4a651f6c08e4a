"""Table leases and fencing (issue #16, store/leases.py): one holder per table, a takeover
only after expiry with a new epoch, and a process that lost a table can write nothing more
for it — no journal record, no buy-in, no cash-out — while the new holder writes on."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from croupier.store import open_store
from croupier.store.errors import StoreError
from croupier.store.leases import Fence, LeaseLostError
from croupier.store.store import Store
from croupier.table.journal import HandStartRecord, HandVoidRecord, SeatsRecord, commit_deck
from croupier.table.seating import Seat
from tests.store.backends import FakeClock
from tests.store.test_journal import DECK

pytestmark = pytest.mark.rules("R-CRASH-1")


def _pair(url: str, clock: FakeClock) -> tuple[Store, Store]:
    """Two processes' stores on one database, each with its own fence."""
    a, b = open_store(url, clock=clock), open_store(url, clock=clock)
    a.fence.owner, b.fence.owner = "a/1", "b/1"
    return a, b


def _fund(store: Store, uid: int, chips: int) -> None:
    store.users.create_user(f"p{uid}", f"p{uid}", None, "user", 0)
    store.ledger.grant_diamonds(uid, chips, key=f"g{uid}")
    store.ledger.buy_chips(uid, chips, key=f"c{uid}")


def _seated_under_lease(a: Store) -> None:
    """Process ``a`` leases table ``t1`` and seats account 1 there with 200 of its 500."""
    _fund(a, 1, 500)
    lease = a.leases.acquire("t1", "a/1", url="http://a", ttl=3)
    assert lease is not None
    a.fence.hold("t1", lease.epoch)
    assert a.bank("t1").buy_in("1", 200, "r1")
    a.journal.append("t1", SeatsRecord((Seat(0, "1", stack=200),), "sit"))


def test_one_holder_until_expiry_then_a_new_epoch(tmp_path: Path, clock: FakeClock) -> None:
    a, b = _pair(f"sqlite:///{tmp_path / 'db.sqlite3'}", clock)
    with a, b:
        got = a.leases.acquire("t1", "a/1", url="http://a", ttl=3)
        assert got is not None and got.epoch == 1
        assert b.leases.acquire("t1", "b/1", url="http://b", ttl=3) is None
        again = a.leases.acquire("t1", "a/1", url="http://a", ttl=3)
        assert again is not None and again.epoch == 1  # renewed by its holder
        clock.advance(2)
        assert a.leases.renew("a/1", {"t1": 1}, ttl=3) == set()
        clock.advance(2.5)  # renewed 2.5 s ago: still held
        assert b.leases.acquire("t1", "b/1", url="http://b", ttl=3) is None
        clock.advance(1)
        taken = b.leases.acquire("t1", "b/1", url="http://b", ttl=3)
        assert taken is not None and (taken.owner, taken.epoch, taken.url) == ("b/1", 2, "http://b")
        assert a.leases.renew("a/1", {"t1": 1}, ttl=3) == {"t1"}
        assert not a.leases.release("t1", "a/1", 1)  # not a's to give up
        assert b.leases.release("t1", "b/1", 2)
        assert b.leases.all() == []


def test_bad_leases_are_refused(tmp_path: Path, clock: FakeClock) -> None:
    with open_store(f"sqlite:///{tmp_path / 'db.sqlite3'}", clock=clock) as store:
        for name, ttl in (("", 3.0), ("x" * 101, 3.0), ("t", 0.0), ("t", -1.0)):
            with pytest.raises(StoreError) as info:
                store.leases.acquire(name, "a", url="", ttl=ttl)
            assert info.value.code == "invalid_lease"
        assert store.leases.all() == []


def test_a_process_that_lost_its_table_writes_nothing_more(url: str, clock: FakeClock) -> None:
    """The old holder's journal records, buy-ins and cash-outs are refused with
    ``lease_lost`` after a takeover and change nothing; the new holder's go through."""
    a, b = _pair(url, clock)
    with a, b:
        _seated_under_lease(a)
        seat = Seat(0, "1", "P1", stack=200)
        start = HandStartRecord(
            1, (seat,), (0,), ("1",), (200,), 0, commit_deck(DECK, b"s" * 16), DECK, b"s" * 16
        )
        a.journal.append("t1", start)
        clock.advance(4)  # a froze past its lease
        taken = b.leases.acquire("t1", "b/1", url="http://b", ttl=3)
        assert taken is not None and taken.epoch == 2
        b.fence.hold("t1", taken.epoch)
        records = len(a.journal.records("t1"))
        escrow = a.ledger.escrow("t1")
        chips = a.ledger.balances(1).chips
        attempts = [
            lambda: a.journal.append("t1", HandVoidRecord(1, (), "crash")),
            lambda: a.journal.append_many([("t1", SeatsRecord((), "leave"))]),
            lambda: a.bank("t1").cash_out("1", 200, "r2"),
            lambda: a.bank("t1").buy_in("1", 100, "r3"),
        ]
        for attempt in attempts:
            with pytest.raises(LeaseLostError) as info:
                attempt()
            assert info.value.code == "lease_lost"
        assert a.fence.lost("t1")
        assert len(a.journal.records("t1")) == records
        assert (a.ledger.escrow("t1"), a.ledger.balances(1).chips) == (escrow, chips)
        # the new holder voids the hand and sends the stack home
        b.journal.append("t1", HandVoidRecord(1, (Seat(0, "1", stack=200),), "crash"))
        b.bank("t1").cash_out("1", 200, "r4")
        assert b.ledger.escrow("t1") == {} and b.ledger.balances(1).chips == 500
        assert b.audit().ok


def test_a_takeover_waits_for_a_write_in_flight(url: str, clock: FakeClock) -> None:
    """The fence locks the lease row: a takeover that starts while the holder's write is
    in its transaction completes after it, so the new holder reads that write."""
    if url.startswith("sqlite"):
        pytest.skip("SQLite serialises every write transaction already")
    a, b = _pair(url, clock)
    with a, b:
        lease = a.leases.acquire("t1", "a/1", url="http://a", ttl=3)
        assert lease is not None
        a.fence.hold("t1", lease.epoch)
        clock.advance(4)
        in_write, go_on = threading.Event(), threading.Event()

        def slow(conn: object) -> None:
            a.fence.check(conn, "t1", a.db.backend)  # type: ignore[arg-type]
            in_write.set()
            go_on.wait(10)

        writer = threading.Thread(target=lambda: a.db.run(slow))  # type: ignore[arg-type]
        writer.start()
        assert in_write.wait(10)
        taken: list[object] = []
        taker = threading.Thread(
            target=lambda: taken.append(b.leases.acquire("t1", "b/1", url="", ttl=3))
        )
        taker.start()
        taker.join(0.5)
        assert taker.is_alive() and not taken  # waits for the holder's transaction
        go_on.set()
        writer.join(10)
        taker.join(10)
        assert taken and getattr(taken[0], "epoch", None) == 2


def test_an_unleased_table_is_not_fenced(tmp_path: Path, clock: FakeClock) -> None:
    """A one-process room leases nothing and checks nothing."""
    fence = Fence("a/1")
    assert fence.held() == {} and fence.epoch("t1") is None
    with open_store(f"sqlite:///{tmp_path / 'db.sqlite3'}", clock=clock) as store:
        store.journal.append("t1", SeatsRecord((), "sit"))
        assert len(store.journal.records("t1")) == 1
        assert store.leases.all() == []


def test_the_audit_names_a_table_its_process_left_with_chips(
    tmp_path: Path, clock: FakeClock
) -> None:
    """A lease expired and never taken over, while its table's escrow holds chips: the
    audit's ``leases`` check calls them stuck; once another process took the table over
    and sent the stack home, the audit is clean."""
    clock.now = time.time() - 100  # the lease expired 97 s ago (the audit reads the wall)
    a, b = _pair(f"sqlite:///{tmp_path / 'db.sqlite3'}", clock)
    with a, b:
        _seated_under_lease(a)
        report = a.audit()
        stuck = [d for d in report.discrepancies if d.startswith("[leases]")]
        assert len(stuck) == 1 and "t1" in stuck[0] and "a/1" in stuck[0], report
        assert "200 chips" in stuck[0]
        clock.now = time.time()
        taken = b.leases.acquire("t1", "b/1", url="http://b", ttl=600)
        assert taken is not None
        b.fence.hold("t1", taken.epoch)
        assert b.audit().ok  # served again: nothing stuck
        b.journal.append("t1", SeatsRecord((), "restart"))
        b.bank("t1").cash_out("1", 200, "r2")
        assert b.audit().ok
