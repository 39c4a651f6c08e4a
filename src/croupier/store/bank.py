"""The table's :class:`croupier.table.bank.Bank` port on the ledger: buy-ins and reloads
move chips from the account to its escrow at the table; cash-outs move them back.

``ref`` (unique per table) becomes the idempotency key ``bank:<table>:<ref>``, so a
cash-out re-sent after a crash is paid once.

>>> from croupier.store.db import Database
>>> db = Database.open("sqlite://"); _ = db.migrate()
>>> ledger = Ledger(db, clock=lambda: 0.0)
>>> _ = ledger.grant_diamonds(3, 100, key="g"); _ = ledger.buy_chips(3, 100, key="b")
>>> bank = LedgerBank(ledger, "t1")
>>> bank.buy_in("3", 80, "r1"), bank.buy_in("3", 80, "r2"), ledger.escrow("t1")
(True, False, {3: 80})
>>> bank.cash_out("3", 80, "r3"); bank.cash_out("3", 80, "r3"); ledger.balances(3).chips
100
"""

from __future__ import annotations

from collections.abc import Callable

from croupier.store.errors import InsufficientFundsError
from croupier.store.journal import user_id_of
from croupier.store.ledger import Ledger

__all__ = ["LedgerBank"]


class LedgerBank:
    """One table's bank on the ledger."""

    def __init__(
        self, ledger: Ledger, table_id: str, user_of: Callable[[str], int] = user_id_of
    ) -> None:
        self._ledger = ledger
        self._table = table_id
        self._user_of = user_of

    def buy_in(self, player_id: str, amount: int, ref: str) -> bool:
        """Take ``amount`` from the account into the table; ``False`` if it cannot cover it."""
        try:
            self._ledger.buy_in(
                self._table, self._user_of(player_id), amount, key=f"bank:{self._table}:{ref}"
            )
        except InsufficientFundsError:
            return False
        return True

    def cash_out(self, player_id: str, amount: int, ref: str) -> None:
        """Return ``amount`` from the table to the account (once per ``ref``)."""
        self._ledger.cash_out(
            self._table, self._user_of(player_id), amount, key=f"bank:{self._table}:{ref}"
        )
