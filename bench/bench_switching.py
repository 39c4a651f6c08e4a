"""A store thread's transactions against a busy event loop, per GIL switch interval.

Run: ``.venv/bin/python bench/bench_switching.py``. One thread writes the journal's seat
maps of four tables per transaction (``SqlJournal.append_many``, SQLite, WAL,
``synchronous=FULL``) while the main thread is idle (sleeping, as an event loop waiting
for its sockets) or busy (pure Python, as a saturated event loop). The driver releases
the GIL around each statement, and the writer must take it back from the main thread: on
a busy one that takes up to the switch interval each time (``croupier serve`` sets 1 ms,
CPython's default is 5 ms; :mod:`croupier.server.switching`). Prints the transactions'
median, p99 and longest per interval, and each busy row's ratio to the idle one at the
same interval: the machine is shared and noisy, compare ratios, all measured in this run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from croupier.store import open_store
from croupier.table.journal import SeatsRecord
from croupier.table.seating import Seat

SEATS = tuple(Seat(i, str(i + 1), f"P{i}", stack=100) for i in range(6))


def transactions(directory: Path, interval_ms: float, busy: bool, n: int) -> list[float]:
    """``n`` transactions' durations (seconds) by a writer thread, the main thread busy or
    idle meanwhile, the switch interval at ``interval_ms``."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(interval_ms / 1000.0)
    store = open_store(f"sqlite:///{directory}/switch-{interval_ms}-{busy}.sqlite3")
    times: list[float] = []
    done = threading.Event()

    def writer() -> None:
        try:
            for _ in range(n):
                t0 = time.perf_counter()
                store.journal.append_many([(f"t{j}", SeatsRecord(SEATS, "sit")) for j in range(4)])
                times.append(time.perf_counter() - t0)
        finally:
            done.set()

    thread = threading.Thread(target=writer)
    try:
        thread.start()
        x = 0
        while not done.is_set():
            if busy:
                for i in range(2000):  # the loop's own Python work
                    x += i * i
            else:
                time.sleep(0.001)
        thread.join()
    finally:
        store.close()
        sys.setswitchinterval(old)
    return sorted(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--transactions", type=int, default=200)
    parser.add_argument("--intervals", type=float, nargs="+", default=[5.0, 1.0, 0.5])
    args = parser.parse_args(argv)
    print("| switch interval | main thread | median | p99 | longest | busy / idle (median · p99) |")
    print("| --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as d:
        for interval in args.intervals:
            idle = transactions(Path(d), interval, False, args.transactions)
            busy = transactions(Path(d), interval, True, args.transactions)
            for label, t in (("idle", idle), ("busy", busy)):
                p99 = t[min(len(t) - 1, int(0.99 * len(t)))]
                ratio = (
                    f"{statistics.median(t) / statistics.median(idle):.1f}× · "
                    f"{p99 / idle[min(len(idle) - 1, int(0.99 * len(idle)))]:.1f}×"
                    if label == "busy"
                    else ""
                )
                print(
                    f"| {interval:g} ms | {label} | {1e3 * statistics.median(t):.1f} ms "
                    f"| {1e3 * p99:.1f} ms | {1e3 * t[-1]:.1f} ms | {ratio} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
