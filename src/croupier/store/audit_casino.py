"""The audit's ``casino`` check (one line in :data:`croupier.store.audit.CHECKS`).

- a casino escrow (``casino:<table>:<user>``, kind ``casino_escrow``) holding chips belongs
  to a round of that table still open that seats that player (else the chips are stuck);
- every settled round points at its settlement transfer (a voided round's escrows are
  empty: the first test sees a chip left behind).

The house's result (``house:casino``, kind ``casino_house``) is reported with the other
held balances.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import TYPE_CHECKING

import sqlalchemy as sa

from croupier.store.schema import casino_rounds

if TYPE_CHECKING:
    from croupier.store.audit import AuditData

__all__ = ["check_casino"]


def check_casino(data: AuditData) -> Iterator[str]:
    """What does not add up at the casino tables."""
    open_seats: dict[str, set[str]] = defaultdict(set)
    rounds = data.conn.execute(
        sa.select(
            casino_rounds.c.table_id,
            casino_rounds.c.round_id,
            casino_rounds.c.status,
            casino_rounds.c.record,
            casino_rounds.c.transfer_id,
        )
    ).all()
    for r in rounds:
        players = {str(s.get("player")) for s in (r.record or {}).get("seats", [])}
        if r.status == "open":
            open_seats[str(r.table_id)] |= players
        elif r.status == "settled":
            if r.transfer_id is None or int(r.transfer_id) not in data.transfers:
                yield f"casino round {r.table_id}/{r.round_id} settled without a transfer"
        elif r.status != "void":
            yield f"casino round {r.table_id}/{r.round_id} has status {r.status!r}"
    for account in data.accounts_of("casino_escrow"):
        if int(account.balance) and str(account.user_id) not in open_seats.get(
            str(account.table_id), set()
        ):
            yield (
                f"{account.key} holds {account.balance} chips but no open round seats this player"
            )
