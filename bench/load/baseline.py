"""The bare Starlette + uvicorn broadcast baseline: the same sockets, tables and client
policy as croupier, without game logic. A table is a ring of six seats; an ``act`` from
the player whose turn it is is broadcast as an ``acted`` event and followed by the next
player's ``turn`` (with a ``view`` for that player only), in croupier's wire shapes, each
frame encoded once and queued to each socket's writer task as croupier does."""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

__all__ = ["baseline_app"]

LEGAL = {"can_fold": False, "can_check": True, "can_call": False, "call": 0, "can_raise": False}


@dataclass(slots=True)
class _Table:
    table_id: str
    seats: dict[int, _Conn] = field(default_factory=dict)
    turn: int = 0
    version: int = 0
    started: bool = False


@dataclass(eq=False, slots=True)
class _Conn:
    ws: WebSocket
    out: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    account_id: int = 0


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


def baseline_app() -> Starlette:
    tables: dict[str, _Table] = {}

    def broadcast(table: _Table, event: dict[str, Any], seat_view: int | None = None) -> None:
        table.version += 1
        players = [str(c.account_id) for _, c in sorted(table.seats.items())]
        msg = {
            "type": "event",
            "table_id": table.table_id,
            "version": table.version,
            "epoch": 1,
            "hand_no": 1,
            "players": players,
            "event": event,
        }
        public = _dumps(msg)
        private = None
        if seat_view is not None:
            msg["event"] = {**event, "view": {"legal": LEGAL}}
            private = _dumps(msg)
        for seat, conn in table.seats.items():
            conn.out.put_nowait(private if private is not None and seat == seat_view else public)

    def next_turn(table: _Table) -> None:
        seat = table.turn
        conn = table.seats[seat]
        broadcast(
            table,
            {
                "type": "turn",
                "seat": seat,
                "player_id": str(conn.account_id),
                "position": seat,
                "phase": "betting",
                "deadline": 0,
                "view": None,
            },
            seat_view=seat,
        )

    async def writer(conn: _Conn) -> None:
        while True:
            text = await conn.out.get()
            if text is None:
                return
            await conn.ws.send_text(text)

    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        conn = _Conn(ws)
        task = asyncio.create_task(writer(conn))
        joined: list[tuple[_Table, int]] = []
        try:
            while True:
                msg = json.loads(await ws.receive_text())
                kind = msg.get("type")
                if kind == "hello":
                    conn.account_id = int(str(msg.get("token", "0")).rsplit("-", 1)[-1])
                    conn.out.put_nowait(
                        _dumps(
                            {
                                "type": "welcome",
                                "account_id": conn.account_id,
                                "name": f"p{conn.account_id}",
                                "guest": False,
                            }
                        )
                    )
                elif kind == "subscribe":
                    tid = msg["table_id"]
                    tables.setdefault(tid, _Table(tid))
                    conn.out.put_nowait(
                        _dumps(
                            {
                                "type": "table_info",
                                "table_id": tid,
                                "table": {"buy_in_min": 80, "buy_in_max": 400},
                            }
                        )
                    )
                    conn.out.put_nowait(
                        _dumps({"type": "subscribed", "table_id": tid, "version": 0})
                    )
                elif kind == "sit":
                    table = tables[msg["table_id"]]
                    seat = int(msg.get("seat", len(table.seats)))
                    table.seats[seat] = conn
                    joined.append((table, seat))
                    conn.out.put_nowait(
                        _dumps(
                            {
                                "type": "ack",
                                "id": msg["id"],
                                "accepted": True,
                                "code": "ok",
                                "table_id": table.table_id,
                            }
                        )
                    )
                    if len(table.seats) == 6 and not table.started:
                        table.started = True
                        table.turn = min(table.seats)
                        next_turn(table)
                elif kind == "act":
                    table = tables[msg["table_id"]]
                    seats = sorted(table.seats)
                    if table.seats.get(table.turn) is not conn:
                        conn.out.put_nowait(
                            _dumps(
                                {
                                    "type": "ack",
                                    "id": msg["id"],
                                    "accepted": False,
                                    "code": "not_your_turn",
                                }
                            )
                        )
                        continue
                    conn.out.put_nowait(
                        _dumps(
                            {
                                "type": "ack",
                                "id": msg["id"],
                                "accepted": True,
                                "code": "ok",
                                "table_id": table.table_id,
                                "version": table.version + 1,
                            }
                        )
                    )
                    broadcast(
                        table,
                        {
                            "type": "acted",
                            "player": seats.index(table.turn),
                            "action": msg.get("action"),
                            "amount": 0,
                            "added": 0,
                        },
                    )
                    table.turn = seats[(seats.index(table.turn) + 1) % len(seats)]
                    next_turn(table)
                else:
                    conn.out.put_nowait(
                        _dumps({"type": "ack", "id": msg.get("id"), "accepted": True, "code": "ok"})
                    )
        except (WebSocketDisconnect, RuntimeError, ValueError, KeyError):
            pass
        finally:
            for table, seat in joined:
                if table.seats.get(seat) is conn:
                    del table.seats[seat]
            conn.out.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, 1.0)

    return Starlette(routes=[WebSocketRoute("/ws", endpoint)])
