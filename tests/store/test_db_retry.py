"""A transaction retried after a lock error commits (``Database.run``).

At 1,000 tables on two processes (issue #16) a table crashed on a buy-in: its journal write
was retried after "database is locked", and the retry's commit failed with "cannot commit
transaction - SQL statements in progress". A statement of the failed attempt was still
alive (its error's traceback holds the cursor until a collection) on the connection the
pool gave the retry. The connection of a failed attempt is now thrown away (R-CRASH-1:
a record the journal must make durable is not lost to a retry)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from croupier.store.db import Database

ROWS = sa.Table(
    "rows",
    sa.MetaData(),
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("x", sa.Integer, nullable=False),
)


def _db(tmp_path: Path) -> Database:
    db = Database.open(f"sqlite:///{tmp_path / 'retry.sqlite3'}")
    ROWS.metadata.create_all(db.engine)
    return db


def test_a_retry_commits_though_the_failed_attempts_statement_is_still_alive(
    tmp_path: Path,
) -> None:
    db = _db(tmp_path)
    kept: list[Any] = []  # what the failed attempt's traceback keeps alive
    attempts = 0

    def work(conn: sa.Connection) -> int:
        nonlocal attempts
        attempts += 1
        result = conn.execute(ROWS.insert().returning(ROWS.c.id), [{"x": attempts}])
        if attempts == 1:
            kept.append(result)  # its INSERT … RETURNING not stepped to the end
            raise sa.exc.OperationalError(
                "INSERT", {}, sqlite3.OperationalError("database is locked")
            )
        return int(result.scalar_one())

    assert db.run(work) == 1
    assert attempts == 2
    with db.engine.connect() as conn:  # the failed attempt's row was rolled back
        assert conn.execute(sa.select(ROWS.c.x)).scalars().all() == [2]
    db.close()


def test_a_commit_refused_for_a_statement_still_alive_is_run_again_on_another_connection(
    tmp_path: Path,
) -> None:
    # Seen at 1,000 tables under the load harness's GC census (which holds every young
    # object while it writes): a buy-in's journal write kept a statement alive through its
    # commit, SQLite refused the commit, and the table crashed. The commit did not happen,
    # so the work is run again on a fresh connection.
    db = _db(tmp_path)
    kept: list[Any] = []
    attempts = 0

    def work(conn: sa.Connection) -> int:
        nonlocal attempts
        attempts += 1
        result = conn.execute(ROWS.insert().returning(ROWS.c.id), [{"x": attempts}])
        if attempts == 1:
            kept.append(result)  # alive, not stepped to the end, when the commit comes
            return -1
        return int(result.scalar_one())

    assert db.run(work) == 1
    assert attempts == 2
    with db.engine.connect() as conn:  # the refused commit's row is not there
        assert conn.execute(sa.select(ROWS.c.x)).scalars().all() == [2]
    db.close()


def test_a_failure_that_is_not_retried_still_reaches_the_caller_and_writes_nothing(
    tmp_path: Path,
) -> None:
    db = _db(tmp_path)

    def work(conn: sa.Connection) -> None:
        conn.execute(ROWS.insert(), [{"x": 1}])
        conn.execute(ROWS.insert(), [{"id": 1, "x": 2}])  # the same key: not retryable

    with pytest.raises(sa.exc.IntegrityError):
        db.run(work)
    assert (
        db.run(lambda conn: conn.execute(sa.select(sa.func.count()).select_from(ROWS)).scalar())
        == 0
    )
    db.close()
