"""The points shop in SQL (R-ACC-1, R-RAKE-3): buying with points through the ledger, the
inventory, and what each player equips.

A purchase is one ledger transfer, ``user:<id>:points`` → ``house:points_shop``, keyed
``shop:<user id>:<item id>`` (an item is bought once per player, so the key never repeats),
written in the **same transaction** as the inventory row: a player owns an item exactly
when they paid for it once. Buying an item again (a retry, a double click, a second tab)
returns the first purchase and charges nothing. Too few points: ``insufficient_points``,
nothing changes.

>>> from croupier.store.db import Database
>>> from croupier.store.ledger import Ledger
>>> from croupier.store.users import SqlUsers
>>> db = Database.open("sqlite://"); _ = db.migrate()
>>> uid = SqlUsers(db).create_user("Ann", "ann", None, "player", 0).id
>>> ledger = Ledger(db, clock=lambda: 0.0)
>>> from croupier.store.ledger import Leg, MINT_POINTS, user_account, Currency
>>> _ = ledger.transfer("settle", "k1", [Leg(MINT_POINTS, -500), Leg(user_account(uid, Currency.POINTS), 500)])
>>> shop = SqlShop(db, ledger, clock=lambda: 0.0)
>>> shop.buy(uid, "avatar_fox").replayed, shop.buy(uid, "avatar_fox").replayed
(False, True)
>>> ledger.balances(uid).points
300
>>> shop.equip(uid, "avatar_fox"); shop.equipped(uid)["avatar"]
'avatar_fox'
>>> shop.buy(uid, "avatar_crown")
Traceback (most recent call last):
...
croupier.store.shop.ShopError: avatar_crown costs 3000 points; you have 300
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import sqlalchemy as sa

from croupier.store.db import Clock, Database, now_ms
from croupier.store.errors import InsufficientFundsError, StoreError
from croupier.store.ledger import HOUSE_POINTS_SHOP, Currency, Ledger, Leg, user_account
from croupier.store.schema import shop_equipped, shop_items
from croupier.store.shop_catalogue import SLOTS, ShopItem, defaults, item

__all__ = ["Purchase", "ShopError", "SqlShop", "purchase_key"]


class ShopError(StoreError):
    """A refused shop request (``unknown_item``, ``insufficient_points``, ``not_owned``,
    ``free_item``, ``bad_slot``); nothing changed."""

    code = "shop_error"


@dataclass(frozen=True, slots=True)
class Purchase:
    """A bought item; ``replayed`` when it had been bought before (nothing charged now)."""

    item_id: str
    price: int
    transfer_id: int
    replayed: bool


def purchase_key(user_id: int, item_id: str) -> str:
    """The ledger key of a purchase (unique: one purchase per player and item).

    >>> purchase_key(7, "back_gold")
    'shop:7:back_gold'
    """
    return f"shop:{user_id}:{item_id}"


def _item(item_id: str) -> ShopItem:
    try:
        return item(item_id)
    except StoreError as exc:
        raise ShopError(exc.code, str(exc)) from None


class SqlShop:
    """Purchases, inventory and equipment on the store's database and ledger."""

    def __init__(self, db: Database, ledger: Ledger, clock: Clock) -> None:
        self._db = db
        self._ledger = ledger
        self._clock = clock

    def buy(self, user_id: int, item_id: str) -> Purchase:
        """Buy ``item_id`` with points (once; a repeat returns the first purchase)."""
        wanted = _item(item_id)
        if wanted.default:
            raise ShopError("free_item", f"{item_id} is free: every player has it")
        try:
            return self._db.run(lambda conn: self._buy(conn, user_id, wanted))
        except sa.exc.IntegrityError:
            # A concurrent purchase of the same item won the race: it is now a replay.
            return self._db.run(lambda conn: self._buy(conn, user_id, wanted))

    def _buy(self, conn: sa.Connection, user_id: int, wanted: ShopItem) -> Purchase:
        row = conn.execute(
            sa.select(shop_items.c.price, shop_items.c.transfer_id).where(
                shop_items.c.user_id == user_id, shop_items.c.item_id == wanted.item_id
            )
        ).first()
        if row is not None:
            return Purchase(wanted.item_id, int(row.price), int(row.transfer_id), True)
        legs = [
            Leg(user_account(user_id, Currency.POINTS), -wanted.price),
            Leg(HOUSE_POINTS_SHOP, wanted.price),
        ]
        try:
            transfer = self._ledger.transfer_in(
                conn,
                "points_spend",
                purchase_key(user_id, wanted.item_id),
                legs,
                {"item": wanted.item_id},
            )
        except InsufficientFundsError:
            have = self._points(conn, user_id)
            raise ShopError(
                "insufficient_points",
                f"{wanted.item_id} costs {wanted.price} points; you have {have}",
            ) from None
        conn.execute(
            shop_items.insert(),
            {
                "user_id": user_id,
                "item_id": wanted.item_id,
                "price": wanted.price,
                "transfer_id": transfer.id,
                "bought_ms": now_ms(self._clock),
            },
        )
        return Purchase(wanted.item_id, wanted.price, transfer.id, transfer.replayed)

    @staticmethod
    def _points(conn: sa.Connection, user_id: int) -> int:
        from croupier.store.schema import ledger_accounts

        key = user_account(user_id, Currency.POINTS).key
        value = conn.execute(
            sa.select(ledger_accounts.c.balance).where(ledger_accounts.c.key == key)
        ).scalar()
        return int(value or 0)

    def owned(self, user_id: int) -> list[str]:
        """Every item ``user_id`` owns: the slot defaults, then what they bought."""
        stmt = (
            sa.select(shop_items.c.item_id)
            .where(shop_items.c.user_id == user_id)
            .order_by(shop_items.c.bought_ms, shop_items.c.item_id)
        )
        bought = self._db.run(lambda conn: conn.execute(stmt).scalars().all())
        return [*defaults().values(), *(str(i) for i in bought)]

    def equip(self, user_id: int, item_id: str) -> None:
        """Show ``item_id`` (owned) in its slot from now on."""
        wanted = _item(item_id)

        def work(conn: sa.Connection) -> None:
            if not wanted.default:
                owned = conn.execute(
                    sa.select(shop_items.c.item_id).where(
                        shop_items.c.user_id == user_id, shop_items.c.item_id == item_id
                    )
                ).first()
                if owned is None:
                    raise ShopError("not_owned", f"buy {item_id} before equipping it")
            self._unset(conn, user_id, wanted.slot)
            if not wanted.default:
                conn.execute(
                    shop_equipped.insert(),
                    {"user_id": user_id, "slot": wanted.slot, "item_id": item_id},
                )

        self._db.run(work)

    def unequip(self, user_id: int, slot: str) -> None:
        """Back to the slot's default look."""
        if slot not in SLOTS:
            raise ShopError("bad_slot", f"slots are {', '.join(SLOTS)}")
        self._db.run(lambda conn: self._unset(conn, user_id, slot))

    @staticmethod
    def _unset(conn: sa.Connection, user_id: int, slot: str) -> None:
        conn.execute(
            shop_equipped.delete().where(
                shop_equipped.c.user_id == user_id, shop_equipped.c.slot == slot
            )
        )

    def equipped(self, user_id: int) -> dict[str, str]:
        """Slot → item shown by ``user_id`` (the default where nothing is equipped)."""
        return self.equipped_many([user_id]).get(user_id, defaults())

    def equipped_many(self, user_ids: Iterable[int]) -> dict[int, dict[str, str]]:
        """:meth:`equipped` for several players in one read."""
        ids = sorted(set(user_ids))
        out = {uid: defaults() for uid in ids}
        if not ids:
            return out
        stmt = sa.select(shop_equipped).where(shop_equipped.c.user_id.in_(ids))
        for row in self._db.run(lambda conn: conn.execute(stmt).all()):
            out[int(row.user_id)][str(row.slot)] = str(row.item_id)
        return out
