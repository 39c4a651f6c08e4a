"""The casino table's cashier on the ledger: :class:`LedgerCashier` implements
:class:`croupier.casino.cashier.Cashier` (Texas Hold'em Bonus, R-BONUS-1 … 4, R-CRASH-1).

Accounts (see ``croupier.store.ledger``):

- ``casino:<table>:<user>`` (kind ``casino_escrow``): the chips a player has on the felt in
  the round in play (ante, bonus, flop, turn, river); zero between rounds;
- ``house:casino`` (kind ``casino_house``): the house's result at the casino tables. It
  pays the winners and keeps what the players lose, so it may go negative (the house
  lost); ``croupier admin audit`` prints it among the held balances.

Every movement is one transfer with an idempotency key ``casino:<table>:<round>:…`` (the
round id is a uuid): the opening stakes of every player (``:<user>:stake``) go with the
round's journal row in one transaction; each street bet is ``:<user>:<flop|turn|river>``;
the settlement (``:settle``) empties every escrow of the round, pays each player and
books the difference to the house, in the same transaction that marks the row settled;
a void (``:<user>:void``) returns each escrow, with the row marked ``void``.

>>> from croupier.store.db import Database
>>> from croupier.store.ledger import Ledger
>>> db = Database.open("sqlite://"); _ = db.migrate()
>>> ledger = Ledger(db, clock=lambda: 0.0)
>>> _ = ledger.grant_diamonds(7, 100, key="g"); _ = ledger.buy_chips(7, 100, key="b")
>>> c = LedgerCashier(db, ledger, clock=lambda: 0.0)
>>> c.open_round("casino-1", "r1", {"seats": []}, [("7", 15)])
>>> c.wager("casino-1", "r1", "7", "flop", 20)
>>> c.settle("casino-1", "r1", [("7", 35, 70)], {"house_net": -35})
>>> c.balance("7"), ledger.balance(HOUSE_CASINO), c.open_rounds("casino-1")
(135, -35, [])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import sqlalchemy as sa

from croupier.casino.cashier import CashierError, round_key
from croupier.store.db import Clock, Database, now_ms
from croupier.store.errors import InsufficientFundsError
from croupier.store.leases import ROOM_LEASE, Fence, run_fenced
from croupier.store.ledger import Currency, Ledger, LedgerAccount, Leg, user_account
from croupier.store.schema import casino_rounds, ledger_accounts

__all__ = ["HOUSE_CASINO", "LedgerCashier", "casino_escrow"]


class _HouseBank(LedgerAccount):
    """The house's casino account: it pays winners, so its balance may go negative."""

    __slots__ = ()

    @property
    def allow_negative(self) -> bool:
        return True


HOUSE_CASINO: LedgerAccount = _HouseBank("house:casino", Currency.CHIPS, "casino_house")


def casino_escrow(table_id: str, user_id: int) -> LedgerAccount:
    """The chips ``user_id`` has on the felt at casino table ``table_id``.

    >>> casino_escrow("casino-1", 7).key
    'casino:casino-1:7'
    """
    return LedgerAccount(
        f"casino:{table_id}:{user_id}",
        Currency.CHIPS,
        "casino_escrow",
        user_id=user_id,
        table_id=table_id,
    )


def _uid(player: str) -> int:
    try:
        uid = int(player)
    except ValueError:
        raise CashierError("unknown_player", f"not an account id: {player!r}", player) from None
    if uid <= 0:
        raise CashierError("unknown_player", f"not an account id: {player!r}", player)
    return uid


