"""One versioned codec for what leaves a process or outlives it: table journal records (the
crash journal), engine events (the hand archive, the replayer's JSON, the WebSocket) and
table notices (the WebSocket).

Every kind has a **stable name**, listed here once and never derived from a Python class
name: engine and Naiko events and table notices by their ``type`` (``"acted"``,
``"player_seated"`` …), journal records and the values inside them by the names the first
release wrote (``"HandStartRecord"`` …), frozen since. Renaming a class changes nothing
stored; a kind that is renamed or reshaped gets a new entry in :data:`UPGRADES`.

Two encodings, one registry:

* **records** (the journal): ``(name, body)``, the body self-describing (nested values
  carry ``__type__``, cards ``__cards__``, bytes ``__bytes__``) and stamped with the schema
  version ``__v__``; bodies written before versions existed are version 0 (same format).
* **events** (archive, wire, replayer): the events' own ``to_dict()`` — ``type`` plus plain
  fields, cards as text — read back by :func:`event_from_dict` from the field types.

A field added later takes its default when an older body lacks it; a field an older
release wrote and that no longer exists is dropped.

>>> from croupier.table.journal import HandVoidRecord
>>> name, body = encode_record(HandVoidRecord(3, (), "misdeal"))
>>> name, body["__v__"], decode_record(name, body)
('HandVoidRecord', 1, HandVoidRecord(hand_no=3, seats=(), reason='misdeal'))
>>> from croupier.engine.cards import parse_cards
>>> from croupier.engine.events import HoleDealt
>>> e = HoleDealt(1, parse_cards("AsKd"), (False, False))
>>> event_from_dict(e.to_dict()) == e, events_from_dicts([e.to_dict()], 0)[0].cards
(True, (None, None))
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any, Final

from croupier.engine import events as engine_events
from croupier.engine import naiko as naiko_events
from croupier.engine.cards import Card, parse_cards
from croupier.engine.errors import CodedError
from croupier.engine.views import redact
from croupier.table import events as table_events
from croupier.table import journal as records
from croupier.table.seating import Seat

__all__ = [
    "EVENTS",
    "NOTICES",
    "RECORDS",
    "SCHEMA_VERSION",
    "UPGRADES",
    "CodecError",
    "decode_record",
    "encode_record",
    "event_from_dict",
    "events_from_dicts",
    "name_of",
]

SCHEMA_VERSION: Final = 1
"""The version stamped on what :func:`encode_record` writes (0: before versions existed)."""


class CodecError(CodedError):
    """An unknown kind, or a body that does not fit its kind (``unknown_record``)."""


RECORDS: Final[dict[str, type[Any]]] = {
    "SeatsRecord": records.SeatsRecord,
    "HandStartRecord": records.HandStartRecord,
    "HandEndRecord": records.HandEndRecord,
    "HandVoidRecord": records.HandVoidRecord,
    "CashOutDone": records.CashOutDone,
    "CashOutRecord": records.CashOutRecord,
    "Restarted": records.Restarted,
    "BuyInIntent": records.BuyInIntent,
    "BuyInAborted": records.BuyInAborted,
    "ProtectionUsed": records.ProtectionUsed,
    "Seat": Seat,
}
"""Journal records and the values inside them, by stable name (frozen: the names the
first release wrote)."""


def _by_type(*modules: types.ModuleType, base: type[Any]) -> dict[str, type[Any]]:
    found: dict[str, type[Any]] = {}
    for module in modules:
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, base) and value is not base:
                name: str = getattr(value, "type")  # noqa: B009 - a ClassVar of the subclass
                if name in found and found[name] is not value:
                    raise AssertionError(f"two event kinds named {name!r}")
                found[name] = value
    return found


EVENTS: Final[dict[str, type[Any]]] = _by_type(
    engine_events, naiko_events, base=engine_events.Event
)
"""Engine and Naiko events by their ``type``."""

NOTICES: Final[dict[str, type[Any]]] = _by_type(table_events, base=table_events.Notice)
"""Table notices by their ``type``."""

_NAMES: Final[dict[type[Any], str]] = {cls: name for name, cls in RECORDS.items()}

UPGRADES: Final[dict[int, Callable[[str, dict[str, Any]], tuple[str, dict[str, Any]]]]] = {}
"""``UPGRADES[v]`` turns a version-``v`` record into version ``v + 1`` (none so far: version
0 and 1 share one format)."""


def name_of(value: object) -> str:
    """The stable name of ``value``'s kind (a record, an event or a notice)."""
    if isinstance(value, engine_events.Event | table_events.Notice):
        return type(value).type
    name = _NAMES.get(type(value))
    if name is None:
        raise CodecError("unknown_record", f"no stable name for {type(value).__name__}")
    return name


# -- records ---------------------------------------------------------------------------------


