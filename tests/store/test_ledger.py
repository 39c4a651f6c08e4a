"""The ledger contract, run against SQLite and PostgreSQL (R-ACC-1, R-CRASH-1)."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa

from croupier.store import (
    IdempotencyConflictError,
    InsufficientFundsError,
    InvalidTransferError,
    Leg,
    Store,
    escrow_account,
    user_account,
)
from croupier.store.audit import GENERAL_CHECKS, AuditReport, audit
from croupier.store.ledger import (
    HOUSE_DIAMONDS,
    HOUSE_RAKE,
    MINT_CHIPS,
    MINT_DIAMONDS,
    Currency,
    settlement_legs,
)
from croupier.store.schema import entries, ledger_accounts, transfers


def _ledger_audit(store: Store) -> AuditReport:
    """The double-entry checks: these tests move chips into table escrows without any
    table journal, which the audit's money checks rightly name (tests/store/test_audit_money.py)."""
    return audit(store.db, GENERAL_CHECKS)


def _count(store: Store, table: sa.Table) -> int:
    return int(
        store.db.run(
            lambda c: c.execute(sa.select(sa.func.count()).select_from(table)).scalar_one()
        )
    )


def _fund(store: Store, user: int, chips: int) -> None:
    store.ledger.grant_diamonds(user, chips, key=f"fund-g-{user}-{chips}")
    store.ledger.buy_chips(user, chips, key=f"fund-b-{user}-{chips}")


def test_diamonds_buy_chips_one_to_one(store: Store) -> None:
    """R-ACC-1: chips are bought with diamonds 1:1; issued chips are traceable."""
    store.ledger.grant_diamonds(1, 250, key="purchase-1")
    store.ledger.buy_chips(1, 180, key="buy-1")
    assert store.ledger.balances(1).chips == 180
    assert store.ledger.balances(1).diamonds == 70
    assert store.ledger.balance(HOUSE_DIAMONDS) == 180
    assert store.ledger.balance(MINT_CHIPS) == -180
    assert store.ledger.balance(MINT_DIAMONDS) == -250
    report = _ledger_audit(store)
    assert report.ok, report.discrepancies
    assert report.issued == {"chips": 180, "diamonds": 250}
    assert report.held["chips"] == {"user": 180}


def test_buy_chips_needs_diamonds(store: Store) -> None:
    """R-ACC-1: no diamonds, no chips; nothing moves."""
    store.ledger.grant_diamonds(1, 10, key="g")
    with pytest.raises(InsufficientFundsError) as err:
        store.ledger.buy_chips(1, 11, key="b")
    assert err.value.code == "insufficient_funds"
    assert store.ledger.balances(1).chips == 0
    assert store.ledger.balances(1).diamonds == 10
    assert store.ledger.get_transfer("b") is None


def test_repeated_key_returns_first_result_and_moves_nothing(store: Store) -> None:
    """R-ACC-1: a transfer applied once per idempotency key."""
    _fund(store, 1, 100)
    first = store.ledger.buy_in("t1", 1, 40, key="buyin-1")
    again = store.ledger.buy_in("t1", 1, 40, key="buyin-1")
    assert not first.replayed and again.replayed
    assert again.id == first.id and again.entries == first.entries
    assert store.ledger.balances(1).chips == 60
    assert store.ledger.escrow("t1") == {1: 40}


def test_key_reused_for_another_request_is_refused(store: Store) -> None:
    """R-ACC-1: a key names one request; another one under it is refused and changes nothing."""
    _fund(store, 1, 100)
    store.ledger.buy_in("t1", 1, 40, key="buyin-1")
    before = _count(store, entries)
    with pytest.raises(IdempotencyConflictError) as err:
        store.ledger.buy_in("t1", 1, 50, key="buyin-1")
    assert err.value.code == "idempotency_conflict"
    assert _count(store, entries) == before
    assert store.ledger.balances(1).chips == 60


def test_insufficient_funds_changes_nothing(store: Store) -> None:
    """R-ACC-1: balances never go negative; a refused transfer leaves no trace."""
    _fund(store, 1, 50)
    n_transfers, n_entries = _count(store, transfers), _count(store, entries)
    with pytest.raises(InsufficientFundsError):
        store.ledger.buy_in("t1", 1, 51, key="too-much")
    with pytest.raises(InsufficientFundsError):
        store.ledger.cash_out("t1", 1, 1, key="nothing-there")
    assert (_count(store, transfers), _count(store, entries)) == (n_transfers, n_entries)
    assert store.ledger.balances(1).chips == 50
    assert store.ledger.escrow("t1") == {}
    assert _ledger_audit(store).ok


