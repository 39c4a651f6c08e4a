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


def event_message(table_id: str, event: TableEvent, now: float | None = None) -> dict[str, Any]:
    """The ``event`` message for one (already redacted) table event. ``now``: the table
    clock when it is sent, so a client can count down ``turn.deadline`` and a Naiko
    ``ancre_window.closes_at`` (both on that clock) without guessing the offset.

    >>> from croupier.table.events import AncreWindowOpened
    >>> m = event_message("naiko-1-2", TableEvent(9, 0, 3, AncreWindowOpened(1, 4, "15", 108.0, 12.5)), now=100.0)
    >>> m["event"], m["now"]
    ({'type': 'ancre_window', 'caster_seat': 1, 'target_seat': 4, 'target_player_id': '15', 'closes_at': 108.0, 'remaining': 12.5}, 100.0)
    """
    out = {
        "type": "event",
        "table_id": table_id,
        "version": event.version,
        "epoch": event.epoch,
        "hand_no": event.hand_no,
        "players": list(event.players),
        "event": plain(event.data),
    }
    if now is not None:
        out["now"] = now
    return out


def snapshot_message(
    table_id: str, snap: TableSnapshot, now: float | None = None
) -> dict[str, Any]:
    """The ``snapshot`` message (a full resync); ``now`` as in :func:`event_message`. At a
    Naiko table the snapshot carries ``naiko`` (the public status: carrousel, Destellos by
    position, powers used, activations, anchored positions, the open window as
    ``[caster, target]``) and ``window_closes_at``."""
    body = plain(snap)
    out = {
        "type": "snapshot",
        "table_id": table_id,
        "version": snap.version,
        "epoch": snap.epoch,
        "snapshot": body,
    }
    if now is not None:
        out["now"] = now
    return out
