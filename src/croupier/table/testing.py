"""A test harness for tables (also for the lobby and tournament layers' tests): a table
actor on a :class:`FakeClock` with a seeded shuffler, an in-memory journal, play chips
and a spectator stream, plus leak checks for delivered events.

>>> import asyncio
>>> async def demo():
...     h = await Harness.create()
...     await h.sit("ann"); await h.sit("bob")
...     await h.next_hand()
...     return h.table.hand_no, h.to_act() in ("ann", "bob")
>>> asyncio.run(demo())
(1, True)
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from croupier.engine.cards import Card
from croupier.engine.events import CardBurnt, CardsShown, Drew, Event, HoleDealt
from croupier.engine.game import Game
from croupier.engine.naiko import Peeked
from croupier.engine.rng import SeededShuffler
from croupier.engine.rules import profile
from croupier.table.actor import EventStream, TableActor
from croupier.table.bank import PlayChips
from croupier.table.clock import FakeClock
from croupier.table.commands import Act, Command
from croupier.table.config import TableConfig
from croupier.table.events import TableEvent, TableSnapshot, Turn
from croupier.table.journal import HandStartRecord, InMemoryJournal
from croupier.table.results import CommandResult
from croupier.table.table import Table

__all__ = ["Harness", "LeakError", "check_event", "check_snapshot", "data_of"]

N = TypeVar("N")


def data_of(events: Iterable[TableEvent], kind: type[N]) -> list[N]:
    """The payloads of ``events`` that are ``kind`` (typed filtering for tests)."""
    return [e.data for e in events if isinstance(e.data, kind)]


class LeakError(AssertionError):
    """A hidden card reached the wrong audience."""


def check_event(event: TableEvent, audience: str | None, shown: set[Card]) -> None:
    """Raise :class:`LeakError` if ``event`` (as delivered to ``audience``) shows a card that
    audience may not see. ``shown`` collects cards revealed at showdown so far in the hand."""
    data = event.data
    pos = event.players.index(audience) if audience in event.players else None
    if isinstance(data, HoleDealt) and data.player != pos:
        for c, up in zip(data.cards, data.up, strict=True):
            if c is not None and not up:
                raise LeakError(f"{audience} saw a down card of player {data.player}: {event}")
    elif isinstance(data, CardBurnt) and data.card is not None:
        raise LeakError(f"{audience} saw a burnt card: {event}")
    elif isinstance(data, Drew) and data.player != pos:
        if any(c is not None for c in (*data.discarded, *data.received)):
            raise LeakError(f"{audience} saw another player's draw: {event}")
    elif isinstance(data, Peeked) and data.player != pos and data.card is not None:
        raise LeakError(f"{audience} saw another player's Coup d'Œil: {event}")
    elif isinstance(data, CardsShown):
        shown.update(data.cards)
    elif isinstance(data, Turn) and data.view is not None:
        if data.player_id != audience:
            raise LeakError(f"{audience} got another player's turn view: {event}")
        for q, p in enumerate(data.view.players):
            if q != data.position and not p.shown:
                for c, up in zip(p.cards, p.up, strict=True):
                    if c is not None and not up:
                        raise LeakError(f"turn view leaks player {q}'s card to {audience}")
    elif isinstance(data, Event) and not isinstance(data, CardsShown):
        return


def check_snapshot(snap: TableSnapshot, audience: str | None, players: tuple[str, ...]) -> None:
    """A snapshot's hand view shows no down card but the audience's own and those shown."""
    if snap.hand is None:
        return
    pos = players.index(audience) if audience in players else None
    for q, p in enumerate(snap.hand.players):
        if q == pos or p.shown:
            continue
        for c, up in zip(p.cards, p.up, strict=True):
            if c is not None and not up:
                raise LeakError(f"snapshot for {audience} shows player {q}'s down card")


class Harness:
    """A table on a fake clock. Build with ``await Harness.create(...)``."""

    clock: FakeClock
    journal: InMemoryJournal
    bank: PlayChips
    actor: TableActor
    spectator: EventStream
    config: TableConfig
    seed: int
    faults: Callable[[str], None] | None
    rng: Any

    def __init__(self) -> None:
        self._ids = itertools.count(1)
        self.rng = None
        self.quota: Any = None

    @classmethod
    async def create(
        cls,
        game: Game | str = "nlhe",
        *,
        rules: str = "room",
        seats: int = 6,
        seed: int = 1,
        faults: Callable[[str], None] | None = None,
        rule_overrides: dict[str, Any] | None = None,
        rng: Any = None,
        quota: Any = None,
        **config: Any,
    ) -> Harness:
        """``rng``: the table's injected rng (default ``random.Random(seed)``); ``quota``:
        the all-in protection quota port (default: the table's own count)."""
        h = cls()
        h.rng = rng
        h.quota = quota
        if isinstance(game, str):
            game = Game.of(game, blinds=(1, 2), rules=profile(rules, **(rule_overrides or {})))
        config.setdefault("testing", True)
        config.setdefault("between_hands_seconds", 2.0)
        h.config = TableConfig.default(game, seats=seats, **config)
        h.clock = FakeClock()
        h.journal = InMemoryJournal()
        h.bank = PlayChips()
        h.seed = seed
        h.faults = faults
        h.actor = TableActor.open(h.config, **h._kwargs())
        h.spectator = h.actor.subscribe(None, internal=True)
        return h

    def _kwargs(self) -> dict[str, Any]:
        return {
            "clock": self.clock,
            "journal": self.journal,
            "shuffler": SeededShuffler(self.seed),
            "rng": self.rng if self.rng is not None else random.Random(self.seed),
            "bank": self.bank,
            "faults": self.faults,
            "quota": self.quota,
        }

    async def restart(self, *, seed: int | None = None, keep_seats: bool = True) -> TableActor:
        """Kill the actor (if alive) and restore the table from the journal. By default the
        seats are kept, as a tournament table resumes; ``keep_seats=False`` is a cash
        table's restart (every stack home, every seat empty, R-CRASH-1)."""
        if self.actor.alive:
            await self.actor.stop()
        if seed is not None:
            self.seed = seed
        self.actor = TableActor.restore(self.config, keep_seats=keep_seats, **self._kwargs())
        self.spectator = self.actor.subscribe(None, internal=True)
        return self.actor

    @property
    def table(self) -> Table:
        return self.actor.table

    @property
    def record(self) -> HandStartRecord:
        """The journaled start of the current (or last) hand."""
        rec = self.table.hand_record
        assert rec is not None, "no hand has started"
        return rec

    def cid(self) -> str:
        return f"c{next(self._ids)}"

    async def send(self, cmd: Command) -> CommandResult:
        return await self.actor.submit(cmd)

    async def sit(self, player_id: str, buy_in: int | None = None, **kw: Any) -> CommandResult:
        from croupier.table.commands import SitDown

        amount = buy_in if buy_in is not None else self.config.buy_in_max
        return await self.send(SitDown(self.cid(), player_id, player_id, amount, **kw))

    async def act(self, player_id: str, kind: str, amount: int = 0) -> CommandResult:
        return await self.send(Act(self.cid(), player_id, kind, amount))  # type: ignore[arg-type]

    def to_act(self) -> str | None:
        t = self.table
        if t.hand is None or t.plan is None or t.hand.actor < 0:
            return None
        return t.seats[t.plan.seats[t.hand.actor]].player_id

    async def next_hand(self, limit: float = 600.0) -> None:
        """Advance the clock until a new hand has started."""
        start = self.table.hand_no
        ok = await self.clock.run_until(
            lambda: self.table.hand_no > start or not self.actor.alive,
            limit=self.clock.now() + limit,
        )
        assert ok and self.actor.alive, "no hand started"

    async def finish_hand(self, policy: str = "check_call") -> None:
        """Play the running hand to its end: everyone checks or calls."""
        hand_no = self.table.hand_no
        while self.table.hand is not None and self.table.hand_no == hand_no:
            who = self.to_act()
            if who is None:
                break
            t = self.table
            assert t.hand is not None
            from croupier.engine.state import legal_actions

            legal = legal_actions(t.hand)
            assert legal is not None
            if legal.show_or_muck:
                from croupier.table.commands import ShowCards

                await self.send(ShowCards(self.cid(), who, True))
            elif legal.can_draw:
                from croupier.table.commands import Draw

                await self.send(Draw(self.cid(), who, ""))
            else:
                await self.act(who, "check" if legal.can_check else "call")

    def stacks(self) -> dict[str, int]:
        """Stacks by player id (outside the running hand)."""
        return {s.player_id: s.stack for s in self.table.seats.values()}

    def events(self) -> list[TableEvent]:
        return self.spectator.drain()
