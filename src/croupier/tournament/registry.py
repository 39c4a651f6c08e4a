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
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, cast

from croupier.bots.strategies import Strategy
from croupier.engine.rng import Shuffler
from croupier.store.tournaments import EventRow
from croupier.table.actor import TableActor
from croupier.table.clock import Clock
from croupier.table.journal import Journal
from croupier.tournament import journaled, late
from croupier.tournament.director import Director, seeded_shufflers
from croupier.tournament.errors import TournamentError
from croupier.tournament.money import Cashier
from croupier.tournament.persist import TournamentStore, spec_from_json
from croupier.tournament.registration import (
    Entrant,
    Launch,
    Registration,
    Status,
    TournamentSpec,
)

__all__ = ["DONE", "Event", "TournamentRegistry"]

DONE = (Status.FINISHED.value, Status.CANCELLED.value)
"""Statuses of events that are over: after a restart the last ``keep_finished`` of them
are listed again, read-only (Decision, docs/tournaments.md)."""


def _launch(spec: TournamentSpec, saved: dict[str, Any]) -> Launch:
    """The launch journaled in a director's state (entrants, pool, prizes, a Spin's
    multiplier and its levels)."""
    entrants = tuple(
        Entrant(str(p), str(n), bool(b), str(k), str(e)) for p, n, b, k, e in saved["entrants"]
    )
    prize = None
    schedule = None
    if spec.spin is not None and saved.get("multiplier") is not None:
        prize = next(p for p in spec.spin.prizes if p.multiplier == saved["multiplier"])
        schedule = spec.spin.schedule(prize)
    return Launch(entrants, int(saved["pool"]), tuple(saved["prizes"]), prize, schedule)


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
        store: TournamentStore | None = None,
    ) -> None:
        self.cashier = cashier
        self.wall: Callable[[], float] = time.time
        """The wall clock of the times shown to players (``…_at_ms``)."""
        self.store = store
        """Where events, registrations and directors' states are journaled (``None``:
        in memory only, lost at a restart)."""
        self.on_table = on_table
        self.clock = clock
        self.rng: random.Random = rng if rng is not None else random.SystemRandom()
        self.testing = testing
        self.strategy = strategy
        self.journal = journal
        self.events: dict[str, Event] = {}
        self._next: dict[str, int] = {}
        self.keep_finished = 10
        """How many finished or cancelled events the lobby lists (the newest), in this
        process and after a restart (Decision, docs/tournaments.md)."""

    def add(self, spec: TournamentSpec, *, recurring: bool = False) -> Event:
        """Publish ``spec`` (``tournament_exists`` if the id is taken). A scheduled event's
        start is armed on the clock; a ``recurring`` Sit & Go or Spin is published again
        under a new id when it starts."""
        if spec.tournament_id in self.events:
            raise TournamentError("tournament_exists", f"{spec.tournament_id} exists")
        if recurring and spec.kind == "scheduled":
            raise TournamentError("bad_spec", "only a Sit & Go or a Spin recurs")
        root = spec.tournament_id.split(".")[0]
        if self.store is not None and spec.tournament_id in self.store.used_ids(root):
            raise TournamentError("tournament_exists", f"{spec.tournament_id} was used before")
        event = self._event(spec, recurring, root)
        if self.store is not None:
            self.store.published(spec, root, recurring)
        return event

    def _event(self, spec: TournamentSpec, recurring: bool, root: str) -> Event:
        reg = Registration(spec, self.cashier)
        if self.store is not None:
            reg.on_change = self.store.registration_changed
        event = Event(reg, recurring=recurring, root=root)
        self.events[spec.tournament_id] = event
        if spec.kind == "scheduled":
            assert spec.starts_at is not None
            self.clock.call_at(spec.starts_at, lambda: self._scheduled_start(event))
        return event

    def publish(self, spec: TournamentSpec, *, recurring: bool = False) -> Event:
        """Publish ``spec`` under its id, or — when that id was ever used (in this process
        or, with a store, in an earlier one) — under the next free ``<id>.<n>``. A
        recurring event already registering (restored after a restart) is kept as is."""
        root = spec.tournament_id.split(".")[0]
        for event in self.events.values():
            if event.root == root and event.recurring and event.status is Status.REGISTERING:
                return event
        used = set(self.events) | (self.store.used_ids(root) if self.store is not None else set())
        if spec.tournament_id not in used:
            return self.add(spec, recurring=recurring)
        n = self._next_number(root, used)
        return self.add(replace(spec, tournament_id=f"{root}.{n}"), recurring=recurring)

    def _next_number(self, root: str, used: set[str]) -> int:
        numbers = [self._next.get(root, 1)]
        for tid in used:
            head, _, tail = tid.partition(".")
            if head == root and tail.isdigit():
                numbers.append(int(tail))
        self._next[root] = n = max(numbers) + 1
        return n

    async def restore(self) -> list[str]:
        """After a restart: registering events come back with their registrations (an
        entry whose buy-in never reached the ledger is dropped), running ones resume from
        their directors' journaled state (the cut hands are void). Returns the ids."""
        if self.store is None:
            return []
        out: list[str] = []
        live = self.store.journal.load(("registering", "running"))
        over = self.store.journal.load(DONE, newest=self.keep_finished)
        rows = sorted([*live, *over], key=lambda r: (r.created_ms, r.id))  # the lobby's order
        for row in rows:
            if row.id in self.events or not row.spec:
                continue
            if row.status in DONE:
                self._restore_done(row)
                continue
            spec = spec_from_json(row.spec)
            event = self._event(spec, row.recurring, row.root)
            reg = event.registration
            for e in row.entries:
                if e.status != "active":
                    continue
                if spec.buy_in and not self.store.transfer_exists(e.idem_key):
                    self.store.journal.set_entry_status(e.entry_id, "declined")
                    continue
                reg.entrants.append(Entrant(e.player_id, e.name, e.is_bot, e.idem_key, e.entry_id))
            out.append(row.id)
            if row.status == "running" and row.state is not None:
                self._reconcile_late(event, row.entries, row.state)
                await self._resume(event, row.state)
            elif spec.kind != "scheduled" and reg.full:
                await self._start(event)
        for root in {r.root for r in rows}:
            self._next_number(root, self.store.used_ids(root))
        return out

    def _restore_done(self, row: EventRow) -> None:
        """A finished or cancelled event listed again after a restart, read-only: its
        terms, entrants, pool, prizes and standings as journaled. Nothing restarts it:
        registering is refused (``registration_closed``), no clock is armed, no table
        opens and no chip moves (its prizes were paid before it was journaled
        ``finished``)."""
        spec = spec_from_json(row.spec)
        reg = Registration(spec, self.cashier)
        event = Event(reg, recurring=row.recurring, root=row.root)
        state = row.state or {}
        saved = state.get("launch")
        if row.status == Status.FINISHED.value and saved is not None:
            reg.launch = launch = _launch(spec, saved)
            reg.entrants = list(launch.entrants)
            event.director = journaled.finished_from(
                spec, launch, state, clock=self.clock, cashier=self.cashier
            )
            reg.status = Status.FINISHED
        else:
            reg.entrants = [
                Entrant(e.player_id, e.name, e.is_bot, e.idem_key, e.entry_id)
                for e in row.entries
                if e.status == "active"
            ]
            reg.status = Status.CANCELLED
        self.events[spec.tournament_id] = event

    def _reconcile_late(self, event: Event, entries: Any, state: dict[str, Any]) -> None:
        """A late entry (or re-entry) whose buy-in reached the pool but not the director's
        journaled state: the process died between the two writes (R-TOUR-11, R-CRASH-1).
        The entrant was never seated nor told, so the buy-in goes back under the entry's
        own key (``<key>:refund``, idempotent if this restart is cut too) and the row is
        marked ``refunded``: the pool equals the journaled launch pool again."""
        assert self.store is not None
        spec = event.spec
        seated = {str(e[4]) for e in state["launch"]["entrants"]}
        for e in entries:
            if e.status != "active" or e.entry_id in seated:
                continue
            if not spec.buy_in:
                self.store.journal.set_entry_status(e.entry_id, "declined")
            elif self.store.transfer_exists(e.idem_key):  # else declined above
                event.registration.cashier.refund(
                    spec.tournament_id, e.player_id, spec.buy_in, f"{e.idem_key}:refund"
                )
                self.store.journal.set_entry_status(e.entry_id, "refunded")

    async def _resume(self, event: Event, state: dict[str, Any]) -> None:
        spec, reg = event.spec, event.registration
        launch = _launch(spec, state["launch"])
        reg.entrants = list(launch.entrants)
        reg.launch = launch
        reg.status = Status.RUNNING
        event.director = self._director(event, launch)
        await event.director.resume(state)

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
        director = event.director
        if director is not None and event.registration.status is Status.RUNNING:
            # late registration or re-entry (R-TOUR-11)
            if not late.late_open(director):
                raise TournamentError("registration_closed", f"{tournament_id} has started")
            out = late.is_out(director, player_id)
            entrant = event.registration.register_late(player_id, name, is_bot=is_bot, out=out)
            await late.add_entry(director, entrant)
            event.registration.launch = director.launch
            return entrant
        entrant = event.registration.register(player_id, name, is_bot=is_bot, now=self.clock.now())
        if event.spec.kind != "scheduled" and event.registration.full:
            await self._start(event)
        return entrant

    async def fill_with_bots(
        self,
        tournament_id: str,
        player_id: str,
        bot_account: Callable[[str, int], Awaitable[int]],
    ) -> int:
        """A registered player fills the free seats of a Sit & Go or Spin with bots where
        the event allows them (R-BOT-1); the last seat starts it. ``bot_account(pool, i)``
        gives the account of the ``i``-th bot of a pool (created once, reused). Returns
        the bots registered. Refusals: ``not_registered``, ``bots_not_allowed``,
        ``registration_closed``."""
        event = self.get(tournament_id)
        reg = event.registration
        if not any(e.player_id == player_id for e in reg.entrants):
            raise TournamentError("not_registered", "register before filling seats with bots")
        if not event.spec.bots_allowed or event.spec.kind == "scheduled":
            raise TournamentError("bots_not_allowed", "this event seats no bots")
        if event.status != "registering":  # started, finished or cancelled
            raise TournamentError("registration_closed", f"{tournament_id} is {event.status}")
        added, i = 0, 0
        limit = 10 * max(event.spec.max_entrants, event.spec.seats, 1)  # a bound, never reached
        while reg.status is Status.REGISTERING and not reg.full and i < limit:
            uid = await bot_account(f"tour-{tournament_id}", i)
            i += 1
            if any(e.player_id == str(uid) for e in reg.entrants):
                continue
            await self.register(tournament_id, str(uid), f"{tournament_id}-{i}", is_bot=True)
            added += 1
        return added

    def unregister(self, tournament_id: str, player_id: str) -> None:
        """Unregister before the start; the buy-in is refunded."""
        self.get(tournament_id).registration.unregister(player_id, now=self.clock.now())

    async def _start(self, event: Event) -> None:
        launch = event.registration.start(self.rng)
        event.director = self._director(event, launch)
        # the launch (a Spin's draw) is journaled before any await
        event.director._save(strict=True)
        if event.recurring:
            used = set(self.events)
            if self.store is not None:
                used |= self.store.used_ids(event.root)
            n = self._next_number(event.root, used)
            spec = replace(event.spec, tournament_id=f"{event.root}.{n}")
            self.add(spec, recurring=True)
        await event.director.start()

    def _director(self, event: Event, launch: Launch) -> Director:
        shuffler: Callable[[int], Shuffler] | None = None
        if self.testing:
            shuffler = seeded_shufflers(self.rng.getrandbits(32))
        return Director(
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
            on_state=None if self.store is None else self.store.director_state,
            on_hand=None if self.store is None else self.store.hand_record,
        )

    async def _scheduled_start(self, event: Event) -> None:
        reg = event.registration
        if reg.status is not Status.REGISTERING:
            return
        if len(reg.entrants) < event.spec.min_entrants:
            reg.cancel()
            return
        await self._start(event)

    def _wall_ms(self, seconds_from_now: float) -> int:
        """A moment ``seconds_from_now`` as wall-clock milliseconds, to the second (a
        lobby row stays the same from one second to the next: no broadcast every tick)."""
        return round(self.wall() + seconds_from_now) * 1000

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
            row["registered"] = [e.player_id for e in reg.entrants]
            row["names"] = {e.player_id: e.name for e in reg.entrants}
            now = self.clock.now()
            if event.spec.starts_at is not None and reg.status is Status.REGISTERING:
                row["starts_at_ms"] = self._wall_ms(max(0.0, event.spec.starts_at - now))
            row["pool"] = self.cashier.pool(tid)
            launch = event.director.launch if event.director is not None else reg.launch
            if launch is not None:
                row["prizes"] = list(launch.prizes)
                row["pool"] = launch.pool
                if launch.multiplier is not None:
                    row["multiplier"] = launch.multiplier.multiplier
            if event.director is not None:
                row["late_open"] = late.late_open(event.director)
                row["deal"] = event.director.deal_view()
            if event.director is not None:
                row["standings"] = [
                    {"player_id": p.player_id, "place": p.place, "prize": p.prize}
                    for p in event.director.standings()
                ]
                row["tables"] = sorted(
                    event.director.table_id(t)
                    for t, actor in event.director.actors.items()
                    if actor.alive and not event.director.finished
                )
                row["seating"] = event.director.seating()
                row |= event.director.progress()
                ends_in = cast("float | None", row.pop("level_ends_in"))
                row["level_ends_at_ms"] = None if ends_in is None else self._wall_ms(ends_in)
                pause = cast("float | None", row.pop("break_ends_in"))
                row["break_ends_at_ms"] = None if pause is None else self._wall_ms(pause)
            rows.append(row)
        return rows

    def results(self, player_id: str, limit: int = 20) -> list[dict[str, Any]]:
        """``player_id``'s finished tournaments, newest first: place, prize, entrants (the
        History page). From the store's journal when there is one, else this process."""
        out: list[dict[str, Any]] = []
        if self.store is not None:
            for row in reversed(self.store.journal.load(("finished",))):
                state = row.state or {}
                mine = [p for p in state.get("placings", []) if p[0] == player_id]
                if not mine:
                    continue
                launch = state.get("launch", {})
                out.append(
                    {
                        "id": row.id,
                        "name": row.spec.get("name", row.id),
                        "kind": row.kind,
                        "place": mine[0][1],
                        "prize": mine[0][2],
                        "entrants": len(launch.get("entrants", [])),
                        "multiplier": launch.get("multiplier"),
                    }
                )
        else:
            for tid, event in reversed(list(self.events.items())):
                director = event.director
                if director is None or not director.finished:
                    continue
                for p in director.placings:
                    if p.player_id == player_id:
                        out.append(
                            {
                                "id": tid,
                                "name": event.spec.name,
                                "kind": event.spec.kind,
                                "place": p.place,
                                "prize": p.prize,
                                "entrants": len(director.entrants),
                                "multiplier": director.launch.multiplier.multiplier
                                if director.launch.multiplier is not None
                                else None,
                            }
                        )
        return out[:limit]

    async def close(self) -> None:
        """Stop every running tournament's tables."""
        for event in self.events.values():
            if event.director is not None:
                for actor in event.director.actors.values():
                    if actor.alive:
                        await actor.stop()
