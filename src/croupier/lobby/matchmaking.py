"""The arcade quick match (R-SEAT-2): players of level 6 or more wait in a queue; groups
of 2 to 6 are drawn at random. A full group of 6 leaves at once. Otherwise a **gathering
window** opens as soon as two players are queued (Decision: ``wait_seconds`` = 10 s): when
it closes, everyone then queued (up to 6) starts a table. A lone player waits; the
:meth:`QuickMatch.status` they are sent says so, with how long they have waited.

>>> import random
>>> q = QuickMatch(min_level=6, wait_seconds=10)
>>> q.join("ann", level=7, now=0); q.join("bob", level=6, now=1)
>>> q.join("kid", level=2, now=1)
Traceback (most recent call last):
...
croupier.lobby.catalog.LobbyError: the quick match needs level 6 (you are level 2)
>>> q.status("ann", now=5)
QueueStatus(waiting=2, waited=5.0, starts_in=6.0)
>>> q.draw(random.Random(1), now=5)
[]
>>> sorted(q.draw(random.Random(1), now=11)[0])
['ann', 'bob']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from croupier.lobby.catalog import LobbyError

__all__ = ["QueueStatus", "QuickMatch"]


@dataclass(frozen=True, slots=True)
class QueueStatus:
    """What a queued player is told: how many wait (them included), how long they have
    waited, and in how many seconds the gathering window starts a table (``None``: they
    are alone, nothing starts until someone else joins)."""

    waiting: int
    waited: float
    starts_in: float | None


class _Rng(Protocol):
    def sample(self, population: Sequence[str], k: int, /) -> list[str]: ...


class QuickMatch:
    """The waiting queue (one owner: the lobby service)."""

    def __init__(self, *, min_level: int = 6, wait_seconds: float = 10.0, size: int = 6) -> None:
        if not 2 <= size <= 6:
            raise ValueError("arcade groups are 2 to 6 players")
        self.min_level = min_level
        self.wait_seconds = wait_seconds
        self.size = size
        self._since: dict[str, float] = {}
        self._gathering: float | None = None
        """When the second player joined (the gathering window's start)."""

    def __contains__(self, player: object) -> bool:
        return player in self._since

    def __len__(self) -> int:
        return len(self._since)

    def join(self, player: str, *, level: int, now: float) -> None:
        """Queue ``player`` (again: no change), or refuse a level below the minimum."""
        if level < self.min_level:
            raise LobbyError(
                "level_too_low",
                f"the quick match needs level {self.min_level} (you are level {level})",
            )
        self._since.setdefault(player, now)
        if len(self._since) >= 2 and self._gathering is None:
            self._gathering = now

    def cancel(self, player: str) -> bool:
        gone = self._since.pop(player, None) is not None
        if len(self._since) < 2:
            self._gathering = None
        return gone

    def players(self) -> list[str]:
        """Everyone queued, in order of arrival."""
        return sorted(self._since, key=lambda p: (self._since[p], p))

    def status(self, player: str, *, now: float) -> QueueStatus | None:
        """What ``player`` is told while queued (``None``: not queued)."""
        since = self._since.get(player)
        if since is None:
            return None
        starts = (
            None
            if self._gathering is None
            else round(max(0.0, float(self._gathering + self.wait_seconds - now)), 1)
        )
        return QueueStatus(len(self._since), round(max(0.0, float(now - since)), 1), starts)

    def draw(self, rng: _Rng, *, now: float) -> list[list[str]]:
        """Groups ready to play, removed from the queue; random among those waiting."""
        groups: list[list[str]] = []
        while len(self._since) >= self.size:
            group = rng.sample(sorted(self._since), self.size)
            groups.append(group)
            for p in group:
                del self._since[p]
        if len(self._since) < 2:
            self._gathering = None
        elif self._gathering is None:
            self._gathering = now
        elif now - self._gathering >= self.wait_seconds:
            group = rng.sample(sorted(self._since), len(self._since))
            groups.append(group)
            self._since.clear()
            self._gathering = None
        return groups
