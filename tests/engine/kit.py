"""Helpers shared by the engine tests: stacked decks, snapshots, driving a hand.

Decks follow the engine's dealing convention (docs/architecture.md): hole cards one at a
time round the table from position 0, a burn before each later street, then the board.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from croupier.engine.actions import Action
from croupier.engine.cards import DECK_52, Card, parse_cards
from croupier.engine.events import Event, HandEnded
from croupier.engine.game import Game
from croupier.engine.state import HandState, apply, auto_showdown_action, start_hand

__all__ = [
    "deck_for",
    "ended",
    "events_of",
    "finish_showdown",
    "play",
    "snapshot",
    "start",
]


def deck_for(
    holes: Sequence[str],
    board: str = "",
    *,
    burns: str = "",
    deck: Sequence[Card] = DECK_52,
) -> tuple[Card, ...]:
    """A full deck that deals ``holes[p]`` to position ``p`` and ``board`` (flop, turn,
    river in order) with burns before each street (``burns`` if given, else the lowest
    unused cards), followed by every other card of ``deck``.

    >>> from croupier.engine.cards import format_cards
    >>> format_cards(deck_for(["AsKs", "QhQd"], "7h8h9hTdJc")[:12])
    'AsQhKsQd2c7h8h9h2dTd2hJc'
    """
    hole_cards = [parse_cards(h) for h in holes]
    board_cards = parse_cards(board)
    burn_cards = list(parse_cards(burns))
    used = [c for h in hole_cards for c in h] + list(board_cards) + burn_cards
    if len(set(used)) != len(used):
        raise ValueError("deck_for: a card is used twice")
    spare = [c for c in deck if c not in set(used)]
    out: list[Card] = []
    width = max((len(h) for h in hole_cards), default=0)
    for k in range(width):
        for h in hole_cards:
            out.append(h[k])
    streets = [board_cards[:3], board_cards[3:4], board_cards[4:5]]
    for cards in streets:
        if not cards:
            break
        out.append(burn_cards.pop(0) if burn_cards else spare.pop(0))
        out.extend(cards)
    out.extend(spare)
    return tuple(out)


def start(
    game: Game,
    stacks: Sequence[int],
    holes: Sequence[str] | None = None,
    board: str = "",
    **kwargs: Any,
) -> tuple[HandState, list[Event]]:
    """``start_hand`` with a stacked deck (default: the deck in index order)."""
    deck = deck_for(holes, board) if holes is not None else DECK_52
    return start_hand(game, stacks, deck, **kwargs)


def play(state: HandState, *actions: Action) -> tuple[HandState, list[Event]]:
    """Apply ``actions`` in turn; return the last state and every event."""
    events: list[Event] = []
    for action in actions:
        state, ev = apply(state, action)
        events.extend(ev)
    return state, events


def finish_showdown(state: HandState) -> tuple[HandState, list[Event]]:
    """Play the automatic showdown choices until the hand is over."""
    events: list[Event] = []
    while not state.is_over:
        state, ev = apply(state, auto_showdown_action(state))
        events.extend(ev)
    return state, events


def ended(events: Sequence[Event]) -> HandEnded:
    (result,) = [e for e in events if isinstance(e, HandEnded)]
    return result


def events_of(events: Sequence[Event], kind: type[Event]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def snapshot(state: HandState) -> dict[str, Any]:
    """A deep copy of every slot of ``state`` (to check that a refusal changed nothing).

    ``_values`` is left out: it is a memo of hand values keyed by the cards themselves and
    shared by every state of a hand, so filling it changes no state's meaning.
    """
    return {
        name: copy.deepcopy(getattr(state, name))
        for name in HandState.__slots__
        if name != "_values"
    }
