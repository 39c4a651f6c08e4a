"""Percentiles and the summary of one measured window (pure functions)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Summary", "percentile", "summarize"]


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of already sorted values, nearest rank; 0.0 when empty.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile([1.0, 2.0, 3.0, 4.0], 0.99)
    (2.0, 4.0)
    >>> percentile([], 0.5)
    0.0
    """
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(q * len(sorted_values)))
    return float(sorted_values[min(rank, len(sorted_values)) - 1])


@dataclass(frozen=True, slots=True)
class Summary:
    """Latency figures of one window, in milliseconds."""

    count: int
    p50: float
    p90: float
    p99: float
    p999: float
    max: float

    @property
    def cells(self) -> tuple[str, ...]:
        return tuple(_ms(v) for v in (self.p50, self.p90, self.p99, self.p999, self.max))


def summarize(seconds: Sequence[float]) -> Summary:
    """Summary of latencies given in seconds.

    >>> summarize([0.001, 0.002, 0.003]).p50
    2.0
    """
    values = sorted(seconds)
    ms = [v * 1000.0 for v in values]
    return Summary(
        len(ms),
        percentile(ms, 0.5),
        percentile(ms, 0.9),
        percentile(ms, 0.99),
        percentile(ms, 0.999),
        ms[-1] if ms else 0.0,
    )


def _ms(v: float) -> str:
    return f"{v:.1f}" if v < 10 else f"{v:.0f}"
