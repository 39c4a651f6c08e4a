"""Recompute every balance from the ledger entries and list what does not add up.

Checks, each a discrepancy when it fails:

1. every account's stored balance equals the sum of its entries;
2. every transfer has at least two entries and sums to zero per currency;
3. no account that may not go negative was ever negative (running balance in entry order,
   which is commit order per account: writers of an account are serialized by its lock);
4. per currency, every balance together sums to zero: what the players, the table escrows
   (stacks and the chips of hands in play) and the house hold equals what the mint issued;
5. every settled hand of the journal points at its settlement transfer (or moved nothing).

>>> from croupier.store.db import Database
>>> from croupier.store.ledger import Ledger
>>> db = Database.open("sqlite://"); _ = db.migrate()
>>> _ = Ledger(db, clock=lambda: 0.0).grant_diamonds(1, 10, key="k")
>>> report = audit(db)
>>> report.ok, report.issued["diamonds"], report.transfers
(True, 10, 1)
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import sqlalchemy as sa

from croupier.store.db import Database
from croupier.store.schema import entries, hands, ledger_accounts, transfers

__all__ = ["AuditReport", "audit"]


@dataclass(frozen=True, slots=True)
class AuditReport:
    """What the audit found. ``issued`` is minus the mint balance, per currency; ``held`` the
    sum of every other balance, per currency and account kind."""

    discrepancies: tuple[str, ...]
    accounts: int
    transfers: int
    entries: int
    issued: dict[str, int]
    held: dict[str, dict[str, int]]

    @property
    def ok(self) -> bool:
        """True when nothing is wrong."""
        return not self.discrepancies


def audit(db: Database) -> AuditReport:
    """Audit the whole ledger in one consistent read."""
    return db.run(_audit)


def _audit(conn: sa.Connection) -> AuditReport:
    problems: list[str] = []
    accounts = {
        int(r.id): r
        for r in conn.execute(
            sa.select(
                ledger_accounts.c.id,
                ledger_accounts.c.key,
                ledger_accounts.c.currency,
                ledger_accounts.c.kind,
                ledger_accounts.c.allow_negative,
                ledger_accounts.c.balance,
            )
        )
    }
    running: dict[int, int] = defaultdict(int)
    per_transfer: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    counts: dict[int, int] = defaultdict(int)
    n_entries = 0
    reported_negative: set[int] = set()
    rows = conn.execute(
        sa.select(entries.c.transfer_id, entries.c.account_id, entries.c.amount).order_by(
            entries.c.id
        )
    )
    for transfer_id, account_id, amount in rows:
        n_entries += 1
        account = accounts[int(account_id)]
        running[account.id] += int(amount)
        per_transfer[int(transfer_id)][account.currency] += int(amount)
        counts[int(transfer_id)] += 1
        if (
            not account.allow_negative
            and running[account.id] < 0
            and account.id not in reported_negative
        ):
            reported_negative.add(account.id)
            problems.append(f"{account.key} went negative ({running[account.id]})")
    for account in accounts.values():
        if int(account.balance) != running[account.id]:
            problems.append(
                f"{account.key}: stored balance {account.balance}, "
                f"entries sum to {running[account.id]}"
            )
    transfer_rows = conn.execute(sa.select(transfers.c.id, transfers.c.idem_key)).all()
    for row in transfer_rows:
        if counts[int(row.id)] < 2:
            problems.append(f"transfer {row.idem_key!r} has {counts[int(row.id)]} entries")
        bad = {c: s for c, s in per_transfer[int(row.id)].items() if s}
        if bad:
            problems.append(f"transfer {row.idem_key!r} does not balance: {bad}")
    issued: dict[str, int] = defaultdict(int)
    held: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    totals: dict[str, int] = defaultdict(int)
    for account in accounts.values():
        totals[account.currency] += int(account.balance)
        if account.kind == "mint":
            issued[account.currency] -= int(account.balance)
        else:
            held[account.currency][account.kind] += int(account.balance)
    for currency, total in sorted(totals.items()):
        if total:
            problems.append(
                f"{currency}: held {sum(held[currency].values())} but issued {issued[currency]}"
            )
    settled = conn.execute(
        sa.select(hands.c.table_id, hands.c.hand_id, hands.c.transfer_id, hands.c.outcome).where(
            hands.c.status == "settled"
        )
    )
    known = {int(r.id) for r in transfer_rows}
    for hand in settled:
        if hand.transfer_id is None:
            if (hand.outcome or {}).get("moved", False):
                problems.append(f"hand {hand.table_id}/{hand.hand_id} settled without a transfer")
        elif int(hand.transfer_id) not in known:
            problems.append(f"hand {hand.table_id}/{hand.hand_id}: unknown transfer")
    return AuditReport(
        discrepancies=tuple(problems),
        accounts=len(accounts),
        transfers=len(transfer_rows),
        entries=n_entries,
        issued=dict(issued),
        held={c: dict(k) for c, k in held.items()},
    )
