"""Scheduled multi-table tournaments (R-TOUR-3): the event's terms, the seat draw over
several tables (R-SEAT-2), balancing and table breaking — as pure functions the
:class:`~croupier.tournament.director.Director` applies at hand boundaries.

Rules (documented in ``docs/tournaments.md``):

* **Draw**: entrants are shuffled with the injected rng and dealt round the tables one at
  a time (table sizes differ by at most one), each to a random free seat.
* **Breaking**: when the players left fit in fewer tables (``ceil(players / seats)``), the
  table with the fewest players (ties: the highest number) is broken at its next hand
  boundary; its players go one at a time, in random order, to the table with the fewest
  players (ties: the lowest number), to a random free seat there, and wait for the big
  blind there (they are dealt in when it reaches them).
* **Balancing**: when the largest table has two players or more than the smallest, the
  largest table (ties: the lowest number among those at a hand boundary) gives one player
  to the smallest: the player due to post the big blind next, who posts a big blind at once
  at the new table, so no one gains or loses a blind by moving.

>>> import random
>>> from collections import Counter
>>> seats = draw_seats([f"p{i}" for i in range(30)], 9, random.Random(7))
>>> sorted(Counter(t for t, _ in seats.values()).values())
[7, 7, 8, 8]
>>> tables_needed(30, 9), tables_needed(27, 9), tables_needed(1, 9)
(4, 3, 1)
>>> table_to_break({0: 8, 1: 5, 2: 5, 3: 6}, 9)
2
>>> table_to_break({0: 8, 1: 9, 2: 9, 3: 9}, 9) is None
True
>>> balance_move({0: 9, 1: 7, 2: 9}, at_boundary={2})
(2, 1)
>>> balance_move({0: 9, 1: 8, 2: 9}, at_boundary={0, 1, 2}) is None
True
>>> next_big_blind([1, 3, 5, 8], last_big_blind=5, seats=9)
8
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, Protocol

from croupier.tournament.errors import TournamentError
from croupier.tournament.registration import TournamentSpec
from croupier.tournament.structures import STANDARD, STANDARD_PAYOUTS

__all__ = [
    "balance_move",
    "break_destinations",
    "draw_seats",
    "free_seat",
    "next_big_blind",
    "scheduled",
    "table_to_break",
    "tables_needed",
]


class _Rng(Protocol):
    def shuffle(self, x: list[Any], /) -> None: ...

    def choice(self, seq: Sequence[Any], /) -> Any: ...


def scheduled(
    tournament_id: str,
    name: str,
    *,
    opens_at: float,
    starts_at: float,
    buy_in: int = 100,
    seats: int = 9,
    max_entrants: int = 1000,
    min_entrants: int = 2,
    **terms: Any,
) -> TournamentSpec:
    """A scheduled tournament's terms (R-TOUR-3): registration from ``opens_at`` until
    ``starts_at`` (tournament clock, seconds), standard levels and payouts by default.

    >>> spec = scheduled("mtt-1", "Sunday 100", opens_at=0, starts_at=3600, max_entrants=100)
    >>> spec.kind, spec.seats, spec.starting_stack
    ('scheduled', 9, 3000)
    """
    terms.setdefault("schedule", STANDARD)
    terms.setdefault("payouts", STANDARD_PAYOUTS)
    terms.setdefault("starting_stack", 3000)
    terms.setdefault("breaks", (7200.0, 3600.0, 300.0))  # R-TOUR-18
    return TournamentSpec(
        tournament_id,
        name,
        kind="scheduled",
        buy_in=buy_in,
        seats=seats,
        max_entrants=max_entrants,
        min_entrants=min_entrants,
        opens_at=opens_at,
        starts_at=starts_at,
        **terms,
    )


def tables_needed(players: int, seats: int) -> int:
    """How many tables ``players`` need at ``seats`` a table (at least one)."""
    return max(1, -(-players // seats))


def draw_seats(players: Sequence[str], seats: int, rng: _Rng) -> dict[str, tuple[int, int]]:
    """Random seats (R-SEAT-2): ``player -> (table, seat)`` over ``tables_needed`` tables,
    sizes differing by at most one."""
    if seats < 2:
        raise TournamentError("bad_seats", "a table has at least two seats")
    order = list(players)
    rng.shuffle(order)
    count = tables_needed(len(order), seats)
    free: list[list[int]] = [list(range(seats)) for _ in range(count)]
    out: dict[str, tuple[int, int]] = {}
    for i, player in enumerate(order):
        table = i % count
        seat = rng.choice(free[table])
        free[table].remove(seat)
        out[player] = (table, seat)
    return out


def table_to_break(counts: Mapping[int, int], seats: int) -> int | None:
    """The table to break (fewest players, ties: the highest number), or ``None`` when the
    players still need every table."""
    if len(counts) <= tables_needed(sum(counts.values()), seats):
        return None
    return min(counts, key=lambda t: (counts[t], -t))


def break_destinations(
    movers: Sequence[str], counts: Mapping[int, int], broken: int
) -> dict[str, int]:
    """Where each player of the ``broken`` table goes, in the given (random) order: each to
    the remaining table with the fewest players (ties: the lowest number)."""
    left = {t: n for t, n in counts.items() if t != broken}
    if not left:
        raise TournamentError("no_table", "cannot break the last table")
    out: dict[str, int] = {}
    for player in movers:
        dest = min(left, key=lambda t: (left[t], t))
        out[player] = dest
        left[dest] += 1
    return out


def balance_move(counts: Mapping[int, int], at_boundary: Collection[int]) -> tuple[int, int] | None:
    """``(from, to)``: one player from a largest table at a hand boundary (ties: the lowest
    number) to the smallest table (ties: the lowest number), when they differ by more than
    one; else ``None``."""
    if len(counts) < 2:
        return None
    high, low = max(counts.values()), min(counts.values())
    if high - low <= 1:
        return None
    sources = sorted(t for t, n in counts.items() if n == high and t in at_boundary)
    if not sources:
        return None
    dest = min((t for t, n in counts.items() if n == low), key=lambda t: t)
    return sources[0], dest


def next_big_blind(occupied: Sequence[int], last_big_blind: int | None, seats: int) -> int:
    """The occupied seat due the big blind next: the first clockwise after the last big
    blind (or the lowest seat when no hand was dealt)."""
    if not occupied:
        raise TournamentError("no_player", "nobody to move")
    if last_big_blind is None:
        return min(occupied)
    return min(occupied, key=lambda s: (s - last_big_blind - 1) % seats)


def free_seat(taken: Collection[int], seats: int, rng: _Rng) -> int:
    """A random free seat."""
    free = [s for s in range(seats) if s not in taken]
    if not free:
        raise TournamentError("table_full", "no free seat")
    return int(rng.choice(free))
