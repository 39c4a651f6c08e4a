"""The double-entry ledger of virtual chips, diamonds and points (R-ACC-1).

Every movement is one :class:`Transfer`: one entry per ledger account, and the amounts of
each currency sum to zero. A transfer carries an idempotency key: the same key with the
same request returns the first result and moves nothing; the same key with a different
request is refused (``idempotency_conflict``). Balances never go negative, except the
*mint* accounts whose negative balance is what was issued. Checks and writes happen in one
transaction that holds the rows (PostgreSQL ``FOR UPDATE``) or the database
(SQLite ``BEGIN IMMEDIATE``).

Accounts (``LedgerAccount``), by key:

- ``user:<id>:chips|diamonds|points`` — a player's balances;
- ``table:<table>:<user>`` — chips a player has at a table (table escrow, one sub-account
  per player: stack plus chips committed in the hand in play);
- ``house:rake``, ``house:levy`` (chips), ``house:diamonds`` (diamonds spent on chips),
  ``house:points_shop`` (points spent);
- ``mint:chips``, ``mint:diamonds``, ``mint:points`` — issuers; minus their balance is what
  was issued.

>>> from croupier.store.db import Database
>>> db = Database.open("sqlite://"); _ = db.migrate()
>>> ledger = Ledger(db, clock=lambda: 0.0)
>>> _ = ledger.grant_diamonds(1, 500, key="purchase-1")
>>> _ = ledger.buy_chips(1, 300, key="buy-1")
>>> _ = ledger.buy_in("t1", 1, 200, key="t1-buyin-1")
>>> ledger.balances(1)
Balances(chips=100, diamonds=200, points=0, bound_diamonds=0)
>>> ledger.escrow("t1")
{1: 200}
>>> ledger.buy_in("t1", 1, 101, key="t1-buyin-2")
Traceback (most recent call last):
...
croupier.store.errors.InsufficientFundsError: user:1:chips holds 100, 101 more is needed
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import sqlalchemy as sa

from croupier.store.db import (
    MAX_OR_TERMS,
    MAX_PARAMETERS,
    Clock,
    Database,
    case_by,
    chunked,
    now_ms,
    numbered,
    padded,
)
from croupier.store.errors import (
    IdempotencyConflictError,
    InsufficientFundsError,
    InvalidTransferError,
)
from croupier.store.leases import Fence
from croupier.store.schema import entries, ledger_accounts, transfers

__all__ = [
    "HOUSE_DIAMONDS",
    "HOUSE_LEVY",
    "HOUSE_POINTS_SHOP",
    "HOUSE_RAKE",
    "MINT_BOUND_DIAMONDS",
    "MINT_CHIPS",
    "MINT_DIAMONDS",
    "MINT_POINTS",
    "Balances",
    "Currency",
    "Entry",
    "Ledger",
    "LedgerAccount",
    "Leg",
    "Transfer",
    "TransferRequest",
    "bound_diamonds_grant",
    "cash_out_legs",
    "escrow_account",
    "settlement_legs",
    "user_account",
]

MAX_KEY = 200


class Currency(StrEnum):
    """What a ledger account holds."""

    CHIPS = "chips"
    DIAMONDS = "diamonds"
    """Unbound diamonds (bought, or the welcome grant): the only ones that buy chips."""
    POINTS = "points"
    BOUND_DIAMONDS = "bound_diamonds"
    """Bound diamonds (rewards and gifts, R-ACC-1): never exchanged for chips."""


@dataclass(frozen=True, slots=True)
class LedgerAccount:
    """The identity of one ledger account (created on first use)."""

    key: str
    currency: Currency
    kind: str
    user_id: int | None = None
    table_id: str | None = None

    @property
    def allow_negative(self) -> bool:
        """Only issuers (mints) go negative."""
        return self.kind == "mint"


def user_account(user_id: int, currency: Currency = Currency.CHIPS) -> LedgerAccount:
    """A player's balance in ``currency``.

    >>> user_account(7).key, user_account(7, Currency.POINTS).key
    ('user:7:chips', 'user:7:points')
    """
    _check_user(user_id)
    return LedgerAccount(f"user:{user_id}:{currency.value}", currency, "user", user_id=user_id)


def escrow_account(table_id: str, user_id: int) -> LedgerAccount:
    """The chips ``user_id`` has at table ``table_id`` (table escrow sub-account).

    >>> escrow_account("nl-2", 7).key
    'table:nl-2:7'
    """
    _check_user(user_id)
    if not isinstance(table_id, str) or not 0 < len(table_id) <= 100 or ":" in table_id:
        raise InvalidTransferError(
            "invalid_table_id", f"a table id is 1 to 100 characters without ':', not {table_id!r}"
        )
    return LedgerAccount(
        f"table:{table_id}:{user_id}", Currency.CHIPS, "escrow", user_id=user_id, table_id=table_id
    )


MINT_CHIPS = LedgerAccount("mint:chips", Currency.CHIPS, "mint")
MINT_DIAMONDS = LedgerAccount("mint:diamonds", Currency.DIAMONDS, "mint")
MINT_POINTS = LedgerAccount("mint:points", Currency.POINTS, "mint")
MINT_BOUND_DIAMONDS = LedgerAccount("mint:bound_diamonds", Currency.BOUND_DIAMONDS, "mint")
HOUSE_RAKE = LedgerAccount("house:rake", Currency.CHIPS, "house")
HOUSE_LEVY = LedgerAccount("house:levy", Currency.CHIPS, "house")
HOUSE_DIAMONDS = LedgerAccount("house:diamonds", Currency.DIAMONDS, "house")
HOUSE_POINTS_SHOP = LedgerAccount("house:points_shop", Currency.POINTS, "house")


@dataclass(frozen=True, slots=True)
class Leg:
    """One side of a transfer: ``amount`` (signed) added to ``account``."""

    account: LedgerAccount
    amount: int


@dataclass(frozen=True, slots=True)
class Entry:
    """A recorded entry of a transfer."""

    account: str
    currency: Currency
    amount: int


@dataclass(frozen=True, slots=True)
class Transfer:
    """A recorded transfer. ``replayed`` is true when the key had been used before."""

    id: int
    key: str
    kind: str
    entries: tuple[Entry, ...]
    created_ms: int
    memo: Mapping[str, Any] = field(default_factory=dict)
    replayed: bool = False


@dataclass(frozen=True, slots=True)
class TransferRequest:
    """A transfer asked of :meth:`Ledger.transfers_in` (one of a batch)."""

    kind: str
    key: str
    legs: Sequence[Leg]
    memo: Mapping[str, Any] = field(default_factory=dict)


def bound_diamonds_grant(
    user_id: int, amount: int, *, key: str, reason: str = "reward"
) -> TransferRequest:
    """The transfer of :meth:`Ledger.grant_bound_diamonds`, to write in a transaction of
    one's own (:meth:`Ledger.transfers_in`).

    >>> bound_diamonds_grant(7, 10, key="level:7:2", reason="level 2").legs[1].account.key
    'user:7:bound_diamonds'
    """
    _check_amount(amount)
    legs = (
        Leg(MINT_BOUND_DIAMONDS, -amount),
        Leg(user_account(user_id, Currency.BOUND_DIAMONDS), amount),
    )
    return TransferRequest("bound_diamonds_grant", key, legs, {"reason": reason})


@dataclass(frozen=True, slots=True)
class Balances:
    """A player's balances (``diamonds`` are the unbound ones)."""

    chips: int
    diamonds: int
    points: int
    bound_diamonds: int = 0


