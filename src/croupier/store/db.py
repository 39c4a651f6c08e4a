"""Connections, transactions with retry, and programmatic Alembic migrations.

>>> db = Database.open("sqlite://")
>>> db.migrate() == head_revision()
True
>>> db.run(lambda conn: conn.exec_driver_sql("SELECT count(*) FROM users").scalar_one())
0
>>> db.close()
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Engine

from croupier.store.backends import Backend, backend_for
from croupier.store.turns import WriteTurns

__all__ = [
    "DEFAULT_URL",
    "ENV_URL",
    "MAX_OR_TERMS",
    "MAX_PARAMETERS",
    "Clock",
    "Database",
    "chunked",
    "default_url",
    "head_revision",
    "now_ms",
    "padded",
]

log = logging.getLogger("croupier.store")

T = TypeVar("T")

#: The default database: a SQLite file in the working directory.
DEFAULT_URL = "sqlite:///croupier.sqlite3"
#: The environment variable that overrides :data:`DEFAULT_URL`.
ENV_URL = "CROUPIER_DATABASE_URL"

#: A clock is any function returning the current time in seconds since the Unix epoch.
Clock = Callable[[], float]

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def default_url() -> str:
    """``$CROUPIER_DATABASE_URL`` or :data:`DEFAULT_URL`."""
    return os.environ.get(ENV_URL) or DEFAULT_URL


def now_ms(clock: Clock) -> int:
    """The clock's time in integer milliseconds.

    >>> now_ms(lambda: 12.3456)
    12346
    """
    return round(clock() * 1000)


MAX_PARAMETERS = 30_000
"""Bound parameters per statement at most (SQLite allows 32,766): a batch's inserts and
updates are cut into statements of at most this many."""

MAX_OR_TERMS = 250
"""Terms of an ``OR`` at most (SQLite parses ``a OR b OR …`` as a tree as deep as the
list; its limit is 1,000)."""


def chunked(items: Sequence[T], size: int) -> list[Sequence[T]]:
    """``items`` cut into runs of at most ``size`` (a batch's statements: see
    :data:`MAX_PARAMETERS`).

    >>> chunked([1, 2, 3], 2)
    [[1, 2], [3]]
    """
    return [items[i : i + size] for i in range(0, len(items), size)]


def padded(items: Sequence[T]) -> list[T]:
    """``items`` (not empty) made as long as the next power of two by repeating the last:
    a statement over a list built once per size (``functools.cache``) then serves every
    list, with a few sizes only (a repeated key in an ``IN``, an ``OR`` or a ``CASE``
    changes nothing).

    >>> padded([1, 2, 3]), padded([1])
    ([1, 2, 3, 3], [1])
    """
    size = 1 << (len(items) - 1).bit_length()
    return [*items, *[items[-1]] * (size - len(items))]


def numbered(name: str, size: int, type_: Any) -> list[sa.BindParameter[Any]]:
    """The bound parameters ``name0``, ``name1``, … (``size`` of them) of ``type_``: the
    parts of a statement built once per size (:func:`padded`) whatever the values.

    >>> [p.key for p in numbered("a", 3, sa.BigInteger())]
    ['a0', 'a1', 'a2']
    """
    return [sa.bindparam(f"{name}{i}", type_=type_) for i in range(size)]


def case_by(
    key: sa.ColumnElement[Any],
    keys: Sequence[sa.BindParameter[Any]],
    name: str,
    type_: Any,
    else_: Any,
) -> sa.Case[Any]:
    """``CASE key WHEN keys[0] THEN :name0 WHEN keys[1] THEN :name1 … ELSE else_ END``: a
    value per row in one statement (built once per size, :func:`numbered`).

    >>> t = sa.table("t", sa.column("id"))
    >>> print(case_by(t.c.id, numbered("k", 2, sa.Integer()), "v", sa.Integer(), 0))
    CASE t.id WHEN :k0 THEN :v0 WHEN :k1 THEN :v1 ELSE :param_1 END
    """
    values = numbered(name, len(keys), type_)
    return sa.case(dict(zip(keys, values, strict=True)), value=key, else_=else_)


def head_revision() -> str:
    """The newest revision of the migration scripts (what :meth:`Database.migrate` reaches)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


