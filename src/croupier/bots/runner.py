"""Run a bot at a table through the same command path as a human (R-BOT-1).

The runner subscribes as its player, so it receives only its seat's redacted events;
on its :class:`~croupier.table.events.Turn` (whose view carries its own cards and the
legal actions) it waits ``delay`` seconds on the table clock, asks its strategy, and
submits an ordinary command. A busted bot reloads the minimum buy-in if ``reload``.

At a Naiko table (R-NAIKO-9) the bot first considers a power on its turn
(:func:`croupier.bots.naiko.choose_power`); the table then refreshes its turn (or resumes
it after an Ancre's window) and the bot decides its action, weighing what a Coup d'Œil
showed it. Targeted by an Ancre, it answers inside the window, blocking with Sceau
Protecteur when it matters. ``powers=False`` plays Naiko tables without powers.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from croupier.bots.naiko import (
    NaikoMemory,
    PowerChoice,
    adjust_for_peek,
    choose_power,
    should_block,
)
from croupier.bots.strategies import Decision, Strategy
from croupier.engine.actions import BET_KINDS
from croupier.engine.cards import format_cards
from croupier.engine.errors import CodedError
from croupier.engine.naiko import RESPONSE_WINDOW_SECONDS
from croupier.table.actor import EventStream, TableActor
from croupier.table.clock import Clock
from croupier.table.commands import (
    Act,
    Command,
    Draw,
    Reconnect,
    Reload,
    RespondAncre,
    ShowCards,
    SitDown,
    UsePower,
)
from croupier.table.events import AncreWindowOpened, ReloadOffered, TableEvent, Turn
from croupier.table.results import CommandResult, TableError

__all__ = ["BotRunner", "to_command"]


def to_command(decision: Decision, command_id: str, player_id: str) -> Command:
    """The table command for a strategy's decision."""
    kind = decision.kind
    if kind == "draw":
        return Draw(command_id, player_id, format_cards(decision.discards))
    if kind in ("show", "muck"):
        return ShowCards(command_id, player_id, kind == "show")
    if kind in BET_KINDS:
        return Act(command_id, player_id, kind, decision.amount)
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
        powers: bool = True,
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
        self.powers = powers
        self.memory = NaikoMemory(player_id)
        self.used: list[PowerChoice] = []
        """Powers the table accepted from this bot."""
        self.blocks = 0
        self._turn_version = 0

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
        self.memory.observe(event)
        data = event.data
        if isinstance(data, Turn) and data.player_id == self.player_id and data.view is not None:
            version = self._turn_version = event.version
            when = self.clock.now() + self.delay
            self.clock.call_at(when, lambda: self._decide(data, version))
        elif isinstance(data, AncreWindowOpened) and data.target_player_id == self.player_id:
            when = self.clock.now() + min(self.delay, RESPONSE_WINDOW_SECONDS / 2)
            self.clock.call_at(when, self._answer_ancre)
        elif isinstance(data, ReloadOffered) and data.player_id == self.player_id and self.reload:
            amount = data.min_amount
            when = self.clock.now() + self.delay
            self.clock.call_at(when, lambda: self._send(Reload(self._id(), self.player_id, amount)))

    def _decide(self, turn: Turn, version: int) -> Any:
        assert turn.view is not None
        if version != self._turn_version:
            return None  # a newer turn (after a power) superseded this one
        game = self.actor.table.config.game
        status = turn.naiko
        if (
            self.powers
            and status is not None
            and status.turn_used != turn.position
            and status.window is None
        ):
            choice = choose_power(turn.view, turn.position, status, self.memory, game)
            if choice is not None:
                return self._use_power(choice, turn)
        return self._send(self._command(turn))

    def _command(self, turn: Turn) -> Command:
        assert turn.view is not None
        game = self.actor.table.config.game
        decision = self.strategy.decide(turn.view, turn.position, game)
        if turn.naiko is not None:
            decision = adjust_for_peek(decision, turn.view, turn.position, self.memory, game)
        return to_command(decision, self._id(), self.player_id)

    async def _use_power(self, choice: PowerChoice, turn: Turn) -> None:
        seats = self.memory.seats
        target = seats[choice.target] if 0 <= choice.target < len(seats) else None
        card = format_cards((choice.card,)) if choice.card is not None else None
        cmd = UsePower(self._id(), self.player_id, choice.power.value, target, card)
        if not self.actor.alive:
            return
        try:
            result = await self.actor.submit(cmd)
        except TableError:
            return
        if result.accepted:
            self.used.append(choice)  # the table refreshes (or resumes) the turn
            return
        self.refused.append(result)
        await self._send(self._command(turn))

    async def _answer_ancre(self) -> None:
        """Targeted by an Ancre Courte: block with Sceau Protecteur when it matters, else pass."""
        if not self.actor.alive:
            return
        table = self.actor.table
        snap = table.snapshot(self.player_id)  # this bot's own view of the table
        status, view, pos = snap.naiko, snap.hand, self.memory.position
        if status is None or view is None or pos is None or status.window is None:
            return
        if status.window[1] != pos:
            return
        block = self.powers and should_block(view, pos, status, table.config.game)
        self.blocks += block
        await self._send(RespondAncre(self._id(), self.player_id, block))

    async def _send(self, cmd: Command) -> None:
        if not self.actor.alive:
            return
        try:
            result = await self.actor.submit(cmd)
        except TableError:  # the table stopped meanwhile (table_down): nothing to do
            return
        except CodedError as exc:  # it moved to another process of the room (lease_lost)
            if exc.code != "lease_lost":
                raise
            return
        if not result.accepted:
            self.refused.append(result)
