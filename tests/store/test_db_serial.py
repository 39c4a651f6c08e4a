"""SQLite's transactions take turns on an in-process lock (``Database.serial``, issue #16):
a thread waits for the writer before it there, not in SQLite's busy handler (which sleeps
up to 100 ms between tries), so it does not even begin while another transaction is open;
and each transaction still commits or rolls back as one."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy import event

from croupier.store.db import Database


def test_a_sqlite_transaction_waits_in_process_for_the_one_before(tmp_path: Path) -> None:
    db = Database.open(f"sqlite:///{tmp_path / 'serial.sqlite3'}")
    db.migrate()
    begun: list[str] = []

    def checkout(*_: object) -> None:  # a connection taken to begin (before BEGIN IMMEDIATE)
        begun.append(threading.current_thread().name)

    event.listen(db.engine, "checkout", checkout)
    inside = threading.Event()
    release = threading.Event()

    def first(conn: sa.Connection) -> int:
        inside.set()
        assert release.wait(30)
        return int(conn.exec_driver_sql("SELECT count(*) FROM users").scalar_one())

    def second(conn: sa.Connection) -> int:
        return int(conn.exec_driver_sql("SELECT count(*) FROM users").scalar_one())

    results: dict[str, int] = {}
    a = threading.Thread(target=lambda: results.update(a=db.run(first)), name="a")
    b = threading.Thread(target=lambda: results.update(b=db.run(second)), name="b")
    a.start()
    assert inside.wait(30)
    b.start()
    time.sleep(0.3)  # room for b to begin, were it not waiting for the lock
    try:
        assert begun == ["a"], begun
    finally:
        release.set()
        a.join(30)
        b.join(30)
    assert results == {"a": 0, "b": 0}
    assert begun == ["a", "b"]
    db.close()


def test_a_failed_transaction_releases_the_lock(tmp_path: Path) -> None:
    db = Database.open(f"sqlite:///{tmp_path / 'serial.sqlite3'}")
    db.migrate()

    def boom(conn: sa.Connection) -> None:
        conn.exec_driver_sql("SELECT 1")
        raise ValueError("refused")

    with pytest.raises(ValueError):
        db.run(boom)
    done = threading.Event()
    threading.Thread(
        target=lambda: (db.run(lambda c: c.exec_driver_sql("SELECT 1")), done.set())
    ).start()
    assert done.wait(30), "the lock was kept after a failed transaction"
    db.close()