def _check_user(user_id: int) -> None:
    if isinstance(user_id, bool) or not isinstance(user_id, int) or user_id <= 0:
        raise InvalidTransferError(
            "invalid_user", f"a user id is a positive integer, not {user_id!r}"
        )


def _check_amount(amount: int, what: str = "amount") -> None:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise InvalidTransferError(
            "invalid_amount", f"{what} must be a positive integer, not {amount!r}"
        )


def settlement_legs(
    table_id: str,
    nets: Mapping[int, int],
    rake: int = 0,
    points: Mapping[int, int] | None = None,
    *,
    rake_account: LedgerAccount = HOUSE_RAKE,
) -> list[Leg]:
    """The legs that settle a hand: each player's net on their table escrow, the rake to
    the house, points issued to players. Chips: ``sum(nets) + rake == 0``.

    >>> [(leg.account.key, leg.amount) for leg in settlement_legs("t", {1: 5, 2: -6}, 1)]
    [('table:t:1', 5), ('table:t:2', -6), ('house:rake', 1)]
    """
    if isinstance(rake, bool) or not isinstance(rake, int) or rake < 0:
        raise InvalidTransferError("invalid_amount", f"rake must be an integer >= 0, not {rake!r}")
    for value in nets.values():
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidTransferError("invalid_amount", f"a net must be an integer, not {value!r}")
    if sum(nets.values()) + rake != 0:
        raise InvalidTransferError(
            "unbalanced_settlement",
            f"nets sum to {sum(nets.values())} and rake is {rake}: they must cancel out",
        )
    legs = [Leg(escrow_account(table_id, uid), net) for uid, net in sorted(nets.items()) if net]
    if rake:
        legs.append(Leg(rake_account, rake))
    issued = 0
    for uid, amount in sorted((points or {}).items()):
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise InvalidTransferError(
                "invalid_amount", f"points must be integers >= 0, not {amount!r}"
            )
        if amount:
            legs.append(Leg(user_account(uid, Currency.POINTS), amount))
            issued += amount
    if issued:
        legs.append(Leg(MINT_POINTS, -issued))
    return legs


