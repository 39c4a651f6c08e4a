"""The audit's arcade checks (R-RAKE-3, R-ACC-1): points and the points shop.

1. every point issued (``mint:points``) was issued by a hand settlement, and the total
   equals the points the settled hands' outcomes list;
2. each settled hand credited exactly the points its outcome lists, in its settlement
   transfer;
3. each archived hand's levy events (``levy_taken``: the levy × 10 shared by contribution)
   add up to the points its settlement credited;
4. the points shop holds exactly the prices of the items players own, and every owned
   item points at its purchase transfer.

>>> from croupier.store.db import Database
>>> db = Database.open("sqlite://"); _ = db.migrate()
>>> db.run(arcade_problems)
[]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from croupier.store.schema import (
    entries,
    hand_archive,
    hands,
    ledger_accounts,
    shop_items,
    transfers,
)

if TYPE_CHECKING:
    from croupier.store.audit import AuditData

__all__ = ["arcade_problems", "check_points"]


def check_points(data: AuditData) -> Iterator[str]:
    """The audit's ``points`` check (registered in ``store/audit.py``)."""
    yield from arcade_problems(data.conn)


def _levy_points(summary: Any) -> int | None:
    events = summary.get("events") if isinstance(summary, dict) else None
    if not isinstance(events, list):
        return None
    total = 0
    for event in events:
        if isinstance(event, dict) and event.get("type") == "levy_taken":
            total += sum(int(p) for p in event.get("points") or ())
    return total


def arcade_problems(conn: sa.Connection) -> list[str]:
    """Every arcade discrepancy found (empty when the points add up)."""
    problems: list[str] = []
    points_rows = conn.execute(
        sa.select(
            entries.c.transfer_id,
            entries.c.amount,
            ledger_accounts.c.kind,
            ledger_accounts.c.key,
            transfers.c.kind.label("transfer_kind"),
        )
        .join(ledger_accounts, ledger_accounts.c.id == entries.c.account_id)
        .join(transfers, transfers.c.id == entries.c.transfer_id)
        .where(ledger_accounts.c.currency == "points")
    ).all()
    credited: dict[int, int] = defaultdict(int)
    minted = 0
    for row in points_rows:
        if row.kind == "mint":
            minted -= int(row.amount)
            if row.transfer_kind != "settle":
                problems.append(f"points issued by a {row.transfer_kind!r} transfer, not a hand")
        elif row.kind == "user" and row.transfer_kind == "settle":
            credited[int(row.transfer_id)] += int(row.amount)
    settled = conn.execute(
        sa.select(hands.c.table_id, hands.c.hand_id, hands.c.transfer_id, hands.c.outcome).where(
            hands.c.status == "settled"
        )
    ).all()
    by_hand: dict[tuple[str, str], int] = {}
    listed = 0
    for hand in settled:
        points = sum(int(p) for p in (hand.outcome or {}).get("points") or ())
        listed += points
        by_hand[(hand.table_id, hand.hand_id)] = points
        got = credited.get(int(hand.transfer_id), 0) if hand.transfer_id is not None else 0
        if got != points:
            problems.append(
                f"hand {hand.table_id}/{hand.hand_id}: outcome lists {points} points, "
                f"its settlement credited {got}"
            )
    if minted != listed:
        problems.append(f"points: {minted} issued but the settled hands list {listed}")
    for archived in conn.execute(
        sa.select(hand_archive.c.table_id, hand_archive.c.hand_id, hand_archive.c.summary)
    ):
        levy = _levy_points(archived.summary)
        paid = by_hand.get((archived.table_id, archived.hand_id))
        if levy is not None and paid is not None and levy != paid:
            problems.append(
                f"hand {archived.table_id}/{archived.hand_id}: the levy gives {levy} points, "
                f"{paid} were credited"
            )
    shop_balance = conn.execute(
        sa.select(ledger_accounts.c.balance).where(ledger_accounts.c.key == "house:points_shop")
    ).scalar()
    owned = conn.execute(
        sa.select(shop_items.c.user_id, shop_items.c.item_id, shop_items.c.price, transfers.c.id)
        .select_from(shop_items)
        .outerjoin(transfers, transfers.c.id == shop_items.c.transfer_id)
    ).all()
    for item in owned:
        if item.id is None:
            problems.append(f"shop item {item.item_id} of user {item.user_id} has no purchase")
    prices = sum(int(r.price) for r in owned)
    if int(shop_balance or 0) != prices:
        problems.append(
            f"points shop holds {int(shop_balance or 0)} points but sold items for {prices}"
        )
    return problems
