"""The rows of a player's hand history (``GET /api/hands``): the table's name (never an
internal id, never a private table's invitation code), the player's own hole cards and
the board of each hand, from the archived (unredacted) events of the hand.

>>> from croupier.store.archive import ArchivedHand
>>> ev = [{"type": "hole_dealt", "player": 0, "cards": ["As", "Kd"], "up": [False, False]},
...       {"type": "hole_dealt", "player": 1, "cards": ["7c", "2d"], "up": [False, False]},
...       {"type": "board_dealt", "cards": ["2h", "3h", "4h"]}]
>>> h = ArchivedHand("private-abcd12", "7", 0, "nlhe", "", {"events": ev})
>>> table_name(h, None), own_cards(h.summary, 1), board(h.summary)
('Private NLHE', ['7c', '2d'], ['2h', '3h', '4h'])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from croupier.lobby.catalog import DEFAULT_TABLES
from croupier.store.archive import ArchivedHand

__all__ = ["board", "hand_row", "own_cards", "table_name"]

_NAMES = {spec.table_id: spec.name for spec in DEFAULT_TABLES}


def table_name(h: ArchivedHand, registry: Any) -> str:
    """The name the lobby showed for the hand's table; a private table's own id carries
    its code, so it is named by its game only ("Private NLHE")."""
    live = None if registry is None else registry.tables.get(h.table_id)
    spec = getattr(live, "spec", None)
    private = h.table_id.startswith("private-") or bool(getattr(spec, "private", False))
    if private:
        return f"Private {h.game.split()[0].upper()}"
    named = h.summary.get("table_name")
    if isinstance(named, str) and named:
        return named
    if spec is not None:
        return str(spec.name)
    return _NAMES.get(h.table_id, h.table_id)


def own_cards(summary: Mapping[str, Any], position: int | None) -> list[str]:
    """The hole cards dealt to engine ``position`` (drawn cards replace discards)."""
    if position is None:
        return []
    cards: list[str] = []
    for e in summary.get("events", ()):
        if e.get("type") == "hole_dealt" and e.get("player") == position:
            cards.extend(str(c) for c in e.get("cards", ()) if c)
        elif e.get("type") == "drew" and e.get("player") == position:
            gone = {str(c) for c in e.get("discarded", ()) if c}
            cards = [c for c in cards if c not in gone] + [
                str(c) for c in e.get("received", ()) if c
            ]
    return cards


def board(summary: Mapping[str, Any]) -> list[str]:
    """The community cards of the hand, in the order dealt."""
    out: list[str] = []
    for e in summary.get("events", ()):
        if e.get("type") == "board_dealt":
            out.extend(str(c) for c in e.get("cards", ()) if c)
    return out


def hand_row(h: ArchivedHand, account_id: int, registry: Any) -> dict[str, Any]:
    """One row of the account's history."""
    me = next(p for p in h.players if p.user_id == account_id)
    players = [str(p) for p in h.summary.get("players", ())]
    pos = players.index(str(account_id)) if str(account_id) in players else None
    return {
        "table_id": h.table_id,
        "table_name": table_name(h, registry),
        "hand_id": h.hand_id,
        "ended_ms": h.ended_ms,
        "game": h.game,
        "seat": me.seat,
        "net": me.net,
        "cards": own_cards(h.summary, pos),
        "board": board(h.summary),
    }
