"""Where an account is seated now, for the lobby's "you are seated at NLHE 1/2 — back to
the table" (leaving the table page keeps the seat; standing up is always explicit)."""

from __future__ import annotations

from typing import Any

__all__ = ["seated_tables"]


def seated_tables(registry: Any, account_id: int | str) -> list[dict[str, Any]]:
    """The live tables where ``account_id`` holds a seat: id, name, game, stakes, whether
    private (a private table is listed by name; its code stays with the page that has it)
    and whether the player is sitting out, in table-id order."""
    pid = str(account_id)
    out: list[dict[str, Any]] = []
    for table_id in sorted(registry.tables):
        live = registry.tables[table_id]
        table = live.actor.table
        seat = next((s for s in table.seats.values() if s.player_id == pid), None)
        if seat is None:
            continue
        row = live.summary()
        out.append(
            {
                "table_id": table_id,
                "name": row.name,
                "game": row.game,
                "stakes": row.stakes,
                "kind": row.kind,
                "private": bool(live.spec.private),
                "sitting_out": bool(seat.sitting_out),
            }
        )
    return out
