"""Stud rules (R-POS-5, R-RANK-7, R-BET-4, SPEC §7): bring-in, best showing hand, open pair,
the community card when the deck runs short.

The state machine calls these small functions from hooks; they read a
:class:`~croupier.engine.state.HandState` and never branch on a variant's name, only on its
flags (``low_showing`` for razz, ``open_pair`` for 7-Card Stud).

Partial up-card hands (one to four cards) rank as PokerKit 0.7.7 ranks them: pairs, two
pair, trips and quads above unpaired cards, then ranks from the top; straights and flushes
do not count. Razz (``low=True``) ranks the ace low and the lowest showing hand is best.

>>> from croupier.engine.cards import parse_cards as p
>>> showing_key(p("Kd Kc")) > showing_key(p("As Qd"))      # a pair beats ace high
True
>>> showing_key(p("As 2d"), low=True) > showing_key(p("3c 2c"), low=True)  # razz: A-2 best
True
>>> bring_in_card(p("7c"), low=False) < bring_in_card(p("7d"), low=False)  # clubs lowest
True
>>> has_open_pair(p("9s 9d")), has_open_pair(p("9s Td"))
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from croupier.engine.actions import Action, ActionKind, LegalActions
from croupier.engine.cards import Card
from croupier.engine.errors import IllegalActionError, InconsistentStateError
from croupier.engine.events import Acted, BoardDealt, CardBurnt, Event
from croupier.engine.game import Structure
from croupier.engine.variants import Opener, Street

if TYPE_CHECKING:
    from croupier.engine.state import HandState

__all__ = [
    "BRING_IN_DUE",
    "COMPLETION_PENDING",
    "bring_in_card",
    "bring_in_turn",
    "completed",
    "deal_short",
    "has_open_pair",
    "legal_bring_in",
    "open_pair_active",
    "opener",
    "raise_bounds",
    "showing_key",
    "up_cards",
]

BRING_IN_DUE = 1
"""``HandState._stud``: the player to act must bring in or complete (third street)."""
COMPLETION_PENDING = 2
"""``HandState._stud``: the bring-in is posted; the first raise completes to the small bet."""


def up_cards(s: HandState, p: int) -> tuple[Card, ...]:
    """The face-up cards of player ``p`` (none once folded)."""
    if s._folded[p]:
        return ()
    return tuple(c for c, up in zip(s._hole[p], s._up[p], strict=True) if up)


def _low_rank(card: int) -> int:
    """Ace-low rank: ace 0, deuce 1, … king 12."""
    return ((card >> 2) + 1) % 13


def bring_in_card(cards: Sequence[int], *, low: bool) -> tuple[int, int]:
    """Sort key of the bring-in card among ``cards``: the lowest key brings in.

    High games: the lowest card by rank (ace high), ties by suit with clubs lowest
    (R-RANK-7). Razz (``low``): the highest card with the ace low, ties by suit with
    spades highest, i.e. ``(-rank, -suit)`` lowest.
    """
    if low:
        return min((-_low_rank(c), -(c & 3)) for c in cards)
    return min((c >> 2, c & 3) for c in cards)


def showing_key(cards: Sequence[int], *, low: bool = False) -> tuple[int, ...]:
    """Strength of an up-card hand, higher is better (acts first on a later street)."""
    counts: dict[int, int] = {}
    for c in cards:
        r = _low_rank(c) if low else c >> 2
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    shape = tuple(n for n, _ in groups)
    if shape[:1] == (4,):
        cat = 4
    elif shape[:1] == (3,):
        cat = 3
    elif shape[:2] == (2, 2):
        cat = 2
    elif shape[:1] == (2,):
        cat = 1
    else:
        cat = 0
    key = (cat, len(cards), *(r for _, r in groups))
    return tuple(-k for k in key) if low else key


def has_open_pair(cards: Sequence[int]) -> bool:
    ranks = [c >> 2 for c in cards]
    return len(set(ranks)) < len(ranks)


def opener(s: HandState, rule: Opener) -> int:
    """The first player to act: the bring-in (third street) or the best showing hand.

    Ties of the best showing hand go to the first player in position order (PokerKit).
    """
    low = s.game.variant.low_showing
    live = [p for p in range(s.n) if not s._folded[p]]
    if rule is Opener.BRING_IN:
        return min(live, key=lambda p: (bring_in_card(up_cards(s, p), low=low), p))
    return max(live, key=lambda p: (showing_key(up_cards(s, p), low=low), -p))


def open_pair_active(s: HandState) -> bool:
    """R-BET-4: fourth street of 7-Card Stud in fixed limit with an open pair showing."""
    if not (s.game.variant.open_pair and s.street == 1 and s.game.structure.is_limit):
        return False
    return any(has_open_pair(up_cards(s, p)) for p in range(s.n))


def raise_bounds(s: HandState, p: int, lo: int, hi: int) -> tuple[int, int]:
    """Adjust the generic raise bounds for a completion or an open pair (before the
    stack clamps)."""
    game = s.game
    if s._stud:
        lo = game.min_bet
        if game.structure is Structure.FIXED_LIMIT:
            hi = lo
        return lo, max(hi, lo)
    if open_pair_active(s):
        current = s.current_bet
        return current + s.raise_inc, current + game.big_bet
    return lo, hi


def legal_bring_in(s: HandState, p: int, lo: int, hi: int) -> LegalActions:
    """R-POS-5: the bring-in player posts the bring-in or completes; no fold, no check."""
    amount = min(s.game.stakes.bring_in, s._stacks[p])
    return LegalActions(
        p,
        can_bring_in=True,
        bring_in=amount,
        can_raise=hi > 0,
        min_raise=lo,
        max_raise=hi,
    )


def bring_in_turn(s: HandState, p: int, action: Action, events: list[Event]) -> bool:
    """Handle the bring-in decision; ``True`` when the action was the bring-in itself."""
    kind = action.kind
    if s._stud != BRING_IN_DUE:
        if kind is ActionKind.BRING_IN:
            raise IllegalActionError("bring_in_not_allowed", "there is no bring-in to post now")
        return False
    if kind is ActionKind.RAISE:
        return False
    if kind is not ActionKind.BRING_IN:
        raise IllegalActionError(
            "bring_in_expected", "the lowest up card must bring in or complete the bet"
        )
    amount = min(s.game.stakes.bring_in, s._stacks[p])
    s._stacks[p] -= amount
    s._bets[p] += amount
    s._contrib[p] += amount
    s.current_bet = amount
    s._stud = COMPLETION_PENDING
    events.append(Acted(p, ActionKind.BRING_IN, amount, amount, s._stacks[p] == 0))
    return True


def completed(s: HandState, p: int) -> None:
    """A completion (the first full bet of third street) reopens the betting for all."""
    s._stud = 0
    s.raise_inc = max(s.raise_inc, s.game.min_bet)
    for q in range(s.n):
        if q != p:
            s._acted[q] = -1


def deal_short(s: HandState, street: Street, events: list[Event]) -> bool:
    """SPEC §7 (7-Card Stud): when the stub cannot give every live player a card, one
    community card is turned up for all (no burn if only one card is left). ``True`` if
    it did so; that round has no betting."""
    live = s.n - sum(s._folded)
    left = len(s.deck) - s.deck_pos
    need = len(street.hole) * live + (1 if street.burn else 0)
    if left >= need:
        return False
    if left < 1:
        raise InconsistentStateError("the deck ran out before the community card")
    if street.burn and left >= 2:
        card = s.deck[s.deck_pos]
        s.deck_pos += 1
        s._burnt.append(card)
        events.append(CardBurnt(card))
    card = s.deck[s.deck_pos]
    s.deck_pos += 1
    s._board.append(card)
    events.append(BoardDealt(s.street, (card,)))
    return True