def cash_out_legs(table_id: str, user_id: int, amount: int) -> list[Leg]:
    """The legs of a cash-out: ``amount`` from the table escrow to the player's chips."""
    _check_amount(amount)
    return [Leg(escrow_account(table_id, user_id), -amount), Leg(user_account(user_id), amount)]


def _request_hash(kind: str, legs: Sequence[Leg]) -> str:
    canon = json.dumps([kind, sorted((leg.account.key, leg.amount) for leg in legs)])
    return hashlib.sha256(canon.encode()).hexdigest()


def _validate(kind: str, key: str, legs: Sequence[Leg]) -> None:
    if not isinstance(key, str) or not 0 < len(key) <= MAX_KEY:
        raise InvalidTransferError(
            "invalid_idempotency_key", f"an idempotency key is 1 to {MAX_KEY} characters"
        )
    if not isinstance(kind, str) or not 0 < len(kind) <= 32:
        raise InvalidTransferError("invalid_kind", "a transfer kind is 1 to 32 characters")
    if len(legs) < 2:
        raise InvalidTransferError("too_few_legs", "a transfer moves between at least two accounts")
    seen: set[str] = set()
    totals: dict[Currency, int] = {}
    for leg in legs:
        amount = leg.amount
        if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0:
            raise InvalidTransferError(
                "invalid_amount", f"a leg amount is a non-zero integer, not {amount!r}"
            )
        if leg.account.key in seen:
            raise InvalidTransferError(
                "duplicate_account", f"{leg.account.key} appears twice in one transfer"
            )
        seen.add(leg.account.key)
        totals[leg.account.currency] = totals.get(leg.account.currency, 0) + amount
    unbalanced = {c.value: t for c, t in totals.items() if t}
    if unbalanced:
        raise InvalidTransferError(
            "unbalanced_transfer", f"amounts must sum to zero per currency: {unbalanced}"
        )


