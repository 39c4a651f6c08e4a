"""The audit's tournament checks (R-TOUR-4, R-CRASH-1): every prize pool against the
journaled registrations (``tournaments``, ``tournament_entries``) and the ledger.

Each is a discrepancy when it fails:

1. a registering tournament's pool holds exactly one buy-in per active registration;
2. a running one holds its launch pool minus the prizes already paid;
3. a finished or cancelled one holds nothing;
4. every active registration's buy-in is a ledger transfer of its own (its key
   ``tour:<tid>:entry:<entry id>`` exists, and no two registrations share a key: a shared
   key is a second entry that moved nothing);
5. a pool account with chips and no journaled tournament is chips stuck.

>>> from croupier.store.db import Database
>>> db = Database.open("sqlite://"); _ = db.migrate()
>>> db.run(tournament_problems)
[]
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from croupier.store.schema import (
    entries,
    ledger_accounts,
    tournament_entries,
    tournaments,
    transfers,
)

__all__ = ["check_tournaments", "tournament_problems"]


if TYPE_CHECKING:
    from croupier.store.audit import AuditData


def check_tournaments(data: AuditData) -> list[str]:
    """The audit's ``tournaments`` check (:data:`croupier.store.audit.CHECKS`)."""
    return tournament_problems(data.conn)


def tournament_problems(conn: sa.Connection) -> list[str]:
    """The tournament discrepancies, read in the audit's transaction."""
    problems: list[str] = []
    pools = {
        str(r.key)[len("tournament:") :]: int(r.balance)
        for r in conn.execute(
            sa.select(ledger_accounts.c.key, ledger_accounts.c.balance).where(
                ledger_accounts.c.kind == "tournament"
            )
        )
    }
    prize_rows = conn.execute(
        sa.select(entries.c.amount, ledger_accounts.c.key)
        .join(entries, entries.c.transfer_id == transfers.c.id)
        .join(ledger_accounts, ledger_accounts.c.id == entries.c.account_id)
        .where(transfers.c.kind == "tournament_prize", ledger_accounts.c.kind == "tournament")
    )
    paid: dict[str, int] = defaultdict(int)
    for amount, key in prize_rows:
        paid[str(key)[len("tournament:") :]] -= int(amount)
    keys = {
        str(r[0])
        for r in conn.execute(
            sa.select(transfers.c.idem_key).where(transfers.c.kind == "tournament_entry")
        )
    }
    by_event: dict[str, list[Any]] = defaultdict(list)
    for row in conn.execute(
        sa.select(
            tournament_entries.c.tournament_id,
            tournament_entries.c.idem_key,
            tournament_entries.c.status,
        )
    ):
        by_event[str(row.tournament_id)].append(row)
    journaled: set[str] = set()
    for ev in conn.execute(
        sa.select(tournaments.c.id, tournaments.c.status, tournaments.c.buy_in, tournaments.c.state)
    ):
        tid = str(ev.id)
        journaled.add(tid)
        pool = pools.get(tid, 0)
        rows = by_event.get(tid, [])
        active = [r for r in rows if r.status == "active"]
        shared = [k for k, n in Counter(r.idem_key for r in rows).items() if n > 1]
        for key in shared:
            problems.append(f"tournament {tid}: registrations share the ledger key {key!r}")
        if int(ev.buy_in):
            for r in active:
                if f"tour:{r.idem_key}" not in keys:
                    problems.append(f"tournament {tid}: entry {r.idem_key!r} has no buy-in")
        if ev.status == "registering":
            expected = int(ev.buy_in) * len(active)
            if pool != expected:
                problems.append(
                    f"tournament {tid} pool holds {pool}, its {len(active)} entries paid {expected}"
                )
        elif ev.status == "running":
            launch = (ev.state or {}).get("launch") or {}
            expected = int(launch.get("pool", 0)) - paid.get(tid, 0)
            if pool != expected:
                problems.append(
                    f"tournament {tid} pool holds {pool}, launch pool minus prizes is {expected}"
                )
        elif pool:
            problems.append(f"tournament {tid} is {ev.status} with {pool} chips left in its pool")
    for tid, pool in sorted(pools.items()):
        if pool and tid not in journaled:
            problems.append(f"tournament:{tid} holds {pool} chips and no tournament is journaled")
    return problems
