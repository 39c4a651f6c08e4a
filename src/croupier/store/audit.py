"""Recompute every balance from the ledger entries and list what does not add up.

The audit is a list of **named checks** (:data:`CHECKS`), each a function of one
consistent read of the ledger (:class:`AuditData`) that yields the discrepancies it
finds. Every discrepancy is reported as ``[check] what``, so a hole is always named.
Another area adds its check with one line in :data:`CHECKS` (tournament pools, casino,
points …), reusing the helpers of :class:`AuditData` (``balance``, ``flows``,
``transfers_of``).

General checks (this module):

- ``balances``: every account's stored balance equals the sum of its entries;
- ``transfers``: every transfer has at least two entries and sums to zero per currency;
- ``negative``: no account that may not go negative was ever negative (running balance in
  entry order, which is commit order per account: writers of an account are serialized by
  its lock);
- ``issued``: per currency, every balance together sums to zero: what the players, the
  table escrows (stacks and the chips of hands in play), the pools and the house hold
  equals what the mint issued;
- ``hands``: every settled hand of the journal points at its own settlement transfer (or
  moved nothing), and no two hands share one.

Money checks (:mod:`croupier.store.audit_money`): ``escrow`` (table escrows against the
journals and the restarts), ``rake`` (house rake and levy against the hands), ``diamonds``
(diamonds against grants and exchanges). Tournament check
(:mod:`croupier.store.audit_tournaments`): ``tournaments`` (pools against registrations).
Casino check (:mod:`croupier.store.audit_casino`): ``casino`` (casino escrows against the
open rounds, settled rounds against their transfer).
Arcade check (:mod:`croupier.store.audit_arcade`): ``points`` (points issued by hands
only, credited as the hands and their levies say; the points shop against the items sold).

>>> from croupier.store.db import Database
>>> from croupier.store.ledger import Ledger
>>> db = Database.open("sqlite://"); _ = db.migrate()
>>> _ = Ledger(db, clock=lambda: 0.0).grant_diamonds(1, 10, key="k")
>>> report = audit(db)
>>> report.ok, report.issued["diamonds"], report.transfers, report.checks[:3]
(True, 10, 1, ('balances', 'transfers', 'negative'))
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from croupier.store import audit_arcade, audit_casino, audit_money, audit_tournaments
from croupier.store.db import Database
from croupier.store.schema import entries, hands, ledger_accounts, transfers

__all__ = ["CHECKS", "GENERAL_CHECKS", "AuditData", "AuditReport", "Check", "audit"]


@dataclass(frozen=True, slots=True)
class AuditReport:
    """What the audit found. ``issued`` is minus the mint balance, per currency; ``held`` the
    sum of every other balance, per currency and account kind; ``checks`` the names of the
    checks that ran; ``by_check`` the discrepancies of each check that found any."""

    discrepancies: tuple[str, ...]
    accounts: int
    transfers: int
    entries: int
    issued: dict[str, int]
    held: dict[str, dict[str, int]]
    checks: tuple[str, ...] = ()
    by_check: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when nothing is wrong."""
        return not self.discrepancies


