"""The 32-Card Draw split option (R-DRAW-5).

After the draw, the first player to act may offer to split instead of acting
(``offer_split``). The offer passes round the other players still in the hand, in position
order from the offerer, each accepting or declining (``accept_split``/``decline_split``).
Then each pot, as it stands, is divided equally among its players if every one of them
accepted; side pots are decided separately, each by its own players. If every pot is
divided the hand ends at once; otherwise the betting goes on with the offerer to act, and
the pots divided by agreement are no longer at stake.

>>> from croupier.engine.game import Game
>>> from croupier.engine.cards import DECK_32
>>> from croupier.engine.actions import call, check, draw, offer_split, accept_split
>>> from croupier.engine.state import apply, legal_actions, start_hand
>>> g = Game.of("32cd", blinds=(1, 2))
>>> s, _ = start_hand(g, (50, 50, 50), DECK_32)
>>> for a in (call(2), call(0), check(1), draw(0), draw(1), draw(2)):
...     s, _ = apply(s, a)
>>> s.actor, legal_actions(s).can_offer_split
(2, True)
>>> s, _ = apply(s, offer_split(2))
>>> s.phase.value, s.actor
('split', 0)
>>> s, _ = apply(s, accept_split(0))
>>> s, ev = apply(s, accept_split(1))
>>> s.stacks, ev[-1].pots[0].winnings
((50, 50, 50), (2, 2, 2))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from croupier.engine.actions import Action, ActionKind
from croupier.engine.errors import IllegalActionError
from croupier.engine.events import Event, SplitAnswered, SplitOffered, SplitResolved

if TYPE_CHECKING:
    from croupier.engine.settle import Pot
    from croupier.engine.state import HandState

__all__ = ["SplitOffer", "answer", "can_offer", "layer_pots", "offer"]


@dataclass(frozen=True, slots=True)
class SplitOffer:
    """A split offer and its answers; ``agreed`` holds the pots divided once resolved."""

    offerer: int
    pending: tuple[int, ...]
    accepted: tuple[int, ...]
    declined: tuple[int, ...] = ()
    agreed: tuple[Pot, ...] = ()

    @property
    def resolved(self) -> bool:
        return not self.pending


def can_offer(s: HandState) -> bool:
    """The player to act may offer to split: a split-option variant, the betting round
    right after a draw, nobody has acted in it yet, and no offer was made this hand."""
    from croupier.engine.state import Phase

    variant = s.game.variant
    if not variant.split_option or s.split is not None or s.phase is not Phase.BETTING:
        return False
    if s.street == 0 or not variant.streets[s.street].draw:
        return False
    if s.current_bet or any(a >= 0 for a in s._acted):
        return False
    return s.n - sum(s._folded) > 1


def offer(s: HandState, p: int, events: list[Event]) -> None:
    """``p`` offers to split; the others answer in turn."""
    from croupier.engine.state import Phase

    if not can_offer(s):
        raise IllegalActionError("split_not_allowed", "a split may not be offered now")
    n = s.n
    others = tuple(q for q in ((p + i) % n for i in range(1, n)) if not s._folded[q])
    s.split = SplitOffer(p, others, (p,))
    s.phase = Phase.SPLIT
    s.actor = others[0]
    events.append(SplitOffered(p))


def answer(s: HandState, p: int, action: Action, events: list[Event]) -> None:
    """Record ``p``'s answer; when everyone has answered, divide the agreed pots."""
    from croupier.engine.settle import build_pots, settle
    from croupier.engine.state import Phase

    offer_ = s.split
    assert offer_ is not None
    if action.kind is ActionKind.ACCEPT_SPLIT:
        offer_ = replace(offer_, pending=offer_.pending[1:], accepted=(*offer_.accepted, p))
    elif action.kind is ActionKind.DECLINE_SPLIT:
        offer_ = replace(offer_, pending=offer_.pending[1:], declined=(*offer_.declined, p))
    else:
        raise IllegalActionError("split_answer_expected", "a split is offered: accept or decline")
    events.append(SplitAnswered(p, action.kind is ActionKind.ACCEPT_SPLIT))
    if offer_.pending:
        s.split = offer_
        s.actor = offer_.pending[0]
        return
    yes = set(offer_.accepted)
    pots = build_pots(s._contrib, s._folded)
    agreed = tuple(pot for pot in pots if pot.eligible and set(pot.eligible) <= yes)
    s.split = replace(offer_, agreed=agreed)
    events.append(SplitResolved(tuple(i for i, pot in enumerate(pots) if pot in agreed)))
    if len(agreed) == len(pots):
        s.actor = -1
        settle(s, events)
        return
    s.phase = Phase.BETTING
    s.actor = offer_.offerer


def layer_pots(s: HandState, out: Sequence[bool]) -> tuple[list[Pot], int]:
    """The pots to settle: first the pots divided by agreement, then the pots built from
    what remains of each contribution. Returns the pots and how many were agreed."""
    from croupier.engine.settle import build_pots

    agreed = s.split.agreed if s.split is not None else ()
    if not agreed:
        return build_pots(s._contrib, out), 0
    rest = list(s._contrib)
    for pot in agreed:
        for q, c in enumerate(pot.contributions):
            rest[q] -= c
    return [*agreed, *build_pots(rest, out)], len(agreed)
