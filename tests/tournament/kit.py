"""Helpers for the tournament tests: run a registered tournament of bots on a FakeClock
and record what the tables published."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import partial

from croupier.table.clock import FakeClock
from croupier.table.events import HandBegan, HandSettled, TableEvent
from croupier.tournament.director import Director, seeded_shufflers
from croupier.tournament.money import Cashier, PlayCashier
from croupier.tournament.registration import Launch, Registration, TournamentSpec


@dataclass
class Run:
    """A finished (or stopped) tournament and what was observed."""

    director: Director
    clock: FakeClock
    launch: Launch
    began: list[tuple[int, float, HandBegan]] = field(default_factory=list)
    settled: list[tuple[int, float, int]] = field(default_factory=list)
    """(table, time, chips in play) at every hand's end."""
    spreads: list[int] = field(default_factory=list)
    """max - min players per open table at every hand's start."""


def register_bots(spec: TournamentSpec, n: int, cashier: Cashier | None = None) -> Registration:
    cashier = (
        cashier if cashier is not None else PlayCashier({f"b{i}": spec.buy_in for i in range(n)})
    )
    reg = Registration(spec, cashier)
    for i in range(n):
        reg.register(f"b{i}", f"Bot {i}", is_bot=True, now=spec.opens_at)
    return reg


async def run(
    reg: Registration, seed: int, *, limit: float = 50_000.0, rng: random.Random | None = None
) -> Run:
    """Start ``reg`` and play it to the end on a FakeClock with seeded shufflers."""
    clock = FakeClock(reg.spec.starts_at or 0.0)
    rng = rng if rng is not None else random.Random(seed)
    launch = reg.start(rng)
    director = Director(
        reg.spec,
        launch,
        clock=clock,
        cashier=reg.cashier,
        rng=rng,
        shuffler=seeded_shufflers(seed),
        testing=True,
    )
    out = Run(director, clock, launch)
    await director.start()

    def watch(table: int, event: TableEvent) -> None:
        data = event.data
        if isinstance(data, HandBegan):
            out.began.append((table, clock.now(), data))
            counts = director.counts().values()
            out.spreads.append(max(counts) - min(counts))
        elif isinstance(data, HandSettled):
            out.settled.append((table, clock.now(), director.chips_in_play()))

    for t, actor in director.actors.items():
        actor.subscribe(None, partial(watch, t), internal=True)
    await clock.run_until(lambda: director.finished, limit=limit)
    await clock.advance(1.0)  # let the director close the tables
    return out


def standard_places(places: list[int], entrants: int) -> bool:
    """One winner, every entrant placed; players out in the same hand with equal stacks
    share a place and the next place skips past them (R-TOUR-12: 1, 2, 2 when both
    others bust together from the same stack).

    >>> standard_places([1, 2, 3], 3), standard_places([1, 2, 2], 3)
    (True, True)
    >>> standard_places([1, 1, 3], 3), standard_places([1, 3, 3], 3)
    (False, False)
    """
    if len(places) != entrants or places.count(1) != 1:
        return False
    return all(p == i + 1 or p == places[i - 1] for i, p in enumerate(places))
