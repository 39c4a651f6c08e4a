"""Inputs a table or a game mode gives a hand besides players' actions: a raise cap for one
round (Naiko's Ancre Courte), a hole card exchanged from the stub (Échange de Manche), a
player barred from raising after missing the draw clock (R-DRAW-2), and the uncontested
winner's choice to show (R-POT-4). Each returns a new state and never changes its input.
"""

from __future__ import annotations

from croupier.engine.cards import Card
from croupier.engine.errors import IllegalActionError
from croupier.engine.events import CardsShown, Drew, Event
from croupier.engine.hand import HandState, Phase, take

__all__ = ["cap_raise_to_pot", "exchange_hole_card", "forbid_raise", "show_uncontested"]


def cap_raise_to_pot(s: HandState, player: int) -> HandState:
    """Limit ``player``'s largest raise to the pot-limit raise (R-BET-2) until the current
    betting round ends; a legal minimum raise stays legal (Naiko's Ancre Courte, R-NAIKO-7)."""
    if s.phase is not Phase.BETTING or not 0 <= player < s.n or s._folded[player]:
        raise IllegalActionError("not_in_hand", f"player {player + 1} is not betting")
    new = s._clone()
    new._pot_limited[player] = True
    return new._sealed()


def exchange_hole_card(s: HandState, player: int, card: Card) -> tuple[HandState, list[Event]]:
    """Replace ``player``'s hole ``card`` with the next card of the stub, unseen; the
    discarded card is out of play (Naiko's Échange de Manche, R-NAIKO-6)."""
    if s.phase is Phase.COMPLETE or not 0 <= player < s.n or s._folded[player]:
        raise IllegalActionError("not_in_hand", f"player {player + 1} is not in the hand")
    hole = s._hole[player]
    if card not in hole:
        raise IllegalActionError("not_your_cards", f"{card} is not one of your cards")
    new = s._clone()
    (received,) = take(new, 1)
    index = hole.index(card)
    new._hole[player] = (*hole[:index], received, *hole[index + 1 :])
    new._discards.append(Card(card))
    return new._sealed(), [Drew(player, (Card(card),), (received,))]


def forbid_raise(s: HandState, player: int) -> HandState:
    """Forbid ``player`` to bet or raise for the rest of the hand's current or next betting
    round (R-DRAW-2: a player who missed the draw clock may only check, call or fold)."""
    if not 0 <= player < s.n:
        raise IllegalActionError("not_in_hand", f"no player {player + 1}")
    new = s._clone()
    new._no_raise[player] = True
    return new._sealed()


def show_uncontested(s: HandState, player: int) -> tuple[HandState, list[Event]]:
    """After a hand won uncontested, the winner may choose to show (R-POT-4)."""
    if s.phase is not Phase.COMPLETE:
        raise IllegalActionError("hand_not_over", "cards are shown this way only after the hand")
    live = [p for p in range(s.n) if not s._folded[p]]
    if live != [player]:
        raise IllegalActionError("not_uncontested_winner", "only an uncontested winner may show")
    if s._shown[player]:
        raise IllegalActionError("already_shown", "these cards are already shown")
    new = s._clone()
    new._shown[player] = True
    return new._sealed(), [CardsShown(player, tuple(new._hole[player]), ())]
