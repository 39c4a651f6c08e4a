"""Run a bot at a table through the same command path as a human (R-BOT-1).

The runner subscribes as its player, so it receives only its seat's redacted events;
on its :class:`~croupier.table.events.Turn` (whose view carries its own cards and the
legal actions) it waits ``delay`` seconds on the table clock, asks its strategy, and
submits an ordinary command. A busted bot reloads the minimum buy-in if ``reload``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from croupier.bots.strategies import Decision, Strategy
from croupier.engine.cards import format_cards
from croupier.table.actor import EventStream, TableActor
from croupier.table.clock import Clock
from croupier.table.commands import Act, Command, Draw, Reconnect, Reload, ShowCards, SitDown
from croupier.table.events import ReloadOffered, TableEvent, Turn
from croupier.table.results import CommandResult, TableError

__all__ = ["BotRunner", "to_command"]


def to_command(decision: Decision, command_id: str, player_id: str) -> Command:
    """The table command for a strategy's decision."""
    kind = decision.kind
    if kind == "draw":
        return Draw(command_id, player_id, format_cards(decision.discards))
    if kind in ("show", "muck"):
        return ShowCards(command_id, player_id, kind == "show")
    if kind in (
        "fold",
        "check",
        "call",
        "raise",
        "bring_in",
        "offer_split",
        "accept_split",
        "decline_split",
    ):
        return Act(command_id, player_id, kind, decision.amount)  # type: ignore[arg-type]
    raise ValueError(f"unknown decision {kind!r}")


class BotRunner:
    """One bot at one table."""

    def __init__(
        self,
        actor: TableActor,
        player_id: str,
        strategy: Strategy,
        *,
        clock: Clock,
        delay: float | None = None,
        name: str = "",
        reload: bool = True,
        observer: Callable[[TableEvent], None] | None = None,
    ) -> None:
        self.actor = actor
        self.player_id = player_id
        self.strategy = strategy
        self.clock = clock
        self.delay = actor.table.config.bot_delay_seconds if delay is None else delay
        self.name = name or player_id
        self.reload = reload
        self._ids = itertools.count(1)
        self.stream: EventStream | None = None
        self.refused: list[CommandResult] = []
        self.observer = observer
        """Called with every event the bot receives (tests check what a bot may see)."""

    def _id(self) -> str:
        return f"{self.player_id}:{next(self._ids)}"

    async def join(self, buy_in: int, *, seat: int | None = None) -> CommandResult:
        """Subscribe, then sit down with ``buy_in`` chips (where the table allows no
        spectators, R-SEAT-2, sit down first, then subscribe as the seated player)."""
        sit = SitDown(self._id(), self.player_id, self.name, buy_in, seat, is_bot=True)
        if self.actor.table.config.rules.spectators:
            self.attach(self.actor)
            return await self.actor.submit(sit)
        result = await self.actor.submit(sit)
        if result.accepted:
            self.attach(self.actor)
        return result

    def attach(self, actor: TableActor) -> None:
        """(Re)subscribe to ``actor`` (e.g. after the table was restored from its journal)."""
        if self.stream is not None:
            self.stream.close()
        self.actor = actor
        self.stream = actor.subscribe(self.player_id, self._on_event)

    async def reconnect(self) -> CommandResult:
        return await self.actor.submit(Reconnect(self._id(), self.player_id))

    def _on_event(self, event: TableEvent) -> None:
        if self.observer is not None:
            self.observer(event)
        data = event.data
        if isinstance(data, Turn) and data.player_id == self.player_id and data.view is not None:
            when = self.clock.now() + self.delay
            self.clock.call_at(when, lambda: self._decide(data))
        elif isinstance(data, ReloadOffered) and data.player_id == self.player_id and self.reload:
            amount = data.min_amount
            when = self.clock.now() + self.delay
            self.clock.call_at(when, lambda: self._send(Reload(self._id(), self.player_id, amount)))

    def _decide(self, turn: Turn) -> Any:
        assert turn.view is not None
        game = self.actor.table.config.game
        decision = self.strategy.decide(turn.view, turn.position, game)
        return self._send(to_command(decision, self._id(), self.player_id))

    async def _send(self, cmd: Command) -> None:
        if not self.actor.alive:
            return
        try:
            result = await self.actor.submit(cmd)
        except TableError:  # the table stopped meanwhile (table_down): nothing to do
            return
        if not result.accepted:
            self.refused.append(result)
