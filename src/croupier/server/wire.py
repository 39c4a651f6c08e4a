"""Turning table events and snapshots into JSON-ready values (the edge decides nothing:
the events arrive already redacted for their audience by the table).

>>> from croupier.engine.cards import parse_cards
>>> from croupier.engine.events import HoleDealt
>>> plain(HoleDealt(0, (parse_cards("As")[0], None), (False, False)))
{'type': 'hole_dealt', 'player': 0, 'cards': ['As', None], 'up': [False, False]}
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

from croupier.engine.cards import Card
from croupier.table.events import TableEvent, TableSnapshot

__all__ = ["event_message", "plain", "snapshot_message"]


def plain(value: Any) -> Any:
    """A JSON-ready copy of ``value`` (dataclasses with their wire ``type``, cards as text)."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        kind = getattr(type(value), "type", None)
        if isinstance(kind, str):
            out["type"] = kind
        for f in dataclasses.fields(value):
            out[f.name] = plain(getattr(value, f.name))
        return out
    return str(value)


def event_message(table_id: str, event: TableEvent) -> dict[str, Any]:
    """The ``event`` message for one (already redacted) table event."""
    return {
        "type": "event",
        "table_id": table_id,
        "version": event.version,
        "epoch": event.epoch,
        "hand_no": event.hand_no,
        "players": list(event.players),
        "event": plain(event.data),
    }


def snapshot_message(table_id: str, snap: TableSnapshot) -> dict[str, Any]:
    """The ``snapshot`` message (a full resync)."""
    body = plain(snap)
    return {
        "type": "snapshot",
        "table_id": table_id,
        "version": snap.version,
        "epoch": snap.epoch,
        "snapshot": body,
    }
