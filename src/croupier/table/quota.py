"""All-in protections per player over a rolling 24 hours (R-TIME-2): the table's quota port.

The room counts a player's all-in protections across every table, not per table: the
table asks a :class:`ProtectionQuota` (the store's, keyed by account and wall-clock time,
in a server) whether the player has one left and takes it in the same step. Without one,
a table keeps its own count (:class:`LocalQuota`: the table clock, rebuilt from the
journal's ``ProtectionUsed`` records at restart), which is what the table tests use.

>>> from croupier.table.clock import FakeClock
>>> clock = FakeClock()
>>> q = LocalQuota(clock)
>>> q.take("ann", "t1", 2), q.take("ann", "t2", 2), q.take("ann", "t1", 2), q.used("ann")
(1, 2, None, 2)
"""

from __future__ import annotations

from typing import Protocol

from croupier.table.clock import Clock
from croupier.table.policies import protections_in_window

__all__ = ["LocalQuota", "ProtectionQuota"]


class ProtectionQuota(Protocol):
    """Where the all-in protections a player used are counted."""

    def used(self, player_id: str) -> int:
        """The protections ``player_id`` used in the last 24 hours."""
        ...

    def take(self, player_id: str, table_id: str, limit: int) -> int | None:
        """Use one protection at ``table_id`` if fewer than ``limit`` were used in the last
        24 hours (check and record are one step): the new count, or ``None``."""
        ...


class LocalQuota:
    """A quota kept by one table on its own clock (no store)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.times: dict[str, list[float]] = {}

    def load(self, player_id: str, at: float) -> None:
        """A protection used before a restart (from the journal)."""
        self.times.setdefault(player_id, []).append(at)

    def used(self, player_id: str) -> int:
        recent = protections_in_window(self.times.get(player_id, []), self.clock.now())
        self.times[player_id] = recent
        return len(recent)

    def take(self, player_id: str, table_id: str, limit: int) -> int | None:
        if self.used(player_id) >= limit:
            return None
        self.times.setdefault(player_id, []).append(self.clock.now())
        return len(self.times[player_id])
