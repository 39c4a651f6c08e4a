"""The casino table's actor: one asyncio task per Texas Hold'em Bonus table, the only
writer of its :class:`~croupier.casino.table.CasinoTable`, fed through a mailbox (the
mailbox loop and its supervision are :class:`~croupier.table.supervise.MailboxActor`,
shared with the poker tables' :class:`~croupier.table.actor.TableActor`).

Commands from players and the table's own timer messages go through :meth:`post` into
one queue and are handled one at a time. If the table raises, a bare actor stops
(``crashed``) and :meth:`CasinoActor.restore` starts a new one that voids the rounds the
old one left open, every bet returned (R-CRASH-1); a supervised actor does that in place
(:meth:`CasinoActor._recover`): the open round is voided, the watchers move to the new
table and the mailbox goes on.
"""

from __future__ import annotations

from typing import Any

from croupier.casino.cashier import Cashier
from croupier.casino.table import CasinoResult, CasinoTable, CasinoTableConfig, Clock, Command
from croupier.engine.rng import Shuffler
from croupier.table.supervise import MailboxActor, Supervision

__all__ = ["CasinoActor"]


class CasinoActor(MailboxActor[Any, CasinoResult]):
    """Runs a :class:`CasinoTable` as one asyncio task with a mailbox (the only writer).

    If the table raises, a bare actor stops (``crashed``) and :meth:`restore` starts a new
    one that voids the rounds left open (R-CRASH-1); a supervised one recovers in place."""

    kind = "casino table"

    def __init__(self, table: CasinoTable, supervision: Supervision | None = None) -> None:
        super().__init__(table.config.table_id, table, supervision)
        self.table: CasinoTable = table
        table.wake = self.post

    @classmethod
    def restore(
        cls,
        config: CasinoTableConfig,
        cashier: Cashier,
        clock: Clock,
        shuffler: Shuffler | None = None,
        supervision: Supervision | None = None,
    ) -> CasinoActor:
        """A table whose open rounds (if any) are voided first (call in a running loop)."""
        table = CasinoTable(config, cashier, clock, shuffler)
        table.recover()
        return cls(table, supervision)

    async def submit(self, cmd: Command) -> CasinoResult:
        return await super().submit(cmd)

    def _handle(self, msg: Any) -> CasinoResult | None:
        return self.table.handle(msg)

    async def _recover(self, exc: BaseException) -> None:
        """Void the round the crashed table left open (every bet back, R-CRASH-1) and go
        on with a new table; its watchers move to it and get its state."""
        old = self.table
        old.wake = None
        table = CasinoTable(old.config, old.cashier, old.clock, old.shuffler)
        table.recover()
        table.wake = self.post
        table.adopt_watchers(old)
        self.table = table

    async def _give_up(self, exc: BaseException) -> None:
        """Stop; the room restores the table (voiding its open round) on next use."""
        self.table.wake = None
