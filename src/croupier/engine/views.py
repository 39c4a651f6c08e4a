"""What one audience may see: per-seat redaction of events and of the state.

An *audience* is a player index (that player's own cards are visible to them) or
``None`` for a spectator. Nobody ever sees the deck or a burnt card; down cards of
others stay hidden until shown at showdown.

>>> from croupier.engine.game import Game
>>> from croupier.engine.cards import parse_cards
>>> from croupier.engine.state import start_hand
>>> g = Game.of("nlhe", blinds=(1, 2))
>>> s, events = start_hand(g, (100, 100), parse_cards("AsKs QhQd 2c 7h8h9h 3d Td 4s Jc"))
>>> [e.cards for e in events if e.type == "hole_dealt"]
[(Card('As'), Card('Qh')), (Card('Ks'), Card('Qd'))]
>>> [redact(e, 0).cards for e in events if e.type == "hole_dealt"]
[(Card('As'), Card('Qh')), (None, None)]
>>> view(s, None).players[0].cards
(None, None)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from croupier.engine.actions import LegalActions
from croupier.engine.cards import Card
from croupier.engine.events import CardBurnt, Drew, Event, HoleDealt
from croupier.engine.naiko import Peeked
from croupier.engine.state import HandState, legal_actions

__all__ = ["PlayerView", "TableView", "redact", "redact_all", "view"]


def redact(event: Event, audience: int | None) -> Event:
    """``event`` as ``audience`` may see it."""
    if isinstance(event, HoleDealt):
        if event.player == audience:
            return event
        cards = tuple(c if up else None for c, up in zip(event.cards, event.up, strict=True))
        return replace(event, cards=cards)
    if isinstance(event, CardBurnt):
        return replace(event, card=None) if event.card is not None else event
    if isinstance(event, Peeked):
        return event if event.player == audience else replace(event, card=None)
    if isinstance(event, Drew) and event.player != audience:
        return replace(
            event,
            discarded=(None,) * len(event.discarded),
            received=(None,) * len(event.received),
        )
    return event


def redact_all(events: Iterable[Event], audience: int | None) -> list[Event]:
    return [redact(e, audience) for e in events]


@dataclass(frozen=True, slots=True)
class PlayerView:
    stack: int
    bet: int
    contributed: int
    folded: bool
    all_in: bool
    cards: tuple[Card | None, ...]
    up: tuple[bool, ...]
    shown: bool


@dataclass(frozen=True, slots=True)
class TableView:
    variant: str
    structure: str
    street: int
    phase: str
    pot: int
    board: tuple[Card, ...]
    players: tuple[PlayerView, ...]
    actor: int
    legal: LegalActions | None


def view(state: HandState, audience: int | None) -> TableView:
    """The state of the hand as ``audience`` may see it (R-FAIR-1: no hidden card leaks)."""
    # each of the state's properties builds a tuple: read them once, not once per player
    shown = state.shown
    stacks = state.stacks
    bets = state.bets
    contributed = state.contributions
    folded = state.folded
    players = []
    for p, (hole, up) in enumerate(zip(state.hole_cards, state.up_flags, strict=True)):
        visible = p == audience or shown[p]
        cards = hole if visible else tuple(c if u else None for c, u in zip(hole, up, strict=True))
        players.append(
            PlayerView(
                stack=stacks[p],
                bet=bets[p],
                contributed=contributed[p],
                folded=folded[p],
                all_in=not folded[p] and stacks[p] == 0,
                cards=cards,
                up=up,
                shown=shown[p],
            )
        )
    legal = legal_actions(state) if audience is not None and audience == state.actor else None
    return TableView(
        variant=state.game.variant.key,
        structure=state.game.structure.value,
        street=state.street,
        phase=state.phase.value,
        pot=state.pot,
        board=state.board,
        players=tuple(players),
        actor=state.actor,
        legal=legal,
    )
