"""Server boots (R-CRASH-1): each start of the server is recorded with a unique id and the
journal's high-water mark, and marked *recovered* once every cash table's journal has been
restarted (stacks home, seats empty, interrupted hands voided).

The audit uses the last recovered boot: a table whose journal still seats chips but has
no record after that boot's mark did not restart, so its escrow is stuck
(:mod:`croupier.store.audit_money`).

>>> from croupier.store.db import Database
>>> db = Database.open("sqlite://"); _ = db.migrate()
>>> boots = ServerBoots(db, clock=lambda: 1.0)
>>> boot = boots.begin()
>>> boots.last_recovered() is None
True
>>> boots.recovered(boot.boot_id); boots.last_recovered().boot_id == boot.boot_id
True
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import sqlalchemy as sa

from croupier.store.db import Clock, Database, now_ms
from croupier.store.schema import server_boots, table_journal

__all__ = ["Boot", "ServerBoots", "last_recovered_boot"]


@dataclass(frozen=True, slots=True)
class Boot:
    """One start of the server: ``journal_mark`` is the last journal record id before it."""

    boot_id: str
    started_ms: int
    journal_mark: int
    recovered_ms: int | None = None


def last_recovered_boot(conn: sa.Connection) -> Boot | None:
    """The newest boot whose recovery finished, in an open transaction."""
    row = conn.execute(
        sa.select(server_boots)
        .where(server_boots.c.recovered_ms.is_not(None))
        .order_by(server_boots.c.id.desc())
        .limit(1)
    ).first()
    if row is None:
        return None
    return Boot(row.boot_id, int(row.started_ms), int(row.journal_mark), int(row.recovered_ms))


class ServerBoots:
    """Boot records."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    def begin(self) -> Boot:
        """Record a start (a fresh 128-bit id that never repeats) before any table opens."""
        boot_id = secrets.token_hex(16)
        now = now_ms(self._clock)

        def work(conn: sa.Connection) -> Boot:
            mark = conn.execute(sa.select(sa.func.max(table_journal.c.id))).scalar()
            conn.execute(
                server_boots.insert(),
                {"boot_id": boot_id, "started_ms": now, "journal_mark": int(mark or 0)},
            )
            return Boot(boot_id, now, int(mark or 0))

        return self._db.run(work)

    def recovered(self, boot_id: str) -> None:
        """Every table's journal was restarted in this boot."""
        stmt = (
            server_boots.update()
            .where(server_boots.c.boot_id == boot_id)
            .values(recovered_ms=now_ms(self._clock))
        )
        self._db.run(lambda conn: conn.execute(stmt))

    def last_recovered(self) -> Boot | None:
        """The newest boot whose recovery finished."""
        return self._db.run(last_recovered_boot)
