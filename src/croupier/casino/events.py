"""Events of a Texas Hold'em Bonus round: small frozen values with a stable ``type``.

Events carry every card for the record; a client view hides the dealer's hole cards
until :class:`DealerShown` and the burnt cards always (see ``docs/bonus.md``).

>>> from croupier.engine.cards import parse_cards
>>> e = BoardDealt(street="flop", cards=parse_cards("As Kd 7c"))
>>> e.type, e.to_dict()
('board_dealt', {'type': 'board_dealt', 'street': 'flop', 'cards': ['As', 'Kd', '7c']})
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from croupier.engine.cards import Card
from croupier.engine.events import Event

__all__ = [
    "Acted",
    "BoardDealt",
    "BonusEvent",
    "CardBurnt",
    "DealerShown",
    "HoleDealt",
    "Move",
    "Outcome",
    "RoundEnded",
    "RoundStarted",
    "SeatResult",
    "Wagered",
]


class Move(StrEnum):
    """A player's decision (R-BONUS-2)."""

    FOLD = "fold"
    """Pre-flop: give up the ante (the bonus bet is still settled)."""
    PLAY = "play"
    """Pre-flop: place the flop bet of twice the ante."""
    CHECK = "check"
    """Turn or river: no extra bet."""
    BET = "bet"
    """Turn or river: bet once the ante."""


class Outcome(StrEnum):
    WIN = "win"
    TIE = "tie"
    LOSE = "lose"
    FOLD = "fold"


class BonusEvent(Event):
    """Base of the round's events; ``type`` is the stable name used on the wire and
    ``to_dict()`` the JSON-ready form (shared with the engine's events)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class RoundStarted(BonusEvent):
    """Antes and bonus bets as accepted (an ante under the minimum was raised to it)."""

    type: ClassVar[str] = "round_started"
    antes: tuple[int, ...]
    bonuses: tuple[int, ...]
    raised: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class Wagered(BonusEvent):
    """Chips a player put on the table: ``spot`` is ante, bonus, flop, turn or river."""

    type: ClassVar[str] = "wagered"
    player: int
    spot: str
    amount: int


@dataclass(frozen=True, slots=True)
class HoleDealt(BonusEvent):
    """Two hole cards; ``player`` is ``-1`` for the dealer."""

    type: ClassVar[str] = "hole_dealt"
    player: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardBurnt(BonusEvent):
    type: ClassVar[str] = "card_burnt"
    card: Card


@dataclass(frozen=True, slots=True)
class BoardDealt(BonusEvent):
    type: ClassVar[str] = "board_dealt"
    street: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Acted(BonusEvent):
    """A decision; ``amount`` is the chips it added (0 for fold and check)."""

    type: ClassVar[str] = "acted"
    player: int
    move: Move
    amount: int


@dataclass(frozen=True, slots=True)
class DealerShown(BonusEvent):
    type: ClassVar[str] = "dealer_shown"
    cards: tuple[Card, ...]
    value: int | None
    """The dealer's ``high`` value with the board, None when every player folded."""


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One player's settlement. ``*_net`` are profits (negative: lost); ``paid`` is what
    goes back to the player (stakes returned plus winnings); ``wagered`` what they staked."""

    player: int
    outcome: Outcome
    value: int | None
    ante_net: int
    flop_net: int
    turn_net: int
    river_net: int
    bonus_line: str
    bonus_net: int
    wagered: int
    paid: int

    @property
    def net(self) -> int:
        return self.paid - self.wagered


@dataclass(frozen=True, slots=True)
class RoundEnded(BonusEvent):
    """Every seat's settlement; ``house_net`` is the house's profit (the players' nets sum
    to ``-house_net``)."""

    type: ClassVar[str] = "round_ended"
    results: tuple[SeatResult, ...]
    house_net: int
