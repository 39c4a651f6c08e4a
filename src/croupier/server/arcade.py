"""The arcade at the edge (seed 000, docs/arcade.md): the points shop's HTTP API, the
arcade's availability, level-up announcements and rewards, quick-match feedback, and each
player's look (avatar, card back, felt, emote set) added to the seat data sent to a table.

Routes (JSON; the session cookie or ``Authorization: Bearer``):

* ``GET /api/arcade`` — open now?, the windows, the level needed, how experience is
  earned; no login needed;
* ``GET /api/shop`` — the catalogue, with the player's points, what they own and equip;
* ``POST /api/shop/buy`` ``{"item": id}`` — buy with points (idempotent: buying an owned
  item again charges nothing and answers ``replayed: true``);
* ``POST /api/shop/equip`` ``{"item": id}`` / ``{"slot": s}`` (unequip: back to default).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from croupier.accounts.levels import (
    XP_PER_HAND,
    XP_PER_WIN,
    experience_for_level,
    level_for,
)
from croupier.lobby import TableSpec
from croupier.lobby.arcade import is_open, seconds_to_change
from croupier.store import StoreError
from croupier.store.ledger import TransferRequest, bound_diamonds_grant
from croupier.store.shop_catalogue import CATALOGUE, SLOTS
from croupier.table.events import PlayerSeated, TableEvent

if TYPE_CHECKING:
    from croupier.server.app import Services

__all__ = [
    "LEVEL_UP_REWARD",
    "arcade_routes",
    "arcade_status",
    "dress",
    "experience_rewards",
    "level_rewards",
    "level_up",
    "look_of",
    "push_queue_status",
    "wants_look",
]


def quick_match_spec(table_id: str, players: int) -> TableSpec:
    """The table a quick-match group starts: arcade NLHE 1/2, one seat per player."""
    return TableSpec(
        table_id, "Arcade quick match", "nlhe", "arcade", (1, 2), max(2, players), kind="arcade"
    )


def quick_match_buy_in() -> int:
    """The chips each matched player brings (the table's minimum buy-in).

    >>> quick_match_buy_in()
    80
    """
    return quick_match_spec("arcade-qm-x", 2).config().min_buy_in


LEVEL_UP_REWARD = 10
"""Bound diamonds granted per level reached (Decision): a reward, so bound (R-ACC-1)."""


class BuyRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    item: str = Field(min_length=1, max_length=64)


class EquipRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    item: str | None = Field(default=None, min_length=1, max_length=64)
    slot: str | None = Field(default=None, min_length=1, max_length=16)


def arcade_status(sv: Services) -> dict[str, Any]:
    """Whether the arcade is available now, and what it asks."""
    schedule = sv.arcade_gate.schedule
    now = sv.wall()
    return {
        "open": is_open(schedule, now),
        "windows": [str(w) for w in schedule],
        "changes_in": seconds_to_change(schedule, now),
        "min_level": sv.settings.arcade_min_level,
        "experience": {
            "per_hand": XP_PER_HAND,
            "per_win": XP_PER_WIN,
            "arcade_level": sv.settings.arcade_min_level,
            "arcade_experience": experience_for_level(
                min(100, max(1, sv.settings.arcade_min_level))
            ),
        },
    }


def next_level_experience(level: int) -> int | None:
    """Total experience of the next level (``None`` at the top).

    >>> next_level_experience(5), next_level_experience(100)
    (1000, None)
    """
    return experience_for_level(level + 1) if level < 100 else None


def catalogue_json() -> list[dict[str, Any]]:
    """The shop's catalogue as sent to clients (what each look draws)."""
    return [{"id": i.item_id, "slot": i.slot, "price": i.price, "look": i.look} for i in CATALOGUE]


async def arcade(request: Request) -> Response:
    from croupier.server.http import _sv

    return JSONResponse({**arcade_status(_sv(request)), "items": catalogue_json()})


def _shop_json(sv: Services, user_id: int) -> dict[str, Any]:
    shop = sv.store.shop
    return {
        "points": sv.store.ledger.balances(user_id).points,
        "slots": list(SLOTS),
        "items": catalogue_json(),
        "owned": shop.owned(user_id),
        "equipped": shop.equipped(user_id),
    }


async def shop(request: Request) -> Response:
    from croupier.server.http import _account, _sv

    sv = _sv(request)
    account = await _account(request, sv)
    if isinstance(account, Response):
        return account
    return JSONResponse(await asyncio.to_thread(_shop_json, sv, account.id))


async def shop_buy(request: Request) -> Response:
    from croupier.server.http import _account, _body, _sv, fail

    sv = _sv(request)
    account = await _account(request, sv)
    if isinstance(account, Response):
        return account
    body = await _body(request, BuyRequest, sv)
    if isinstance(body, Response):
        return body
    try:
        bought = await asyncio.to_thread(sv.store.shop.buy, account.id, body.item)
    except StoreError as exc:
        status = 404 if exc.code == "unknown_item" else 409
        return fail(status, exc.code, str(exc))
    out = await asyncio.to_thread(_shop_json, sv, account.id)
    return JSONResponse({**out, "bought": body.item, "replayed": bought.replayed})


async def shop_equip(request: Request) -> Response:
    from croupier.server.http import _account, _body, _sv, fail

    sv = _sv(request)
    account = await _account(request, sv)
    if isinstance(account, Response):
        return account
    body = await _body(request, EquipRequest, sv)
    if isinstance(body, Response):
        return body
    if (body.item is None) == (body.slot is None):
        return fail(422, "invalid", "send either an item to equip or a slot to clear")
    shop_ = sv.store.shop
    try:
        if body.item is not None:
            await asyncio.to_thread(shop_.equip, account.id, body.item)
        else:
            await asyncio.to_thread(shop_.unequip, account.id, body.slot or "")
    except StoreError as exc:
        status = 404 if exc.code == "unknown_item" else 409
        return fail(status, exc.code, str(exc))
    look = await asyncio.to_thread(shop_.equipped, account.id)
    sv.looks[account.id] = look
    _announce_look(sv, account.id, look)
    return JSONResponse(await asyncio.to_thread(_shop_json, sv, account.id))


def arcade_openapi_paths(
    authed: list[dict[str, list[str]]], json_: Any, error: dict[str, str]
) -> dict[str, Any]:
    """The OpenAPI entries of the arcade routes (merged by ``server/openapi.py``)."""

    def body(name: str) -> dict[str, Any]:
        ref = {"$ref": f"#/components/schemas/{name}"}
        return {"required": True, "content": {"application/json": {"schema": ref}}}

    return {
        "/api/arcade": {
            "get": {
                "summary": "The arcade: open now, its windows, the level needed, how"
                " experience is earned, the shop's catalogue",
                "responses": {"200": json_()},
            }
        },
        "/api/shop": {
            "get": {
                "summary": "The points shop: catalogue, your points, owned and equipped items",
                "security": authed,
                "responses": {"200": json_(), "401": error},
            }
        },
        "/api/shop/buy": {
            "post": {
                "summary": "Buy an item with points (R-ACC-1); again: nothing charged",
                "security": authed,
                "requestBody": body("BuyRequest"),
                "responses": {"200": json_(), "401": error, "404": error, "409": error},
            }
        },
        "/api/shop/equip": {
            "post": {
                "summary": "Equip an owned item (`item`) or clear a slot (`slot`)",
                "security": authed,
                "requestBody": body("EquipRequest"),
                "responses": {"200": json_(), "401": error, "409": error, "422": error},
            }
        },
    }


def arcade_routes() -> list[Route]:
    return [
        Route("/api/arcade", arcade),
        Route("/api/shop", shop),
        Route("/api/shop/buy", shop_buy, methods=["POST"]),
        Route("/api/shop/equip", shop_equip, methods=["POST"]),
    ]


# -- looks at the table ------------------------------------------------------------------


def known_look(sv: Services, player_id: str) -> dict[str, str] | None:
    """On the event loop: what ``player_id`` shows at a table if it is known here; if not,
    ``None`` now, and the look is read off the loop then announced to the tables where the
    player sits (a ``look`` message), so no store read runs on the loop."""
    if not player_id.isdigit():
        return None
    found = sv.looks.get(int(player_id))
    if found is None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not on the loop: the caller may read the store itself
            return look_of(sv, player_id)
        fut = loop.run_in_executor(None, look_of, sv, player_id)
        fut.add_done_callback(lambda f: _loaded_look(sv, int(player_id), f))
    return found


def _loaded_look(sv: Services, user_id: int, fut: asyncio.Future[dict[str, str] | None]) -> None:
    if fut.cancelled() or fut.exception() is not None:
        return
    look = fut.result()
    if look:
        _announce_look(sv, user_id, look)


async def prime_looks(sv: Services, player_ids: list[str]) -> None:
    """Read off the loop the looks of ``player_ids`` not known yet (no thread hop when
    every one is), so the frames that show them carry them at once."""
    missing = [p for p in player_ids if p.isdigit() and int(p) not in sv.looks]
    if missing:
        await asyncio.to_thread(lambda: [look_of(sv, p) for p in missing])


def look_of(sv: Services, player_id: str) -> dict[str, str] | None:
    """What ``player_id`` shows at a table (cached; ``None`` for a non-account id). A
    store read on a miss: call off the loop (:func:`known_look` on it)."""
    if not player_id.isdigit():
        return None
    uid = int(player_id)
    found = sv.looks.get(uid)
    if found is None:
        found = sv.store.shop.equipped(uid)
        if len(sv.looks) > 50_000:
            sv.looks.clear()
        sv.looks[uid] = found
    return found


def wants_look(event: TableEvent) -> bool:
    """Whether a table event carries seat data that :func:`dress` completes (the others
    go out as the shared pre-encoded text)."""
    return isinstance(event.data, PlayerSeated)


def dress(sv: Services, message: dict[str, Any]) -> dict[str, Any]:
    """Add each seated player's ``look`` to the seat data of a snapshot or a
    ``player_seated`` event (in place; returns ``message``)."""
    if message.get("type") == "snapshot":
        for seat in message.get("snapshot", {}).get("seats", ()):
            if isinstance(seat, dict) and isinstance(seat.get("player_id"), str):
                seat["look"] = known_look(sv, seat["player_id"])
    elif message.get("type") == "event":
        event = message.get("event") or {}
        if event.get("type") == "player_seated" and isinstance(event.get("player_id"), str):
            event["look"] = known_look(sv, event["player_id"])
    return message


def _announce_look(sv: Services, user_id: int, look: dict[str, str]) -> None:
    """Tell every table where ``user_id`` sits about their new look."""
    pid = str(user_id)
    for table_id, live in list(sv.registry.tables.items()):
        if any(s.player_id == pid for s in live.actor.table.seats.values()):
            sv.hub.to_table(
                table_id, {"type": "look", "table_id": table_id, "player_id": pid, "look": look}
            )


# -- levels --------------------------------------------------------------------------------


def level_rewards(user_id: int, old: int, new: int) -> list[TransferRequest]:
    """The bound-diamond reward of each level ``user_id`` reached going from level ``old``
    to ``new``, each under its key ``level:<user>:<level>`` (a level is rewarded once).

    >>> [r.key for r in level_rewards(7, 1, 3)]
    ['level:7:2', 'level:7:3']
    """
    return [
        bound_diamonds_grant(
            user_id, LEVEL_UP_REWARD, key=f"level:{user_id}:{level}", reason=f"level {level}"
        )
        for level in range(old + 1, new + 1)
    ]


def experience_rewards(user_id: int, before: int, after: int) -> list[TransferRequest]:
    """:func:`level_rewards` for experience going from ``before`` to ``after``: what a
    hand's settlement grants in its own transaction (``SqlJournal.level_rewards``)."""
    return level_rewards(user_id, level_for(before), level_for(after))


def level_up(sv: Services, user_id: int, old: int, new: int) -> Callable[[], None]:
    """``user_id`` went from level ``old`` to ``new``: the announcement on their
    connection of the levels reached and their rewards (run on the event loop: a
    connection's queue is not thread-safe). The rewards were granted with the experience
    that reached them, in its transaction (:func:`experience_rewards`)."""
    reward = LEVEL_UP_REWARD * max(0, new - old)
    message = {
        "type": "level_up",
        "level": new,
        "previous": old,
        "bound_diamonds": reward,
        "arcade_unlocked": old < sv.settings.arcade_min_level <= new,
    }

    def announce() -> None:
        conn = sv.hub.by_account.get(user_id)
        if conn is not None:
            conn.send(message)

    return announce


# -- quick match feedback ---------------------------------------------------------------


def is_quick_table(table_id: str) -> bool:
    """A table started by the quick match (its players were matched: not in the lobby).

    >>> is_quick_table("arcade-qm-k2x7pq"), is_quick_table("arcade-1-2")
    (True, False)
    """
    return table_id.startswith("arcade-qm-")


async def close_empty_quick_tables(sv: Services, seen_empty: set[str]) -> list[str]:
    """Stop the quick-match tables found empty (no seat, no hand) at two checks in a row:
    their players have left, and nobody else is matched to them. Returns the ids closed."""
    closed: list[str] = []
    for table_id, live in list(sv.registry.tables.items()):
        if not is_quick_table(table_id):
            continue
        table = live.actor.table
        if table.seats or table.hand is not None:
            seen_empty.discard(table_id)
        elif table_id not in seen_empty:
            seen_empty.add(table_id)
        else:
            seen_empty.discard(table_id)
            sv.registry.detach(table_id)
            sv.hub.watchers.pop(table_id, None)
            await live.actor.stop()
            closed.append(table_id)
    return closed


def push_queue_status(sv: Services, now: float) -> None:
    """Tell every queued player how many wait, for how long, and when a table starts."""
    for pid in sv.quick.players():
        status = sv.quick.status(pid, now=now)
        conn = sv.hub.by_account.get(int(pid)) if pid.isdigit() else None
        if status is None or conn is None:
            continue
        conn.send(
            {
                "type": "quick_match_status",
                "waiting": status.waiting,
                "waited": status.waited,
                "starts_in": status.starts_in,
                "alone": status.waiting < 2,
            }
        )
