"""Table leases and fencing (issue #16, store/leases.py): one holder per table, a takeover
only after expiry with a new epoch, and a process that lost a table can write nothing more
for it — no journal record, no buy-in, no cash-out — while the new holder writes on; the
same for the room services (tournaments, the casino) under their lease."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from croupier.store import open_store
from croupier.store.casino import LedgerCashier as CasinoCashier
from croupier.store.errors import StoreError
from croupier.store.leases import ROOM_LEASE, Fence, LeaseLostError
from croupier.store.schema import table_leases
from croupier.store.store import Store
from croupier.store.tournaments import TournamentJournal
from croupier.table.journal import HandStartRecord, HandVoidRecord, SeatsRecord, commit_deck
from croupier.table.seating import Seat
from croupier.tournament.money import LedgerCashier as TournamentCashier
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


def _lay(store: Store, rows: dict[str, tuple[str, int]], expires_ms: int) -> None:
    """Lease rows written as they stand (name → owner, epoch), each with info ``{"was": name}``."""
    body = [
        {
            "name": name,
            "owner": owner,
            "epoch": epoch,
            "url": "http://x",
            "expires_ms": expires_ms,
            "info": {"was": name},
        }
        for name, (owner, epoch) in rows.items()
    ]
    store.db.run(lambda conn: conn.execute(table_leases.insert(), body))


def _statements(store: Store) -> list[str]:
    """The statements the store's engine runs from now on (``BEGIN IMMEDIATE`` included)."""
    seen: list[str] = []
    sa.event.listen(
        store.db.engine, "before_cursor_execute", lambda *args, **kw: seen.append(args[2])
    )
    return seen


def test_renewing_many_leases_runs_a_few_statements(store: Store, clock: FakeClock) -> None:
    """R-CRASH-1: a process renews every lease it holds each quarter of the lease's
    length (hundreds of tables): a few statements whatever their number, not one per
    lease (on SQLite each one while the database's single write turn is held)."""
    now = store.leases.now_ms()
    names = [f"t{i:03}" for i in range(300)]
    _lay(store, {n: ("a/1", 1) for n in names}, now + 3000)
    held = dict.fromkeys(names, 1)
    seen = _statements(store)
    clock.advance(2)
    assert store.leases.renew("a/1", held, ttl=3) == set()
    bare = len(seen)
    seen.clear()
    clock.advance(1)
    every = {n: {"node": "a", "table": {"table_id": n, "players": 2}} for n in names}
    assert store.leases.renew("a/1", held, ttl=3, info=every) == set()
    told = len(seen)
    # 300 leases: two UPDATEs of at most 250 (MAX_OR_TERMS), two more for their infos
    assert bare <= 3 and told <= 5, (bare, told, seen)
    leases = store.leases.all()
    assert {x.expires_ms for x in leases} == {store.leases.now_ms() + 3000}
    assert all(x.info == every[x.name] for x in leases)


def test_renewal_reports_a_lease_taken_over_or_held_at_another_epoch_as_lost(
    store: Store, clock: FakeClock
) -> None:
    """R-CRASH-1: of the leases a process renews, the ones another process took over, the
    ones it holds now at another epoch (taken again after it lost them: its table there is
    another table's life) and the ones given up are lost: neither extended nor given the
    info; every other one is extended and given its info. Some in each of two statements'
    worth of leases (more than 250)."""
    start = store.leases.now_ms()
    names = [f"t{i:03}" for i in range(270)]
    rows = {n: ("a/1", 1) for n in names}
    rows["t005"] = ("b/1", 2)  # taken over by b
    rows["t260"] = ("a/1", 2)  # a's again, at a new epoch
    del rows["t100"]  # given up (released)
    _lay(store, rows, start + 3000)
    clock.advance(2)
    info = {n: {"renewed": n} for n in names}
    lost = store.leases.renew("a/1", dict.fromkeys(names, 1), ttl=3, info=info)
    assert lost == {"t005", "t100", "t260"}
    by_name = {x.name: x for x in store.leases.all()}
    assert set(by_name) == set(names) - {"t100"}
    for name, lease in by_name.items():
        if name in lost:
            assert lease.expires_ms == start + 3000 and lease.info == {"was": name}, lease
            assert (lease.owner, lease.epoch) == rows[name]
        else:
            assert lease.expires_ms == start + 5000 and lease.info == {"renewed": name}, lease
    # nothing lost: no read of the rows beyond the renewal's own statements
    seen = _statements(store)
    assert store.leases.renew("a/1", dict.fromkeys(set(names) - lost, 1), ttl=3) == set()
    assert not any(s.lstrip().upper().startswith("SELECT") for s in seen), seen


