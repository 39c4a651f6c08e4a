"""The casino table's money port: where antes, bonus bets, street bets and payouts go.

A casino table never holds a stack: players bet from their account balance ("Solde"). A
round's stakes move from the player's chips to an escrow for the table, street bets add
to it, and the settlement empties the escrow: each player is paid what the round gives
back, the house account takes (or pays) the difference. A round interrupted by a crash
is voided: every escrow goes back to its player (R-CRASH-1).

Every movement has an idempotency key built from the table id, the round's unique id
(a uuid), the player and the step, so a retried call never moves chips twice.

:class:`Cashier` is the port (the store implements it on the ledger,
``croupier.store.casino``); :class:`MemoryCashier` keeps balances in memory, for tests and
simulations.

>>> c = MemoryCashier({"7": 100})
>>> c.open_round("t", "r1", {"seats": []}, [("7", 12)])
>>> c.wager("t", "r1", "7", "flop", 20)
>>> c.settle("t", "r1", [("7", 32, 64)], {})
>>> c.balance("7"), c.house, c.escrow
(132, -32, {})
>>> c.open_round("t", "r2", {}, [("7", 500)])
Traceback (most recent call last):
...
croupier.casino.cashier.CashierError: player 7 holds 132 chips, 500 are needed
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from croupier.engine.errors import CodedError

__all__ = ["Cashier", "CashierError", "MemoryCashier", "round_key"]


class CashierError(CodedError):
    """A refused movement (``insufficient_chips``, ``round_closed``, ``unknown_round``);
    ``player`` names the player it is about, when there is one."""

    def __init__(self, code: str, message: str, player: str | None = None) -> None:
        super().__init__(code, message)
        self.player = player


def round_key(table_id: str, round_id: str, player: str | None, step: str) -> str:
    """The idempotency key of one movement.

    >>> round_key("casino-1", "5f0c", "7", "ante")
    'casino:casino-1:5f0c:7:ante'
    >>> round_key("casino-1", "5f0c", None, "settle")
    'casino:casino-1:5f0c:settle'
    """
    parts = ["casino", table_id, round_id, *(() if player is None else (player,)), step]
    return ":".join(parts)


class Cashier(Protocol):
    """What the casino table needs from the money side. Each call is atomic (all its
    movements or none) and may block (a database transaction): a table's actor makes
    the calls on worker threads, one at a time per table (``croupier.table.casino_actor``),
    so an implementation must accept calls from any thread."""

    def balance(self, player: str) -> int:
        """The chips a player may bet (their account balance)."""
        ...

    def open_round(
        self,
        table_id: str,
        round_id: str,
        record: Mapping[str, Any],
        stakes: Sequence[tuple[str, int]],
    ) -> None:
        """Journal the round's start (``record``) and move each player's opening stake
        (ante + bonus) to the table escrow, all or nothing; raise :class:`CashierError`
        ``insufficient_chips`` naming the first player who cannot pay."""
        ...

    def wager(self, table_id: str, round_id: str, player: str, spot: str, amount: int) -> None:
        """Move a flop, turn or river bet from the player to the escrow."""
        ...

    def settle(
        self,
        table_id: str,
        round_id: str,
        results: Sequence[tuple[str, int, int]],
        outcome: Mapping[str, Any],
    ) -> None:
        """Settle the round: ``(player, wagered, paid)`` per player; the escrow empties,
        each player receives ``paid``, the house the rest (or pays the difference)."""
        ...

    def void(self, table_id: str, round_id: str, reason: str) -> None:
        """Void a round: every escrowed chip goes back to its player."""
        ...

    def open_rounds(self, table_id: str) -> list[str]:
        """Rounds of this table started and neither settled nor voided."""
        ...


class MemoryCashier:
    """An in-memory :class:`Cashier` (tests, simulations): the same rules, no database;
    each call holds a lock (tables call it from worker threads)."""

    def __init__(self, balances: Mapping[str, int] | None = None) -> None:
        self.balances: dict[str, int] = dict(balances or {})
        self.escrow: dict[tuple[str, str, str], int] = {}
        self.house = 0
        self.rounds: dict[tuple[str, str], str] = {}
        self.keys: set[str] = set()
        self.records: dict[tuple[str, str], dict[str, Any]] = {}
        self._lock = threading.RLock()  # the actor calls it from worker threads

    def balance(self, player: str) -> int:
        with self._lock:
            return self.balances.get(player, 0)

    def _debit(self, table_id: str, round_id: str, player: str, amount: int, step: str) -> None:
        key = round_key(table_id, round_id, player, step)
        if key in self.keys:
            return
        have = self.balance(player)
        if amount > have:
            raise CashierError(
                "insufficient_chips",
                f"player {player} holds {have} chips, {amount} are needed",
                player,
            )
        self.keys.add(key)
        self.balances[player] = have - amount
        k = (table_id, round_id, player)
        self.escrow[k] = self.escrow.get(k, 0) + amount

    def open_round(
        self,
        table_id: str,
        round_id: str,
        record: Mapping[str, Any],
        stakes: Sequence[tuple[str, int]],
    ) -> None:
        with self._lock:
            if (table_id, round_id) in self.rounds:
                return
            for player, amount in stakes:
                if amount > self.balance(player):
                    have = self.balance(player)
                    raise CashierError(
                        "insufficient_chips",
                        f"player {player} holds {have} chips, {amount} are needed",
                        player,
                    )
            self.rounds[(table_id, round_id)] = "open"
            self.records[(table_id, round_id)] = dict(record)
            for player, amount in stakes:
                self._debit(table_id, round_id, player, amount, "stake")

    def _open(self, table_id: str, round_id: str) -> None:
        status = self.rounds.get((table_id, round_id))
        if status is None:
            raise CashierError("unknown_round", f"no round {round_id} at {table_id}")
        if status != "open":
            raise CashierError("round_closed", f"round {round_id} is {status}")

    def wager(self, table_id: str, round_id: str, player: str, spot: str, amount: int) -> None:
        with self._lock:
            self._open(table_id, round_id)
            self._debit(table_id, round_id, player, amount, spot)

    def settle(
        self,
        table_id: str,
        round_id: str,
        results: Sequence[tuple[str, int, int]],
        outcome: Mapping[str, Any],
    ) -> None:
        with self._lock:
            if self.rounds.get((table_id, round_id)) == "settled":
                return
            self._open(table_id, round_id)
            for player, wagered, _paid in results:
                held = self.escrow.get((table_id, round_id, player), 0)
                if held != wagered:
                    raise CashierError(
                        "escrow_mismatch", f"player {player}: escrow {held}, wagered {wagered}"
                    )
            for player, wagered, paid in results:
                self.escrow.pop((table_id, round_id, player), None)
                self.balances[player] = self.balance(player) + paid
                self.house += wagered - paid
            self.rounds[(table_id, round_id)] = "settled"

    def void(self, table_id: str, round_id: str, reason: str) -> None:
        with self._lock:
            if self.rounds.get((table_id, round_id)) != "open":
                return
            for key in [k for k in self.escrow if k[:2] == (table_id, round_id)]:
                self.balances[key[2]] = self.balance(key[2]) + self.escrow.pop(key)
            self.rounds[(table_id, round_id)] = "void"

    def open_rounds(self, table_id: str) -> list[str]:
        with self._lock:
            return [r for (t, r), s in self.rounds.items() if t == table_id and s == "open"]
