"""Table leases: one owner per table in a room of several server processes (issue #16).

Several processes share the database; each table is served by one of them, the holder of
its lease row in ``table_leases``. A lease is held for ``ttl`` seconds and renewed by its
holder well before it expires; a process that dies stops renewing, and another process
may then take the lease over. Each change of holder adds one to the lease's **epoch**.

**Fencing.** Every write of a table's journal, and every buy-in or cash-out at the table,
checks in its own transaction that this process still holds the lease at the epoch it
acquired (:meth:`Fence.check`, called by :class:`~croupier.store.journal.SqlJournal` and
:class:`~croupier.store.ledger.Ledger`): the row is read locked, so a takeover and a
write are ordered, and a process that lost its table (a pause longer than the lease, a
network partition from the database) can write nothing more for it, not a record, not
a chip. The new holder reads the journal only after taking the lease, so it sees every
write the old holder made.

>>> from croupier.store.db import Database
>>> db = Database.open("sqlite://"); _ = db.migrate()
>>> now = [1000.0]
>>> leases = Leases(db, clock=lambda: now[0])
>>> a = leases.acquire("t1", "node-a", url="http://a", ttl=3)
>>> a.epoch, leases.acquire("t1", "node-b", url="http://b", ttl=3)
(1, None)
>>> now[0] += 4  # node-a stopped renewing
>>> b = leases.acquire("t1", "node-b", url="http://b", ttl=3)
>>> b.owner, b.epoch, sorted(leases.renew("node-a", {"t1": 1}, ttl=3))
('node-b', 2, ['t1'])
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import sqlalchemy as sa

from croupier.store.db import (
    MAX_OR_TERMS,
    MAX_PARAMETERS,
    Clock,
    Database,
    case_by,
    chunked,
    now_ms,
    numbered,
    padded,
)
from croupier.store.errors import StoreError
from croupier.store.schema import table_leases

__all__ = ["ROOM_LEASE", "Fence", "Lease", "LeaseLostError", "Leases", "run_fenced"]

T = TypeVar("T")

ROOM_LEASE = "room:services"
"""The lease of the room-wide services (tournaments, the casino): the process that holds
it runs them, and every write of theirs is checked against it (:class:`Fence`), so a
process that lost it (frozen past it, cut from the database) writes nothing more for
them. Its summary carries their lobby rows for the other processes' lobbies."""


class LeaseLostError(StoreError):
    """This process no longer holds the table's lease: it may write nothing for it."""

    def __init__(self, message: str) -> None:
        super().__init__("lease_lost", message)


@dataclass(frozen=True, slots=True)
class Lease:
    """One lease row."""

    name: str
    owner: str
    epoch: int
    url: str
    expires_ms: int
    info: Mapping[str, Any] = field(default_factory=dict)

    def live(self, now_ms: int) -> bool:
        """Held at ``now_ms`` (not expired)."""
        return self.expires_ms > now_ms


def _lease(row: Any) -> Lease:
    """A row of :data:`table_leases` (its columns in order; ``info`` freshly parsed, not
    copied: a round reads every row, a thousand at 1,000 tables)."""
    name, owner, epoch, url, expires_ms, info = row
    return Lease(name, owner, int(epoch), url, int(expires_ms), info or {})


def _check_name(name: str) -> None:
    if not isinstance(name, str) or not 0 < len(name) <= 100:
        raise StoreError("invalid_lease", "a lease name is 1 to 100 characters")


def _held_by(table: sa.FromClause, size: int) -> sa.ColumnElement[bool]:
    """``table``'s rows of ``size`` leases still held by ``holder``, at their epochs:
    ``n0`` at ``e0``, ``n1`` at ``e1``, … The ``name IN`` lets SQLite search the primary
    key (a row-value ``IN`` alone scans the table); the row-value ``IN`` checks the
    epochs."""
    names = numbered("n", size, sa.String())
    epochs = numbered("e", size, sa.BigInteger())
    c = table.c
    return sa.and_(
        c.name.in_(names),
        c.owner == sa.bindparam("holder", type_=sa.String()),
        sa.tuple_(c.name, c.epoch).in_([sa.tuple_(names[i], epochs[i]) for i in range(size)]),
    )