@dataclass(frozen=True, slots=True)
class Database:
    """An engine, the adapter for its dialect, and the transaction runner."""

    url: str
    backend: Backend
    engine: Engine
    retries: int = 8
    serial: contextlib.AbstractContextManager[Any] = field(
        default_factory=contextlib.nullcontext, compare=False, repr=False
    )
    """Held around each transaction. SQLite has one writer at a time and every transaction
    here begins ``IMMEDIATE``, so this process's threads (the journal's lanes, the archive,
    the ledger's calls) take turns on an in-process lock, and the processes sharing a
    database file take turns on a ``flock`` beside it (:class:`~croupier.store.turns.WriteTurns`),
    each woken as soon as the writer before it commits, rather than in SQLite's busy
    handler, which sleeps up to 100 ms between tries (at 1,000 tables, five threads slept
    there more than they wrote, and two processes made records wait seconds:
    docs/benchmarks.md). PostgreSQL's transactions run side by side: nothing is held."""

    @classmethod
    def open(cls, url: str, *, idle_in_transaction: float | None = None) -> Database:
        """Connect to ``url`` (nothing is created until :meth:`migrate`);
        ``idle_in_transaction``: see :meth:`Backend.create_engine`."""
        backend = backend_for(url)
        engine = backend.create_engine(url, idle_in_transaction=idle_in_transaction)
        if backend.name == "sqlite":
            path = sa.engine.make_url(url).database
            turns = (
                WriteTurns.shared(os.path.abspath(path))
                if path and path != ":memory:"
                else WriteTurns()
            )
            return cls(url=url, backend=backend, engine=engine, serial=turns)
        return cls(url=url, backend=backend, engine=engine)

    def run(self, work: Callable[[sa.Connection], T], *, snapshot: bool = False) -> T:
        """Run ``work`` in one transaction (retried on lock timeouts and deadlocks).
        ``snapshot``: every statement of ``work`` reads the same state of the database,
        whatever commits meanwhile (the audit of a live room; ``Backend.snapshot``).

        ``work`` may be run more than once, so it must have no effect outside the database.
        """
        attempt = 0
        while True:
            try:
                with self.serial, self.engine.connect() as conn:
                    if snapshot and self.backend.snapshot:
                        conn.execution_options(**self.backend.snapshot)
                    try:
                        with conn.begin():
                            return work(conn)
                    except sa.exc.DBAPIError:
                        # A statement of the failed attempt can outlive it (the error's
                        # traceback holds its cursor until a collection), and on SQLite
                        # it keeps the connection's next commit from happening ("cannot
                        # commit transaction - SQL statements in progress"): a retry on
                        # the same connection would fail. The connection is thrown away,
                        # after a rollback: a commit SQLite refused for a statement still
                        # alive ("SQL statements in progress") leaves its transaction open,
                        # and a connection closed with a live statement lingers, holding
                        # the write lock, until that statement is freed.
                        with contextlib.suppress(Exception):
                            conn.connection.dbapi_connection.rollback()  # type: ignore[union-attr]
                        conn.invalidate()
                        raise
            except sa.exc.DBAPIError as exc:
                attempt += 1
                if attempt > self.retries or not self.backend.is_retryable(exc):
                    raise
                log.warning(
                    "store transaction retried (attempt %d): %s",
                    attempt,
                    type(exc.orig).__name__ if exc.orig is not None else type(exc).__name__,
                    extra={
                        "event": "store_retry",
                        "attempt": attempt,
                        "backend": self.backend.name,
                    },
                )
                time.sleep(min(0.5, 0.01 * 2**attempt))

    def migrate(self) -> str:
        """Bring the schema to the newest revision; returns it. Safe to run concurrently."""
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as conn:
            if self.backend.name == "postgresql":
                # One migrator at a time across processes.
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7263519)")
            config.attributes["connection"] = conn
            command.upgrade(config, "head")
            revision = MigrationContext.configure(conn).get_current_revision()
        return str(revision)

    def close(self) -> None:
        """Close every pooled connection (and the file SQLite's writers take turns on)."""
        self.engine.dispose()
        if isinstance(self.serial, WriteTurns):
            self.serial.close()