class LedgerCashier:
    """The casino money side on the double-entry ledger and the ``casino_rounds`` journal."""

    def __init__(
        self, db: Database, ledger: Ledger, clock: Clock, *, fence: Fence | None = None
    ) -> None:
        self._db = db
        self._ledger = ledger
        self._clock = clock
        self._fence = fence
        """With a fence, every write is made only while this process holds the room
        services' lease (if it holds it: :data:`~croupier.store.leases.ROOM_LEASE`), checked
        in the write's own transaction: a process that lost the casino writes nothing more
        for it."""

    def balance(self, player: str) -> int:
        return self._ledger.balance(user_account(_uid(player)))

    def open_round(
        self,
        table_id: str,
        round_id: str,
        record: Mapping[str, Any],
        stakes: Sequence[tuple[str, int]],
    ) -> None:
        def work(conn: sa.Connection) -> None:
            found = conn.execute(
                sa.select(casino_rounds.c.status).where(
                    casino_rounds.c.table_id == table_id, casino_rounds.c.round_id == round_id
                )
            ).first()
            if found is not None:
                return
            conn.execute(
                casino_rounds.insert().values(
                    table_id=table_id,
                    round_id=round_id,
                    started_ms=now_ms(self._clock),
                    record=dict(record),
                    status="open",
                )
            )
            for player, amount in stakes:
                self._move_in(conn, table_id, round_id, player, "stake", amount)

        run_fenced(self._db, self._fence, ROOM_LEASE, work)

    def _move_in(
        self, conn: sa.Connection, table_id: str, round_id: str, player: str, step: str, amount: int
    ) -> None:
        uid = _uid(player)
        legs = [Leg(user_account(uid), -amount), Leg(casino_escrow(table_id, uid), amount)]
        try:
            self._ledger.transfer_in(
                conn,
                "casino_bet",
                round_key(table_id, round_id, player, step),
                legs,
                {"table": table_id, "round": round_id, "spot": step},
            )
        except InsufficientFundsError as exc:
            raise CashierError("insufficient_chips", str(exc), player) from None

    def _status(self, conn: sa.Connection, table_id: str, round_id: str) -> Any:
        row = conn.execute(
            sa.select(casino_rounds).where(
                casino_rounds.c.table_id == table_id, casino_rounds.c.round_id == round_id
            )
        ).first()
        if row is None:
            raise CashierError("unknown_round", f"no round {round_id} at {table_id}")
        return row

    def wager(self, table_id: str, round_id: str, player: str, spot: str, amount: int) -> None:
        if spot not in ("flop", "turn", "river"):
            raise CashierError("unknown_spot", f"street bets are flop, turn, river, not {spot!r}")

        def work(conn: sa.Connection) -> None:
            row = self._status(conn, table_id, round_id)
            if row.status != "open":
                raise CashierError("round_closed", f"round {round_id} is {row.status}")
            self._move_in(conn, table_id, round_id, player, spot, amount)

        run_fenced(self._db, self._fence, ROOM_LEASE, work)

    def settle(
        self,
        table_id: str,
        round_id: str,
        results: Sequence[tuple[str, int, int]],
        outcome: Mapping[str, Any],
    ) -> None:
        def work(conn: sa.Connection) -> None:
            row = self._status(conn, table_id, round_id)
            if row.status == "settled":
                return
            if row.status != "open":
                raise CashierError("round_closed", f"round {round_id} is {row.status}")
            legs: list[Leg] = []
            house = 0
            for player, wagered, paid in results:
                uid = _uid(player)
                if wagered:
                    legs.append(Leg(casino_escrow(table_id, uid), -wagered))
                if paid:
                    legs.append(Leg(user_account(uid), paid))
                house += wagered - paid
            if house:
                legs.append(Leg(HOUSE_CASINO, house))
            transfer = self._ledger.transfer_in(
                conn,
                "casino_settle",
                round_key(table_id, round_id, None, "settle"),
                legs,
                {"table": table_id, "round": round_id, "house_net": house},
            )
            conn.execute(
                casino_rounds.update()
                .where(casino_rounds.c.table_id == table_id, casino_rounds.c.round_id == round_id)
                .values(
                    status="settled",
                    ended_ms=now_ms(self._clock),
                    outcome={**dict(outcome), "house_net": house},
                    transfer_id=transfer.id,
                )
            )

        run_fenced(self._db, self._fence, ROOM_LEASE, work)

    def void(self, table_id: str, round_id: str, reason: str) -> None:
        def work(conn: sa.Connection) -> None:
            row = self._status(conn, table_id, round_id)
            if row.status != "open":
                return
            players = [str(s["player"]) for s in (row.record or {}).get("seats", [])]
            returned: dict[str, int] = {}
            for player in players:
                uid = _uid(player)
                account = casino_escrow(table_id, uid)
                held = conn.execute(
                    sa.select(ledger_accounts.c.balance).where(ledger_accounts.c.key == account.key)
                ).scalar()
                if held:
                    self._ledger.transfer_in(
                        conn,
                        "casino_void",
                        round_key(table_id, round_id, player, "void"),
                        [Leg(account, -int(held)), Leg(user_account(uid), int(held))],
                        {"table": table_id, "round": round_id, "reason": reason},
                    )
                    returned[player] = int(held)
            conn.execute(
                casino_rounds.update()
                .where(casino_rounds.c.table_id == table_id, casino_rounds.c.round_id == round_id)
                .values(
                    status="void",
                    ended_ms=now_ms(self._clock),
                    outcome={"reason": reason, "returned": returned},
                )
            )

        run_fenced(self._db, self._fence, ROOM_LEASE, work)

    def open_rounds(self, table_id: str) -> list[str]:
        stmt = (
            sa.select(casino_rounds.c.round_id)
            .where(casino_rounds.c.table_id == table_id, casino_rounds.c.status == "open")
            .order_by(casino_rounds.c.started_ms)
        )
        return [str(r) for r in self._db.run(lambda conn: conn.execute(stmt).scalars().all())]

    def round(self, table_id: str, round_id: str) -> dict[str, Any]:
        """A round's journal row (status, record, outcome, transfer id)."""
        row = self._db.run(lambda conn: self._status(conn, table_id, round_id))
        return dict(row._mapping)
