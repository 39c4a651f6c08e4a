"""How long the store's writes wait: a small thread-safe latency histogram.

The group-commit journal (:mod:`croupier.store.groupcommit`) records in one how long a
table's record waited from being queued to being durable (what holds that table's events)
and in another how long each transaction took (a transaction waits for SQLite's lock,
which another process may hold). ``/metrics`` exposes them as Prometheus histograms, and
the load harness (``bench/load``) reads the longest wait of its measured window.

>>> h = Latency()
>>> for s in (0.002, 0.004, 0.3):
...     h.observe(s)
>>> h.count, round(h.max, 3), h.cumulative()[:3]
(3, 0.3, [(0.005, 2), (0.01, 2), (0.025, 2)])
>>> round(h.take_window_max(), 3), h.take_window_max()
(0.3, 0.0)
>>> h.longer_than(0.05), h.longer_than(0.25), h.longer_than(0.5)
(1, 1, 0)
"""

from __future__ import annotations

import bisect
import threading

__all__ = ["BUCKETS", "Latency"]

BUCKETS: tuple[float, ...] = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Upper bounds in seconds (Prometheus ``le``); one more bucket counts the rest."""


class Latency:
    """Durations observed from any thread: counts per bucket, the sum, the longest ever and
    the longest since :meth:`take_window_max` last ran."""

    __slots__ = ("_counts", "_lock", "_window_max", "count", "max", "sum")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts = [0] * (len(BUCKETS) + 1)
        self._window_max = 0.0
        self.count = 0
        self.sum = 0.0
        self.max = 0.0

    def observe(self, seconds: float) -> None:
        i = bisect.bisect_left(BUCKETS, seconds)
        with self._lock:
            self._counts[i] += 1
            self.count += 1
            self.sum += seconds
            if seconds > self.max:
                self.max = seconds
            if seconds > self._window_max:
                self._window_max = seconds

    def cumulative(self) -> list[tuple[float, int]]:
        """``(upper bound, observations at most that long)`` per bucket, the last bound
        ``inf`` (Prometheus ``_bucket{le=…}``)."""
        with self._lock:
            counts = list(self._counts)
        out: list[tuple[float, int]] = []
        total = 0
        for bound, n in zip((*BUCKETS, float("inf")), counts, strict=True):
            total += n
            out.append((bound, total))
        return out

    def longer_than(self, bound: float) -> int:
        """How many observations were longer than ``bound``, one of :data:`BUCKETS`
        (exact there; the harness subtracts two readings to count a window's)."""
        i = BUCKETS.index(bound)
        with self._lock:
            return sum(self._counts[i + 1 :])

    def take_window_max(self) -> float:
        """The longest duration observed since the previous call (then forgotten)."""
        with self._lock:
            longest, self._window_max = self._window_max, 0.0
        return longest

    def prometheus(self, name: str) -> list[str]:
        """The histogram's lines in Prometheus' text format, plus ``name_max_seconds``."""
        lines = [
            f'{name}_bucket{{le="{"+Inf" if bound == float("inf") else bound}"}} {n}'
            for bound, n in self.cumulative()
        ]
        lines += [
            f"{name}_sum {self.sum:.6f}",
            f"{name}_count {self.count}",
            f"{name}_max {self.max:.6f}",
        ]
        return lines
