"""SQLite's writers take turns across processes (store/turns.py, issue #16): a transaction
of one process waits, blocked in the kernel, while another process of the room holds the
turn, goes on as soon as it is let go, and a process killed while holding it lets it go
with its death."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from croupier.store.db import Database
from croupier.store.turns import WriteTurns

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="flock is POSIX")

HOLDER = """
import sys
from croupier.store.turns import WriteTurns
turns = WriteTurns(sys.argv[1])
with turns:
    print("held", flush=True)
    sys.stdin.readline()
print("let go", flush=True)
"""


@contextlib.contextmanager
def holding(database: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the turn of ``database`` until told (:func:`let_go`) or
    killed; killed and reaped at the end in any case."""
    with subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(database)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as proc:
        try:
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == "held"
            yield proc
        finally:
            proc.kill()
            proc.wait(10)


def let_go(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None
    proc.stdin.write("go\n")
    proc.stdin.flush()
    assert proc.wait(10) == 0


def _in_thread(work: object) -> tuple[threading.Thread, threading.Event]:
    done = threading.Event()

    def run() -> None:
        work()  # type: ignore[operator]
        done.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, done


def test_a_transaction_waits_for_the_other_process_turn_then_goes_on(tmp_path: Path) -> None:
    database = tmp_path / "room.sqlite3"
    db = Database.open(f"sqlite:///{database}")
    try:
        db.migrate()
        assert isinstance(db.serial, WriteTurns) and db.serial.path == f"{database}-turns"
        with holding(database) as proc:
            thread, done = _in_thread(
                lambda: db.run(lambda c: c.exec_driver_sql("SELECT count(*) FROM users").scalar())
            )
            assert not done.wait(0.5), "the transaction ran during the other process's turn"
            let_go(proc)
            assert done.wait(10), "the turn was let go but the transaction never ran"
            thread.join(10)
        assert db.serial.depth == 0
    finally:
        db.close()


def test_a_process_killed_holding_the_turn_lets_it_go(tmp_path: Path) -> None:
    database = tmp_path / "room.sqlite3"
    turns = WriteTurns(str(database))
    finish = threading.Event()

    def hold() -> None:
        with turns:
            finish.wait(10)

    try:
        with holding(database) as proc:
            thread, done = _in_thread(hold)
            assert not done.wait(0.5)
            assert turns.depth == 0  # waiting for the other process, not holding
            os.kill(proc.pid, signal.SIGKILL)
            for _ in range(1000):
                if turns.depth == 1:
                    break
                finish.wait(0.01)
            assert turns.depth == 1, "the turn of a killed process was never let go"
            finish.set()
            assert done.wait(10)
            thread.join(10)
        assert turns.depth == 0
    finally:
        turns.close()


def test_an_error_inside_lets_the_turn_go(tmp_path: Path) -> None:
    turns = WriteTurns(str(tmp_path / "room.sqlite3"))
    with pytest.raises(RuntimeError), turns:
        raise RuntimeError("boom")
    assert turns.depth == 0
    with holding(tmp_path / "room.sqlite3") as proc:  # another process takes it at once
        let_go(proc)
    turns.close()


def test_in_memory_databases_take_turns_in_process_only() -> None:
    db = Database.open("sqlite://")
    try:
        assert isinstance(db.serial, WriteTurns) and db.serial.path is None
        db.migrate()
        assert db.run(lambda c: c.exec_driver_sql("SELECT 1").scalar()) == 1
    finally:
        db.close()


def test_two_stores_of_a_process_on_one_file_share_its_turns(tmp_path: Path) -> None:
    """Their threads take turns in process (re-entrant for one thread: a thread inside a
    transaction of one store never waits for its own turn in the other)."""
    url = f"sqlite:///{tmp_path / 'room.sqlite3'}"
    a, b = Database.open(url), Database.open(url)
    other = Database.open(f"sqlite:///{tmp_path / 'other.sqlite3'}")
    try:
        assert a.serial is b.serial and a.serial is not other.serial
        with a.serial, b.serial:
            assert isinstance(a.serial, WriteTurns) and a.serial.depth == 2
        a.migrate()
        a.close()  # the other store of the file still writes (its turns reopen the file)
        assert b.run(lambda c: c.exec_driver_sql("SELECT count(*) FROM users").scalar()) == 0
    finally:
        b.close()
        other.close()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX")
def test_a_forked_child_of_a_holder_waits_for_its_own_turn(tmp_path: Path) -> None:
    """A process forked while its parent holds the turn starts holding nothing: it
    neither inherits the parent's holder (it would write without a turn) nor its open file
    (a ``flock`` on it would be the parent's), and the parent keeps its turn."""
    turns = WriteTurns(str(tmp_path / "room.sqlite3"))
    with turns:
        pid = os.fork()
        if pid == 0:  # the child: report through the exit status, never raise
            code = 1
            try:
                import fcntl

                if turns.depth == 0:
                    try:
                        fcntl.flock(turns._file(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                    except BlockingIOError:
                        code = 0  # the parent's turn is not the child's
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        assert turns.depth == 1
        other = WriteTurns(str(tmp_path / "room.sqlite3"))
        import fcntl

        with pytest.raises(BlockingIOError):  # the parent still holds it
            fcntl.flock(other._file(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        other.close()
    turns.close()
