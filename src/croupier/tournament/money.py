"""Where tournament money lives (R-TOUR-4): account chips ↔ the prize pool, and the
tournament chips at the tables.

Two separate things move:

* **Account chips** — a buy-in moves chips from the player's account to the tournament's
  prize pool (:class:`Cashier`, on the ledger: :class:`LedgerCashier`), every movement
  under an idempotency key; prizes are paid from the pool at the end; a cancelled
  registration or event is refunded. A Spin's prizes differ from its buy-ins: the house
  account ``house:tournaments`` keeps the excess or adds the difference (R-TOUR-10).
* **Tournament chips** — the stacks. They exist only inside one tournament: its tables'
  :class:`~croupier.table.bank.Bank` is a :class:`TournamentBank` that holds each
  player's chips while they are away from a table (moved, between tables) and never
  reaches an account. A table ``Reload`` at a tournament table can only take chips the
  player already has in this tournament (none while seated).

>>> cashier = PlayCashier({"ann": 100})
>>> cashier.enter("t1", "ann", 60, "k1"), cashier.enter("t1", "ann", 60, "k1")
(True, True)
>>> cashier.enter("t1", "ann", 60, "k2"), cashier.balance("ann"), cashier.pool("t1")
(False, 40, 60)
>>> cashier.pay("t1", "ann", 60, "k3"); cashier.balance("ann"), cashier.pool("t1")
(100, 0)
>>> bank = TournamentBank({"ann": 1500})
>>> bank.buy_in("ann", 1500, "r1"), bank.buy_in("ann", 1, "r2"), bank.holding("ann")
(True, False, 0)
>>> bank.cash_out("ann", 900, "r3"); bank.cash_out("ann", 900, "r3"); bank.holding("ann")
900
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from croupier.store.errors import InsufficientFundsError
from croupier.store.leases import ROOM_LEASE
from croupier.store.ledger import (
    MINT_CHIPS,
    Currency,
    Ledger,
    LedgerAccount,
    Leg,
    user_account,
)
from croupier.tournament.errors import TournamentError

__all__ = [
    "HOUSE_TOURNAMENTS",
    "Cashier",
    "LedgerCashier",
    "PlayCashier",
    "TournamentBank",
    "pool_account",
]

HOUSE_TOURNAMENTS = LedgerAccount("house:tournaments", Currency.CHIPS, "house")
"""Where a pool's excess over its prizes goes (a Spin drawn below the buy-ins)."""


def pool_account(tournament_id: str) -> LedgerAccount:
    """The ledger account of a tournament's prize pool.

    >>> pool_account("sng-1").key
    'tournament:sng-1'
    """
    if not isinstance(tournament_id, str) or not 0 < len(tournament_id) <= 64:
        raise TournamentError("bad_id", f"a tournament id is 1 to 64 characters: {tournament_id!r}")
    return LedgerAccount(f"tournament:{tournament_id}", Currency.CHIPS, "tournament")


class Cashier(Protocol):
    """Account chips in and out of a tournament's prize pool; idempotent by ``key``."""

    def enter(self, tournament_id: str, player_id: str, amount: int, key: str) -> bool:
        """The buy-in: account → pool; ``False`` if the balance does not cover it."""
        ...

    def refund(self, tournament_id: str, player_id: str, amount: int, key: str) -> None:
        """A buy-in back: pool → account."""
        ...

    def pay(self, tournament_id: str, player_id: str, amount: int, key: str) -> None:
        """A prize: pool → account."""
        ...

    def adjust(self, tournament_id: str, delta: int, key: str) -> None:
        """``delta`` > 0: the house adds an overlay to the pool; < 0: the pool's excess
        goes to the house."""
        ...

    def pool(self, tournament_id: str) -> int:
        """What the prize pool holds now."""
        ...


class PlayCashier:
    """In-memory accounts for tests and examples (``balances``: starting chips)."""

    def __init__(self, balances: Mapping[str, int] | None = None) -> None:
        self.balances: dict[str, int] = dict(balances or {})
        self.pools: dict[str, int] = {}
        self.house = 0
        self._keys: set[str] = set()

    def balance(self, player_id: str) -> int:
        return self.balances.get(player_id, 0)

    def pool(self, tournament_id: str) -> int:
        return self.pools.get(tournament_id, 0)

    def _move(self, key: str, player_id: str | None, tournament_id: str, to_pool: int) -> bool:
        if key in self._keys:
            return True
        if player_id is not None and self.balance(player_id) - to_pool < 0:
            return False
        if self.pool(tournament_id) + to_pool < 0:
            raise TournamentError("pool_short", f"the pool of {tournament_id} cannot pay that")
        self._keys.add(key)
        if player_id is not None:
            self.balances[player_id] = self.balance(player_id) - to_pool
        self.pools[tournament_id] = self.pool(tournament_id) + to_pool
        return True

    def enter(self, tournament_id: str, player_id: str, amount: int, key: str) -> bool:
        return self._move(key, player_id, tournament_id, amount)

    def refund(self, tournament_id: str, player_id: str, amount: int, key: str) -> None:
        self._move(key, player_id, tournament_id, -amount)

    def pay(self, tournament_id: str, player_id: str, amount: int, key: str) -> None:
        self._move(key, player_id, tournament_id, -amount)

    def adjust(self, tournament_id: str, delta: int, key: str) -> None:
        if key not in self._keys:
            self.house -= delta
        self._move(key, None, tournament_id, delta)


