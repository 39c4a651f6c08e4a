"""SQLite's writers take turns: the threads of a process, and the processes of a room.

SQLite lets one transaction write at a time, and every transaction of the store begins
``IMMEDIATE``. A writer that finds the lock taken waits in SQLite's busy handler, which
polls and sleeps between tries, longer and longer, up to 100 ms each: a waiter may sleep
through many commits of another writer, which takes the lock again at once. With two
processes of a room on one file (``croupier serve`` on two cores) each process's four
journal lanes and archive thread slept behind the other's: at 1,000 tables a transaction
took up to 4.4 s and a player's action up to 9 s to reach the others (a table's events
wait for its records); taking turns here, 1.2–1.5 s and 1.5–1.9 s (docs/benchmarks.md,
"SQLite's writers take turns across processes").

:class:`WriteTurns` is held around each transaction (``Database.serial``): an in-process
re-entrant lock, then, for a database file, an exclusive ``flock`` on a file beside it
(``<database>-turns``). A process waiting for it blocks in the kernel, which wakes it as
soon as the holder lets go, instead of sleeping in the busy handler. The lock follows the
process: it dies with it (SIGKILL included), and a forked child opens its own. A process
frozen inside a transaction holds the others' writes until it wakes or dies, as it holds
SQLite's own write lock (docs/storage.md). Tools outside croupier still meet SQLite's
lock and its busy handler; nothing depends on them taking turns.

>>> import tempfile, os
>>> d = tempfile.mkdtemp()
>>> turns = WriteTurns(os.path.join(d, "room.sqlite3"))
>>> with turns:
...     with turns:                     # re-entrant in a thread
...         turns.depth
2
>>> turns.depth, os.path.basename(turns.path)
(0, 'room.sqlite3-turns')
>>> turns.close()
"""

from __future__ import annotations

import os
import threading
import weakref
from types import TracebackType

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: the in-process lock only
    fcntl = None  # type: ignore[assignment]

__all__ = ["WriteTurns"]

_SHARED: dict[str, WriteTurns] = {}
_SHARED_LOCK = threading.Lock()


class WriteTurns:
    """Turns between this process's threads and, with ``database`` (a SQLite file's
    path), between the processes that use that file."""

    __slots__ = ("__weakref__", "_fd", "_local", "depth", "path")

    def __init__(self, database: str | None = None) -> None:
        self._local = threading.RLock()
        self.depth = 0
        """How deep the holding thread is (0: nobody holds it)."""
        self.path = f"{database}-turns" if database and fcntl is not None else None
        """The file whose ``flock`` the processes take turns on (``None``: in-process)."""
        self._fd: int | None = None
        _LIVE.add(self)

    @classmethod
    def shared(cls, database: str) -> WriteTurns:
        """The process's one :class:`WriteTurns` of the database file ``database`` (an
        absolute path): two stores of this process on one file share it, so a thread
        inside a transaction of one never waits for its own turn in the other (SQLite's
        busy timeout then answers, as it did before turns were taken across processes).

        >>> WriteTurns.shared("/tmp/a.sqlite3") is WriteTurns.shared("/tmp/a.sqlite3")
        True
        """
        with _SHARED_LOCK:
            turns = _SHARED.get(database)
            if turns is None:
                turns = _SHARED[database] = cls(database)
            return turns

    def _file(self) -> int:
        """This process's descriptor of :attr:`path`, opened on first use (a forked
        child forgets its parent's, :func:`_forget_after_fork`, and opens its own: a
        ``flock`` belongs to the open file, which a fork would share)."""
        assert self.path is not None
        if self._fd is None:
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        return self._fd

    def _forget(self) -> None:
        """In a forked child: close the child's copy of the parent's descriptor (the
        parent keeps its own, and its lock) and forget who held the turn."""
        if self._fd is not None:
            os.close(self._fd)
        self._fd = None
        self._local = threading.RLock()
        self.depth = 0

    def __enter__(self) -> None:
        self._local.acquire()
        if self.depth == 0 and self.path is not None:
            try:
                fcntl.flock(self._file(), fcntl.LOCK_EX)  # releases the GIL while it waits
            except BaseException:
                self._local.release()
                raise
        self.depth += 1

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.depth -= 1
        try:
            if self.depth == 0 and self.path is not None and self._fd is not None:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
        finally:
            self._local.release()

    def close(self) -> None:
        """Close this process's descriptor (the lock is then let go, if held)."""
        with self._local:
            if self._fd is not None:
                os.close(self._fd)
            self._fd = None


_LIVE: weakref.WeakSet[WriteTurns] = weakref.WeakSet()


def _forget_after_fork() -> None:
    """A forked child starts with no descriptor and no holder in any :class:`WriteTurns`
    (the parent's thread that held one does not exist in the child)."""
    global _SHARED_LOCK
    _SHARED_LOCK = threading.Lock()
    for turns in list(_LIVE):
        turns._forget()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)