@functools.cache
def _move_balances(size: int) -> sa.Update:
    """Add ``m0`` to account ``a0``'s balance, ``m1`` to ``a1``'s, … (``size`` of them):
    one statement, built once per size (:func:`~croupier.store.db.padded`)."""
    ids = numbered("a", size, sa.BigInteger())
    moves = case_by(ledger_accounts.c.id, ids, "m", sa.BigInteger(), 0)
    return (
        ledger_accounts.update()
        .where(ledger_accounts.c.id.in_(ids))
        .values(balance=ledger_accounts.c.balance + moves)
    )


class Ledger:
    """Transfers and balances on a :class:`~croupier.store.db.Database`."""

    def __init__(self, db: Database, clock: Clock, *, fence: Fence | None = None) -> None:
        self._db = db
        self._clock = clock
        self._fence = fence
        """The leases of this process (store/leases.py): a buy-in or a cash-out at a table
        it leased moves chips only while it still holds the lease."""

    # -- the core ---------------------------------------------------------------------

    def transfer(
        self,
        kind: str,
        key: str,
        legs: Sequence[Leg],
        memo: Mapping[str, Any] | None = None,
        *,
        table: str | None = None,
    ) -> Transfer:
        """Record a balanced transfer atomically (or return the one recorded under ``key``).
        ``table``: a move at that table, made only while this process holds its lease (if
        it leased it: store/leases.py), checked in the same transaction; or the name of
        another lease the move depends on (the room services', ``ROOM_LEASE``)."""
        _validate(kind, key, legs)
        fence = self._fence if table is not None else None

        def work(conn: sa.Connection) -> Transfer:
            if fence is not None and table is not None:
                fence.check(conn, table, self._db.backend)
            return self.transfer_in(conn, kind, key, legs, memo)

        try:
            return self._db.run(work)
        except sa.exc.IntegrityError:
            # Another transaction recorded the same key between our check and our insert.
            return self._db.run(work)

    def transfer_in(
        self,
        conn: sa.Connection,
        kind: str,
        key: str,
        legs: Sequence[Leg],
        memo: Mapping[str, Any] | None = None,
    ) -> Transfer:
        """:meth:`transfer` inside a transaction the caller runs (journal settlement)."""
        return self.transfers_in(conn, [TransferRequest(kind, key, legs, dict(memo or {}))])[0]

    def rewards_in(
        self,
        conn: sa.Connection,
        experience: Mapping[int, tuple[int, int]],
        rule: Callable[[int, int, int], Sequence[TransferRequest]],
    ) -> None:
        """Grant in ``conn`` what ``rule`` gives each account of ``experience`` for its
        experience going from ``before`` to ``after`` (the level-up rewards, each under
        its own key: a reward granted already is a replay)."""
        self.transfers_in(conn, [r for uid, (b, a) in experience.items() for r in rule(uid, b, a)])

    def transfers_in(
        self, conn: sa.Connection, requests: Sequence[TransferRequest]
    ) -> list[Transfer]:
        """Several transfers inside the caller's transaction, with the meaning of
        :meth:`transfer_in` called for each in order (a key used earlier in the batch is a
        replay of it, each balance is checked after the transfers before it), but a few
        statements for the whole batch rather than a dozen per transfer: the accounts read
        and locked at once, the transfers, their entries and the balances each written by
        one statement (:data:`MAX_PARAMETERS` per statement at most). A store thread
        gives up the GIL around every statement and waits for it back behind the event
        loop, so statements, not rows, are what a settlement costs under load (issue
        #16, docs/storage.md). The first refused transfer raises; the caller's
        transaction then rolls the batch back."""
        for r in requests:
            _validate(r.kind, r.key, r.legs)
        if not requests:
            return []
        now = now_ms(self._clock)
        rows = self._lock_accounts(conn, [leg.account for r in requests for leg in r.legs], now)
        keys = list(dict.fromkeys(r.key for r in requests))
        recorded = {
            row.idem_key: str(row.request_hash)
            for part in chunked(keys, MAX_PARAMETERS)
            for row in conn.execute(
                sa.select(transfers.c.idem_key, transfers.c.request_hash).where(
                    transfers.c.idem_key.in_(part)
                )
            )
        }
        balance = {k: int(row.balance) for k, row in rows.items()}
        planned: dict[str, tuple[int, str]] = {}  # key → (index in fresh, request hash)
        fresh: list[TransferRequest] = []
        plan: list[tuple[str, Any]] = []
        for r in requests:
            request = _request_hash(r.kind, r.legs)
            earlier = planned.get(r.key)
            if r.key in recorded or earlier is not None:
                if (recorded[r.key] if earlier is None else earlier[1]) != request:
                    raise IdempotencyConflictError(
                        f"idempotency key {r.key!r} was used for a different transfer"
                    )
                plan.append(("recorded", r.key) if earlier is None else ("again", earlier[0]))
                continue
            for leg in sorted(r.legs, key=lambda leg: leg.account.key):
                if rows[leg.account.key].currency != leg.account.currency.value:
                    raise InvalidTransferError(
                        "currency_mismatch",
                        f"{leg.account.key} holds {rows[leg.account.key].currency}",
                    )
            for leg in r.legs:
                held = balance[leg.account.key]
                if (
                    leg.amount < 0
                    and not rows[leg.account.key].allow_negative
                    and held + leg.amount < 0
                ):
                    raise InsufficientFundsError(
                        f"{leg.account.key} holds {held}, {-leg.amount} more is needed"
                    )
            for leg in r.legs:
                balance[leg.account.key] += leg.amount
            planned[r.key] = (len(fresh), request)
            plan.append(("fresh", len(fresh)))
            fresh.append(r)
        written = self._write(conn, fresh, [planned[r.key][1] for r in fresh], rows, now)
        out: list[Transfer] = []
        for what, ref in plan:
            if what == "fresh":
                out.append(written[ref])
            elif what == "again":
                out.append(dataclasses.replace(written[ref], replayed=True))
            else:
                found = self._find(conn, ref)
                assert found is not None  # read in this transaction a moment ago
                out.append(found[0])
        return out

    def _lock_accounts(
        self, conn: sa.Connection, accounts: Iterable[LedgerAccount], now: int
    ) -> dict[str, Any]:
        """The rows of ``accounts`` (by key), read and locked in id order; those never
        used are created first (sorted by key: concurrent creators never deadlock)."""
        wanted = {a.key: a for a in accounts}
        rows = self._account_rows(conn, list(wanted))
        missing = sorted((a for k, a in wanted.items() if k not in rows), key=lambda a: a.key)
        if missing:
            self._ensure(conn, missing, now)
            rows.update(self._account_rows(conn, [a.key for a in missing]))
        return rows

    def _ensure(self, conn: sa.Connection, accounts: Iterable[LedgerAccount], now: int) -> None:
        insert = self._db.backend.insert_ignore(ledger_accounts)
        for account in accounts:  # sorted by key: concurrent creators never deadlock
            conn.execute(
                insert.values(
                    key=account.key,
                    currency=account.currency.value,
                    kind=account.kind,
                    user_id=account.user_id,
                    table_id=account.table_id,
                    allow_negative=account.allow_negative,
                    balance=0,
                    created_ms=now,
                )
            )

    def _account_rows(self, conn: sa.Connection, keys: list[str]) -> dict[str, Any]:
        rows: dict[str, Any] = {}
        for part in chunked(sorted(keys), MAX_PARAMETERS):
            stmt = (
                sa.select(
                    ledger_accounts.c.id,
                    ledger_accounts.c.key,
                    ledger_accounts.c.balance,
                    ledger_accounts.c.allow_negative,
                    ledger_accounts.c.currency,
                )
                .where(ledger_accounts.c.key.in_(part))
                .order_by(ledger_accounts.c.id)
            )
            rows.update((row.key, row) for row in conn.execute(self._db.backend.lock(stmt)))
        return rows

    def _write(
        self,
        conn: sa.Connection,
        fresh: Sequence[TransferRequest],
        hashes: Sequence[str],
        rows: Mapping[str, Any],
        now: int,
    ) -> list[Transfer]:
        """Insert the transfers ``fresh`` (checked), their entries, and move the balances:
        three statements (more only past :data:`MAX_PARAMETERS`)."""
        if not fresh:
            return []
        ids: dict[str, int] = {}
        memos = [dict(r.memo) for r in fresh]
        values = [
            {
                "idem_key": r.key,
                "kind": r.kind,
                "request_hash": h,
                "created_ms": now,
                "memo": memo,
            }
            for r, h, memo in zip(fresh, hashes, memos, strict=True)
        ]
        # a list of rows with RETURNING: one INSERT of many rows (SQLAlchemy's
        # "insertmanyvalues", a page of 1,000 at most), compiled once
        stmt = transfers.insert().returning(transfers.c.id, transfers.c.idem_key)
        ids.update((row.idem_key, int(row.id)) for row in conn.execute(stmt, values))
        legs = [
            {
                "transfer_id": ids[r.key],
                "account_id": rows[leg.account.key].id,
                "amount": leg.amount,
            }
            for r in fresh
            for leg in r.legs
        ]
        conn.execute(entries.insert().returning(entries.c.id), legs)
        moves: dict[int, int] = {}
        for r in fresh:
            for leg in r.legs:
                account_id = int(rows[leg.account.key].id)
                moves[account_id] = moves.get(account_id, 0) + leg.amount
        moved = sorted((a, m) for a, m in moves.items() if m)
        for chunk in chunked(moved, MAX_OR_TERMS):
            chunk = padded(chunk)
            params: dict[str, int] = {}
            for i, (account_id, amount) in enumerate(chunk):
                params[f"a{i}"] = account_id
                params[f"m{i}"] = amount
            conn.execute(_move_balances(len(chunk)), params)
        return [
            Transfer(
                id=ids[r.key],
                key=r.key,
                kind=r.kind,
                entries=tuple(
                    Entry(leg.account.key, leg.account.currency, leg.amount) for leg in r.legs
                ),
                created_ms=now,
                memo=memos[i],
            )
            for i, r in enumerate(fresh)
        ]

    def _find(self, conn: sa.Connection, key: str) -> tuple[Transfer, str] | None:
        row = conn.execute(sa.select(transfers).where(transfers.c.idem_key == key)).first()
        if row is None:
            return None
        items = conn.execute(
            sa.select(ledger_accounts.c.key, ledger_accounts.c.currency, entries.c.amount)
            .join(ledger_accounts, ledger_accounts.c.id == entries.c.account_id)
            .where(entries.c.transfer_id == row.id)
            .order_by(entries.c.id)
        ).all()
        transfer = Transfer(
            id=int(row.id),
            key=row.idem_key,
            kind=row.kind,
            entries=tuple(Entry(i.key, Currency(i.currency), int(i.amount)) for i in items),
            created_ms=int(row.created_ms),
            memo=dict(row.memo),
            replayed=True,
        )
        return transfer, str(row.request_hash)

    # -- operations ---------------------------------------------------------------------

    def grant_diamonds(
        self, user_id: int, amount: int, *, key: str, reason: str = "grant"
    ) -> Transfer:
        """Diamonds from outside (a simulated purchase or an admin grant) to a player."""
        _check_amount(amount)
        legs = [Leg(MINT_DIAMONDS, -amount), Leg(user_account(user_id, Currency.DIAMONDS), amount)]
        return self.transfer("diamonds_grant", key, legs, {"reason": reason})

    def grant_bound_diamonds(
        self, user_id: int, amount: int, *, key: str, reason: str = "reward"
    ) -> Transfer:
        """Bound diamonds (a reward or a gift, R-ACC-1) to a player: they show on the
        account but never buy chips (:meth:`buy_chips` spends unbound diamonds only)."""
        r = bound_diamonds_grant(user_id, amount, key=key, reason=reason)
        return self.transfer(r.kind, r.key, r.legs, r.memo)

    def buy_chips(self, user_id: int, diamonds: int, *, key: str) -> Transfer:
        """Chips bought with diamonds, 1:1 (R-ACC-1): diamonds to the house, chips issued."""
        _check_amount(diamonds)
        legs = [
            Leg(user_account(user_id, Currency.DIAMONDS), -diamonds),
            Leg(HOUSE_DIAMONDS, diamonds),
            Leg(MINT_CHIPS, -diamonds),
            Leg(user_account(user_id), diamonds),
        ]
        return self.transfer("buy_chips", key, legs)

    def buy_in(self, table_id: str, user_id: int, amount: int, *, key: str) -> Transfer:
        """Chips from a player's balance to their escrow at a table (buy-in, reload)."""
        _check_amount(amount)
        legs = [Leg(user_account(user_id), -amount), Leg(escrow_account(table_id, user_id), amount)]
        return self.transfer("buy_in", key, legs, {"table": table_id}, table=table_id)

    def cash_out(self, table_id: str, user_id: int, amount: int, *, key: str) -> Transfer:
        """Chips from a player's table escrow back to their balance (cash-out, leaving)."""
        legs = cash_out_legs(table_id, user_id, amount)
        return self.transfer("cash_out", key, legs, {"table": table_id}, table=table_id)

    def spend_points(self, user_id: int, amount: int, *, key: str, item: str = "") -> Transfer:
        """Points spent in the points shop (R-RAKE-3)."""
        _check_amount(amount)
        legs = [
            Leg(user_account(user_id, Currency.POINTS), -amount),
            Leg(HOUSE_POINTS_SHOP, amount),
        ]
        return self.transfer("points_spend", key, legs, {"item": item})

    # -- reading ---------------------------------------------------------------------

    def balance(self, account: LedgerAccount) -> int:
        """The balance of one account (0 if it was never used)."""
        stmt = sa.select(ledger_accounts.c.balance).where(ledger_accounts.c.key == account.key)
        value = self._db.run(lambda conn: conn.execute(stmt).scalar())
        return int(value or 0)

    def balances(self, user_id: int) -> Balances:
        """A player's chips, diamonds and points."""
        keys = {user_account(user_id, c).key: c for c in Currency}
        stmt = sa.select(ledger_accounts.c.key, ledger_accounts.c.balance).where(
            ledger_accounts.c.key.in_(list(keys))
        )
        found = {keys[r.key]: int(r.balance) for r in self._db.run(lambda c: c.execute(stmt).all())}
        return Balances(
            chips=found.get(Currency.CHIPS, 0),
            diamonds=found.get(Currency.DIAMONDS, 0),
            points=found.get(Currency.POINTS, 0),
            bound_diamonds=found.get(Currency.BOUND_DIAMONDS, 0),
        )

    def escrow(self, table_id: str) -> dict[int, int]:
        """Each player's chips at a table (zero balances left out)."""
        stmt = sa.select(ledger_accounts.c.user_id, ledger_accounts.c.balance).where(
            ledger_accounts.c.kind == "escrow",
            ledger_accounts.c.table_id == table_id,
            ledger_accounts.c.balance != 0,
        )
        rows = self._db.run(lambda conn: conn.execute(stmt).all())
        return {int(r.user_id): int(r.balance) for r in rows}

    def escrow_tables(self) -> list[str]:
        """Every table whose escrow holds chips."""
        stmt = (
            sa.select(ledger_accounts.c.table_id)
            .where(ledger_accounts.c.kind == "escrow", ledger_accounts.c.balance != 0)
            .distinct()
            .order_by(ledger_accounts.c.table_id)
        )
        return [str(t) for t in self._db.run(lambda conn: conn.execute(stmt).scalars().all())]

    def get_transfer(self, key: str) -> Transfer | None:
        """The transfer recorded under an idempotency key, if any."""
        found = self._db.run(lambda conn: self._find(conn, key))
        return None if found is None else found[0]
