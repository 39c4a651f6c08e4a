"""The room's WebSocket protocol under uvicorn (server/wsproto.py, issue #16): a socket's
reading is not paused and resumed for each message (two system calls per message), only
when messages pile up, and a client that floods loses nothing."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from croupier.server.wsproto import RoomWebSocketProtocol
from tests.server.live import ORIGIN, LiveServer, fast_settings, running


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path: Path = tmp_path_factory.mktemp("wsproto") / "db.sqlite3"
    with running(fast_settings(f"sqlite:///{path}", default_tables=False)) as srv:
        yield srv


@pytest.fixture
def pauses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per ``pause_reading`` of a room socket's transport."""
    counted: list[int] = []
    made = RoomWebSocketProtocol.connection_made

    def connection_made(self: RoomWebSocketProtocol, transport: Any) -> None:
        real = transport.pause_reading

        def pause_reading() -> None:
            counted.append(1)
            real()

        transport.pause_reading = pause_reading
        made(self, transport)

    monkeypatch.setattr(RoomWebSocketProtocol, "connection_made", connection_made)
    return counted


def test_a_client_that_waits_for_each_answer_is_never_paused(
    server: LiveServer, pauses: list[int]
) -> None:
    async def go() -> list[str]:
        ids = []
        async with connect(server.ws_url, origin=ORIGIN) as ws:  # type: ignore[arg-type]
            await ws.send(json.dumps({"type": "hello"}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            for n in range(30):
                await ws.send(json.dumps({"type": "ping", "id": f"p{n}"}))
                while (m := json.loads(await ws.recv()))["type"] != "pong":
                    pass
                ids.append(m["id"])
        return ids

    assert asyncio.run(go()) == [f"p{n}" for n in range(30)]
    assert pauses == [], "reading was paused for messages taken at once"


def test_a_flood_pauses_reading_and_every_message_is_answered_in_order(
    server: LiveServer, pauses: list[int]
) -> None:
    sent = 300  # within the settings' burst: none is refused for the rate

    async def go() -> list[str]:
        async with connect(server.ws_url, origin=ORIGIN) as ws:  # type: ignore[arg-type]
            await ws.send(json.dumps({"type": "hello"}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            # every message in one write: the server reads them in one or a few chunks,
            # faster than the session takes them
            frames = [json.dumps({"type": "ping", "id": f"f{n}"}) for n in range(sent)]
            await asyncio.gather(*(ws.send(f) for f in frames))
            ids: list[str] = []
            while len(ids) < sent:
                m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if m["type"] == "pong":
                    ids.append(m["id"])
        return ids

    assert asyncio.run(go()) == [f"f{n}" for n in range(sent)]
    assert pauses, "a flood was read without ever pausing"
