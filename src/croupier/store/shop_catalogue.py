"""The points shop's catalogue ("magasin du score", R-ACC-1, R-RAKE-3): what arcade
points buy (data, read by :mod:`croupier.store.shop` and the server).

The catalogue is data. Every item is cosmetic — something a player shows at the table —
and belongs to one **slot**; a player equips at most one item per slot. Prices are in
points only (points come from the arcade levy × 10, so a 1/2 arcade pot of 40 chips
gives its contributors about 80 points together).

Decisions (documented in docs/arcade.md): four slots (card back, table felt, avatar, emote
set); the first item of each slot is free and owned by everyone (the default look); the
others cost 200 to 3 000 points, so the first purchase comes after a few dozen arcade
hands and the dearest after a few hundred.

>>> item("back_royal").price, item("back_royal").slot
(600, 'card_back')
>>> [i.item_id for i in CATALOGUE if i.slot == "avatar"][:3]
['avatar_default', 'avatar_fox', 'avatar_owl']
>>> item("nothing")
Traceback (most recent call last):
...
croupier.store.errors.StoreError: no shop item 'nothing'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from croupier.store.errors import StoreError

__all__ = ["CATALOGUE", "SLOTS", "ShopItem", "Slot", "defaults", "item"]

Slot = Literal["card_back", "felt", "avatar", "emotes"]
SLOTS: tuple[Slot, ...] = ("card_back", "felt", "avatar", "emotes")


@dataclass(frozen=True, slots=True)
class ShopItem:
    """One catalogue item. ``look`` is what the client draws (a colour, an image name);
    ``price`` 0 marks the slot's default, which every player owns."""

    item_id: str
    slot: Slot
    price: int
    look: str

    @property
    def default(self) -> bool:
        return self.price == 0


CATALOGUE: tuple[ShopItem, ...] = (
    ShopItem("back_classic", "card_back", 0, "#1f4e9c"),
    ShopItem("back_crimson", "card_back", 300, "#9c1f2e"),
    ShopItem("back_emerald", "card_back", 300, "#1f7a4a"),
    ShopItem("back_royal", "card_back", 600, "#5b2a86"),
    ShopItem("back_gold", "card_back", 1500, "#b8860b"),
    ShopItem("felt_green", "felt", 0, "#1d6b3a"),
    ShopItem("felt_blue", "felt", 400, "#1d4f7a"),
    ShopItem("felt_wine", "felt", 400, "#6b1d3a"),
    ShopItem("felt_night", "felt", 1200, "#202a3a"),
    ShopItem("avatar_default", "avatar", 0, "default"),
    ShopItem("avatar_fox", "avatar", 200, "fox"),
    ShopItem("avatar_owl", "avatar", 200, "owl"),
    ShopItem("avatar_cat", "avatar", 250, "cat"),
    ShopItem("avatar_crown", "avatar", 3000, "crown"),
    ShopItem("emotes_basic", "emotes", 0, "basic"),
    ShopItem("emotes_party", "emotes", 800, "party"),
)

_BY_ID = {i.item_id: i for i in CATALOGUE}
if len(_BY_ID) != len(CATALOGUE):  # pragma: no cover - the catalogue is data checked here
    raise RuntimeError("shop item ids must be unique")


def item(item_id: str) -> ShopItem:
    """The catalogue item ``item_id`` (``unknown_item`` when there is none)."""
    found = _BY_ID.get(item_id) if isinstance(item_id, str) else None
    if found is None:
        raise StoreError("unknown_item", f"no shop item {item_id!r}")
    return found


def defaults() -> dict[str, str]:
    """The default item of every slot (what a player shows before equipping anything).

    >>> defaults()["card_back"]
    'back_classic'
    """
    return {i.slot: i.item_id for i in reversed(CATALOGUE) if i.default}
