"""The button and who is dealt in (R-POS-6, R-SEAT-3): pure functions over the seat map.

``standard``: the button moves to the next ready seat clockwise each hand; a new player
waits for the big blind or posts one; a player who sat out while the big blind passed owes
it (posted live to come back), and one the small blind also passed owes it too (posted
dead), or waits for the big blind. ``arcade``: the first button is random; next hand it
moves one seat clockwise if the same players are dealt in, otherwise a new random button.

Seats are numbered clockwise. Engine positions start at the first dealt seat left of the
button; the last position is the button (or, if the button seat waits, the last dealt
seat before it).

``dead`` (tournament tables, R-TOUR-6): the first button is on seat 1 (the first seat with
a player from seat 1 on); then the big blind moves to the next player after the last big
blind, the small blind is the last big blind's seat (dead when that player is out) and the
button the last small blind's seat (dead when empty). Every seat with chips is dealt in,
sitting out or disconnected included: they stay in and their blinds are taken.

>>> import random
>>> seats = {i: Seat(i, f"p{i}", stack=100) for i in (0, 2, 5)}
>>> plan = plan_hand(seats, 6, prev_button=0, prev_dealt=frozenset({0, 2, 5}),
...                  mode="standard", blinds=(1, 2), rng=random.Random(1))
>>> plan.button, plan.seats, plan.blinds
(2, (5, 0, 2), (1, 2, 0))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Protocol

from croupier.table.seating import Seat

__all__ = ["HandPlan", "clockwise", "dealable", "in_arc", "mark_missed_blinds", "plan_hand"]


class Chooser(Protocol):
    def choice(self, seq: list[int], /) -> int: ...


@dataclass(frozen=True, slots=True)
class HandPlan:
    """Who is dealt in and what they post. ``seats`` are in engine position order;
    ``blinds``/``dead`` are per position (``None``: the engine's defaults, for games without
    blinds); ``sb_seat``/``bb_seat`` the natural blinds; ``cleared`` the seats whose blind
    debts this hand settles."""

    button: int
    seats: tuple[int, ...]
    blinds: tuple[int, ...] | None
    dead: tuple[int, ...] | None
    sb_seat: int | None
    bb_seat: int | None
    cleared: frozenset[int]
    sb_spot: int | None = None
    """``dead`` mode: the small blind's seat even when nobody posts it (a dead small blind)."""


def dealable(seat: Seat, mode: str) -> bool:
    """Whether ``seat`` can be dealt in under button ``mode``: at tournament tables
    (``dead``) a player sitting out is dealt in and posts (R-TOUR-6).

    >>> dealable(Seat(0, "a", stack=9, sitting_out=True), "dead"), dealable(Seat(0, "a"), "dead")
    (True, False)
    """
    if mode == "dead":
        return seat.stack > 0 and not seat.leaving
    return seat.ready()


def clockwise(seats: list[int], after: int, count: int) -> list[int]:
    """``seats`` in clockwise order starting just after seat ``after``.

    >>> clockwise([0, 2, 5], 2, 6)
    [5, 0, 2]
    """
    return sorted(seats, key=lambda s: (s - after - 1) % count)


def in_arc(seat: int, start: int, end: int, count: int) -> bool:
    """Whether ``seat`` lies clockwise in ``(start, end]``.

    >>> in_arc(3, 1, 4, 6), in_arc(1, 1, 4, 6), in_arc(0, 4, 1, 6)
    (True, False, True)
    """
    d_seat = (seat - start) % count
    d_end = (end - start) % count
    return 0 < d_seat <= d_end


def plan_hand(
    seats: Mapping[int, Seat],
    count: int,
    *,
    prev_button: int | None,
    prev_dealt: frozenset[int] | None,
    mode: str,
    blinds: tuple[int, int] | None,
    rng: Chooser,
    prev_spots: tuple[int | None, int | None] | None = None,
) -> HandPlan | None:
    """Plan the next hand, or ``None`` if fewer than two players can be dealt in.

    ``blinds`` is ``(small, big)`` for blind games, ``None`` for games without blinds.
    ``prev_spots``: the last hand's small-blind spot and big-blind seat (``dead`` mode).
    """
    ready = sorted(s for s, seat in seats.items() if dealable(seat, mode))
    if len(ready) < 2:
        return None
    if mode == "dead" and blinds is not None:
        posting = frozenset(s for s in ready if seats[s].post_now)
        return _plan_dead(ready, count, prev_button, prev_spots, blinds, posting)
    if mode == "arcade":
        if prev_button is None or prev_dealt != frozenset(ready):
            button = rng.choice(ready)
        else:
            button = clockwise(ready, prev_button, count)[0]
    elif prev_button is None:
        button = rng.choice(ready)
    else:
        button = clockwise(ready, prev_button, count)[0]
    order = clockwise(ready, button, count)
    if blinds is None:
        return HandPlan(button, tuple(order), None, None, None, None, frozenset())
    sb_amount, bb_amount = blinds
    if len(order) == 2:
        sb_seat, bb_seat = order[1], order[0]
    else:
        sb_seat, bb_seat = order[0], order[1]
    if mode == "arcade":
        dealt = order
        posters: list[int] = []
    else:
        owing = [s for s in order if seats[s].owes and s != bb_seat]
        if len(order) - len(owing) < 2:
            owing = []  # the game is (re)starting: everyone is dealt in for free
        posters = [s for s in owing if seats[s].post_now]
        waiting = {s for s in owing if not seats[s].post_now}
        dealt = [s for s in order if s not in waiting]
        if len(dealt) < 2:
            return None
    pos = {s: i for i, s in enumerate(dealt)}
    live = [0] * len(dealt)
    dead = [0] * len(dealt)
    if sb_seat in pos and sb_seat not in posters:
        live[pos[sb_seat]] = sb_amount
    live[pos[bb_seat]] = bb_amount
    for s in posters:
        live[pos[s]] = bb_amount
        if seats[s].owes_sb and seats[s].owes_bb and s != sb_seat:
            dead[pos[s]] = sb_amount
    cleared = frozenset(s for s in dealt if seats[s].owes)
    return HandPlan(
        button,
        tuple(dealt),
        tuple(live),
        tuple(dead),
        sb_seat if sb_seat in pos else None,
        bb_seat,
        cleared,
    )


