"""Events: what each transition of a hand says happened (small frozen values).

Events carry every card for the record; :mod:`croupier.engine.views` redacts them per
audience (hole cards, burns and draws of others become ``None``).

>>> e = Acted(player=1, action=ActionKind.RAISE, amount=12, added=10, all_in=False)
>>> e.type, e.to_dict()["amount"]
('acted', 12)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, is_dataclass
from enum import Enum
from operator import attrgetter
from typing import Any, ClassVar

from croupier.engine.actions import ActionKind
from croupier.engine.cards import Card

__all__ = [
    "Acted",
    "BoardDealt",
    "CardBurnt",
    "CardsMucked",
    "CardsShown",
    "ChipsReturned",
    "Drew",
    "Event",
    "ForcedBet",
    "HandEnded",
    "HandStarted",
    "HoleDealt",
    "LevyTaken",
    "PotAwarded",
    "PotResult",
    "RakeTaken",
    "SplitAnswered",
    "SplitOffered",
    "SplitResolved",
    "StreetStarted",
]


_SCALARS = frozenset({str, int, float, bool, type(None)})
_FIELDS: dict[type, tuple[str | None, tuple[str, ...]]] = {}
_CARD_TEXT = [str(c) for c in Card._cache]
_CONVERTERS: dict[type, Callable[[Any], dict[str, Any]]] = {}


def _fields_of(cls: type) -> tuple[str | None, tuple[str, ...]]:
    """A dataclass's stable ``type`` name (if it has one) and field names, once per class."""
    got = _FIELDS.get(cls)
    if got is None:
        kind = getattr(cls, "type", None)
        got = _FIELDS[cls] = (
            kind if isinstance(kind, str) else None,
            tuple(f.name for f in fields(cls)),
        )
    return got


def _converter(cls: type) -> Callable[[Any], dict[str, Any]]:
    """The function :func:`plain` uses for instances of the dataclass ``cls``, made once
    per class: its fields read by one ``attrgetter``, a scalar field's value taken as it
    is (no call), any other through :func:`plain`; led by ``type`` when it has one.

    >>> from croupier.engine.actions import ActionKind
    >>> _converter(Acted)(Acted(1, ActionKind.CALL, 2, 2, False))
    {'type': 'acted', 'player': 1, 'action': 'call', 'amount': 2, 'added': 2, 'all_in': False}
    """
    convert = _CONVERTERS.get(cls)
    if convert is not None:
        return convert
    kind, names = _fields_of(cls)
    local = [f"v{i}" for i in range(len(names))]
    items = [f"'type': {kind!r}"] if kind is not None else []
    items += [
        f"{name!r}: {v} if {v}.__class__ in scalars else plain({v})"
        for name, v in zip(names, local, strict=True)
    ]
    if len(names) == 0:
        body = ""
    elif len(names) == 1:
        body = f"    {local[0]} = get(value)\n"
    else:
        body = f"    {', '.join(local)} = get(value)\n"
    source = f"def convert(value):\n{body}    return {{{', '.join(items)}}}\n"
    space: dict[str, Any] = {
        "get": attrgetter(*names) if names else None,
        "scalars": _SCALARS,
        "plain": plain,
    }
    exec(compile(source, f"<plain {cls.__qualname__}>", "exec"), space)
    made: Callable[[Any], dict[str, Any]] = space["convert"]
    _CONVERTERS[cls] = made
    return made


def plain(value: Any) -> Any:
    """``value`` as JSON-ready data — the one encoder of events, notices and records that
    leave the process (:mod:`croupier.table.codec` reads them back): cards as text, enums as
    their value, tuples as lists, dataclasses as dicts led by their ``type`` when they have
    one. Runs for every WebSocket frame: exact types are checked first, and a dataclass is
    converted by a function made once for its class (:func:`_converter`).

    >>> from croupier.engine.cards import parse_cards
    >>> plain(HoleDealt(0, (parse_cards("As")[0], None), (False, False)))
    {'type': 'hole_dealt', 'player': 0, 'cards': ['As', None], 'up': [False, False]}
    """
    cls = type(value)
    if cls in _SCALARS:
        return value
    convert = _CONVERTERS.get(cls)
    if convert is not None:
        return convert(value)
    if cls is Card:
        return _CARD_TEXT[value]
    if cls is tuple or cls is list:
        return [v if v.__class__ in _SCALARS else plain(v) for v in value]
    if cls is dict:
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if is_dataclass(value) and not isinstance(value, type):
        return _converter(cls)(value)
    return str(value)


