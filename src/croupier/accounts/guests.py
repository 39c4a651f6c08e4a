"""Guests: an identity without an account that may watch where the table allows
spectators (R-SEAT-2: the arcade profile allows none). Guests never sit or hold chips.

>>> from croupier.engine.rules import profile
>>> guest = Guest.new()
>>> guest.id.startswith("guest-"), may_watch(guest, profile("naiko")), may_watch(guest, profile("arcade"))
(True, True, False)
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Protocol

__all__ = ["Guest", "SpectatorRules", "may_watch"]


class SpectatorRules(Protocol):
    """What a table's house rules say about spectators (``HouseRules`` fits)."""

    @property
    def spectators(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class Guest:
    """A watcher without an account."""

    id: str
    name: str

    @classmethod
    def new(cls) -> Guest:
        """A fresh guest with a random id (96 bits)."""
        tag = secrets.token_hex(12)
        return cls(id=f"guest-{tag}", name=f"Guest-{tag[:6]}")

    @property
    def kind(self) -> str:
        return "guest"


def may_watch(identity: object, rules: SpectatorRules) -> bool:
    """Whether anyone — guest or player not seated — may watch a table with these rules."""
    del identity  # the same answer for every watcher today; kept for finer rules later
    return bool(rules.spectators)
