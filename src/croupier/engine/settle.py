"""Pots and payouts: side pots, rake and levy, hi/lo halves and odd chips (R-POT-1..6, §6).

:func:`build_pots` is pure arithmetic on contributions and is usable on its own:

>>> [(p.amount, p.eligible) for p in build_pots((50, 100, 100, 20), (False, False, False, True))]
[(170, (0, 1, 2)), (100, (1, 2))]
>>> split(7, (2, 0, 1))
{0: 3, 1: 2, 2: 2}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from croupier.engine.bestfive import best_five
from croupier.engine.evaluate import EVALUATORS, describe
from croupier.engine.events import (
    ChipsReturned,
    Event,
    HandEnded,
    LevyTaken,
    PotAwarded,
    PotResult,
    RakeTaken,
)
from croupier.engine.split import layer_pots

if TYPE_CHECKING:
    from croupier.engine.state import HandState

__all__ = [
    "Pot",
    "build_pots",
    "can_still_win",
    "dead_money",
    "describe_hands",
    "settle",
    "split",
]


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot layer: its chips, what each player put in it, and who may win it."""

    amount: int
    contributions: tuple[int, ...]
    eligible: tuple[int, ...]


def build_pots(
    contributions: Sequence[int], out: Sequence[bool], dead: Sequence[int] = ()
) -> list[Pot]:
    """Main and side pots from each player's total contribution (R-POT-1).

    ``out`` marks players who folded or mucked: they feed pots but cannot win them. A
    layer is cut at each contribution level of a player still in; chips above the top
    level (dead money of folded players) join the last pot. ``dead`` (part of each
    contribution) is dead money posted by a returning player (R-SEAT-3): it is no bet to
    match, so it cuts no layer and goes to the main pot.

    >>> [(p.amount, p.eligible) for p in build_pots((2, 3), (False, False), dead=(0, 1))]
    [(5, (0, 1))]
    """
    n = len(contributions)
    if any(dead):
        live = [c - d for c, d in zip(contributions, dead, strict=True)]
        layers = build_pots(live, out) or [Pot(0, (0,) * n, ())]
        first = layers[0]
        # when no live bet is left in the pot (the winner's blind came back as uncalled),
        # the dead money goes to whoever is still in
        eligible = first.eligible or tuple(p for p in range(n) if not out[p])
        merged = tuple(a + b for a, b in zip(first.contributions, dead, strict=True))
        layers[0] = Pot(first.amount + sum(dead), merged, eligible)
        return layers
    levels = sorted({c for p, c in enumerate(contributions) if not out[p] and c > 0})
    pots: list[Pot] = []
    prev = 0
    for level in levels:
        layer = tuple(max(0, min(c, level) - prev) for c in contributions)
        eligible = tuple(p for p in range(n) if not out[p] and contributions[p] >= level)
        pots.append(Pot(sum(layer), layer, eligible))
        prev = level
    rest = tuple(max(0, c - prev) for c in contributions)
    if sum(rest):
        if pots:
            last = pots[-1]
            merged = tuple(a + b for a, b in zip(last.contributions, rest, strict=True))
            pots[-1] = Pot(last.amount + sum(rest), merged, last.eligible)
        else:
            pots.append(Pot(sum(rest), rest, ()))
    return pots


def split(amount: int, winners: Sequence[int]) -> dict[int, int]:
    """Split ``amount`` equally; odd chips one at a time from the winner closest to the left
    of the button, i.e. the lowest position (R-POT-3)."""
    ordered = sorted(winners)
    share, odd = divmod(amount, len(ordered))
    return {p: share + (1 if i < odd else 0) for i, p in enumerate(ordered)}


def dead_money(s: HandState) -> list[int]:
    """Each player's chips that are no bet to match and go to the main pot: dead posts
    (R-SEAT-3), and the antes when every ante was posted by a player left with chips.

    Antes are then dead money as in PokerKit: a big-blind ante (one player antes for the
    table) is won with the main pot, never cut into a layer only its poster can win. When
    someone is all-in on the ante, the antes stay layered like bets, so that player wins
    from each opponent only what they matched (R-POT-1).
    """
    antes = s._antes
    if any(antes) and all(not a or s.start_stacks[p] > a for p, a in enumerate(antes)):
        return [d + a for d, a in zip(s._dead, antes, strict=True)]
    return list(s._dead)


def _values(s: HandState, p: int) -> tuple[int | None, ...]:
    # The memo is shared by every state of the hand (clones copy it by reference), so it
    # is keyed by the cards themselves: a value asked for on the flop, or in another
    # branch after a different draw, is never reused for other cards.
    hole, board = s._hole[p], tuple(s._board)
    key = (hole, board)
    cached = s._values.get(key)
    if cached is None:
        cached = tuple(EVALUATORS[kind](hole, board) for kind in s.game.variant.hands)
        s._values[key] = cached
    return cached


def describe_hands(s: HandState, p: int) -> tuple[str, ...]:
    """Readable names of ``p``'s hands (high, and low for hi/lo) for the showdown."""
    out: list[str] = []
    for kind, value in zip(s.game.variant.hands, _values(s, p), strict=True):
        out.append("no low" if value is None else describe(kind, value))
    return tuple(out)


def can_still_win(s: HandState, p: int) -> bool:
    """Whether ``p``'s hand wins or ties some share against the hands shown so far.

    The most favourable pot for ``p`` is the highest one it is eligible for, contested by
    the shown players who put in at least as much as ``p``.
    """
    contrib = [c - d for c, d in zip(s._contrib, dead_money(s), strict=True)]
    rivals = [q for q in range(s.n) if q != p and s._shown[q] and contrib[q] >= contrib[p]]
    if not rivals:
        return True
    mine = _values(s, p)
    for i, value in enumerate(mine):
        if value is None:
            continue
        best = max((v for q in rivals if (v := _values(s, q)[i]) is not None), default=None)
        if best is None or value >= best:
            return True
    return False