@pytest.mark.parametrize(
    ("legs", "code"),
    [
        ([Leg(user_account(1), -5), Leg(user_account(2), 4)], "unbalanced_transfer"),
        ([Leg(user_account(1), 0), Leg(user_account(2), 0)], "invalid_amount"),
        ([Leg(user_account(1), -1), Leg(user_account(1), 1)], "duplicate_account"),
        ([Leg(user_account(1), 5)], "too_few_legs"),
        ([Leg(user_account(1), True), Leg(MINT_CHIPS, -1)], "invalid_amount"),  # type: ignore[arg-type]
        ([Leg(user_account(1), 1.0), Leg(MINT_CHIPS, -1)], "invalid_amount"),  # type: ignore[arg-type]
        (
            [Leg(user_account(1, Currency.POINTS), 5), Leg(MINT_CHIPS, -5)],
            "unbalanced_transfer",
        ),
    ],
)
def test_malformed_transfers_are_refused(store: Store, legs: list[Leg], code: str) -> None:
    """R-ACC-1: double entry — one entry per account, amounts sum to zero per currency."""
    with pytest.raises(InvalidTransferError) as err:
        store.ledger.transfer("manual", "bad", legs)
    assert err.value.code == code
    assert _count(store, transfers) == 0


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda s: s.ledger.buy_in("t1", 1, 0, key="k"), "invalid_amount"),
        (lambda s: s.ledger.buy_in("t1", 1, -5, key="k"), "invalid_amount"),
        (lambda s: s.ledger.buy_in("a:b", 1, 5, key="k"), "invalid_table_id"),
        (lambda s: s.ledger.buy_in("t1", 0, 5, key="k"), "invalid_user"),
        (lambda s: s.ledger.buy_in("t1", 1, 5, key=""), "invalid_idempotency_key"),
        (lambda s: s.ledger.buy_in("t1", 1, 5, key="x" * 201), "invalid_idempotency_key"),
        (lambda s: s.ledger.grant_diamonds(1, 2.5, key="k"), "invalid_amount"),
    ],
)
def test_bad_input_gets_a_code_and_changes_nothing(
    store: Store, call: Callable[[Store], Any], code: str
) -> None:
    """R-ACC-1: bad input is refused with a code."""
    _fund(store, 1, 10)
    before = _count(store, entries)
    with pytest.raises(InvalidTransferError) as err:
        call(store)
    assert err.value.code == code
    assert _count(store, entries) == before


def test_buy_in_cash_out_round_trip(store: Store) -> None:
    """R-SEAT-1, R-ACC-1: chips go to the table escrow and come back."""
    _fund(store, 1, 300)
    store.ledger.buy_in("t1", 1, 200, key="in-1")
    store.ledger.buy_in("t1", 1, 50, key="in-2")  # reload
    assert store.ledger.escrow("t1") == {1: 250}
    store.ledger.cash_out("t1", 1, 250, key="out-1")
    assert store.ledger.escrow("t1") == {}
    assert store.ledger.balances(1).chips == 300
    assert _ledger_audit(store).ok


def test_settlement_moves_nets_rake_and_points(store: Store) -> None:
    """R-RAKE-3, R-POT-6: a hand's nets move between escrows, the levy to the house and
    points are issued as their own currency; every currency still sums to zero."""
    for user in (1, 2, 3):
        _fund(store, user, 100)
        store.ledger.buy_in("arcade-1", user, 100, key=f"in-{user}")
    legs = settlement_legs("arcade-1", {1: 32, 2: -20, 3: -20}, 8, {2: 40, 3: 40})
    store.ledger.transfer("settle", "settle:arcade-1:1", legs)
    assert store.ledger.escrow("arcade-1") == {1: 132, 2: 80, 3: 80}
    assert store.ledger.balance(HOUSE_RAKE) == 8
    assert store.ledger.balances(2).points == 40
    report = _ledger_audit(store)
    assert report.ok, report.discrepancies
    # Points moved by hand, with no settled hand behind them, are what the full audit's
    # ``points`` check reports (audit_arcade.py): only a hand's settlement issues points.
    full = store.audit()
    assert "[points] points: 80 issued but the settled hands list 0" in full.discrepancies
    assert report.issued["points"] == 80
    assert report.held["chips"] == {"user": 0, "escrow": 292, "house": 8}


def test_settlement_must_balance() -> None:
    """R-POT-6: nets and rake cancel out, or the settlement is refused."""
    with pytest.raises(InvalidTransferError) as err:
        settlement_legs("t", {1: 10, 2: -9}, 0)
    assert err.value.code == "unbalanced_settlement"


def test_a_losing_escrow_cannot_go_negative(store: Store) -> None:
    """R-SEAT-1: a player can lose at most the chips in front of them."""
    for user in (1, 2):
        _fund(store, user, 50)
        store.ledger.buy_in("t1", user, 50, key=f"in-{user}")
    with pytest.raises(InsufficientFundsError):
        store.ledger.transfer("settle", "s1", settlement_legs("t1", {1: 60, 2: -60}))
    assert store.ledger.escrow("t1") == {1: 50, 2: 50}


