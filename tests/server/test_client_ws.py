"""What the table client needs from the server (issue #15): the time bank over the
WebSocket with the bank left announced, the reconnection grace through a real socket drop
(R-TIME-2 revised), and ``croupier serve --port N`` accepting its own origin with no other
setting."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from croupier.server.settings import Settings
from tests.server.live import (
    ORIGIN,
    Client,
    LiveServer,
    fast_settings,
    free_port,
    register_and_login,
    running,
)
from tests.waiting import async_wait_until, wait_until

TABLE = "nlhe-1-2"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path: Path = tmp_path_factory.mktemp("client-ws") / "db.sqlite3"
    with running(fast_settings(f"sqlite:///{path}")) as srv:
        yield srv


def _fund(srv: LiveServer, token: str, diamonds: int = 500) -> None:
    r = httpx.post(
        srv.url + "/api/exchange",
        json={"diamonds": diamonds, "key": f"fund-{token[:12]}"},
        headers={"Authorization": f"Bearer {token}", "Origin": ORIGIN},
    )
    assert r.status_code == 200, r.text


async def _my_turn(c: Client, me: str, timeout: float = 90.0) -> dict[str, Any]:
    """The next frame that gives ``me`` the turn."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        frame = await c.recv(max(0.1, deadline - loop.time()))
        ev = frame.get("event") or {}
        if ev.get("type") == "turn" and ev.get("player_id") == me and ev.get("view"):
            return frame


def test_time_bank_over_the_websocket(server: LiveServer) -> None:
    """R-TIME-1: ``{"type": "time_bank"}`` on your turn moves the deadline by your bank
        (``time_bank_used``); after you act, ``seat_changed`` tells everyone the bank left (only
    time past the normal clock is taken from it); a
        second use in the same turn and a use without a seat are refused with their codes."""
    token = register_and_login(server.url, "banker")
    _fund(server, token)

    async def go() -> None:
        c = await Client.open(server.ws_url, token)
        me = str((await _me(server, token))["id"])
        await c.send({"type": "subscribe", "table_id": TABLE})
        await c.expect("subscribed")
        ack = await c.command({"type": "sit", "table_id": TABLE, "buy_in": 200})
        assert ack["accepted"], ack
        turn = await _my_turn(c, me)
        deadline = turn["event"]["deadline"]
        ack = await c.command({"type": "time_bank", "table_id": TABLE})
        assert ack["accepted"], ack
        used = await _find(c, lambda ev: ev["type"] == "time_bank_used")
        assert used["event"]["deadline"] == pytest.approx(deadline + 60.0)
        again = await c.command({"type": "time_bank", "table_id": TABLE})
        assert (again["accepted"], again["code"]) == (False, "time_bank_in_use")
        # Not a wait: one real second passes on the normal clock, which costs no bank.
        await asyncio.sleep(1.0)
        legal = turn["event"]["view"]["legal"]
        action = "check" if legal["can_check"] else "fold"
        ack = await c.command({"type": "act", "table_id": TABLE, "action": action})
        assert ack["accepted"], ack
        changed = await _find(
            c, lambda ev: ev["type"] == "seat_changed" and ev["seat"]["player_id"] == me
        )
        assert changed["event"]["reason"] == "time_bank"
        # the bank only runs once the normal clock is spent: acting 1 s later costs nothing
        assert changed["event"]["seat"]["time_bank"] == 60.0
        await c.command({"type": "leave", "table_id": TABLE})
        out = await c.command({"type": "time_bank", "table_id": TABLE})
        # leaving mid-hand keeps the seat until the hand ends: not your turn, or no seat
        assert not out["accepted"] and out["code"] in ("not_your_turn", "not_seated")
        await c.close()

    asyncio.run(go())


async def _find(c: Client, pred: Any, timeout: float = 10.0) -> dict[str, Any]:
    """The first event frame (already received or still to come) that ``pred`` accepts."""
    seen = 0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        for frame in c.frames[seen:]:
            if frame.get("type") == "event" and pred(frame["event"]):
                return frame
        seen = len(c.frames)
        await c.recv(max(0.1, deadline - loop.time()))


