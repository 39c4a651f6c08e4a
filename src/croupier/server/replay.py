"""Engine events back from their archived ``to_dict()`` form (for downloads), redacted for
the viewer.

>>> from croupier.engine.cards import parse_cards
>>> from croupier.engine.events import HoleDealt
>>> e = HoleDealt(1, parse_cards("AsKd"), (False, False))
>>> events_from_dicts([e.to_dict()], None)[0].cards, events_from_dicts([e.to_dict()], 1)[0] == e
((None, None), True)
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Sequence
from typing import Any

from croupier.engine import events as E
from croupier.engine import naiko as N
from croupier.engine.actions import ActionKind
from croupier.engine.cards import Card, parse_cards
from croupier.engine.views import redact

__all__ = ["events_from_dicts"]

_CLASSES: dict[str, type[Any]] = {
    cls.type: cls
    for module in (E, N)
    for cls in vars(module).values()
    if isinstance(cls, type) and issubclass(cls, E.Event) and cls is not E.Event
}


def _card(value: Any) -> Card | None:
    return None if value is None else parse_cards(str(value))[0]


def _convert(hint: Any, value: Any) -> Any:
    text = str(hint)
    if value is None:
        return None
    if "PotResult" in text and isinstance(value, list):
        return tuple(
            E.PotResult(**{k: tuple(v) if isinstance(v, list) else v for k, v in p.items()})  # type: ignore[arg-type]
            for p in value
        )
    if "Card" in text:
        if isinstance(value, list):
            return tuple(
                tuple(_card(c) for c in v) if isinstance(v, list) else _card(v) for v in value
            )
        return _card(value)
    if "ActionKind" in text:
        return ActionKind(value)
    if isinstance(value, list):
        return tuple(value)
    return value


def events_from_dicts(rows: Sequence[dict[str, Any]], viewer: int | None) -> list[E.Event]:
    """Rebuild each event and redact it for ``viewer`` (an engine position, or ``None``)."""
    out: list[E.Event] = []
    for row in rows:
        cls = _CLASSES[row["type"]]
        hints = typing.get_type_hints(cls)
        # a field added later (e.g. the winners' five cards) is absent from older archives
        kwargs = {
            f.name: _convert(hints[f.name], row[f.name])
            for f in dataclasses.fields(cls)
            if f.name in row
        }
        out.append(redact(cls(**kwargs), viewer))
    return out