class Event:
    """Base of all events; ``type`` is the stable name used on the wire."""

    __slots__ = ()
    type: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = plain(self)
        return out


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    type: ClassVar[str] = "hand_started"
    variant: str
    structure: str
    stacks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ForcedBet(Event):
    """An ante, blind, straddle, dead post or bring-in (``kind``); ``dead`` chips are not a bet."""

    type: ClassVar[str] = "forced_bet"
    player: int
    kind: str
    amount: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class HoleDealt(Event):
    type: ClassVar[str] = "hole_dealt"
    player: int
    cards: tuple[Card | None, ...]
    up: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class CardBurnt(Event):
    type: ClassVar[str] = "card_burnt"
    card: Card | None


@dataclass(frozen=True, slots=True)
class BoardDealt(Event):
    type: ClassVar[str] = "board_dealt"
    street: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class StreetStarted(Event):
    type: ClassVar[str] = "street_started"
    street: int
    name: str
    pot: int


@dataclass(frozen=True, slots=True)
class Acted(Event):
    """A betting action. ``amount`` is the raise-to total (raise) or the bet reached (call);
    ``added`` the chips it moved from the stack."""

    type: ClassVar[str] = "acted"
    player: int
    action: ActionKind
    amount: int
    added: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class Drew(Event):
    type: ClassVar[str] = "drew"
    player: int
    discarded: tuple[Card | None, ...]
    received: tuple[Card | None, ...]


@dataclass(frozen=True, slots=True)
class SplitOffered(Event):
    """32-Card Draw: ``player`` offers to split (R-DRAW-5)."""

    type: ClassVar[str] = "split_offered"
    player: int


@dataclass(frozen=True, slots=True)
class SplitAnswered(Event):
    type: ClassVar[str] = "split_answered"
    player: int
    accepted: bool


@dataclass(frozen=True, slots=True)
class SplitResolved(Event):
    """The pots (indices, main pot 0) that every one of their players agreed to divide."""

    type: ClassVar[str] = "split_resolved"
    pots: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ChipsReturned(Event):
    """Chips nobody matched, returned: not a win, never raked (R-POT-2)."""

    type: ClassVar[str] = "chips_returned"
    player: int
    amount: int


@dataclass(frozen=True, slots=True)
class CardsShown(Event):
    type: ClassVar[str] = "cards_shown"
    player: int
    cards: tuple[Card, ...]
    hands: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CardsMucked(Event):
    type: ClassVar[str] = "cards_mucked"
    player: int


@dataclass(frozen=True, slots=True)
class RakeTaken(Event):
    type: ClassVar[str] = "rake_taken"
    pot: int
    amount: int


@dataclass(frozen=True, slots=True)
class LevyTaken(Event):
    """The arcade points levy of one pot and the reward points of each contributor (R-RAKE-3)."""

    type: ClassVar[str] = "levy_taken"
    pot: int
    amount: int
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PotAwarded(Event):
    """One share of one pot: ``share`` is ``whole``, ``high`` or ``low``.

    ``cards``: at a showdown, the five cards making each winner's ``hand`` (in the order of
    ``winners``; ``()`` where the hand is not made of five cards). They are cards already
    shown (the board and the winners' shown hole cards), so no redaction applies.
    """

    type: ClassVar[str] = "pot_awarded"
    pot: int
    share: str
    amount: int
    winners: tuple[int, ...]
    amounts: tuple[int, ...]
    hand: str
    cards: tuple[tuple[Card, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class PotResult:
    """The exact account of one pot (R-POT-6)."""

    amount: int
    contributions: tuple[int, ...]
    eligible: tuple[int, ...]
    rake: int
    winnings: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """Final stacks, the per-pot account, total rake, and each player's net result."""

    type: ClassVar[str] = "hand_ended"
    stacks: tuple[int, ...]
    pots: tuple[PotResult, ...]
    rake: int
    net: tuple[int, ...]
    points: tuple[int, ...]
