"""All-in protections per account over a rolling 24 hours (R-TIME-2), in the store.

:class:`SqlProtections` is the tables' :class:`~croupier.table.quota.ProtectionQuota`
port: one row per protection used (account, table, wall-clock time), so the count is
the room's, across every table and every restart, never a table's. ``take`` counts and
records in one transaction holding the account's row (``FOR UPDATE`` on PostgreSQL,
``BEGIN IMMEDIATE`` on SQLite): two tables can never both give the last one. ``top``
lists the players who used the most (``croupier admin protections``), since the room
warns, then bans, players who use them to profit.

:class:`CachedProtections` is the same count for the tables of one server process without
a store round trip on the event loop: each seated player's uses are read off the loop when
they sit down, decided in memory (the tables of a process share it, so two of them still
never both give the last one), and written by a writer thread of its own.

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

import concurrent.futures
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa

from croupier.store.db import Clock, Database, now_ms
from croupier.store.journal import user_id_of
from croupier.store.schema import protection_uses, users

__all__ = ["DAY_MS", "CachedProtections", "ProtectionUse", "SqlProtections"]

DAY_MS = 86_400_000

log = logging.getLogger("croupier.store")


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

    def times(self, player_id: str) -> list[int]:
        """When (ms) the account used its protections of the last 24 hours, oldest first."""
        uid, now = self._user_of(player_id), now_ms(self._clock)
        stmt = (
            sa.select(protection_uses.c.at_ms)
            .where(protection_uses.c.user_id == uid, protection_uses.c.at_ms > now - DAY_MS)
            .order_by(protection_uses.c.at_ms)
        )
        return self._db.run(lambda conn: [int(at) for (at,) in conn.execute(stmt)])

    def take(
        self, player_id: str, table_id: str, limit: int, *, at_ms: int | None = None
    ) -> int | None:
        """Use one at ``table_id`` if fewer than ``limit`` in the last 24 hours: the new
        count, else ``None`` (nothing written). ``at_ms``: when it was used (default now)."""
        uid, now = self._user_of(player_id), now_ms(self._clock) if at_ms is None else at_ms

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


class CachedProtections:
    """The room's count for the tables of one process, off the event loop (see the module).

    >>> from croupier.store.db import Database
    >>> db = Database.open("sqlite://"); _ = db.migrate()
    >>> sql = SqlProtections(db, clock=lambda: 100_000.0)
    >>> q = CachedProtections(sql, clock=lambda: 100_000.0)
    >>> q.load("7"); q.take("7", "t1", 2), q.take("7", "t2", 2), q.take("7", "t3", 2)
    (1, 2, None)
    >>> q.close(); sql.used("7")
    2
    """

    def __init__(self, sql: SqlProtections, clock: Clock | None = None) -> None:
        self.sql = sql
        self._clock = clock if clock is not None else sql._clock
        self._times: dict[str, list[int]] = {}
        self._lock = threading.Lock()
        self._writer = concurrent.futures.ThreadPoolExecutor(1, "croupier-protections")
        self.misses = 0
        """Counts asked before the player's uses were loaded (read on the caller's thread)."""

    def load(self, player_id: str) -> None:
        """Read ``player_id``'s uses of the last 24 hours (blocking: call off the loop);
        a player already known keeps the count this process holds."""
        if player_id in self._times or not player_id.isdigit():
            return
        times = self.sql.times(player_id)
        with self._lock:
            self._times.setdefault(player_id, times)

    def _recent(self, player_id: str) -> list[int]:
        if player_id not in self._times:
            self.misses += 1
            self.load(player_id)
        now = now_ms(self._clock)
        with self._lock:
            recent = [at for at in self._times.get(player_id, []) if at > now - DAY_MS]
            self._times[player_id] = recent
        return recent

    def used(self, player_id: str) -> int:
        """Protections ``player_id`` used in the last 24 hours, at any table."""
        return len(self._recent(player_id))

    def take(self, player_id: str, table_id: str, limit: int) -> int | None:
        """Use one if fewer than ``limit`` were used in the last 24 hours (decided here, one
        step for every table of the process), written by the writer thread."""
        recent = self._recent(player_id)
        if len(recent) >= limit:
            return None
        at = now_ms(self._clock)
        with self._lock:
            self._times[player_id] = [*recent, at]
        try:
            self._writer.submit(self._write, player_id, table_id, limit, at)
        except RuntimeError:  # closed: the process is stopping, write it here
            self._write(player_id, table_id, limit, at)
        return len(recent) + 1

    def _write(self, player_id: str, table_id: str, limit: int, at: int) -> None:
        try:
            if self.sql.take(player_id, table_id, limit, at_ms=at) is None:
                log.warning(
                    "all-in protection of %s at %s over the room's quota (another process?)",
                    player_id,
                    table_id,
                    extra={"event": "protection_over_quota", "player": player_id},
                )
        except Exception:
            log.exception("recording an all-in protection of %s failed", player_id)

    def close(self) -> None:
        """Write every protection taken (blocking)."""
        self._writer.shutdown(wait=True)