def _race(n: int, work: Callable[[int], Any]) -> list[Any]:
    barrier = threading.Barrier(n)
    results: list[Any] = [None] * n

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = work(i)
        except Exception as exc:  # collected and checked by the test
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_concurrent_buy_ins_covering_one_succeed_once(store: Store) -> None:
    """R-ACC-1, R-SEAT-1: eight simultaneous buy-ins on a balance that covers one: exactly
    one succeeds, the others are refused, the balance never goes negative."""
    _fund(store, 1, 100)
    results = _race(8, lambda i: store.ledger.buy_in(f"t{i}", 1, 100, key=f"race-{i}"))
    ok = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, InsufficientFundsError)]
    assert len(ok) == 1 and len(refused) == 7, results
    assert store.ledger.balances(1).chips == 0
    assert sum(sum(store.ledger.escrow(f"t{i}").values()) for i in range(8)) == 100
    assert _ledger_audit(store).ok


def test_concurrent_same_key_applies_once(store: Store) -> None:
    """R-ACC-1: the same request sent eight times at once moves chips once."""
    _fund(store, 1, 100)
    results = _race(8, lambda i: store.ledger.buy_in("t1", 1, 30, key="same"))
    assert all(not isinstance(r, Exception) for r in results), results
    assert len({r.id for r in results}) == 1
    assert sum(not r.replayed for r in results) == 1
    assert store.ledger.escrow("t1") == {1: 30}
    assert _ledger_audit(store).ok


def test_random_workload_conserves_chips(store: Store) -> None:
    """R-ACC-1, R-POT-6: after a random mix of operations (some refused), the audit finds
    every balance equal to its entries and everything held equal to what was issued."""
    rng = random.Random(20261130)
    users = [1, 2, 3, 4]
    for u in users:
        _fund(store, u, 500)
    issued = 2000
    for step in range(120):
        u = rng.choice(users)
        op = rng.randrange(4)
        try:
            if op == 0:
                store.ledger.buy_in("t1", u, rng.randint(1, 300), key=f"op-{step}")
            elif op == 1:
                store.ledger.cash_out("t1", u, rng.randint(1, 300), key=f"op-{step}")
            elif op == 2:
                seated = store.ledger.escrow("t1")
                if len(seated) >= 2:
                    a, b = rng.sample(sorted(seated), 2)
                    x = rng.randint(1, seated[b])
                    rake = min(x - 1, rng.randint(0, 2))
                    legs = settlement_legs("t1", {a: x - rake, b: -x}, rake)
                    store.ledger.transfer("settle", f"op-{step}", legs)
            else:
                store.ledger.grant_diamonds(u, 10, key=f"op-{step}")
                store.ledger.buy_chips(u, 10, key=f"op-{step}-buy")
                issued += 10
        except InsufficientFundsError:
            pass
    report = _ledger_audit(store)
    assert report.ok, report.discrepancies
    assert report.issued["chips"] == issued
    assert sum(report.held["chips"].values()) == issued


def test_audit_finds_tampering(store: Store) -> None:
    """R-ACC-1: a balance edited outside the ledger, or an unbalanced entry, is reported."""
    _fund(store, 1, 100)
    key = user_account(1).key
    store.db.run(
        lambda c: c.execute(
            ledger_accounts.update().where(ledger_accounts.c.key == key).values(balance=150)
        )
    )
    report = _ledger_audit(store)
    assert not report.ok
    assert any(
        "user:1:chips: stored balance 150, entries sum to 100" in d for d in report.discrepancies
    )
    assert any("chips: held" in d for d in report.discrepancies)


def test_audit_finds_an_unbalanced_transfer(store: Store) -> None:
    """R-ACC-1: an entry added behind the ledger's back breaks its transfer's balance."""
    _fund(store, 1, 100)
    store.ledger.buy_in("t1", 1, 10, key="in")

    def tamper(conn: sa.Connection) -> None:
        acc = conn.execute(
            sa.select(ledger_accounts.c.id).where(
                ledger_accounts.c.key == escrow_account("t1", 1).key
            )
        ).scalar_one()
        tid = conn.execute(
            sa.select(transfers.c.id).where(transfers.c.idem_key == "in")
        ).scalar_one()
        conn.execute(entries.insert(), {"transfer_id": tid, "account_id": acc, "amount": -20})
        conn.execute(
            ledger_accounts.update().where(ledger_accounts.c.id == acc).values(balance=-10)
        )

    store.db.run(tamper)
    problems = _ledger_audit(store).discrepancies
    assert any("'in' does not balance" in d for d in problems)
    assert any("table:t1:1 went negative" in d for d in problems)
