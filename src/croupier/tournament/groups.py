"""Bust groups (R-TOUR-12): the players out in one hand — or in one hand-for-hand round
(R-TOUR-17) — form one group below every survivor; inside it more chips at the start of
the hand ranks higher, and equal starting stacks share their places' prizes equally, the
leftover chips one each from the button's left (**Decision**, not by player id).

A hand-for-hand round starts when the director releases its tables together; a bust at a
table of the round waits (unplaced, out of play) until every table of the round has
finished its hand, then the whole round's busts are placed as one group. Across tables the
odd chips go by table number, then from each table's button's left (**Decision**). A
restart cuts the round's unfinished hands (they are void): the busts already recorded are
placed at once as the group of that round.

>>> order = left_of_button(3, (1, 4, 6, 8), ("a", "b", "c", "d"), table=0)
>>> sorted(order, key=order.__getitem__)
['b', 'c', 'd', 'a']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from croupier.tournament.director import Director

__all__ = ["Bust", "hand_done", "left_of_button", "open_round", "place_round", "round_bust"]

Bust = tuple[str, int, tuple[int, int], float]
"""(player, stack at the hand's start, odd-chip order (table, seats from the button's
left), bust time)."""

_AROUND = 1 << 10
"""More than any seat number: ``(seat - button - 1) mod _AROUND`` orders seats clockwise
from the button's left."""


def left_of_button(
    button: int, seats: tuple[int, ...], players: tuple[str, ...], *, table: int
) -> dict[str, tuple[int, int]]:
    """Each player's odd-chip order in a hand: ``(table, distance from the button's
    left)``; the smallest gets the first leftover chip."""
    return {p: (table, (s - button - 1) % _AROUND) for s, p in zip(seats, players, strict=True)}


def open_round(d: Director, tables: set[int]) -> None:
    """A hand-for-hand round starts at ``tables`` (released together)."""
    d.round_open = set(tables)


def in_round(d: Director, table: int) -> bool:
    """``table``'s hand now ending belongs to an open hand-for-hand round."""
    return table in d.round_open


def round_bust(d: Director, busts: list[Bust]) -> None:
    """Busts at a table of the open round: out of play, placed when the round ends."""
    d.round_busts.extend(busts)


def hand_done(d: Director, table: int) -> None:
    """``table`` finished its hand: when it was the round's last, place the round's busts."""
    if table not in d.round_open:
        return
    d.round_open.discard(table)
    d.round_open &= set(d.actors)
    if not d.round_open:
        place_round(d)


def place_round(d: Director) -> None:
    """Place the open round's busts as one group below every player still in."""
    from croupier.tournament.director import rank_out

    d.round_open = set()
    busts, d.round_busts = d.round_busts, []
    if not busts:
        return
    start = {p: s for p, s, _, _ in busts}
    order = {p: o for p, _, o, _ in busts}
    first = len(d.where) + 1
    at = max(a for _, _, _, a in busts)
    d.placings.extend(d._dealt(rank_out(list(start), start, first, d.launch.prizes, at, order)))


def round_state(d: Director) -> dict[str, Any]:
    """The open round in the director's journaled state."""
    return {
        "tables": sorted(d.round_open),
        "busts": [[p, s, list(o), a] for p, s, o, a in d.round_busts],
    }


def resume_round(d: Director, saved: dict[str, Any] | None) -> None:
    """After a restart: the round's unfinished hands are void, its busts placed now."""
    if not saved:
        return
    d.round_busts = [
        (str(p), int(s), (int(o[0]), int(o[1])), float(a)) for p, s, o, a in saved["busts"]
    ]
    place_round(d)