_FIELDS: dict[type[Any], tuple[str, tuple[str, ...]]] = {}
"""A record class's stable name and field names, looked up once (a hand's records are
encoded on the journal's writer thread for every hand of every table)."""

_PLAIN: Final = frozenset({int, str, bool, float, type(None)})


def _encode(value: Any) -> Any:
    cls = type(value)
    if cls in _PLAIN:
        return value
    if cls is tuple or cls is list:
        if value and all(type(v) is Card or isinstance(v, Card) for v in value):
            return {"__cards__": [int(v) for v in value]}
        return [_encode(v) for v in value]
    shape = _FIELDS.get(cls)
    if shape is None and dataclasses.is_dataclass(cls):
        shape = _FIELDS[cls] = (
            name_of(value),
            tuple(f.name for f in dataclasses.fields(cls)),
        )
    if shape is not None:
        body = {"__type__": shape[0]}
        for name in shape[1]:
            body[name] = _encode(getattr(value, name))
        return body
    if isinstance(value, bytes):
        return {"__bytes__": value.hex()}
    if isinstance(value, tuple | list):
        if value and all(isinstance(v, Card) for v in value):
            return {"__cards__": [int(v) for v in value]}
        return [_encode(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise CodecError("unknown_record", f"cannot encode a {type(value).__name__}")


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_decode(v) for v in value)
    if isinstance(value, dict):
        if "__bytes__" in value:
            return bytes.fromhex(value["__bytes__"])
        if "__cards__" in value:
            return tuple(Card(n) for n in value["__cards__"])
        name = value.get("__type__")
        cls = RECORDS.get(name) if isinstance(name, str) else None
        if cls is None:
            raise CodecError("unknown_record", f"unknown journal record type {name!r}")
        known = {f.name for f in dataclasses.fields(cls)}
        try:
            return cls(**{k: _decode(v) for k, v in value.items() if k in known})
        except TypeError as exc:  # a required field missing
            raise CodecError("unknown_record", f"a {name} that does not fit: {exc}") from None
    return value


def encode_record(record: Any) -> tuple[str, dict[str, Any]]:
    """A journal record as (stable name, JSON body stamped with :data:`SCHEMA_VERSION`)."""
    name = name_of(record)
    if name not in RECORDS or name == "Seat":
        raise CodecError("unknown_record", f"cannot journal {type(record).__name__}")
    body = _encode(record)
    assert isinstance(body, dict)
    body["__v__"] = SCHEMA_VERSION
    return name, body


def decode_record(name: str, body: dict[str, Any]) -> Any:
    """The inverse of :func:`encode_record`, for any version up to :data:`SCHEMA_VERSION`."""
    version = body.get("__v__", 0)
    if not isinstance(version, int) or not 0 <= version <= SCHEMA_VERSION:
        raise CodecError("unknown_record", f"journal schema version {version!r} is unknown")
    while version < SCHEMA_VERSION:
        upgrade = UPGRADES.get(version)
        if upgrade is not None:
            name, body = upgrade(name, body)
        version += 1
    fields = {k: v for k, v in body.items() if k not in ("__v__", "__type__")}
    return _decode({**fields, "__type__": name})


# -- events ----------------------------------------------------------------------------------


def _card(value: Any) -> Card:
    return Card(value) if isinstance(value, int) else parse_cards(str(value))[0]


def _plain_to(hint: Any, value: Any) -> Any:
    """``value`` (as ``to_dict()`` wrote it) back as the type ``hint`` says."""
    if value is None:
        return None
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        return _plain_to(options[0], value) if len(options) == 1 else value
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_plain_to(args[0], v) for v in value)
        return tuple(_plain_to(a, v) for a, v in zip(args, value, strict=True))
    if hint is Card:
        return _card(value)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint) and isinstance(value, dict):
        return _dataclass_from(hint, value)
    return value


def _dataclass_from(cls: type[Any], row: dict[str, Any]) -> Any:
    hints = typing.get_type_hints(cls)
    return cls(
        **{
            f.name: _plain_to(hints[f.name], row[f.name])
            for f in dataclasses.fields(cls)
            if f.name in row  # a field added later is absent from older rows
        }
    )


def event_from_dict(row: dict[str, Any]) -> engine_events.Event:
    """The engine event ``row`` (its ``to_dict()``) describes, every card as recorded."""
    cls = EVENTS.get(row.get("type"))  # type: ignore[arg-type]
    if cls is None:
        raise CodecError("unknown_record", f"unknown event type {row.get('type')!r}")
    event: engine_events.Event = _dataclass_from(cls, row)
    return event


def events_from_dicts(
    rows: Sequence[dict[str, Any]], viewer: int | None
) -> list[engine_events.Event]:
    """Every archived event back, redacted for ``viewer`` (an engine position, or ``None``
    for a spectator): their own cards and the cards shown, nothing else (R-FAIR-1)."""
    return [redact(event_from_dict(row), viewer) for row in rows]
