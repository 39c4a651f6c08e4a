"""All-in protections per account over a rolling 24 hours (R-TIME-2), in the store.

:class:`SqlProtections` is the tables' :class:`~croupier.table.quota.ProtectionQuota`
port: one row per protection used (account, table, wall-clock time), so the count is
the room's, across every table and every restart, never a table's. ``take`` counts and
records in one transaction holding the account's row (``FOR UPDATE`` on PostgreSQL,
``BEGIN IMMEDIATE`` on SQLite): two tables can never both give the last one. ``top``
lists the players who used the most (``croupier admin protections``), since the room
warns, then bans, players who use them to profit.

>>> from croupier.store.db import Database
>>> db = Database.open("sqlite://"); _ = db.migrate()
>>> now = [100_000.0]
>>> q = SqlProtections(db, clock=lambda: now[0])
>>> q.take("7", "t1", 2), q.take("7", "t2", 2), q.take("7", "t3", 2), q.used("7")
(1, 2, None, 2)
>>> now[0] += 86_400; q.used("7"), q.take("7", "t3", 2)
(0, 1)
>>> [(u.user_id, u.uses, u.tables) for u in q.top(since_ms=0)]
[(7, 3, 3)]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa

from croupier.store.db import Clock, Database, now_ms
from croupier.store.journal import user_id_of
from croupier.store.schema import protection_uses, users

__all__ = ["DAY_MS", "ProtectionUse", "SqlProtections"]

DAY_MS = 86_400_000


@dataclass(frozen=True, slots=True)
class ProtectionUse:
    """One player's protections in a period: how many, at how many tables, the last."""

    user_id: int
    name: str
    uses: int
    tables: int
    last_ms: int


class SqlProtections:
    """The room's all-in protection count per account (see the module docstring)."""

    def __init__(
        self, db: Database, clock: Clock, user_of: Callable[[str], int] = user_id_of
    ) -> None:
        self._db = db
        self._clock = clock
        self._user_of = user_of

    def _count(self, conn: sa.Connection, user_id: int, now: int) -> int:
        stmt = sa.select(sa.func.count()).where(
            protection_uses.c.user_id == user_id, protection_uses.c.at_ms > now - DAY_MS
        )
        return int(conn.execute(stmt).scalar_one())

    def used(self, player_id: str) -> int:
        """Protections the account used in the last 24 hours, at any table."""
        uid, now = self._user_of(player_id), now_ms(self._clock)
        return self._db.run(lambda conn: self._count(conn, uid, now))

    def take(self, player_id: str, table_id: str, limit: int) -> int | None:
        """Use one at ``table_id`` if fewer than ``limit`` in the last 24 hours: the new
        count, else ``None`` (nothing written)."""
        uid, now = self._user_of(player_id), now_ms(self._clock)

        def work(conn: sa.Connection) -> int | None:
            conn.execute(self._db.backend.lock(sa.select(users.c.id).where(users.c.id == uid)))
            count = self._count(conn, uid, now)
            if count >= limit:
                return None
            conn.execute(
                protection_uses.insert(), {"user_id": uid, "table_id": table_id, "at_ms": now}
            )
            return count + 1

        return self._db.run(work)

    def top(self, *, since_ms: int | None = None, limit: int = 20) -> list[ProtectionUse]:
        """The players who used the most protections since ``since_ms`` (default: the last
        24 hours), most first."""
        since = now_ms(self._clock) - DAY_MS if since_ms is None else since_ms
        uses = sa.func.count().label("uses")
        stmt = (
            sa.select(
                protection_uses.c.user_id,
                uses,
                sa.func.count(sa.distinct(protection_uses.c.table_id)).label("tables"),
                sa.func.max(protection_uses.c.at_ms).label("last_ms"),
                sa.func.max(users.c.name).label("name"),
            )
            .select_from(protection_uses.outerjoin(users, users.c.id == protection_uses.c.user_id))
            .where(protection_uses.c.at_ms > since)
            .group_by(protection_uses.c.user_id)
            .order_by(uses.desc(), protection_uses.c.user_id)
            .limit(limit)
        )
        rows = self._db.run(lambda conn: conn.execute(stmt).all())
        return [
            ProtectionUse(
                int(r.user_id), r.name or str(r.user_id), int(r.uses), int(r.tables), int(r.last_ms)
            )
            for r in rows
        ]
