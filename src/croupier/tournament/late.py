"""Late registration and re-entry of a running scheduled event (R-TOUR-11, R-TOUR-15).

While late registration is open (until the end of level ``spec.late_levels``):

* a late entrant gets a full stack and the seat R-TOUR-15 gives: the table with the
  fewest players (ties: the lowest number), a random free seat there (a new table when
  every table is full); they wait for the big blind like any new player;
* a player out may enter again (``spec.reentries`` times): their bust is forgotten, they
  get a new full stack and a new seat;
* busts are *pending*: they get no place yet, since the field still grows.

When it closes the pool and the payout table are fixed on the entries taken (R-TOUR-11)
and the pending busts take the worst places, the latest bust the best of them, players
out in the same hand ranked by their stacks when it began (R-TOUR-12).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from croupier.tournament.errors import TournamentError
from croupier.tournament.registration import Entrant
from croupier.tournament.scheduled import free_seat

if TYPE_CHECKING:
    from croupier.tournament.director import Director

__all__ = ["add_entry", "close_late", "late_open", "record_busts"]


def late_open(d: Director) -> bool:
    """Late registration is open: the level in force is at most ``late_levels`` and the
    event is not over."""
    return d.late and not d.finished


def record_busts(
    d: Director, players: list[str], start: dict[str, int], order: dict[str, tuple[int, int]]
) -> None:
    """Busts during late registration: pending, ranked when it closes (``order``: their
    odd-chip order from the button's left, R-TOUR-12)."""
    d.group += 1
    at = d.clock.now()
    for p in players:
        d.pending.append((p, start[p], d.group, at))
        d.pending_order[p] = order[p]


def is_out(d: Director, player_id: str) -> bool:
    """``player_id`` busted during late registration (may re-enter)."""
    return any(p == player_id for p, _, _, _ in d.pending)


async def add_entry(d: Director, entrant: Entrant) -> None:
    """Seat a late entrant or a re-entry with a full stack (the buy-in was taken)."""
    if not late_open(d):
        raise TournamentError("registration_closed", "late registration is closed")
    p = entrant.player_id
    if p in d.where:
        raise TournamentError("already_registered", f"{p} is still playing")
    d.pending = [b for b in d.pending if b[0] != p]
    stack = d.spec.starting_stack
    d.entrants[p] = entrant
    d.total_chips += stack
    d.stacks[p] = stack
    d.bank.holdings[p] = d.bank.holding(p) + stack
    # the launch takes the entry before any await: a state saved meanwhile (another
    # table's hand) has its stack and its buy-in together (R-CRASH-1)
    launch = d.launch
    entries = len(launch.entrants) + 1
    pool = d.spec.buy_in * entries
    d.launch = replace(
        launch,
        entrants=(*launch.entrants, entrant),
        pool=pool,
        prizes=d.spec.payouts.prizes(pool, entries),
    )
    counts = d.counts()
    # seats reserved for players still in, and seats not yet left (a bust, a mover)
    taken = {
        t: {s for _, (tt, s) in d.where.items() if tt == t} | set(d.actors[t].table.seats)
        for t in d.actors
    }
    open_tables = [t for t in d.actors if len(taken[t]) < d.spec.seats and t not in d._closing]
    if open_tables:
        table = min(open_tables, key=lambda t: (counts[t], t))
        seat = free_seat(taken[table], d.spec.seats, d.rng)
        d.where[p] = (table, seat)
        result = await d._sit(p, table, seat, post_bb=False)
        if not result.accepted:  # pragma: no cover - a bug: the seat was free
            raise TournamentError("seat_refused", f"{p}: {result.code}")
    else:
        table = max(list(d.actors) + list(d._closing) + [-1]) + 1
        seat = free_seat(set(), d.spec.seats, d.rng)
        d.where[p] = (table, seat)
        await d._open({p: (table, seat)}, arm=False)
    d.late_entries.append((p, d.clock.now()))
    d._save()


def close_late(d: Director) -> None:
    """Late registration closes: fix the pool and prizes, place the pending busts."""
    if not d.late:
        return
    d.late = False
    launch = d.launch
    entries = len(launch.entrants)
    pool = d.spec.buy_in * entries
    d.launch = replace(launch, pool=pool, prizes=d.spec.payouts.prizes(pool, entries))
    from croupier.tournament.director import rank_out

    worse = 0
    groups = sorted({g for _, _, g, _ in d.pending}, reverse=True)  # latest bust first
    placed = []
    for g in groups:
        members = [(p, s, at) for p, s, gg, at in d.pending if gg == g]
        first = len(d.where) + worse + 1
        start = {p: s for p, s, _ in members}
        placed += rank_out(
            [p for p, _, _ in members],
            start,
            first,
            d.launch.prizes,
            members[0][2],
            d.pending_order,
        )
        worse += len(members)
    d.placings.extend(placed)
    d.pending = []
    d.pending_order = {}
    d._save()
