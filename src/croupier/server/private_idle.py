"""Close private tables nobody plays at any more, so the caps of
:class:`croupier.server.abuse.PrivateCaps` count tables that are really in use and bots do
not play for nobody (issue 10: one account's bot tables slowed everyone down).

A private table with no human seated for ``private_idle_seconds`` (setting, default 300)
is closed: its bots stand up (their chips go back to their accounts at the end of the hand,
as any player's), then the actor stops and the table, its invitation code and its place
in the host's cap are gone. A human sitting down before that keeps it open.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import TYPE_CHECKING

from croupier.table import commands as C
from croupier.table.results import TableError

if TYPE_CHECKING:
    from croupier.server.app import Services
    from croupier.server.registry import LiveTable, TableRegistry

__all__ = ["IdlePrivateTables", "close_table"]

log = logging.getLogger("croupier.server")

SWEEP_SECONDS = 1.0
LEAVE_WAIT_SECONDS = 60.0


def _humans(live: LiveTable) -> int:
    return sum(1 for s in live.actor.table.seats.values() if not s.is_bot)


async def close_table(registry: TableRegistry, table_id: str) -> bool:
    """Stand every bot of ``table_id`` up, wait for the seats to empty (bounded), then stop
    the table and forget it. False (and the table left running) if a human sat down
    meanwhile or the seats did not empty in time."""
    live = registry.tables.get(table_id)
    if live is None:
        return True
    actor = live.actor
    for bot in live.bots:
        if any(s.player_id == bot.player_id for s in actor.table.seats.values()):
            with contextlib.suppress(TableError):
                await actor.submit(
                    C.Leave(f"{bot.player_id}:close:{secrets.token_hex(4)}", bot.player_id)
                )
    loop = asyncio.get_running_loop()
    deadline = loop.time() + LEAVE_WAIT_SECONDS
    while actor.alive and actor.table.seats and loop.time() < deadline:
        if _humans(live):
            return False
        await asyncio.sleep(0.05)
    if actor.table.seats and actor.alive:
        return False
    for bot in live.bots:
        if bot.stream is not None:
            bot.stream.close()
    if actor.alive:
        await actor.stop()
    registry.tables.pop(table_id, None)
    if live.spec.code is not None:
        registry.codes.pop(live.spec.code, None)
    log.info("private table %s closed: nobody seated", table_id)
    return True


class IdlePrivateTables:
    """Watches private tables and closes the idle ones (see the module doc)."""

    def __init__(self, services: Services) -> None:
        self.sv = services
        self.idle_since: dict[str, float] = {}
        self.closed: list[str] = []

    async def sweep(self, now: float) -> None:
        """One pass: note tables without humans, close those idle long enough."""
        limit = self.sv.settings.private_idle_seconds
        registry = self.sv.registry
        for table_id, live in list(registry.tables.items()):
            if not live.spec.private or not live.actor.alive or _humans(live):
                self.idle_since.pop(table_id, None)
                continue
            since = self.idle_since.setdefault(table_id, now)
            if now - since < limit:
                continue
            if await close_table(registry, table_id):
                self.idle_since.pop(table_id, None)
                self.closed.append(table_id)
                self.sv.hub.to_table(
                    table_id, {"type": "table_closed", "table_id": table_id, "reason": "idle"}
                )
        for gone in [t for t in self.idle_since if t not in registry.tables]:
            del self.idle_since[gone]

    async def run(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep(self.sv.now())
            except Exception:
                log.exception("closing idle private tables failed")
