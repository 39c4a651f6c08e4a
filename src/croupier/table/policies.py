"""Automatic decisions (R-TIME-1, R-DRAW-2, R-TIME-2): what the table does for a player who
ran out of time, left, or is disconnected. Pure functions over the engine state.

>>> from croupier.engine.game import Game
>>> from croupier.engine.cards import DECK_52
>>> from croupier.engine.state import start_hand
>>> s, _ = start_hand(Game.of("nlhe", blinds=(1, 2)), (100, 100, 100), DECK_52)
>>> _, action = automatic_action(s, s.actor, timeout=True)
>>> str(action)
'p3 fold'
>>> protections_in_window([0.0, 10.0, 90_000.0], now=90_005.0)
[90000.0]
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.engine import actions as A
from croupier.engine.state import (
    HandState,
    Phase,
    auto_showdown_action,
    forbid_raise,
    legal_actions,
)

__all__ = ["DAY", "automatic_action", "can_protect", "protections_in_window"]

DAY = 86_400.0


def automatic_action(state: HandState, pos: int, *, timeout: bool) -> tuple[HandState, A.Action]:
    """The state to apply to and the action taken for ``pos``: check if legal else fold
    (a bring-in that may not fold brings in); at a draw stand pat, and after a timeout
    forbid raising on the next round; the usual choice at showdown; decline a split."""
    if state.phase is Phase.DRAWING:
        return (forbid_raise(state, pos) if timeout else state), A.draw(pos, ())
    if state.phase is Phase.SPLIT:
        return state, A.decline_split(pos)
    if state.phase is Phase.SHOWDOWN:
        return state, auto_showdown_action(state)
    legal = legal_actions(state)
    if legal is not None and legal.can_check:
        return state, A.check(pos)
    if legal is not None and legal.can_bring_in and not legal.can_fold:
        return state, A.bring_in(pos)  # the bring-in may not fold (R-POS-5)
    return state, A.fold(pos)


def can_protect(state: HandState, pos: int) -> bool:
    """All-in protection applies: betting, chips in the pot and chips behind (R-TIME-2)."""
    return (
        state.phase is Phase.BETTING
        and state.contributions[pos] > 0
        and state.stacks[pos] > 0
        and not state.protected[pos]
    )


def protections_in_window(times: Sequence[float], now: float) -> list[float]:
    """The protections used in the last 24 hours of the table clock."""
    return [t for t in times if t > now - DAY]
