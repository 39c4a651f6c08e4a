"""The journal writes a group set-wise (store/journal.py ``SqlJournal._write``, issue #16):
a few statements for many tables' records, meaning exactly what the same records appended
one by one would. Checked against the one-by-one writes on random interleavings of hands,
voids, replays and cash-outs, on each error a record can meet (the group then writes
nothing), and by the number of statements a group costs (a count, not a timing)."""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from croupier.store import Store, StoreError, open_store
from croupier.store.errors import InsufficientFundsError, NotFoundError
from croupier.store.schema import entries, hands, ledger_accounts, table_journal, transfers
from croupier.table.journal import (
    CashOutRecord,
    HandEndRecord,
    HandVoidRecord,
    Record,
    SeatsRecord,
)
from croupier.table.seating import Seat
from tests.store.backends import FakeClock
from tests.store.test_journal import _start

STACK = 1000


def _fund(store: Store, table: str, users: list[int]) -> tuple[Seat, ...]:
    for user in users:
        store.ledger.grant_diamonds(user, STACK, key=f"{table}-g-{user}")
        store.ledger.buy_chips(user, STACK, key=f"{table}-b-{user}")
        assert store.bank(table).buy_in(str(user), STACK, f"{table}-in-{user}")
    return tuple(Seat(i, str(u), f"P{u}", stack=STACK) for i, u in enumerate(users))


def _table_life(rng: random.Random, table: str, seats: tuple[Seat, ...]) -> list[Record]:
    """A table's records: hands settled or voided, starts and ends sent twice, players
    standing up with their chips."""
    out: list[Record] = []
    for hand_no in range(1, 6):
        start = _start(seats, hand_no, rng.randbytes(16))
        out.append(start)
        if rng.random() < 0.2:
            out.append(start)  # a start written again (a restart): already durable
        if rng.random() < 0.2:
            out.append(HandVoidRecord(hand_no, seats, "misdeal"))
        else:
            stacks = [s.stack for s in seats]
            loser, winner = rng.sample(range(len(seats)), 2)
            paid = rng.randint(0, stacks[loser])
            rake = min(paid, rng.randint(0, 2))
            stacks[loser] -= paid
            stacks[winner] += paid - rake
            seats = tuple(
                Seat(s.seat, s.player_id, s.name, stack=v)
                for s, v in zip(seats, stacks, strict=True)
            )
            end = HandEndRecord(hand_no, seats, tuple(stacks), rake)
            out.append(end)
            if rng.random() < 0.2:
                out.append(end)  # an end written again: nothing is paid twice
        if len(seats) > 2 and rng.random() < 0.3:
            leaving = seats[rng.randrange(len(seats))]
            seats = tuple(s for s in seats if s is not leaving)
            cash = (CashOutRecord(f"out-{table}-{hand_no}", leaving.player_id, leaving.stack),)
            out.append(SeatsRecord(seats, "leave", cash_outs=cash if leaving.stack else ()))
    return out


def _interleave(
    rng: random.Random, lives: list[list[Record]], tables: list[str]
) -> list[tuple[str, Record]]:
    queues = [list(life) for life in lives]
    merged: list[tuple[str, Record]] = []
    while any(queues):
        i = rng.choice([i for i, q in enumerate(queues) if q])
        merged.append((tables[i], queues[i].pop(0)))
    return merged


def _dump(store: Store) -> dict[str, Any]:
    """What a group leaves in the database, ids aside."""

    def read(conn: sa.Connection) -> dict[str, Any]:
        keys = dict(conn.execute(sa.select(transfers.c.id, transfers.c.idem_key)).all())
        accounts = dict(conn.execute(sa.select(ledger_accounts.c.id, ledger_accounts.c.key)).all())
        moved: dict[str, list[tuple[str, int]]] = {}
        for e in conn.execute(sa.select(entries).order_by(entries.c.id)):
            moved.setdefault(keys[e.transfer_id], []).append((accounts[e.account_id], e.amount))
        return {
            "journal": [
                (r.table_id, r.type, r.body)
                for r in conn.execute(sa.select(table_journal).order_by(table_journal.c.id))
                if r.table_id.startswith("bt")
            ],
            "hands": sorted(
                (
                    r.table_id,
                    r.hand_id,
                    r.status,
                    r.button,
                    r.seats,
                    r.commitment,
                    r.salt,
                    r.deck,
                    r.outcome,
                    keys.get(r.transfer_id),
                )
                for r in conn.execute(sa.select(hands))
            ),
            "balances": dict(
                conn.execute(sa.select(ledger_accounts.c.key, ledger_accounts.c.balance)).all()
            ),
            "transfers": {
                r.idem_key: (r.kind, r.request_hash, r.memo, moved.get(r.idem_key))
                for r in conn.execute(sa.select(transfers))
            },
        }

    return store.db.run(read)


@pytest.fixture
def alone(tmp_path: Path) -> Iterator[Store]:
    """A second store (SQLite) to append the same records one by one."""
    s = open_store(f"sqlite:///{tmp_path / 'alone.sqlite3'}", clock=FakeClock())
    try:
        yield s
    finally:
        s.close()


def _setup(store: Store, tables: list[str]) -> list[tuple[Seat, ...]]:
    seated = []
    for n, table in enumerate(tables):
        seats = _fund(store, table, [10 * n + u for u in range(1, 5)])
        store.journal.append(table, SeatsRecord(seats, "sit"))
        seated.append(seats)
    return seated