def test_a_round_renews_and_reads_the_leases_in_one_transaction(
    store: Store, clock: FakeClock
) -> None:
    """R-CRASH-1: a process's round renews its leases and reads every lease (the others'
    to take over the expired ones) in one transaction: on SQLite one wait for the write
    turn, not two. What it returns is what ``renew`` then ``all`` return."""
    start = store.leases.now_ms()
    _lay(store, {"t1": ("a/1", 1), "t2": ("b/1", 1), "t3": ("b/1", 4)}, start + 3000)
    clock.advance(2)
    begins = []
    sa.event.listen(store.db.engine, "begin", lambda conn: begins.append(1))
    lost, rows = store.leases.renew_and_read(
        "a/1", {"t1": 1, "t3": 1}, ttl=3, info={"t1": {"players": 4}}
    )
    assert len(begins) == 1
    assert lost == {"t3"}
    assert [(r.name, r.owner, r.epoch, r.expires_ms, r.info) for r in rows] == [
        ("t1", "a/1", 1, start + 5000, {"players": 4}),
        ("t2", "b/1", 1, start + 3000, {"was": "t2"}),
        ("t3", "b/1", 4, start + 3000, {"was": "t3"}),
    ]
    assert rows == store.leases.all()
    assert store.leases.renew_and_read("c/1", {}, ttl=3) == (set(), rows)


def test_renewal_writes_the_info_of_the_leases_named_only(store: Store, clock: FakeClock) -> None:
    """R-LOBBY-1: a lease's info is its table's lobby row as the other processes list it:
    a renewal writes the infos it is given (only the changed ones, server/cluster.py) and
    leaves the other leases' as they were; an info for a lease not renewed is ignored."""
    for name in ("t1", "t2", "t3"):
        got = store.leases.acquire(name, "a/1", url="http://a", ttl=3, info={"v": name})
        assert got is not None
    clock.advance(1)
    row = {"table": {"name": "Élysée 1/2", "players": 3, "stakes": [1, 2]}, "node": "a"}
    lost = store.leases.renew(
        "a/1", {"t1": 1, "t2": 1}, ttl=3, info={"t2": row, "t3": {"v": "not held"}}
    )
    assert lost == set()
    infos = {x.name: (x.info, x.expires_ms) for x in store.leases.all()}
    renewed, first = store.leases.now_ms() + 3000, store.leases.now_ms() + 2000
    assert infos == {
        "t1": ({"v": "t1"}, renewed),
        "t2": (row, renewed),
        "t3": ({"v": "t3"}, first),
    }


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


def test_the_room_services_lease_expires_on_purpose_and_is_taken_at_a_new_epoch(
    store: Store, clock: FakeClock
) -> None:
    """A room node that stops lets the room services' lease expire (the row kept, so the
    next holder's epoch grows); only its holder at its epoch can."""
    lease = store.leases.acquire(ROOM_LEASE, "a/1", url="http://a", ttl=3)
    assert lease is not None and lease.epoch == 1
    assert not store.leases.expire(ROOM_LEASE, "b/1", 1)  # not the holder
    assert not store.leases.expire(ROOM_LEASE, "a/1", 2)  # not its epoch
    assert store.leases.acquire(ROOM_LEASE, "b/1", url="http://b", ttl=3) is None
    assert store.leases.expire(ROOM_LEASE, "a/1", 1)
    taken = store.leases.acquire(ROOM_LEASE, "b/1", url="http://b", ttl=3)
    assert taken is not None and (taken.owner, taken.epoch) == ("b/1", 2)


