"""How often a serving process's event loop hands the GIL to its store threads.

The room's event loop is one thread; its store threads (the group-commit journal's
writers, the hand archive) write SQLite or PostgreSQL off the loop. Their drivers release
the GIL around every statement they run (``sqlite3_step``, a socket read), and to go on
the thread must take it back. While the loop is busy it keeps the GIL until CPython asks
it to switch, every :func:`sys.getswitchinterval` (5 ms by default): a settlement's
transaction runs a few dozen statements, so on a busy loop it took 0.2–0.4 s, most of it
waiting for the GIL, not for the disk (the "convoy effect"). The table's events wait for
that transaction: nothing is published before its record is durable (R-CRASH-1).

``croupier serve`` sets the interval to ``switch_interval_ms`` (1 ms by default): a store
thread then waits at most about 1 ms per statement. The loop only gives the GIL up when
another thread asks for it, so an idle store costs the loop nothing. Measured in
docs/benchmarks.md ("The GIL's switch interval").

>>> import sys
>>> old = sys.getswitchinterval()
>>> tune_switching(1.0)
0.001
>>> sys.getswitchinterval()
0.001
>>> sys.setswitchinterval(old)
"""

from __future__ import annotations

import sys

__all__ = ["DEFAULT_SWITCH_INTERVAL_MS", "tune_switching"]

DEFAULT_SWITCH_INTERVAL_MS = 1.0
"""A serving process's interval (CPython's own is 5 ms)."""


def tune_switching(milliseconds: float) -> float:
    """Set the interpreter's switch interval to ``milliseconds``; return it in seconds."""
    if not 0.1 <= milliseconds <= 100:
        raise ValueError("the switch interval is 0.1 to 100 ms")
    sys.setswitchinterval(milliseconds / 1000.0)
    return sys.getswitchinterval()