@dataclass(slots=True)
class AuditData:
    """One consistent read of the ledger, shared by every check.

    ``accounts`` rows by id (``id, key, currency, kind, user_id, table_id, allow_negative,
    balance``), ``transfers`` rows by id (``id, idem_key, kind, memo``), ``legs`` the
    ``(account id, amount)`` entries of each transfer in entry order, ``running`` each
    account's balance recomputed from its entries. ``conn`` is the open transaction, for
    checks that read other tables.
    """

    conn: sa.Connection
    accounts: dict[int, Any]
    transfers: dict[int, Any]
    legs: dict[int, list[tuple[int, int]]]
    running: dict[int, int]
    entries: int
    negative: dict[int, int]
    """Accounts that may not go negative and did: the first negative running balance."""
    by_key: dict[str, int] = field(default_factory=dict)

    def balance(self, key: str) -> int:
        """The stored balance of the account ``key`` (0 if it was never used)."""
        account_id = self.by_key.get(key)
        return 0 if account_id is None else int(self.accounts[account_id].balance)

    def accounts_of(self, kind: str) -> Iterator[Any]:
        """Every account of a kind (``user``, ``escrow``, ``house``, ``mint``, ``pool`` …)."""
        return (a for a in self.accounts.values() if a.kind == kind)

    def transfers_of(self, key: str) -> Iterator[tuple[Any, int]]:
        """Every transfer touching the account ``key``, with the amount it moved there."""
        account_id = self.by_key.get(key)
        if account_id is None:
            return
        for transfer_id, legs in self.legs.items():
            for acc, amount in legs:
                if acc == account_id:
                    yield self.transfers[transfer_id], amount

    def flows(self, key: str) -> dict[str, int]:
        """What moved in (+) and out (-) of the account ``key``, by transfer kind."""
        out: dict[str, int] = defaultdict(int)
        for transfer, amount in self.transfers_of(key):
            out[str(transfer.kind)] += amount
        return dict(out)

    def expect_balance(self, key: str, expected: int, because: str) -> Iterator[str]:
        """A discrepancy when the account ``key`` does not hold ``expected`` (``because``
        says where that figure comes from): the generic form of a pool's check, e.g.
        ``data.expect_balance("pool:t1", entries - payouts, "entries minus payouts")``."""
        held = self.balance(key)
        if held != expected:
            yield f"{key} holds {held} but {because} make {expected}"

    def leg_amounts(self, transfer_id: int) -> dict[str, int]:
        """A transfer's entries by account key."""
        return {self.accounts[a].key: amount for a, amount in self.legs.get(transfer_id, [])}


Check = Callable[[AuditData], Iterable[str]]
"""A check: the discrepancies it finds, each a sentence naming what is wrong."""


def check_balances(data: AuditData) -> Iterator[str]:
    for account in data.accounts.values():
        if int(account.balance) != data.running[account.id]:
            yield (
                f"{account.key}: stored balance {account.balance}, "
                f"entries sum to {data.running[account.id]}"
            )


def check_transfers(data: AuditData) -> Iterator[str]:
    for transfer_id, row in data.transfers.items():
        legs = data.legs.get(transfer_id, [])
        if len(legs) < 2:
            yield f"transfer {row.idem_key!r} has {len(legs)} entries"
        sums: dict[str, int] = defaultdict(int)
        for account_id, amount in legs:
            sums[data.accounts[account_id].currency] += amount
        bad = {c: s for c, s in sums.items() if s}
        if bad:
            yield f"transfer {row.idem_key!r} does not balance: {bad}"


def check_negative(data: AuditData) -> Iterator[str]:
    for account_id, value in data.negative.items():
        yield f"{data.accounts[account_id].key} went negative ({value})"


def check_issued(data: AuditData) -> Iterator[str]:
    totals, issued, held = _totals(data)
    for currency, total in sorted(totals.items()):
        if total:
            yield f"{currency}: held {sum(held[currency].values())} but issued {issued[currency]}"


def check_hands(data: AuditData) -> Iterator[str]:
    settled = data.conn.execute(
        sa.select(hands.c.table_id, hands.c.hand_id, hands.c.transfer_id, hands.c.outcome).where(
            hands.c.status == "settled"
        )
    )
    owner: dict[int, str] = {}
    for hand in settled:
        name = f"{hand.table_id}/{hand.hand_id}"
        if hand.transfer_id is None:
            if (hand.outcome or {}).get("moved", False):
                yield f"hand {name} settled without a transfer"
            continue
        transfer = data.transfers.get(int(hand.transfer_id))
        if transfer is None:
            yield f"hand {name}: unknown transfer"
            continue
        if int(hand.transfer_id) in owner:
            yield f"hands {owner[int(hand.transfer_id)]} and {name} share one settlement transfer"
        owner[int(hand.transfer_id)] = name
        memo = transfer.memo or {}
        if transfer.kind != "settle" or (memo.get("table"), memo.get("hand")) != (
            hand.table_id,
            hand.hand_id,
        ):
            yield f"hand {name} points at transfer {transfer.idem_key!r}, not its settlement"