class LedgerCashier:
    """The :class:`Cashier` on the double-entry ledger (``croupier.store``): the pool is
    the ledger account ``tournament:<id>``; keys become ``tour:<key>``. Player ids map to
    account ids with ``user_of`` (default: the id as text, like the tables' bank)."""

    def __init__(self, ledger: Ledger, user_of: Callable[[str], int] = int) -> None:
        self._ledger = ledger
        self._user_of = user_of

    def _legs(self, tournament_id: str, player_id: str, to_pool: int) -> list[Leg]:
        user = user_account(self._user_of(player_id))
        return [Leg(user, -to_pool), Leg(pool_account(tournament_id), to_pool)]

    def enter(self, tournament_id: str, player_id: str, amount: int, key: str) -> bool:
        legs = self._legs(tournament_id, player_id, amount)
        try:
            self._ledger.transfer(
                "tournament_entry", f"tour:{key}", legs, {"t": tournament_id}, table=ROOM_LEASE
            )
        except InsufficientFundsError:
            return False
        return True

    def refund(self, tournament_id: str, player_id: str, amount: int, key: str) -> None:
        legs = self._legs(tournament_id, player_id, -amount)
        self._ledger.transfer(
            "tournament_refund", f"tour:{key}", legs, {"t": tournament_id}, table=ROOM_LEASE
        )

    def pay(self, tournament_id: str, player_id: str, amount: int, key: str) -> None:
        legs = self._legs(tournament_id, player_id, -amount)
        self._ledger.transfer(
            "tournament_prize", f"tour:{key}", legs, {"t": tournament_id}, table=ROOM_LEASE
        )

    def adjust(self, tournament_id: str, delta: int, key: str) -> None:
        """The house's side of a Spin (R-TOUR-10): below the buy-ins the excess goes to
        ``house:tournaments``; above them ``house:tournaments`` adds the difference from
        what the Spins it kept hold, and ``mint:chips`` issues only what it lacks (virtual
        chips, R-ACC-1). One transfer either way."""
        pool = pool_account(tournament_id)
        if delta < 0:
            legs = [Leg(HOUSE_TOURNAMENTS, -delta), Leg(pool, delta)]
        else:
            if self._ledger.get_transfer(f"tour:{key}") is not None:
                return
            held = max(0, self._ledger.balance(HOUSE_TOURNAMENTS))
            from_house = min(held, delta)
            legs = [Leg(pool, delta)]
            if from_house:
                legs.append(Leg(HOUSE_TOURNAMENTS, -from_house))
            if delta - from_house:
                legs.append(Leg(MINT_CHIPS, -(delta - from_house)))
        self._ledger.transfer(
            "tournament_overlay", f"tour:{key}", legs, {"t": tournament_id}, table=ROOM_LEASE
        )

    def pool(self, tournament_id: str) -> int:
        return self._ledger.balance(pool_account(tournament_id))


class TournamentBank:
    """The tables' :class:`~croupier.table.bank.Bank` inside one tournament (R-TOUR-4).

    ``holdings`` are each player's tournament chips *away from a table*: the starting
    stack before the first deal, or a moved player's stack between the two tables. A
    buy-in (sitting down) takes from it; a cash-out (standing up) puts back. Each ``ref``
    applies once."""

    def __init__(self, holdings: Mapping[str, int] | None = None) -> None:
        self.holdings: dict[str, int] = dict(holdings or {})
        self._refs: set[str] = set()

    def holding(self, player_id: str) -> int:
        return self.holdings.get(player_id, 0)

    @property
    def total(self) -> int:
        return sum(self.holdings.values())

    def buy_in(self, player_id: str, amount: int, ref: str) -> bool:
        if ref in self._refs:
            return True
        if amount > self.holding(player_id):
            return False
        self._refs.add(ref)
        self.holdings[player_id] = self.holding(player_id) - amount
        return True

    def cash_out(self, player_id: str, amount: int, ref: str) -> None:
        if ref in self._refs:
            return
        self._refs.add(ref)
        self.holdings[player_id] = self.holding(player_id) + amount