async def _me(srv: LiveServer, token: str) -> dict[str, Any]:
    async with httpx.AsyncClient() as http:
        r = await http.get(srv.url + "/api/me", headers={"Authorization": f"Bearer {token}"})
        return dict(r.json())


def test_a_dropped_socket_within_the_grace_keeps_the_turn(server: LiveServer) -> None:
    """R-TIME-2 (revised), R-TIME-3: closing the socket on your turn and opening a new one
    within the grace neither folds nor checks you: the new socket's snapshot has your
    turn (the legal actions) with the same deadline, and you act from it."""
    token = register_and_login(server.url, "reloader")
    _fund(server, token)

    async def go() -> None:
        c = await Client.open(server.ws_url, token)
        me = str((await _me(server, token))["id"])
        await c.send({"type": "subscribe", "table_id": TABLE})
        await c.expect("subscribed")
        assert (await c.command({"type": "sit", "table_id": TABLE, "buy_in": 200}))["accepted"]
        turn = await _my_turn(c, me)
        await c.close()
        table = server.app.state.services.registry.get(TABLE).actor.table
        await async_wait_until(
            lambda: not table.seat_of(me).connected, 10, "the table to note the dropped socket"
        )
        c2 = await Client.open(server.ws_url, token)
        await c2.send({"type": "subscribe", "table_id": TABLE})
        snap = await c2.expect("snapshot")
        body = snap["snapshot"]
        assert body["deadline"] == pytest.approx(turn["event"]["deadline"])
        assert body["hand"]["legal"]["player"] == turn["event"]["view"]["legal"]["player"]
        await c2.expect("subscribed")
        legal = body["hand"]["legal"]
        action = "check" if legal["can_check"] else "call"
        ack = await c2.command({"type": "act", "table_id": TABLE, "action": action})
        assert ack["accepted"], ack
        timed = [
            f for f in c2.frames if (f.get("event") or {}).get("type") in ("timed_out", "protected")
        ]
        assert not timed
        await c2.command({"type": "leave", "table_id": TABLE})
        await c2.close()

    asyncio.run(go())


def test_settings_origins_follow_the_address_served() -> None:
    """``croupier serve --port N`` needs no origin setting: the allowlist follows the host
    and port served unless ``CROUPIER_ALLOWED_ORIGINS`` is set."""
    assert "http://127.0.0.1:9123" in Settings(port=9123).origins
    assert "http://localhost:9123" in Settings(port=9123).origins
    assert "http://127.0.0.1:8000" not in Settings(port=9123).origins
    explicit = Settings(port=9123, allowed_origins=("https://poker.example",))
    assert explicit.origins == ("https://poker.example",)
    env = Settings.from_env({"CROUPIER_PORT": "9124"}).with_(port=9125)
    assert "http://127.0.0.1:9125" in env.origins


def test_croupier_serve_port_accepts_its_own_origin(tmp_path: Path) -> None:
    """The real ``croupier serve --port N`` (no CROUPIER_ALLOWED_ORIGINS): a page served
    from that port may open the WebSocket; another origin is refused."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CROUPIER_")}
    env["CROUPIER_DEFAULT_TABLES"] = "false"
    cli = Path(sys.executable).parent / "croupier"
    proc = subprocess.Popen(
        [str(cli), "serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'db.sqlite3'}"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:

        def up() -> bool:
            if proc.poll() is not None:
                raise AssertionError("croupier serve exited at start")
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1.0)
            except httpx.HTTPError:
                return False
            return True

        wait_until(up, 60, "croupier serve to answer HTTP")

        async def go() -> None:
            url = f"ws://127.0.0.1:{port}/ws"
            for origin in (f"http://127.0.0.1:{port}", f"http://localhost:{port}"):
                c = await Client.open(url, None, origin=origin)
                await c.close()
            with pytest.raises((InvalidStatus, AssertionError, Exception)) as info:
                ws = await connect(url, origin="http://evil.example")  # type: ignore[arg-type]
                await ws.send('{"type": "hello"}')
                await asyncio.wait_for(ws.recv(), 5)
            assert info.value is not None

        asyncio.run(go())
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