def test_a_process_that_lost_the_room_services_writes_nothing_more_for_them(
    url: str, clock: FakeClock
) -> None:
    """Tournaments and the casino are fenced by the room services' lease as a table is by
    its own: after another process took it over, the old holder's tournament journal
    writes, tournament buy-ins, refunds and prizes, and casino rounds, bets, settlements
    and voids are refused with ``lease_lost`` and change nothing; the new holder's go
    through (it voids the round left open and refunds the entry), and the audit balances."""
    a, b = _pair(url, clock)
    with a, b:
        _fund(a, 1, 500)
        lease = a.leases.acquire(ROOM_LEASE, "a/1", url="http://a", ttl=3)
        assert lease is not None
        a.fence.hold(ROOM_LEASE, lease.epoch)
        journal = {s: TournamentJournal(s.db, clock=s.clock, fence=s.fence) for s in (a, b)}
        cashier = {s: TournamentCashier(s.ledger) for s in (a, b)}
        casino = {s: CasinoCashier(s.db, s.ledger, clock, fence=s.fence) for s in (a, b)}
        event = {"root": "sng", "kind": "sitngo", "status": "registering", "buy_in": 100}
        journal[a].save_event("sng-1", **event, recurring=True, spec={"name": "SNG"})
        assert cashier[a].enter("sng-1", "1", 100, "sng-1:entry:e1")
        journal[a].save_entry("sng-1", "e1", "1", "P1", False, "sng-1:entry:e1")
        seats = {"seats": [{"seat": 0, "player": "1"}]}
        casino[a].open_round("casino-1", "r1", seats, [("1", 15)])
        clock.advance(4)  # a froze past its lease; b takes the room services over
        taken = b.leases.acquire(ROOM_LEASE, "b/1", url="http://b", ttl=3)
        assert taken is not None and taken.epoch == 2
        b.fence.hold(ROOM_LEASE, taken.epoch)
        rows = [(r.id, r.status, r.state, [e.status for e in r.entries]) for r in journal[b].load()]
        chips, pool = a.ledger.balances(1).chips, cashier[a].pool("sng-1")
        attempts = [
            lambda: journal[a].save_event("sng-2", **event, recurring=True, spec={}),
            lambda: journal[a].save_state("sng-1", "running", {"hand_nos": {}}),
            lambda: journal[a].save_entry("sng-1", "e2", "1", "P1", False, "sng-1:entry:e2"),
            lambda: journal[a].set_entry_status("e1", "refunded"),
            lambda: cashier[a].enter("sng-1", "1", 100, "sng-1:entry:e2"),
            lambda: cashier[a].refund("sng-1", "1", 100, "sng-1:refund:e1"),
            lambda: cashier[a].pay("sng-1", "1", 100, "sng-1:prize:1"),
            lambda: casino[a].wager("casino-1", "r1", "1", "flop", 20),
            lambda: casino[a].settle("casino-1", "r1", [("1", 15, 30)], {}),
            lambda: casino[a].void("casino-1", "r1", "crash"),
            lambda: casino[a].open_round("casino-1", "r2", seats, [("1", 15)]),
        ]
        for attempt in attempts:
            with pytest.raises(LeaseLostError) as info:
                attempt()
            assert info.value.code == "lease_lost"
        assert a.fence.lost(ROOM_LEASE)
        after = [
            (r.id, r.status, r.state, [e.status for e in r.entries]) for r in journal[b].load()
        ]
        assert after == rows
        assert (a.ledger.balances(1).chips, cashier[a].pool("sng-1")) == (chips, pool)
        assert casino[b].open_rounds("casino-1") == ["r1"]
        # the new holder voids the round left open, refunds the entry: every chip home
        casino[b].void("casino-1", "r1", "crash")
        cashier[b].refund("sng-1", "1", 100, "sng-1:refund:e1")
        journal[b].set_entry_status("e1", "refunded")
        assert b.ledger.balances(1).chips == 500
        assert b.audit().ok
