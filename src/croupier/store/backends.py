"""The two database adapters behind one interface: SQLite (default, embedded) and PostgreSQL.

They differ only in how a writing transaction excludes the others:

- **SQLite** starts every transaction with ``BEGIN IMMEDIATE`` (the database write lock is
  taken at once, so a read-check-write sequence cannot interleave with another writer), in
  WAL mode with ``synchronous=FULL`` and a busy timeout.
- **PostgreSQL** (psycopg 3) runs at READ COMMITTED and locks the rows it is about to
  change with ``SELECT … FOR UPDATE``, always in ascending id order (no deadlocks between
  transfers). Serialization failures and deadlocks are retried. A transaction whose
  statements must all read one state of the database (the audit of a live room) runs at
  REPEATABLE READ (:attr:`Backend.snapshot`); on SQLite every transaction already does.

>>> backend_for("sqlite:///croupier.sqlite3").name
'sqlite'
>>> backend_for("postgresql://u@127.0.0.1:5432/db").driver_url("postgresql://u@h/db")
'postgresql+psycopg://u@h/db'
>>> backend_for("mysql://x")
Traceback (most recent call last):
...
croupier.store.errors.UnsupportedDatabaseError: unsupported database URL 'mysql://x': use sqlite:///path or postgresql://…
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.dialects import postgresql as pg_dialect
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool

from croupier.jsontext import loads_json
from croupier.store.errors import UnsupportedDatabaseError

__all__ = ["Backend", "PostgresBackend", "SqliteBackend", "backend_for"]


class Backend(Protocol):
    """What differs between the databases."""

    @property
    def name(self) -> str:
        """``sqlite`` or ``postgresql``."""
        ...

    def driver_url(self, url: str) -> str:
        """The SQLAlchemy URL with the driver this adapter uses."""
        ...

    def create_engine(self, url: str, *, idle_in_transaction: float | None = None) -> Engine:
        """A configured engine for ``url``. ``idle_in_transaction``: seconds after which
        the server ends a session left idle inside a transaction (its locks released), on
        the databases that can (PostgreSQL): a frozen process must not keep the lease rows
        another process needs to take its tables over (store/leases.py)."""
        ...

    @property
    def snapshot(self) -> dict[str, Any]:
        """The connection's execution options for a transaction whose statements all
        read one state of the database (``{}``: every transaction does)."""
        ...

    def lock(self, stmt: sa.Select[Any]) -> sa.Select[Any]:
        """``stmt`` made to lock the rows it reads until the transaction ends."""
        ...

    def insert_ignore(self, table: sa.Table) -> Any:
        """An ``INSERT … ON CONFLICT DO NOTHING`` on ``table``."""
        ...

    def is_retryable(self, exc: BaseException) -> bool:
        """Whether a failed transaction may simply be run again."""
        ...


@dataclass(frozen=True, slots=True)
class SqliteBackend:
    """SQLite: ``BEGIN IMMEDIATE`` transactions, WAL, foreign keys, busy timeout."""

    name: str = "sqlite"
    busy_timeout_ms: int = 30_000

    @property
    def snapshot(self) -> dict[str, Any]:
        return {}  # BEGIN IMMEDIATE: every transaction reads one state

    def driver_url(self, url: str) -> str:
        return url

    def create_engine(self, url: str, *, idle_in_transaction: float | None = None) -> Engine:
        # one process holds SQLite's write lock at a time: a frozen one is not a concern of
        # the lease rows more than of any other write
        memory = url in ("sqlite://", "sqlite:///:memory:")
        if memory:
            engine = sa.create_engine(
                url,
                poolclass=StaticPool,
                connect_args={"check_same_thread": False},
                json_deserializer=loads_json,
            )
        else:
            engine = sa.create_engine(
                url,
                connect_args={"timeout": self.busy_timeout_ms / 1000},
                pool_size=8,
                json_deserializer=loads_json,
            )
        busy = self.busy_timeout_ms

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={busy}")
            if not memory:
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute("PRAGMA synchronous=FULL")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _on_begin(conn: sa.Connection) -> None:
            conn.exec_driver_sql("BEGIN IMMEDIATE")

        return engine

    def lock(self, stmt: sa.Select[Any]) -> sa.Select[Any]:
        return stmt  # BEGIN IMMEDIATE already holds the database write lock

    def insert_ignore(self, table: sa.Table) -> Any:
        return sqlite_dialect.insert(table).on_conflict_do_nothing()

    def is_retryable(self, exc: BaseException) -> bool:
        # "SQL statements in progress": the commit did not happen (a statement was still
        # alive on the connection, SQLITE_BUSY); ``Database.run`` throws that connection
        # away, which rolls the transaction back, and runs the work again on another.
        text = str(exc).lower()
        return isinstance(exc, sa.exc.OperationalError) and (
            "database is locked" in text or "busy" in text or "statements in progress" in text
        )


@dataclass(frozen=True, slots=True)
class PostgresBackend:
    """PostgreSQL through psycopg 3: row locks with ``FOR UPDATE``; retries on 40001/40P01."""

    name: str = "postgresql"

    @property
    def snapshot(self) -> dict[str, Any]:
        return {"isolation_level": "REPEATABLE READ"}

    def driver_url(self, url: str) -> str:
        scheme, sep, rest = url.partition("://")
        if scheme in ("postgresql", "postgres"):
            scheme = "postgresql+psycopg"
        return f"{scheme}{sep}{rest}"

    def create_engine(self, url: str, *, idle_in_transaction: float | None = None) -> Engine:
        args = {}
        if idle_in_transaction is not None:
            ms = max(1, round(idle_in_transaction * 1000))
            args["options"] = f"-c idle_in_transaction_session_timeout={ms}"
        return sa.create_engine(
            self.driver_url(url),
            pool_size=8,
            max_overflow=16,
            pool_pre_ping=True,
            connect_args=args,
            json_deserializer=loads_json,
        )

    def lock(self, stmt: sa.Select[Any]) -> sa.Select[Any]:
        return stmt.with_for_update()

    def insert_ignore(self, table: sa.Table) -> Any:
        return pg_dialect.insert(table).on_conflict_do_nothing()

    def is_retryable(self, exc: BaseException) -> bool:
        orig = getattr(exc, "orig", None)
        return getattr(orig, "sqlstate", None) in ("40001", "40P01")


def backend_for(url: str) -> Backend:
    """The adapter for a database URL (``sqlite://…`` or ``postgresql://…``)."""
    scheme = url.partition("://")[0].lower()
    base = scheme.partition("+")[0]
    if base == "sqlite":
        return SqliteBackend()
    if base in ("postgresql", "postgres"):
        return PostgresBackend()
    raise UnsupportedDatabaseError(
        f"unsupported database URL {url!r}: use sqlite:///path or postgresql://…"
    )
