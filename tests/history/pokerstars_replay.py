"""PokerKit's replay of a PokerStars text, in the engine's positions.

``replay`` parses one hand with PokerKit 0.7.7 (``HandHistory.from_pokerstars``), plays it
out and returns the final stacks by engine position, plus the chips the text says an
all-in protection set aside (R-TIME-2: the protected player plays the hand with the chips
they had put in; see ``croupier.history.pokerstars_protect``). ``pokerkit_split`` is the
one documented difference left (docs/pokerkit-differences.md, R-POT-3): the engine's
winners of each pot, re-split the way PokerKit splits odd chips.
"""

from __future__ import annotations

import contextlib
import io
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

from pokerkit import HandHistory as PokerKitHistory

SET_ASIDE = re.compile(
    r"^Seat \d+: (?P<name>.+) \((?P<chips>\d+) in chips, (?P<aside>\d+) set aside by the"
    r" all-in protection\)$",
    re.MULTILINE,
)


@dataclass(frozen=True)
class Replay:
    """PokerKit's final stacks plus the chips set aside, and who was still in at the end
    (both by engine position), or ``stacks=None`` when PokerKit could not read the text."""

    stacks: list[int] | None
    survivors: tuple[bool, ...] = ()
    set_aside: int = 0


def replay(text: str, names: Sequence[str]) -> Replay:
    """PokerKit's replay of ``text``; ``names`` are the players by engine position."""
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        # PokerKit 0.7.7 warns about its own parsed field "time_zone_abbreviation" and
        # prints the traceback of a hand it cannot parse before raising
        warnings.filterwarnings("ignore", message=".*time_zone_abbreviation.*")
        try:
            hands = list(PokerKitHistory.from_pokerstars(text, error_status=True))
        except ValueError:
            return Replay(None)
        assert len(hands) == 1
        final = list(hands[0])[-1]
    players = list(hands[0].players or [])
    where = [players.index(name) for name in names]
    stacks = [int(final.stacks[i]) for i in where]
    aside = 0
    for m in SET_ASIDE.finditer(text):
        stacks[list(names).index(m["name"])] += int(m["aside"])
        aside += int(m["aside"])
    return Replay(stacks, tuple(bool(final.statuses[i]) for i in where), aside)


def pokerkit_split(
    stacks: Sequence[int],
    pots: Sequence[tuple[Sequence[int], Sequence[int]]],
    survivors: Sequence[bool],
) -> list[int]:
    """The engine's final ``stacks`` with its ``pots`` ((eligible, winnings) each) re-split
    PokerKit's way (R-POT-3): consecutive pots with the same surviving players merge and
    every odd chip of a pot goes to its first winner. The winners are the engine's."""
    n = len(stacks)
    out = [stacks[p] - sum(won[p] for _, won in pots) for p in range(n)]
    groups: list[tuple[tuple[int, ...], int, set[int]]] = []
    for eligible, won in pots:
        alive = tuple(p for p in eligible if survivors[p])
        winners = {p for p in range(n) if won[p] > 0}
        if groups and groups[-1][0] == alive:
            key, amount, got = groups[-1]
            groups[-1] = (key, amount + sum(won), got | winners)
        else:
            groups.append((alive, sum(won), winners))
    for _, amount, got in groups:
        ordered = sorted(got)
        if ordered:
            share, odd = divmod(amount, len(ordered))
            for i, p in enumerate(ordered):
                out[p] += share + (odd if i == 0 else 0)
    return out