@functools.cache
def _extend(size: int) -> sa.Update:
    """Extend to ``until`` the ``size`` leases of :func:`_held_by`: one statement, built
    once per size (:func:`~croupier.store.db.padded`). The rows are locked in name order
    first (PostgreSQL: ``FOR UPDATE`` in the subquery; SQLite has one writer), the order
    :meth:`Fence.check_many` locks them in, so a renewal and a group commit of the same
    tables never deadlock."""
    row = table_leases.alias("held")
    locked = sa.select(row.c.name).where(_held_by(row, size)).order_by(row.c.name)
    return (
        table_leases.update()
        .where(table_leases.c.name.in_(locked.with_for_update().scalar_subquery()))
        .values(expires_ms=sa.bindparam("until", type_=sa.BigInteger()))
    )


@functools.cache
def _write_infos(size: int) -> sa.Update:
    """Set the info of ``size`` leases of :func:`_held_by`, ``i0`` to ``n0``'s, ``i1`` to
    ``n1``'s, …: one ``UPDATE … SET info = CASE name WHEN … END`` built once per size.
    Not an executemany of one ``UPDATE`` per lease: on SQLite that still steps the
    statement once per lease, the GIL released and taken again each time while the
    database's single write turn is held (what :meth:`Leases.renew` saves); one
    statement is one step on both databases."""
    c = table_leases.c
    info = case_by(c.name, numbered("n", size, sa.String()), "i", c.info.type, c.info)
    return table_leases.update().where(_held_by(table_leases, size)).values(info=info)


_SELECT_HOLDERS = sa.select(table_leases.c.name, table_leases.c.owner, table_leases.c.epoch).where(
    table_leases.c.name.in_(sa.bindparam("names", expanding=True))
)

_SELECT_ALL = sa.select(table_leases).order_by(table_leases.c.name)


def _held_params(owner: str, leases: Sequence[tuple[str, int]]) -> dict[str, Any]:
    params: dict[str, Any] = {"holder": owner}
    for i, (name, epoch) in enumerate(leases):
        params[f"n{i}"] = name
        params[f"e{i}"] = epoch
    return params