def _plan_dead(
    ready: list[int],
    count: int,
    prev_button: int | None,
    prev_spots: tuple[int | None, int | None] | None,
    blinds: tuple[int, int],
    posting: frozenset[int] = frozenset(),
) -> HandPlan:
    """The dead-button plan (R-TOUR-6, TDA): see the module docstring. ``posting``: seats
    that post a big blind at once (a player moved to balance tables, R-TOUR-15).

    >>> seats = [0, 2, 3, 5]
    >>> p = _plan_dead(seats, 6, None, None, (1, 2))
    >>> p.button, p.sb_seat, p.bb_seat, p.seats
    (0, 2, 3, (2, 3, 5, 0))
    >>> q = _plan_dead([0, 3, 5], 6, p.button, (p.sb_spot, p.bb_seat), (1, 2))
    >>> q.button, q.sb_seat, q.sb_spot, q.bb_seat, q.seats, q.blinds
    (2, 3, 3, 5, (3, 5, 0), (1, 2, 0))
    >>> r = _plan_dead([0, 5], 6, q.button, (q.sb_spot, q.bb_seat), (1, 2))
    >>> r.button, r.sb_seat, r.bb_seat, r.seats, r.blinds
    (5, 5, 0, (0, 5), (2, 1))
    """
    sb_amount, bb_amount = blinds
    last_sb, last_bb = prev_spots if prev_spots is not None else (None, None)
    sb_seat: int | None
    sb_spot: int | None
    if prev_button is None or last_bb is None:
        button = clockwise(ready, count - 1, count)[0]  # seat 1 (0 here) or the next one
        order = clockwise(ready, button, count)
        sb_seat, bb_seat = (order[1], order[0]) if len(order) == 2 else (order[0], order[1])
        sb_spot = sb_seat
    elif len(ready) == 2:
        # heads-up: the big blind moves on (nobody posts it twice running), the other
        # player has the button and the small blind
        bb_seat = clockwise(ready, last_bb, count)[0]
        button = sb_seat = sb_spot = next(s for s in ready if s != bb_seat)
    else:
        bb_seat = clockwise(ready, last_bb, count)[0]
        sb_spot = last_bb
        sb_seat = last_bb if last_bb in ready else None
        button = last_sb if last_sb is not None and last_sb != last_bb else prev_button
    order = clockwise(ready, button, count)
    pos = {s: i for i, s in enumerate(order)}
    live = [0] * len(order)
    if sb_seat is not None:
        live[pos[sb_seat]] = sb_amount
    live[pos[bb_seat]] = bb_amount
    for s in posting:
        if s not in (sb_seat, bb_seat):
            live[pos[s]] = bb_amount
    return HandPlan(
        button,
        tuple(order),
        tuple(live),
        (0,) * len(order),
        sb_seat,
        bb_seat,
        frozenset(posting),
        sb_spot,
    )


def mark_missed_blinds(
    seats: Mapping[int, Seat],
    count: int,
    *,
    prev: HandPlan | None,
    plan: HandPlan,
) -> dict[int, Seat]:
    """Seats sitting out that the blinds passed since ``prev`` owe them (R-SEAT-3).

    >>> seats = {0: Seat(0, "a", stack=9), 1: Seat(1, "b", stack=9, sitting_out=True),
    ...          2: Seat(2, "c", stack=9), 3: Seat(3, "d", stack=9)}
    >>> prev = HandPlan(2, (3, 0, 2), (1, 2, 0), (0,) * 3, 3, 0, frozenset())
    >>> plan = HandPlan(3, (0, 2, 3), (1, 2, 0), (0,) * 3, 0, 2, frozenset())
    >>> out = mark_missed_blinds(seats, 4, prev=prev, plan=plan)
    >>> out[1].owes_bb, out[1].owes_sb
    (True, False)
    """
    out = dict(seats)
    if prev is None or plan.bb_seat is None or prev.bb_seat is None:
        return out
    dealt = set(plan.seats)
    for s, seat in seats.items():
        if s in dealt or not seat.sitting_out:
            continue
        owes_bb = seat.owes_bb or in_arc(s, prev.bb_seat, plan.bb_seat, count)
        owes_sb = seat.owes_sb
        if prev.sb_seat is not None and plan.sb_seat is not None:
            owes_sb = owes_sb or in_arc(s, prev.sb_seat, plan.sb_seat, count)
        if (owes_bb, owes_sb) != (seat.owes_bb, seat.owes_sb):
            out[s] = replace(seat, owes_bb=owes_bb, owes_sb=owes_sb)
    return out
