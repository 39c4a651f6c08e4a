"""An all-in protection as a PokerStars text can say it (R-TIME-2 ``all_in_protection``).

The engine protects a disconnected player ``p`` (``state.protect``: an ``Acted`` check
flagged all-in that adds nothing): ``p`` is treated as all-in for the ``c`` chips they
have put in, the other ``r`` chips of their stack are set aside until the hand ends, and
the others play on for side pots. The PokerStars format, and every program that replays
it (PokerKit's ``HandHistory.from_pokerstars`` among them), has no such state: a player
who has not folded and still has chips must call or fold every bet they face, and a player
is all-in only once their stack is spent. So no text that gives ``p`` their whole stack
replays to the engine's result: written as a check, ``p`` is made to call the bet they
faced, then folded to the next one (PokerKit's repair).

What the protection counted as is exact, though: ``p`` played the hand *with c chips*
(the rule's "treated as all-in for what is in"), the ``r`` others were never at risk. So
the text gives ``p`` ``c`` chips in play and states the ``r`` set aside on the seat line;
a replay of the chips in play plus the chips set aside gives the engine's final stacks.
From ``p``'s last chip in to the protection, ``p`` was still live at the table but is
all-in in that account, which changes two things only, both chip-neutral:

* ``p``'s own checks in that stretch (no decision for an all-in player) are not written;
* a bet or raise that only ``p`` could have answered is written as the check or call it
  came to (the protection returned the rest, so the "Uncalled bet" line shrinks to match),
  and a check by the only player left with chips (no decision either) is not written.

Neither is lost: the protection's own line says them as played ("As played before it:
bob checked, cat bet 10."), in words no parser takes for an action.

:func:`as_counted` makes that account from the engine's events; the protection itself
stays in the events (the writer says who timed out, what was set aside and what the
account left out).

>>> from croupier.engine.game import Game
>>> from croupier.engine.cards import parse_cards
>>> from croupier.engine.actions import raise_to
>>> from croupier.engine.state import start_hand, apply, protect
>>> g = Game.of("nlhe", blinds=(1, 2))
>>> s, ev = start_hand(g, (100, 80), parse_cards("AsKs QhQd 2c 7h8h9h 3d Td 4s Jc"))
>>> s, more = apply(s, raise_to(1, 6))
>>> s, last = protect(s, 0)
>>> counted = as_counted(ev + more + last)
>>> counted.in_play, counted.set_aside
((2, 80), {0: 98})
>>> [(e.action.value, e.added) for e in counted.events if isinstance(e, Acted)]  # raise, protection
[('call', 1), ('check', 0)]
>>> any(isinstance(e, ChipsReturned) for e in counted.events)  # the 4 returned: never put in
False
>>> list(counted.played.values())  # what the text still says, as played
[((1, 'raised to 6'),)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from croupier.engine.actions import ActionKind
from croupier.engine.events import (
    Acted,
    BoardDealt,
    ChipsReturned,
    Event,
    ForcedBet,
    HandStarted,
)

__all__ = ["Counted", "as_counted", "is_protection"]


@dataclass(frozen=True, slots=True)
class Counted:
    """The hand as the protection counted it: ``events`` to write, each player's chips in
    play (``in_play``, by engine position), the chips set aside by protected player, and
    for each protection (by its index in ``events``) the actions as played before it that
    the account leaves out or counts otherwise (``(player, "checked")``, ``(player, "bet
    10")``, ``(player, "raised to 30")``), so the text can still say them."""

    events: tuple[Event, ...]
    in_play: tuple[int, ...]
    set_aside: dict[int, int]
    played: dict[int, tuple[tuple[int, str], ...]] = field(default_factory=dict)


def is_protection(e: Event) -> bool:
    """The engine's record of an all-in protection: a check flagged all-in adding 0."""
    return isinstance(e, Acted) and e.action is ActionKind.CHECK and e.all_in and e.added == 0


def _chips_in(events: Sequence[Event], n: int) -> list[int]:
    """What each player put in over the hand, net of chips returned."""
    chips = [0] * n
    for e in events:
        if isinstance(e, ForcedBet | Acted):
            chips[e.player] += e.amount if isinstance(e, ForcedBet) else e.added
        elif isinstance(e, ChipsReturned):
            chips[e.player] -= e.amount
    return chips


def as_counted(events: Sequence[Event]) -> Counted:
    """The events of one hand as its all-in protections counted them (module doc); a hand
    without a protection comes back as it was."""
    started = next((e for e in events if isinstance(e, HandStarted)), None)
    if started is None:
        return Counted(tuple(events), (), {})
    n = len(started.stacks)
    protected = {e.player for e in events if isinstance(e, Acted) and is_protection(e)}
    if not protected:
        return Counted(tuple(events), tuple(started.stacks), {})
    chips = _chips_in(events, n)
    stacks = list(started.stacks)
    for p in protected:
        stacks[p] = chips[p]
    in_play = tuple(stacks)
    bets = [0] * n
    folded = [False] * n
    diverted = [0] * n  # chips a rewritten bet did not put in (not returned later)
    out: list[Event] = []
    played: dict[int, tuple[tuple[int, str], ...]] = {}
    pending: list[tuple[int, str]] = []  # as played, left out or counted otherwise

    def can_answer(q: int, top: int) -> bool:
        return not folded[q] and stacks[q] > 0 and stacks[q] + bets[q] > top

    for e in events:
        if isinstance(e, ForcedBet):
            stacks[e.player] -= e.amount
            if e.kind not in ("ante", "dead"):
                bets[e.player] += e.amount
        elif isinstance(e, BoardDealt):
            bets = [0] * n
        elif isinstance(e, ChipsReturned):
            amount = e.amount - diverted[e.player]
            diverted[e.player] = 0
            if amount <= 0:
                continue
            stacks[e.player] += amount
            bets[e.player] -= amount
            e = replace(e, amount=amount)
        elif isinstance(e, Acted):
            p = e.player
            if is_protection(e):
                if pending:
                    played[len(out)] = tuple(pending)
                    pending.clear()
                out.append(e)
                continue
            if p in protected and stacks[p] == 0:
                pending.append((p, "checked"))
                continue  # a check of p's after their last chip in: no decision all-in
            top = max(bets)
            others = any(can_answer(q, top) for q in range(n) if q != p)
            if not others and e.action in (ActionKind.RAISE, ActionKind.CHECK):
                verb = {ActionKind.CHECK: "checked", ActionKind.RAISE: "raised to"}[e.action]
                verb = "bet" if e.action is ActionKind.RAISE and top == 0 else verb
                pending.append((p, verb if e.action is ActionKind.CHECK else f"{verb} {e.amount}"))
            if e.action is ActionKind.RAISE and not others:
                # only a protected player could have answered: the check or call it came to
                due = min(top - bets[p], stacks[p])
                diverted[p] += e.added - due
                if due == 0:
                    e = replace(e, action=ActionKind.CHECK, amount=bets[p], added=0, all_in=False)
                else:
                    all_in = due == stacks[p]
                    e = replace(
                        e, action=ActionKind.CALL, amount=bets[p] + due, added=due, all_in=all_in
                    )
            if e.action is ActionKind.CHECK and not others:
                continue  # the only player left with chips, nothing to face: no decision
            if e.action is ActionKind.FOLD:
                folded[p] = True
            stacks[p] -= e.added
            bets[p] += e.added
        out.append(e)
    aside = {p: started.stacks[p] - in_play[p] for p in sorted(protected)}
    return Counted(tuple(out), in_play, aside, played)