class Leases:
    """The lease rows, on the store's database and clock (wall time, shared by processes)."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    def now_ms(self) -> int:
        return now_ms(self._clock)

    def acquire(
        self, name: str, owner: str, *, url: str, ttl: float, info: Mapping[str, Any] | None = None
    ) -> Lease | None:
        """Take ``name`` for ``owner`` for ``ttl`` seconds: when nobody holds it, when its
        holder let it expire (the epoch grows by one), or when ``owner`` holds it already
        (renewed, same epoch). ``None`` when another owner holds it."""
        _check_name(name)
        if ttl <= 0:
            raise StoreError("invalid_lease", "a lease lasts more than 0 seconds")

        def work(conn: sa.Connection) -> Lease | None:
            now = now_ms(self._clock)
            expires = now + round(ttl * 1000)
            row = conn.execute(
                self._db.backend.lock(sa.select(table_leases).where(table_leases.c.name == name))
            ).first()
            body = dict(info or {})
            if row is None:
                conn.execute(
                    table_leases.insert(),
                    {
                        "name": name,
                        "owner": owner,
                        "epoch": 1,
                        "url": url,
                        "expires_ms": expires,
                        "info": body,
                    },
                )
                return Lease(name, owner, 1, url, expires, body)
            if row.owner == owner and row.expires_ms > now:
                epoch = int(row.epoch)
            elif row.expires_ms <= now:
                epoch = int(row.epoch) + 1
            else:
                return None
            conn.execute(
                table_leases.update()
                .where(table_leases.c.name == name)
                .values(owner=owner, epoch=epoch, url=url, expires_ms=expires, info=body)
            )
            return Lease(name, owner, epoch, url, expires, body)

        return self._db.run(work)

    def renew(
        self,
        owner: str,
        held: Mapping[str, int],
        *,
        ttl: float,
        info: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> set[str]:
        """Extend every lease of ``held`` (name → epoch) in one transaction; returns the
        names ``owner`` no longer holds at that epoch (taken over: lost). ``info`` (name →
        summary) replaces the info of those of its leases that are held and not lost; the
        others' info is left as it is.

        A few statements whatever the number of leases (one ``UPDATE`` per
        :data:`~croupier.store.db.MAX_OR_TERMS` leases, one more per as many infos, and
        one read of the held rows only when some lease was lost), not one per lease: a
        process renews hundreds of leases every quarter of the lease's length, on SQLite
        while it holds the database's single write turn.

        >>> from croupier.store.db import Database
        >>> db = Database.open("sqlite://"); _ = db.migrate()
        >>> leases = Leases(db, clock=lambda: 1000.0)
        >>> for name in ("t1", "t2", "t3"):
        ...     _ = leases.acquire(name, "a", url="http://a", ttl=3)
        >>> sorted(leases.renew("a", {"t1": 1, "t2": 2, "t3": 1, "t4": 1}, ttl=3,
        ...                     info={"t1": {"players": 2}}))
        ['t2', 't4']
        >>> [(x.name, x.info) for x in leases.all()]
        [('t1', {'players': 2}), ('t2', {}), ('t3', {})]
        """
        if not held:
            return set()
        return self._db.run(lambda conn: self._renew(conn, owner, held, ttl, info or {}))

    def renew_and_read(
        self,
        owner: str,
        held: Mapping[str, int],
        *,
        ttl: float,
        info: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> tuple[set[str], list[Lease]]:
        """:meth:`renew`, then every lease row (:meth:`all`), in one transaction: a
        process's renewal round waits for the database's write turn once, not twice (on
        SQLite every transaction takes it, a read too; under load a turn can take a
        second, docs/benchmarks.md, "Leases under load").

        >>> from croupier.store.db import Database
        >>> db = Database.open("sqlite://"); _ = db.migrate()
        >>> leases = Leases(db, clock=lambda: 1000.0)
        >>> _ = leases.acquire("t1", "a", url="http://a", ttl=3)
        >>> _ = leases.acquire("t2", "b", url="http://b", ttl=3)
        >>> lost, rows = leases.renew_and_read("a", {"t1": 1}, ttl=5)
        >>> lost, [(r.name, r.owner, r.expires_ms) for r in rows]
        (set(), [('t1', 'a', 1005000), ('t2', 'b', 1003000)])
        """

        def work(conn: sa.Connection) -> tuple[set[str], list[Lease]]:
            lost = self._renew(conn, owner, held, ttl, info or {}) if held else set()
            return lost, [_lease(r) for r in conn.execute(_SELECT_ALL).all()]

        return self._db.run(work)

    def _renew(
        self,
        conn: sa.Connection,
        owner: str,
        held: Mapping[str, int],
        ttl: float,
        infos: Mapping[str, Mapping[str, Any]],
    ) -> set[str]:
        leases = sorted(held.items())
        until = now_ms(self._clock) + round(ttl * 1000)
        extended = 0
        for part in chunked(leases, MAX_OR_TERMS):
            each = padded(part)
            params = _held_params(owner, each)
            params["until"] = until
            extended += conn.execute(_extend(len(each)), params).rowcount
        lost: set[str] = set()
        if extended != len(leases):  # (a padded repeat matches its row once)
            for names in chunked([name for name, _ in leases], MAX_PARAMETERS):
                rows = {r.name: r for r in conn.execute(_SELECT_HOLDERS, {"names": list(names)})}
                for name in names:
                    r = rows.get(name)
                    if r is None or r.owner != owner or int(r.epoch) != held[name]:
                        lost.add(name)
        told = [(n, e) for n, e in leases if n in infos and n not in lost]
        for part in chunked(told, MAX_OR_TERMS):
            each = padded(part)
            params = _held_params(owner, each)
            for i, (name, _) in enumerate(each):
                params[f"i{i}"] = dict(infos[name])
            conn.execute(_write_infos(len(each)), params)
        return lost

    def release(self, name: str, owner: str, epoch: int) -> bool:
        """Give ``name`` up (its row is deleted) if ``owner`` holds it at ``epoch``."""

        def work(conn: sa.Connection) -> bool:
            done = conn.execute(
                table_leases.delete().where(
                    table_leases.c.name == name,
                    table_leases.c.owner == owner,
                    table_leases.c.epoch == epoch,
                )
            )
            return bool(done.rowcount == 1)

        return self._db.run(work)

    def expire(self, name: str, owner: str, epoch: int) -> bool:
        """Let ``name`` expire now if ``owner`` holds it at ``epoch``: its row stays, so
        the next holder's epoch grows (fencing) and any process may take it at once."""

        def work(conn: sa.Connection) -> bool:
            done = conn.execute(
                table_leases.update()
                .where(
                    table_leases.c.name == name,
                    table_leases.c.owner == owner,
                    table_leases.c.epoch == epoch,
                )
                .values(expires_ms=0)
            )
            return bool(done.rowcount == 1)

        return self._db.run(work)

    def all(self) -> list[Lease]:
        """Every lease row, by name."""
        return [_lease(r) for r in self._db.run(lambda conn: conn.execute(_SELECT_ALL).all())]

    def get(self, name: str) -> Lease | None:
        stmt = sa.select(table_leases).where(table_leases.c.name == name)
        row = self._db.run(lambda conn: conn.execute(stmt).first())
        return None if row is None else _lease(row)


