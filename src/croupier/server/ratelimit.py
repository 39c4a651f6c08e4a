"""Token buckets (per connection, per account, per IP): a pure, frozen value and a step.

A bucket holds up to ``burst`` tokens and refills at ``rate`` tokens per second. Each
message costs a token; with none left the message is refused (the caller answers
``rate_limited``, and closes the connection when the client keeps flooding).

>>> b = Bucket.full(rate=1.0, burst=2, now=0.0)
>>> b, ok1 = b.take(0.0); b, ok2 = b.take(0.0); b, ok3 = b.take(0.0)
>>> ok1, ok2, ok3
(True, True, False)
>>> b.take(1.0)[1]          # one second later one token is back
True
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Bucket", "Buckets"]


@dataclass(frozen=True, slots=True)
class Bucket:
    rate: float
    burst: float
    tokens: float
    at: float
    refused: int = 0
    """Refusals since the client last calmed down (an accepted take that leaves the bucket
    at least half full): a flood indicator. Not reset by every accepted take: a flooding
    client read by a busy server gets a token now and then as the bucket refills, and
    that must not forgive its flood (it did: a server slower than ``50 × rate`` messages a
    second never closed a flood)."""

    @classmethod
    def full(cls, *, rate: float, burst: float, now: float) -> Bucket:
        if rate <= 0 or burst < 1:
            raise ValueError("a bucket needs a positive rate and a burst of at least 1")
        return cls(rate, float(burst), float(burst), now)

    def level(self, now: float) -> float:
        """Tokens available at ``now``."""
        return min(self.burst, self.tokens + max(0.0, now - self.at) * self.rate)

    def take(self, now: float, cost: float = 1.0) -> tuple[Bucket, bool]:
        """The bucket after trying to take ``cost`` tokens at ``now``, and whether it could."""
        level = self.level(now)
        at = max(self.at, now)
        if level >= cost:
            left = level - cost
            calm = left >= (self.burst - cost) / 2
            return Bucket(self.rate, self.burst, left, at, 0 if calm else self.refused), True
        return Bucket(self.rate, self.burst, level, at, self.refused + 1), False


class Buckets:
    """A bounded map of buckets by key (IP address, account), owned by one event loop.

    >>> bs = Buckets(rate=0.5, burst=1)
    >>> bs.allow("1.2.3.4", 0.0), bs.allow("1.2.3.4", 0.5), bs.allow("1.2.3.4", 2.0)
    (True, False, True)
    """

    def __init__(self, *, rate: float, burst: float, max_keys: int = 100_000) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self._buckets: dict[str, Bucket] = {}

    def allow(self, key: str, now: float, cost: float = 1.0) -> bool:
        bucket = self._buckets.get(key) or Bucket.full(rate=self.rate, burst=self.burst, now=now)
        bucket, ok = bucket.take(now, cost)
        if len(self._buckets) >= self.max_keys and key not in self._buckets:
            self._buckets.clear()  # crude but bounded: everyone starts full again
        self._buckets[key] = bucket
        return ok