GENERAL_CHECKS: tuple[tuple[str, Check], ...] = (
    ("balances", check_balances),
    ("transfers", check_transfers),
    ("negative", check_negative),
    ("issued", check_issued),
    ("hands", check_hands),
)
"""The double-entry checks alone (a ledger used without tables, in the ledger's tests)."""

CHECKS: tuple[tuple[str, Check], ...] = (
    *GENERAL_CHECKS,
    ("escrow", audit_money.check_escrow),
    ("leases", audit_money.check_leases),
    ("rake", audit_money.check_rake),
    ("diamonds", audit_money.check_diamonds),
    ("tournaments", audit_tournaments.check_tournaments),
    ("casino", audit_casino.check_casino),
    ("points", audit_arcade.check_points),  # arcade points and the points shop
)
"""Every check, by name, in the order they run (add yours with one line)."""


def audit(db: Database, checks: tuple[tuple[str, Check], ...] | None = None) -> AuditReport:
    """Audit the whole ledger in one consistent read (``checks`` default: :data:`CHECKS`):
    one snapshot of the database, so a live room's transfers committed meanwhile are
    either wholly seen or not at all."""
    return db.run(lambda conn: _audit(conn, CHECKS if checks is None else checks), snapshot=True)


def read(conn: sa.Connection) -> AuditData:
    """Read every account, transfer and entry (what the checks share)."""
    accounts = {
        int(r.id): r
        for r in conn.execute(
            sa.select(
                ledger_accounts.c.id,
                ledger_accounts.c.key,
                ledger_accounts.c.currency,
                ledger_accounts.c.kind,
                ledger_accounts.c.user_id,
                ledger_accounts.c.table_id,
                ledger_accounts.c.allow_negative,
                ledger_accounts.c.balance,
            )
        )
    }
    running: dict[int, int] = defaultdict(int)
    legs: dict[int, list[tuple[int, int]]] = defaultdict(list)
    negative: dict[int, int] = {}
    n_entries = 0
    rows = conn.execute(
        sa.select(entries.c.transfer_id, entries.c.account_id, entries.c.amount).order_by(
            entries.c.id
        )
    )
    for transfer_id, account_id, amount in rows:
        n_entries += 1
        account = accounts[int(account_id)]
        running[account.id] += int(amount)
        legs[int(transfer_id)].append((account.id, int(amount)))
        if not account.allow_negative and running[account.id] < 0 and account.id not in negative:
            negative[account.id] = running[account.id]
    transfer_rows = {
        int(r.id): r
        for r in conn.execute(
            sa.select(transfers.c.id, transfers.c.idem_key, transfers.c.kind, transfers.c.memo)
        )
    }
    return AuditData(
        conn,
        accounts,
        transfer_rows,
        legs,
        running,
        n_entries,
        negative,
        {str(a.key): i for i, a in accounts.items()},
    )


def _totals(
    data: AuditData,
) -> tuple[dict[str, int], dict[str, int], dict[str, dict[str, int]]]:
    issued: dict[str, int] = defaultdict(int)
    held: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    totals: dict[str, int] = defaultdict(int)
    for account in data.accounts.values():
        totals[account.currency] += int(account.balance)
        if account.kind == "mint":
            issued[account.currency] -= int(account.balance)
        else:
            held[account.currency][account.kind] += int(account.balance)
    return totals, issued, held


def _audit(conn: sa.Connection, checks: tuple[tuple[str, Check], ...]) -> AuditReport:
    data = read(conn)
    problems: list[str] = []
    by_check: dict[str, tuple[str, ...]] = {}
    for name, check in checks:
        try:
            found = tuple(check(data))
        except Exception as exc:  # a check that cannot run is itself a finding
            found = (f"the check failed: {type(exc).__name__}: {exc}",)
        if found:
            by_check[name] = found
            problems.extend(f"[{name}] {line}" for line in found)
    _, issued, held = _totals(data)
    return AuditReport(
        discrepancies=tuple(problems),
        accounts=len(data.accounts),
        transfers=len(data.transfers),
        entries=data.entries,
        issued=dict(issued),
        held={c: dict(k) for c, k in held.items()},
        checks=tuple(name for name, _ in checks),
        by_check=by_check,
    )