class Fence:
    """The leases this process holds, checked by every write of their tables.

    A table this process never leased is not checked (a single-process room has no
    lease at all, and pays nothing for the check). A lease it held and lost stays
    refused for good: the process's table must not write again, whoever holds it now.
    Thread-safe: the journal's writer threads and the loop use it at once.

    >>> fence = Fence("node-a")
    >>> fence.hold("t1", 3); fence.epoch("t1"), fence.epoch("t2")
    (3, None)
    >>> fence.lose("t1"); fence.lost("t1")
    True
    """

    def __init__(self, owner: str = "") -> None:
        self.owner = owner
        self._held: dict[str, int] = {}
        self._lost: set[str] = set()
        self._lock = threading.Lock()

    def hold(self, name: str, epoch: int) -> None:
        with self._lock:
            self._held[name] = epoch
            self._lost.discard(name)

    def lose(self, name: str) -> None:
        with self._lock:
            self._lost.add(name)

    def drop(self, name: str) -> None:
        """Forget a lease given up on purpose (released after its table closed)."""
        with self._lock:
            self._held.pop(name, None)
            self._lost.discard(name)

    def epoch(self, name: str) -> int | None:
        return self._held.get(name)

    def lost(self, name: str) -> bool:
        return name in self._lost

    def held(self) -> dict[str, int]:
        """The leases held and not lost (name → epoch)."""
        with self._lock:
            return {n: e for n, e in self._held.items() if n not in self._lost}

    def check(self, conn: sa.Connection, table_id: str, backend: Any) -> None:
        """Raise :class:`LeaseLostError` unless this process may write for ``table_id``
        in the transaction ``conn`` (its lease row locked until the transaction ends)."""
        self.check_many(conn, (table_id,), backend)

    def check_many(self, conn: sa.Connection, table_ids: Iterable[str], backend: Any) -> None:
        """:meth:`check` for several tables with one read of their lease rows (a group
        commit's tables); the first table refused, in the order given, raises."""
        held = {t: e for t in dict.fromkeys(table_ids) if (e := self._held.get(t)) is not None}
        if not held:
            return
        for table_id in held:
            if table_id in self._lost:
                raise LeaseLostError(f"this process lost table {table_id!r} to another")
        rows = {
            row.name: row
            for row in conn.execute(
                backend.lock(
                    sa.select(table_leases.c.name, table_leases.c.owner, table_leases.c.epoch)
                    .where(table_leases.c.name.in_(sorted(held)))
                    .order_by(table_leases.c.name)
                )
            )
        }
        for table_id, epoch in held.items():
            row = rows.get(table_id)
            if row is None or row.owner != self.owner or int(row.epoch) != epoch:
                self.lose(table_id)
                raise LeaseLostError(
                    f"table {table_id!r} is held by {row.owner if row else 'nobody'}"
                    f" at epoch {row.epoch if row else 0}, not by {self.owner} at epoch {epoch}"
                )


def run_fenced(
    db: Database, fence: Fence | None, name: str, work: Callable[[sa.Connection], T]
) -> T:
    """``db.run(work)``, made only while this process holds the lease ``name`` (if it
    holds it), checked first in the same transaction (:meth:`Fence.check`)."""
    if fence is None:
        return db.run(work)

    def fenced(conn: sa.Connection) -> T:
        fence.check(conn, name, db.backend)
        return work(conn)

    return db.run(fenced)
