"""What each WebSocket keeps alive in the server (issue #16): every object a connection
holds for its whole life is scanned by every full collection, so a room of thousands of
connections pays for each one in its longest GC pause (docs/benchmarks.md)."""

from __future__ import annotations

import asyncio
import gc
import json
from collections import Counter
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from tests.server.live import ORIGIN, fast_settings, running

CONNECTIONS = 30


def _coroutines() -> Counter[str]:
    """The suspended coroutines of this process: Starlette's application, middleware and
    routing (``starlette``) and all others (the WebSocket's own ``receive`` among them)."""
    kinds: Counter[str] = Counter()
    for o in gc.get_objects():
        if type(o).__name__ == "coroutine":
            path = o.cr_code.co_filename
            stack = "/starlette/" in path and not path.endswith("/starlette/websockets.py")
            kinds["starlette" if stack else "other"] += 1
    return kinds


def test_a_websocket_holds_no_coroutine_of_the_middleware_or_router(tmp_path: Path) -> None:
    """Issue #16: ``/ws`` goes straight to its session (``app.Room``). Starlette's
    middleware and router used to keep ten coroutines suspended per connection for its
    whole life; now thirty open connections hold none of theirs, and each connection is
    still welcomed and can watch a table."""

    async def scenario(url: str) -> tuple[Counter[str], Counter[str], list[dict[str, Any]]]:
        gc.collect()
        before = _coroutines()
        socks = []
        got = []
        for _ in range(CONNECTIONS):
            ws = await connect(url, origin=ORIGIN)
            await ws.send(json.dumps({"type": "hello"}))
            got.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
            socks.append(ws)
        await socks[0].send(json.dumps({"type": "subscribe", "table_id": "nlhe-1-2"}))
        types = set()
        while "subscribed" not in types:
            types.add(json.loads(await asyncio.wait_for(socks[0].recv(), 10))["type"])
        await asyncio.sleep(0.2)
        gc.collect()
        during = _coroutines()
        for ws in socks:
            await ws.close()
        return before, during, got

    with running(fast_settings(f"sqlite:///{tmp_path / 'db.sqlite3'}")) as srv:
        before, during, got = asyncio.run(scenario(srv.ws_url))
    assert [m["type"] for m in got] == ["welcome"] * CONNECTIONS
    assert during["other"] >= before["other"] + CONNECTIONS  # the sessions are there
    assert during["starlette"] - before["starlette"] == 0, (before, during)


def _server_connections() -> list[Any]:
    from croupier.server.wsproto import RoomWebSocketProtocol

    return [o for o in gc.get_objects() if isinstance(o, RoomWebSocketProtocol)]


def test_a_websocket_keeps_nothing_only_its_handshake_or_an_unused_queue_needed(
    tmp_path: Path,
) -> None:
    """Issue #16: what a connection keeps for its life is scanned by every full
    collection. Past the handshake the server keeps no request or response of it (uvicorn
    kept both, and the websockets parser keeps the request: its headers are emptied), a
    subscription delivering to the session's callback has no queue, and an outbox that
    never needed its writer task has no event to wake it. The connections still work: each
    is welcomed, subscribes and gets the table's snapshot."""
    from croupier.server.ws import WsSession
    from croupier.table.actor import EventStream

    async def scenario(url: str) -> tuple[list[set[str]], int]:
        socks = []
        subscribed = 0
        for _ in range(CONNECTIONS // 3):
            ws = await connect(url, origin=ORIGIN)
            await ws.send(json.dumps({"type": "hello"}))
            await asyncio.wait_for(ws.recv(), 10)
            await ws.send(json.dumps({"type": "subscribe", "table_id": "nlhe-1-2"}))
            while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "subscribed":
                pass
            subscribed += 1
            socks.append(ws)
        await asyncio.sleep(0.2)
        gc.collect()
        kept = []
        for proto in _server_connections():
            request = proto.conn.parser.gi_frame.f_locals.get("request")
            headers = list(request.headers.raw_items()) if request is not None else []
            kept.append(
                {k for k in ("request", "response") if hasattr(proto, k)}
                | ({"parser's request headers"} if headers else set())
            )
        sessions = [o for o in gc.get_objects() if isinstance(o, WsSession)]
        assert len(sessions) == len(socks)
        streams = [st for s in sessions for st in s.streams.values()]
        assert len(streams) == len(socks)
        kept.extend(
            {"queue"} for st in streams if isinstance(st, EventStream) and st._queue is not None
        )
        kept.extend({"wake"} for s in sessions if s.outbox._wake is not None)
        for ws in socks:
            await ws.close()
        return kept, subscribed

    with running(fast_settings(f"sqlite:///{tmp_path / 'db.sqlite3'}")) as srv:
        kept, subscribed = asyncio.run(scenario(srv.ws_url))
    assert subscribed == CONNECTIONS // 3
    assert len(kept) >= CONNECTIONS // 3  # every connection was inspected
    assert all(not k for k in kept), kept
