"""The arcade quick match (R-SEAT-2): players of level 6 or more wait in a queue; groups
of 2 to 6 are drawn at random. A full group of 6 leaves at once; a smaller group leaves
when its oldest player has waited ``wait_seconds``.

>>> import random
>>> q = QuickMatch(min_level=6, wait_seconds=10)
>>> q.join("ann", level=7, now=0); q.join("bob", level=6, now=1)
>>> q.join("kid", level=2, now=1)
Traceback (most recent call last):
...
croupier.lobby.catalog.LobbyError: the quick match needs level 6 (you are level 2)
>>> q.draw(random.Random(1), now=5)
[]
>>> sorted(q.draw(random.Random(1), now=10)[0])
['ann', 'bob']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from croupier.lobby.catalog import LobbyError

__all__ = ["QuickMatch"]


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

    def cancel(self, player: str) -> bool:
        return self._since.pop(player, None) is not None

    def draw(self, rng: _Rng, *, now: float) -> list[list[str]]:
        """Groups ready to play, removed from the queue; random among those waiting."""
        groups: list[list[str]] = []
        while len(self._since) >= self.size:
            group = rng.sample(sorted(self._since), self.size)
            groups.append(group)
            for p in group:
                del self._since[p]
        if len(self._since) >= 2 and now - min(self._since.values()) >= self.wait_seconds:
            group = rng.sample(sorted(self._since), len(self._since))
            groups.append(group)
            self._since.clear()
        return groups
