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
            # every message in one write of the socket: the server reads them in one or
            # a few chunks, faster than the session takes them (a write per message let
            # the server's thread read them one by one on a busy machine: no pile-up)
            for n in range(sent):
                ws.protocol.send_text(json.dumps({"type": "ping", "id": f"f{n}"}).encode())
            ws.transport.write(b"".join(ws.protocol.data_to_send()))
            ids: list[str] = []
            while len(ids) < sent:
                m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if m["type"] == "pong":
                    ids.append(m["id"])
        return ids

    assert asyncio.run(go()) == [f"f{n}" for n in range(sent)]
    assert pauses, "a flood was read without ever pausing"


def test_the_rooms_frames_are_written_directly_not_through_asgi(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The outbox (server/outbox.py) writes through the scope's ``SEND_NOW``: no frame
    takes uvicorn's ASGI ``send`` while the socket has room, and each is counted."""
    through_asgi: list[str] = []
    direct: list[str] = []
    asgi_send = RoomWebSocketProtocol.send
    send_now = RoomWebSocketProtocol.send_text_now

    async def send(self: RoomWebSocketProtocol, message: Any) -> None:
        through_asgi.append(message["type"])
        await asgi_send(self, message)

    def send_text_now(self: RoomWebSocketProtocol, text: str) -> bool:
        written = send_now(self, text)
        if written:
            direct.append(text)
        return written

    monkeypatch.setattr(RoomWebSocketProtocol, "send", send)
    monkeypatch.setattr(RoomWebSocketProtocol, "send_text_now", send_text_now)

    async def go() -> list[str]:
        ids = []
        async with connect(server.ws_url, origin=ORIGIN) as ws:  # type: ignore[arg-type]
            await ws.send(json.dumps({"type": "hello"}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            for n in range(20):
                await ws.send(json.dumps({"type": "ping", "id": f"d{n}"}))
                while (m := json.loads(await ws.recv()))["type"] != "pong":
                    pass
                ids.append(m["id"])
        return ids

    assert asyncio.run(go()) == [f"d{n}" for n in range(20)]
    assert "websocket.send" not in through_asgi, through_asgi
    assert through_asgi[0] == "websocket.accept"
    assert sum('"pong"' in t for t in direct) == 20
