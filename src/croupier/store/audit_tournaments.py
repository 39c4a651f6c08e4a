"""The audit's tournament checks (R-TOUR-4, R-CRASH-1): every prize pool against the
journaled registrations (``tournaments``, ``tournament_entries``) and the ledger.

Each is a discrepancy when it fails:

1. a registering tournament's pool holds exactly one buy-in per active registration;
2. a running one holds its launch pool minus the prizes already paid;
3. a finished or cancelled one holds nothing;
4. every active registration's buy-in is a ledger transfer of its own (its key
   ``tour:<tid>:entry:<entry id>`` exists, and no two registrations share a key: a shared
   key is a second entry that moved nothing);
5. a pool account with chips and no journaled tournament is chips stuck;
6. a running tournament's archived hands agree with its journaled state (they are
   written in one transaction, R-CRASH-1 revised): no table has an archived hand past the
   state's hand number, and each player's starting stacks (one per entry) plus their
   archived nets are their journaled stack. Checked where the tournament's hands are
   archived (a server; tables ``<tid>-t<n>``).

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
    hand_archive,
    hand_players,
    ledger_accounts,
    tournament_entries,
    tournaments,
    transfers,
)

__all__ = ["check_tournaments", "hand_problems", "tournament_problems"]


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
        sa.select(
            tournaments.c.id,
            tournaments.c.status,
            tournaments.c.buy_in,
            tournaments.c.state,
            tournaments.c.spec,
        )
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
            problems.extend(hand_problems(conn, tid, ev.spec or {}, ev.state or {}))
        elif pool:
            problems.append(f"tournament {tid} is {ev.status} with {pool} chips left in its pool")
    for tid, pool in sorted(pools.items()):
        if pool and tid not in journaled:
            problems.append(f"tournament:{tid} holds {pool} chips and no tournament is journaled")
    return problems


def hand_problems(
    conn: sa.Connection, tid: str, spec: dict[str, Any], state: dict[str, Any]
) -> list[str]:
    """Check 6: a running tournament's archived hands against its journaled state."""
    hand_nos = {f"{tid}-t{int(t) + 1}": int(n) for t, n in (state.get("hand_nos") or {}).items()}
    if not hand_nos:
        return []
    archived = conn.execute(
        sa.select(hand_archive.c.table_id, hand_archive.c.hand_id).where(
            hand_archive.c.table_id.in_(list(hand_nos))
        )
    ).all()
    if not archived:
        return []  # this tournament's hands are not archived here (no server)
    problems = []
    for table_id, hand_id in archived:
        if str(hand_id).isdigit() and int(hand_id) > hand_nos[str(table_id)]:
            problems.append(
                f"tournament {tid}: hand {table_id} #{hand_id} is archived but its state "
                f"counts hands up to #{hand_nos[str(table_id)]}"
            )
    nets = {
        str(user): int(net)
        for user, net in conn.execute(
            sa.select(hand_players.c.user_id, sa.func.sum(hand_players.c.net))
            .join(hand_archive, hand_archive.c.id == hand_players.c.archive_id)
            .where(hand_archive.c.table_id.in_(list(hand_nos)))
            .group_by(hand_players.c.user_id)
        )
    }
    entered = Counter(str(e[0]) for e in (state.get("launch") or {}).get("entrants", []))
    stacks = {str(p): int(v[2]) for p, v in (state.get("players") or {}).items()}
    starting = int(spec.get("starting_stack", 0))
    for player, n in sorted(entered.items()):
        counted = starting * n + nets.get(player, 0)
        if counted != stacks.get(player, 0):
            problems.append(
                f"tournament {tid}: player {player}'s archived hands give {counted} chips, "
                f"the journaled state {stacks.get(player, 0)}"
            )
    return problems
