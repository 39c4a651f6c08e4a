"""Turning table events and snapshots into JSON-ready values (the edge decides nothing:
the events arrive already redacted for their audience by the table).

>>> from croupier.engine.cards import parse_cards
>>> from croupier.engine.events import HoleDealt
>>> plain(HoleDealt(0, (parse_cards("As")[0], None), (False, False)))
{'type': 'hole_dealt', 'player': 0, 'cards': ['As', None], 'up': [False, False]}
"""

from __future__ import annotations

from typing import Any

import orjson

from croupier.engine.events import plain
from croupier.table.events import TableEvent, TableSnapshot

__all__ = ["dumps", "encoded_event", "event_message", "plain", "snapshot_message"]

_ENCODED: dict[tuple[int, str], tuple[TableEvent, float, str]] = {}
_ENCODED_KEPT = 1024
_NOW_TOLERANCE = 0.02
"""Seconds within which an encoded frame's ``now`` is reused (one publication)."""


def dumps(message: Any) -> str:
    """A message as compact JSON text (every frame the server sends): orjson, the same
    text as ``json.dumps(message, separators=(",", ":"), ensure_ascii=False)`` for the
    values the room sends, about 15 times faster (a tenth of the event loop's time at
    1,000 tables went to the standard encoder, docs/benchmarks.md).

    >>> dumps({"type": "chat", "text": "bien joué", "seat": 2, "now": 5.0, "cards": ("As", None)})
    '{"type":"chat","text":"bien joué","seat":2,"now":5.0,"cards":["As",null]}'
    >>> dumps({3: "a"})
    '{"3":"a"}'
    """
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


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


def encoded_event(table_id: str, event: TableEvent, now: float) -> str:
    """The ``event`` message as JSON text, encoded once per audience: the table hands the
    same redacted object to every subscriber of one audience (seated player, other
    players, spectators), so the text made for the first is reused for the others of the
    same publication (same object, ``now`` within 20 ms).

    >>> from croupier.table.events import SatIn
    >>> e = TableEvent(3, 1, 0, SatIn(2))
    >>> encoded_event("t", e, 5.0) is encoded_event("t", e, 5.001)
    True
    >>> encoded_event("t", e, 5.0)
    '{"type":"event","table_id":"t","version":3,"epoch":1,"hand_no":0,"players":[],"event":{"type":"sat_in","seat":2,"post_now":false},"now":5.0}'
    """
    key = (id(event), table_id)
    hit = _ENCODED.get(key)
    if hit is not None and hit[0] is event and abs(now - hit[1]) < _NOW_TOLERANCE:
        return hit[2]
    text = dumps(event_message(table_id, event, now=now))
    if len(_ENCODED) >= _ENCODED_KEPT:
        # emptied at once: only the publication under way needs its entries, and taking
        # the oldest out one at a time (``next(iter(...))``) walks over the deleted slots
        # at the dict's front, a third of this function's time at 1,000 tables
        _ENCODED.clear()
    _ENCODED[key] = (event, now, text)
    return text


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
