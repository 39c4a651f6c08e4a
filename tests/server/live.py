"""A real uvicorn server on 127.0.0.1 (random free port) in a thread, and small clients."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from croupier.server.app import create_app
from croupier.server.settings import Settings
from croupier.server.wsproto import uvicorn_options
from tests.ports import free_port
from tests.waiting import wait_until

__all__ = ["ORIGIN", "free_port"]

ORIGIN = "http://good.example"


def fast_settings(database_url: str, **overrides: Any) -> Settings:
    base = dict(
        database_url=database_url,
        allowed_origins=(ORIGIN,),
        testing=True,
        bot_delay_seconds=0.01,
        between_hands_seconds=0.05,
        messages_per_second=200.0,
        message_burst=400,
        quick_match_wait_seconds=0.5,
        # one address signs up every test account of a module: the per-address sign-up
        # throttle has its own test (test_edge.py)
        registration_burst=1000,
    )
    base.update(overrides)
    return Settings(**base)  # type: ignore[arg-type]


class LiveServer:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.port = free_port()
        self.app = create_app(settings)
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            **uvicorn_options(settings.max_frame_bytes),  # as croupier serve
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> None:
        self.thread.start()
        wait_until(
            lambda: self.server.started or not self.thread.is_alive(), 30, "the server to start"
        )
        if not self.server.started:
            raise RuntimeError("the server thread ended before the server started")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)


@contextmanager
def running(settings: Settings) -> Iterator[LiveServer]:
    srv = LiveServer(settings)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def register_and_login(base: str, name: str, password: str = "correct horse battery") -> str:
    with httpx.Client(base_url=base, headers={"Origin": ORIGIN}, timeout=30) as http:
        r = http.post("/api/register", json={"name": name, "password": password})
        assert r.status_code == 201, r.text
        r = http.post("/api/login", json={"name": name, "password": password})
        assert r.status_code == 200, r.text
        return str(r.json()["token"])


class Client:
    """A WebSocket client that records every frame it receives."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self._ids = 0

    @classmethod
    async def open(cls, url: str, token: str | None, origin: str = ORIGIN) -> Client:
        ws = await connect(url, origin=origin)  # type: ignore[arg-type]
        client = cls(ws)
        await client.send({"type": "hello", "token": token})
        welcome = await client.expect("welcome", "error")
        assert welcome["type"] == "welcome", welcome
        return client

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        frame: dict[str, Any] = json.loads(raw)
        self.frames.append(frame)
        return frame

    async def expect(self, *types: str, timeout: float = 10.0, **match: Any) -> dict[str, Any]:
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError(f"no {types} {match}")
            frame = await self.recv(left)
            if frame.get("type") in types and all(frame.get(k) == v for k, v in match.items()):
                return frame

    async def wait_reading(self, predicate: Callable[[], bool], timeout: float, what: str) -> None:
        """Wait until ``predicate()`` holds, reading (and recording) frames meanwhile: a
        client that stops reading has its socket paused once websockets' queue is full,
        and then misses the pongs of its own keepalive pings (closed 1011 after ~20 s)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not predicate():
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError(f"timed out waiting for {what}")
            with contextlib.suppress(TimeoutError):
                await self.recv(min(0.05, left))

    def next_id(self) -> str:
        self._ids += 1
        return f"c{self._ids}"

    async def command(self, message: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
        cid = self.next_id()
        await self.send({**message, "id": cid})
        return await self.expect("ack", id=cid, timeout=timeout)

    async def close(self) -> None:
        """Close the connection and its socket: the closing handshake, or an abort when the
        peer does not answer within websockets' close timeout; then one turn of the loop
        for the transport's scheduled ``connection_lost`` (which closes the socket) to run
        before the caller's loop may end (else the socket is closed by the garbage
        collector, with a ResourceWarning)."""
        try:
            await self.ws.close()
        finally:
            if not self.ws.transport.is_closing():
                self.ws.transport.abort()
            await asyncio.sleep(0)
            await asyncio.sleep(0)
