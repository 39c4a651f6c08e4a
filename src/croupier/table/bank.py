"""The account port: where buy-ins come from and cash-outs go (a later issue wires the ledger).

``ref`` identifies each movement; a ledger applies a ref once, so a cash-out re-sent after
a crash is not paid twice.

>>> bank = PlayChips()
>>> bank.buy_in("ann", 100, "t:1"), bank.cash_out("ann", 60, "t:2"), bank.cash_out("ann", 60, "t:2")
(True, None, None)
>>> bank.balance("ann"), bank.total_in, bank.total_out
(-40, 100, 60)
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["Bank", "PlayChips"]


class Bank(Protocol):
    def buy_in(self, player_id: str, amount: int, ref: str) -> bool:
        """Take ``amount`` from the account; ``False`` if it cannot."""
        ...

    def cash_out(self, player_id: str, amount: int, ref: str) -> None:
        """Return ``amount`` to the account (idempotent by ``ref``)."""
        ...


class PlayChips:
    """Unlimited play chips with an exact record of what moved (``limits`` caps accounts)."""

    def __init__(self, limits: dict[str, int] | None = None) -> None:
        self.limits = dict(limits or {})
        self.moves: dict[str, tuple[str, int]] = {}
        self.total_in = 0
        self.total_out = 0

    def balance(self, player_id: str) -> int:
        return sum(a for p, a in self.moves.values() if p == player_id)

    def buy_in(self, player_id: str, amount: int, ref: str) -> bool:
        if ref in self.moves:
            return True
        limit = self.limits.get(player_id)
        if limit is not None and -self.balance(player_id) + amount > limit:
            return False
        self.moves[ref] = (player_id, -amount)
        self.total_in += amount
        return True

    def cash_out(self, player_id: str, amount: int, ref: str) -> None:
        if ref in self.moves:
            return
        self.moves[ref] = (player_id, amount)
        self.total_out += amount
