"""Login throttling: too many failures in a sliding window lock the account name, or the
address, out until the oldest failure leaves the window.

Defaults: 5 failures per account name and 20 per IP address in 15 minutes (an address
may be shared by many players behind one NAT). Unknown names are throttled the same way
as real ones, so throttling tells nothing about which names exist.

>>> policy = ThrottlePolicy(max_failures=2, window_seconds=60)
>>> policy.retry_after([0.0, 10.0], now=30.0)
30.0
>>> policy.retry_after([0.0], now=30.0) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["ThrottlePolicy"]


@dataclass(frozen=True, slots=True)
class ThrottlePolicy:
    """At most ``max_failures`` failed logins in ``window_seconds``."""

    max_failures: int = 5
    window_seconds: float = 15 * 60.0

    def __post_init__(self) -> None:
        if self.max_failures < 1 or self.window_seconds <= 0:
            raise ValueError("max_failures >= 1 and window_seconds > 0")

    def retry_after(self, failures: Sequence[float], now: float) -> float | None:
        """Seconds to wait, or ``None`` when a new attempt is allowed. ``failures`` are the
        times (s) of the failures inside the window, oldest first."""
        recent = [t for t in failures if t > now - self.window_seconds]
        if len(recent) < self.max_failures:
            return None
        unlock = recent[len(recent) - self.max_failures] + self.window_seconds
        return max(0.0, unlock - now)
