"""Helpers for the stud and draw tests: stacked decks in the engine's dealing order."""

from __future__ import annotations

from collections.abc import Sequence

from croupier.engine.actions import Action
from croupier.engine.cards import DECK_52, Card, parse_cards
from croupier.engine.events import Event
from croupier.engine.state import HandState, apply, auto_showdown_action

__all__ = ["draw_deck", "play", "showdown", "stud_deck"]


def stud_deck(
    holes: Sequence[str], deck: Sequence[Card] = DECK_52, first: int = 3
) -> tuple[Card, ...]:
    """A deck that deals ``holes[p]`` (in dealing order: 2 down, 4 up, 1 down for stud;
    ``first`` cards on the first street) to position ``p``, everyone staying in; burns
    before each later street are the lowest unused cards, then the rest of the deck."""
    cards = [parse_cards(h) for h in holes]
    used = {c for h in cards for c in h}
    if len(used) != sum(len(h) for h in cards):
        raise ValueError("stud_deck: a card is used twice")
    spare = [c for c in deck if c not in used]
    out: list[Card] = []
    for k in range(first):
        out.extend(h[k] for h in cards)
    width = max(len(h) for h in cards)
    for k in range(first, width):
        out.append(spare.pop(0))  # burn
        out.extend(h[k] for h in cards if len(h) > k)
    return (*out, *spare)


def draw_deck(
    holes: Sequence[str], stub: str = "", deck: Sequence[Card] = DECK_52
) -> tuple[Card, ...]:
    """A deck dealing ``holes[p]`` to position ``p`` (one card at a time round the table),
    then ``stub`` (the burn before the first draw first, then the cards drawn in order),
    then every other card."""
    cards = [parse_cards(h) for h in holes]
    after = list(parse_cards(stub))
    used = [c for h in cards for c in h] + after
    if len(set(used)) != len(used):
        raise ValueError("draw_deck: a card is used twice")
    out: list[Card] = []
    for k in range(max(len(h) for h in cards)):
        out.extend(h[k] for h in cards)
    rest = [c for c in deck if c not in set(used)]
    return (*out, *after, *rest)


def play(s: HandState, *actions: Action) -> tuple[HandState, list[Event]]:
    """Apply ``actions`` in turn; return the final state and every event."""
    events: list[Event] = []
    for a in actions:
        s, ev = apply(s, a)
        events.extend(ev)
    return s, events


def showdown(s: HandState) -> tuple[HandState, list[Event]]:
    """Run the showdown with the automatic choices."""
    events: list[Event] = []
    while not s.is_over:
        s, ev = apply(s, auto_showdown_action(s))
        events.extend(ev)
    return s, events