@pytest.mark.parametrize("seed", range(6))
def test_a_group_means_its_records_one_by_one(store: Store, alone: Store, seed: int) -> None:
    """R-CRASH-1, R-RAKE-1, R-SEAT-1: random interleavings of three tables' hands (settled,
    voided, sent twice) and cash-outs, cut into random groups, leave the journal, the
    hands, the transfers and every balance exactly as the same records appended one by
    one; the audit is clean."""
    rng = random.Random(seed)
    tables = ["bta", "btb", "btc"]
    seated = _setup(store, tables)
    assert _setup(alone, tables) == seated
    merged = _interleave(
        rng, [_table_life(rng, t, s) for t, s in zip(tables, seated, strict=True)], tables
    )
    i = 0
    while i < len(merged):
        size = rng.randint(1, 9)
        store.journal.append_many(merged[i : i + size])
        i += size
    for table_id, record in merged:
        alone.journal.append(table_id, record)
    assert _dump(store) == _dump(alone)
    assert store.audit().ok, store.audit().discrepancies


def test_a_hand_started_and_settled_in_one_group(store: Store) -> None:
    """R-CRASH-1: a hand whose start and end are in the same group is settled, paid once,
    and a later group with the same end pays nothing more."""
    seats = _setup(store, ["bta"])[0]
    start = _start(seats, 1, secrets.token_bytes(16))
    stacks = (STACK - 10, STACK + 9, STACK, STACK)
    after = tuple(
        Seat(s.seat, s.player_id, s.name, stack=v) for s, v in zip(seats, stacks, strict=True)
    )
    end = HandEndRecord(1, after, stacks, 1)
    store.journal.append_many([("bta", start), ("bta", end), ("bta", end)])
    store.journal.append_many([("bta", end)])
    assert store.journal.hand_status("bta", 1) == "settled"
    assert store.ledger.escrow("bta") == {1: STACK - 10, 2: STACK + 9, 3: STACK, 4: STACK}
    assert [type(r).__name__ for r in store.journal.records("bta")] == [
        "SeatsRecord",
        "HandStartRecord",
        "HandEndRecord",
    ]
    assert store.audit().ok


def _refusals(seats: tuple[Seat, ...]) -> list[tuple[list[Record], type[Exception], str]]:
    salt = secrets.token_bytes(16)
    start = _start(seats, 1, salt)
    even = tuple(s.stack for s in seats)
    return [
        ([start, _start(seats, 1, secrets.token_bytes(16))], StoreError, "hand_exists"),
        ([HandEndRecord(7, seats, even, 0)], NotFoundError, "not_found"),
        ([start, HandVoidRecord(1, seats, "misdeal"), HandEndRecord(1, seats, even, 0)], StoreError, "hand_closed"),
        ([start, HandEndRecord(1, seats, (STACK + 5, *even[1:]), 0)], StoreError, "bad_settlement"),
        ([start, HandEndRecord(1, seats, even[1:], 0)], StoreError, "bad_settlement"),
        (
            [SeatsRecord(seats[1:], "leave", cash_outs=(CashOutRecord("o", seats[0].player_id, STACK + 1),))],
            InsufficientFundsError,
            "insufficient_funds",
        ),
    ]  # fmt: skip


@pytest.mark.parametrize("case", range(6))
def test_a_refused_record_fails_its_group_and_writes_nothing(store: Store, case: int) -> None:
    """R-CRASH-1: a group holding a record the journal refuses raises the error that record
    meets appended alone after the ones before it, and writes nothing at all (the group
    commit then writes its records one by one)."""
    seats = _setup(store, ["bta", "btb"])[0]
    other = _start(_setup(store, ["btc"])[0], 1, secrets.token_bytes(16))
    records, error, code = _refusals(seats)[case]
    before = _dump(store)
    with pytest.raises(error) as caught:
        store.journal.append_many([("btc", other), *(("bta", r) for r in records)])
    assert getattr(caught.value, "code", "") == code
    assert _dump(store) == before
    assert store.audit().ok


def test_a_group_costs_a_few_statements_not_a_dozen_per_record(store: Store) -> None:
    """R-CRASH-1 (issue #16): fifty tables' settlements in one group are written by a
    handful of statements (a store thread gives up the GIL around each one): the hands
    read once, the transfers, entries and balances once each, the hands and the journal
    written once each. A count, not a timing."""
    tables = [f"bt{i:02}" for i in range(50)]
    seated = {t: _fund(store, t, [1000 + i, 2000 + i]) for i, t in enumerate(tables)}
    ends: list[tuple[str, Record]] = []
    for hand_no in (1, 2):  # the first creates the house's rake account, the second counts
        store.journal.append_many(
            [(t, _start(s, hand_no, secrets.token_bytes(16))) for t, s in seated.items()]
        )
        ends = []
        for t, s in seated.items():
            seated[t] = (replace(s[0], stack=s[0].stack - 3), replace(s[1], stack=s[1].stack + 2))
            ends.append(
                (t, HandEndRecord(hand_no, seated[t], tuple(x.stack for x in seated[t]), 1))
            )
        if hand_no == 1:
            store.journal.append_many(ends)
    statements: list[str] = []

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        statements.append(" ".join(statement.split()[:3]))

    sa.event.listen(store.db.engine, "before_cursor_execute", count)
    try:
        store.journal.append_many(ends)
    finally:
        sa.event.remove(store.db.engine, "before_cursor_execute", count)
    writes = [s for s in statements if s.split()[0] in ("SELECT", "INSERT", "UPDATE", "DELETE")]
    assert len(writes) <= 10, statements
    assert store.ledger.escrow("bt07") == {1007: STACK - 6, 2007: STACK + 4}
    assert store.audit().ok
