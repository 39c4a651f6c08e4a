"""The tournaments of this process: published events, their registrations and, once
started, their directors (what the lobby lists and the HTTP routes call).

A Sit & Go or a Spin starts the moment its last seat is taken (R-TOUR-1, R-TOUR-2); a
scheduled tournament starts at its time on the clock, or is cancelled and refunded if it
is short of entrants (R-TOUR-3). Every refusal is a
:class:`~croupier.tournament.errors.TournamentError` with a code and changes nothing.

>>> import asyncio, random
>>> from croupier.table.clock import FakeClock
>>> from croupier.tournament.money import PlayCashier
>>> from croupier.tournament.sitngo import sit_and_go
>>> async def demo():
...     reg = TournamentRegistry(PlayCashier({"ann": 100}), clock=FakeClock(),
...                              rng=random.Random(1), testing=True)
...     reg.add(sit_and_go("sng-1", "Heads-up 100", seats=2, buy_in=100))
...     await reg.register("sng-1", "ann")
...     row = reg.summaries()[0]
...     return row["status"], row["entrants"], row["pool"]
>>> asyncio.run(demo())
('registering', 1, 100)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from croupier.bots.strategies import Strategy
from croupier.engine.rng import Shuffler
from croupier.table.actor import TableActor
from croupier.table.clock import Clock
from croupier.table.journal import Journal
from croupier.tournament.director import Director, seeded_shufflers
from croupier.tournament.errors import TournamentError
from croupier.tournament.money import Cashier
from croupier.tournament.registration import Entrant, Registration, Status, TournamentSpec

__all__ = ["Event", "TournamentRegistry"]


@dataclass(slots=True)
class Event:
    """One published tournament: its registration and, once started, its director."""

    registration: Registration
    director: Director | None = None
    recurring: bool = False
    """A Sit & Go or Spin published again (``<id>.<n>``) as soon as it starts."""
    root: str = ""

    @property
    def spec(self) -> TournamentSpec:
        return self.registration.spec

    @property
    def status(self) -> Status:
        reg = self.registration
        if self.director is not None and self.director.finished:
            return Status.FINISHED
        return reg.status


class TournamentRegistry:
    """Owns every tournament of the process (one event loop, so no locking)."""

    def __init__(
        self,
        cashier: Cashier,
        *,
        clock: Clock,
        rng: random.Random | None = None,
        testing: bool = False,
        strategy: Callable[[Entrant], Strategy] | None = None,
        journal: Journal | None = None,
        on_table: Callable[[str, TableActor | None], None] | None = None,
    ) -> None:
        self.cashier = cashier
        self.on_table = on_table
        self.clock = clock
        self.rng: random.Random = rng if rng is not None else random.SystemRandom()
        self.testing = testing
        self.strategy = strategy
        self.journal = journal
        self.events: dict[str, Event] = {}
        self._next: dict[str, int] = {}
        self.keep_finished = 10

    def add(self, spec: TournamentSpec, *, recurring: bool = False) -> Event:
        """Publish ``spec`` (``tournament_exists`` if the id is taken). A scheduled event's
        start is armed on the clock; a ``recurring`` Sit & Go or Spin is published again
        under a new id when it starts."""
        if spec.tournament_id in self.events:
            raise TournamentError("tournament_exists", f"{spec.tournament_id} exists")
        if recurring and spec.kind == "scheduled":
            raise TournamentError("bad_spec", "only a Sit & Go or a Spin recurs")
        root = spec.tournament_id.split(".")[0]
        event = Event(Registration(spec, self.cashier), recurring=recurring, root=root)
        self.events[spec.tournament_id] = event
        if spec.kind == "scheduled":
            assert spec.starts_at is not None
            self.clock.call_at(spec.starts_at, lambda: self._scheduled_start(event))
        return event

    def get(self, tournament_id: str) -> Event:
        event = self.events.get(tournament_id)
        if event is None:
            raise TournamentError("unknown_tournament", f"no tournament {tournament_id!r}")
        return event

    async def register(
        self, tournament_id: str, player_id: str, name: str = "", *, is_bot: bool = False
    ) -> Entrant:
        """Register; the last seat of a Sit & Go or Spin starts it."""
        event = self.get(tournament_id)
        entrant = event.registration.register(player_id, name, is_bot=is_bot, now=self.clock.now())
        if event.spec.kind != "scheduled" and event.registration.full:
            await self._start(event)
        return entrant

    def unregister(self, tournament_id: str, player_id: str) -> None:
        """Unregister before the start; the buy-in is refunded."""
        self.get(tournament_id).registration.unregister(player_id, now=self.clock.now())

    async def _start(self, event: Event) -> None:
        launch = event.registration.start(self.rng)
        if event.recurring:
            self._next[event.root] = n = self._next.get(event.root, 1) + 1
            spec = replace(event.spec, tournament_id=f"{event.root}.{n}")
            self.add(spec, recurring=True)
        shuffler: Callable[[int], Shuffler] | None = None
        if self.testing:
            shuffler = seeded_shufflers(self.rng.getrandbits(32))
        event.director = Director(
            event.spec,
            launch,
            clock=self.clock,
            cashier=self.cashier,
            rng=random.Random(self.rng.getrandbits(64)) if self.testing else None,
            shuffler=shuffler,
            strategy=self.strategy,
            journal=self.journal,
            testing=self.testing,
            on_table=self.on_table,
        )
        await event.director.start()

    async def _scheduled_start(self, event: Event) -> None:
        reg = event.registration
        if reg.status is not Status.REGISTERING:
            return
        if len(reg.entrants) < event.spec.min_entrants:
            reg.cancel()
            return
        await self._start(event)

    def summaries(self) -> list[dict[str, Any]]:
        """What the lobby lists: the published terms, status, entrants, pool and prizes,
        and the standings once started (finished events: the last ``keep_finished``)."""
        rows = []
        done = [
            t for t, e in self.events.items() if e.status in (Status.FINISHED, Status.CANCELLED)
        ]
        hidden = set(done[: max(0, len(done) - self.keep_finished)])
        for tid, event in self.events.items():
            if tid in hidden:
                continue
            reg = event.registration
            row = event.spec.summary()
            row["status"] = event.status.value
            row["entrants"] = len(reg.entrants)
            row["pool"] = self.cashier.pool(tid)
            if reg.launch is not None:
                row["prizes"] = list(reg.launch.prizes)
                row["pool"] = reg.launch.pool
                if reg.launch.multiplier is not None:
                    row["multiplier"] = reg.launch.multiplier.multiplier
            if event.director is not None:
                row["standings"] = [
                    {"player_id": p.player_id, "place": p.place, "prize": p.prize}
                    for p in event.director.standings()
                ]
                row["tables"] = sorted(event.director.table_id(t) for t in event.director.actors)
                row["seating"] = event.director.seating()
            rows.append(row)
        return rows

    async def close(self) -> None:
        """Stop every running tournament's tables."""
        for event in self.events.values():
            if event.director is not None:
                for actor in event.director.actors.values():
                    if actor.alive:
                        await actor.stop()