def _refund_unmatched(s: HandState, pots: list[Pot], agreed: int, events: list[Event]) -> list[Pot]:
    """Return a layer that only its owner put chips in (an ante or a blind nobody could
    match): a refund, not a win; never raked or levied (R-POT-2, R-RAKE-2, R-RAKE-3)."""
    kept: list[Pot] = []
    for i, pot in enumerate(pots):
        givers = [p for p, c in enumerate(pot.contributions) if c]
        if i >= agreed and len(givers) == 1 and pot.eligible == (givers[0],):
            p = givers[0]
            s._contrib[p] -= pot.amount
            s._stacks[p] += pot.amount
            events.append(ChipsReturned(p, pot.amount))
            continue
        kept.append(pot)
    return kept


def settle(s: HandState, events: list[Event]) -> None:
    """Take rake or levy, award every pot, and end the hand."""
    from croupier.engine.state import Phase

    game = s.game
    n = s.n
    out = [s._folded[p] or s._mucked[p] for p in range(n)]
    pots, agreed = layer_pots(s, out)  # R-DRAW-5: pots divided by agreement come first
    dead = dead_money(s)
    if not agreed and any(dead):
        pots = build_pots(s._contrib, out, dead)  # dead money joins the main pot
    pots = _refund_unmatched(s, pots, agreed, events)
    amounts = [pot.amount for pot in pots]
    rakes = [0] * len(pots)
    points = [0] * n
    policy = game.rules.rake
    reached = s._dealt_street >= game.variant.no_drop_street
    band = game.rake_band()
    if band is not None and reached:
        due = band.amount(sum(amounts), n)
        for i in range(len(pots)):
            take = min(due, amounts[i])
            rakes[i] = take
            amounts[i] -= take
            due -= take
            if take:
                events.append(RakeTaken(i, take))
    elif policy.kind == "levy":
        for i, pot in enumerate(pots):
            contributors = [p for p in range(n) if pot.contributions[p] > 0]
            if len(contributors) < 2 or not pot.amount:
                continue
            levy = max(1, -(-pot.amount * policy.levy_percent // 100))
            levy = min(levy, pot.amount)
            reward = levy * policy.points_per_chip
            pot_points = [
                -(-reward * pot.contributions[p] // pot.amount) if pot.contributions[p] else 0
                for p in range(n)
            ]
            for p in range(n):
                points[p] += pot_points[p]
            rakes[i] = levy
            amounts[i] -= levy
            events.append(LevyTaken(i, levy, tuple(pot_points)))

    hands = game.variant.hands
    winnings_total = [0] * n
    results: list[PotResult] = []
    for i, pot in enumerate(pots):
        won = [0] * n
        amount = amounts[i]
        eligible = pot.eligible
        if i < agreed:
            got = split(amount, eligible)
            for p, chips in got.items():
                won[p] += chips
            events.append(
                PotAwarded(i, "split", amount, eligible, tuple(got[p] for p in eligible), "")
            )
        elif not eligible:
            # Nobody left to win this layer (cannot happen in a consistent hand):
            # give each contributor back their chips.
            for p in range(n):
                won[p] += pot.contributions[p]
        elif len(eligible) == 1:
            won[eligible[0]] += amount
            events.append(PotAwarded(i, "whole", amount, eligible, (amount,), ""))
        else:
            shares = _shares(s, i, amount, eligible, hands, events)
            for p, chips in shares.items():
                won[p] += chips
        for p in range(n):
            winnings_total[p] += won[p]
        results.append(PotResult(pot.amount, pot.contributions, eligible, rakes[i], tuple(won)))
    for p in range(n):
        s._stacks[p] += winnings_total[p] + s._reserved[p]
        s._reserved[p] = 0
    s._bets = [0] * n
    s.phase = Phase.COMPLETE
    s.actor = -1
    stacks = tuple(s._stacks)
    result = HandEnded(
        stacks=stacks,
        pots=tuple(results),
        rake=sum(rakes),
        net=tuple(stacks[p] - s.start_stacks[p] for p in range(n)),
        points=tuple(points),
    )
    s.result = result
    events.append(result)


def _shares(
    s: HandState,
    index: int,
    amount: int,
    eligible: tuple[int, ...],
    hands: tuple[str, ...],
    events: list[Event],
) -> dict[int, int]:
    values = {p: _values(s, p) for p in eligible}
    parts: list[tuple[str, int, int]] = []  # (share name, hand index, chips)
    if len(hands) == 1:
        parts.append(("whole", 0, amount))
    else:
        lows = [values[p][1] for p in eligible if values[p][1] is not None]
        if lows:
            parts.append(("high", 0, amount - amount // 2))
            parts.append(("low", 1, amount // 2))
        else:
            parts.append(("whole", 0, amount))
    total: dict[int, int] = {}
    for name, h, chips in parts:
        best = max(v for p in eligible if (v := values[p][h]) is not None)
        winners = tuple(p for p in eligible if values[p][h] == best)
        got = split(chips, winners)
        for p, c in got.items():
            total[p] = total.get(p, 0) + c
        events.append(
            PotAwarded(
                index,
                name,
                chips,
                winners,
                tuple(got[p] for p in winners),
                describe(hands[h], best),
                tuple(best_five(hands[h], s._hole[p], tuple(s._board)) for p in winners),
            )
        )
    return total
