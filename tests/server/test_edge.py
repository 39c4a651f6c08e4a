"""The edge under bad input and bad clients: codes or closes, the process stays up,
nothing changes (R-BET-8, R-FAIR-1)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.server.live import ORIGIN, Client, LiveServer, fast_settings, register_and_login, running

TABLE = "nlhe-1-2"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path: Path = tmp_path_factory.mktemp("edge") / "db.sqlite3"
    with running(fast_settings(f"sqlite:///{path}", message_burst=60)) as srv:
        yield srv


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


async def _closed_code(client: Client, timeout: float = 10.0) -> int:
    try:
        while True:
            await client.recv(timeout)
    except ConnectionClosed as exc:
        assert exc.rcvd is not None
        return exc.rcvd.code


def _me(srv: LiveServer, token: str) -> dict[str, Any]:
    r = httpx.get(srv.url + "/api/me", headers={"Authorization": f"Bearer {token}"})
    return dict(r.json())


def test_bad_messages_get_codes_and_change_nothing(server: LiveServer) -> None:
    """R-BET-8: malformed JSON, wrong types, unknown messages, wrong tables, stale versions,
    out-of-turn actions and bad amounts are each refused with a code; nothing moves."""
    token = register_and_login(server.url, "mallory")
    httpx.post(
        server.url + "/api/exchange",
        json={"diamonds": 400, "key": "mallory-0001"},
        headers={"Authorization": f"Bearer {token}", "Origin": ORIGIN},
    )

    async def go() -> None:
        c = await Client.open(server.ws_url, token)
        await c.send({"type": "subscribe", "table_id": TABLE})
        await c.expect("subscribed")
        ack = await c.command({"type": "sit", "table_id": TABLE, "buy_in": 100})
        assert ack["accepted"], ack
        # sat out, and out of any hand: the bots' hands go on, hers no longer move her stack
        assert (await c.command({"type": "sit_out", "table_id": TABLE}))["accepted"]
        before = _me(server, token)
        table = server.app.state.services.registry.get(TABLE).actor.table
        me = str(before["id"])

        mine = next(s.seat for s in table.seats.values() if s.player_id == me)

        def out_of_hands() -> bool:
            return table.hand is None or table.plan is None or mine not in table.plan.seats

        def my_turn() -> bool:
            hand, plan = table.hand, table.plan
            return (
                hand is not None
                and plan is not None
                and 0 <= hand.actor < len(plan.seats)
                and plan.seats[hand.actor] == mine
            )

        # Sitting out takes effect from the next hand: dealt into the one in play, she plays
        # it out herself (folds; checks where nothing is owed; mucks at showdown) rather
        # than leaving it to her clock on every street (a big blind's four clocks ran the
        # wait out in CI).
        moves = (
            {"type": "act", "action": "fold"},
            {"type": "act", "action": "check"},
            {"type": "show", "show": False},
            {"type": "show", "show": True},
        )
        for _ in range(40):
            if out_of_hands():
                break
            if my_turn():
                for move in moves:
                    if (await c.command({**move, "table_id": TABLE}))["accepted"]:
                        break
            else:
                await c.wait_reading(
                    lambda: out_of_hands() or my_turn(), 120, "mallory out of the hand in play"
                )
        assert out_of_hands(), "mallory is still in the hand in play"
        stack = next(s.stack for s in table.seats.values() if s.player_id == me)
        raw_cases = [
            ("{not json", "bad_json"),
            ("[1,2,3]", "bad_message"),
            ('{"type": 5}', "bad_message"),
            ('{"type": "teleport"}', "unknown_type"),
            (
                '{"type": "act", "id": "x1", "table_id": "nlhe-1-2", "action": "raise", "amount": -5}',
                "invalid",
            ),
            (
                '{"type": "act", "id": "x2", "table_id": "nlhe-1-2", "action": "raise", "amount": 2.5}',
                "invalid",
            ),
            (
                '{"type": "act", "id": "x3", "table_id": "nlhe-1-2", "action": "raise", "amount": 1e300}',
                "invalid",
            ),
            (
                '{"type": "act", "id": "x4", "table_id": "nlhe-1-2", "action": "raise", "amount": "10"}',
                "invalid",
            ),
            (
                '{"type": "act", "id": "x5", "table_id": "nlhe-1-2", "action": "raise", "amount": 99999999999999999999}',
                "invalid",
            ),
            (
                '{"type": "act", "id": "x6", "table_id": "nlhe-1-2", "action": "raise", "amount": null}',
                "invalid",
            ),
            ('{"type": "sit", "id": "x7", "table_id": "nlhe-1-2", "buy_in": true}', "invalid"),
            (
                '{"type": "act", "id": "x8", "table_id": "nlhe-1-2", "action": "raise", "extra": 1}',
                "invalid",
            ),
            ('{"type": "hello"}', "already_hello"),
        ]
        for raw, code in raw_cases:
            await c.ws.send(raw)
            frame = await c.expect("error")
            assert frame["code"] == code, (raw, frame)
        ack = await c.command({"type": "act", "table_id": "no-such-table", "action": "fold"})
        assert (ack["accepted"], ack["code"]) == (False, "unknown_table")
        ack = await c.command({"type": "act", "table_id": TABLE, "action": "check", "version": 0})
        assert (ack["accepted"], ack["code"]) == (False, "stale_version")
        ack = await c.command({"type": "sit", "table_id": TABLE, "buy_in": 100})
        assert (ack["accepted"], ack["code"]) == (False, "already_seated")
        ack = await c.command({"type": "sit", "table_id": "plo-1-2", "buy_in": 10**9})
        assert not ack["accepted"] and ack["code"]
        # Out of turn: nobody waits for a mallory action unless it is her turn right now.
        if (
            table.hand is None
            or table.plan is None
            or table.plan.seats[table.hand.actor]
            != next(s.seat for s in table.seats.values() if s.player_id == str(before["id"]))
        ):
            ack = await c.command(
                {"type": "act", "table_id": TABLE, "action": "raise", "amount": 10**9}
            )
            assert not ack["accepted"] and ack["code"], ack
        assert _me(server, token)["chips"] == before["chips"]
        seat = next(s for s in table.seats.values() if s.player_id == str(before["id"]))
        assert seat.stack == stack
        await c.close()

    _run(go())
    assert httpx.get(server.url + "/health").json()["status"] == "ok"


def test_oversized_frame_closes_with_1009(server: LiveServer) -> None:
    """A frame over 64 KB closes the connection (1009); the server stays up."""

    async def go() -> int:
        c = await Client.open(server.ws_url, None)
        await c.ws.send(json.dumps({"type": "ping", "id": "x" * (70 * 1024)}))
        return await _closed_code(c)

    assert _run(go()) == 1009
    assert httpx.get(server.url + "/health").status_code == 200


def test_flood_is_rate_limited_then_closed(server: LiveServer) -> None:
    """A flood gets ``rate_limited`` errors, then a close (4008)."""

    async def go() -> tuple[set[str], int]:
        c = await Client.open(server.ws_url, None)
        for i in range(400):
            try:
                await c.ws.send(json.dumps({"type": "ping", "id": f"p{i}"}))
            except ConnectionClosed:
                break
        code = await _closed_code(c)
        return {f.get("code", f["type"]) for f in c.frames}, code

    seen, code = _run(go())
    assert "rate_limited" in seen and code == 4008


def test_origin_token_logout_and_takeover(server: LiveServer) -> None:
    """R-FAIR-1 (auth): a wrong Origin is refused; a bad token closes 4001; a guest cannot
    sit; a second connection of an account takes over (4003); logout closes 4002."""
    token = register_and_login(server.url, "trent")

    async def go() -> None:
        with pytest.raises(InvalidStatus):
            await Client.open(server.ws_url, token, origin="http://evil.example")
        from websockets.asyncio.client import connect

        ws = await connect(server.ws_url, origin=ORIGIN)  # type: ignore[arg-type]
        await ws.send(json.dumps({"type": "hello", "token": "not-a-token"}))
        probe = Client(ws)
        first = await probe.recv()
        assert first["type"] == "error" and first["code"] == "invalid_session"
        assert await _closed_code(probe) == 4001
        guest = await Client.open(server.ws_url, None)
        ack = await guest.command({"type": "sit", "table_id": TABLE, "buy_in": 100})
        assert (ack["accepted"], ack["code"]) == (False, "login_required")
        await guest.send({"type": "subscribe", "table_id": "arcade-1-2"})
        assert (await guest.expect("error"))["code"] == "spectators_not_allowed"
        await guest.close()
        one = await Client.open(server.ws_url, token)
        two = await Client.open(server.ws_url, token)
        assert await _closed_code(one) == 4003
        r = httpx.post(
            server.url + "/api/logout",
            headers={"Authorization": f"Bearer {token}", "Origin": ORIGIN},
        )
        assert r.json()["sockets_closed"] == 1
        assert await _closed_code(two) == 4002
        me = httpx.get(server.url + "/api/me", headers={"Authorization": f"Bearer {token}"})
        assert me.status_code == 401 and me.json()["error"]["code"] == "invalid_session"

    _run(go())


def test_login_throttle_and_http_bad_input(server: LiveServer) -> None:
    """Throttles fire on repeated failed logins; bad HTTP bodies get 422 with a code."""
    register_and_login(server.url, "victor")
    with httpx.Client(base_url=server.url, headers={"Origin": ORIGIN}) as h:
        codes = [
            h.post("/api/login", json={"name": "victor", "password": "wrong password!"}).json()[
                "error"
            ]["code"]
            for _ in range(7)
        ]
        assert codes[0] == "invalid_credentials" and codes[-1] == "throttled"
        assert h.post("/api/login", content=b"{").json()["error"]["code"] == "invalid"
        r = h.post("/api/register", json={"name": "x", "password": 5})
        assert r.status_code == 422
        evil = h.post(
            "/api/register",
            json={"name": "eve", "password": "long enough pw"},
            headers={"Origin": "http://evil.example"},
        )
        assert evil.status_code == 403
    doc = httpx.get(server.url + "/openapi.json").json()
    assert "/api/exchange" in doc["paths"] and doc["openapi"].startswith("3.")


def test_chat_rules(server: LiveServer) -> None:
    """SPEC §12: free chat with length and rate limits; the arcade profile allows only
    canned messages and emotes (R-SEAT-2)."""
    token = register_and_login(server.url, "chatty")

    async def go() -> None:
        c = await Client.open(server.ws_url, token)
        await c.send({"type": "subscribe", "table_id": TABLE})
        await c.expect("subscribed")
        ack = await c.command({"type": "chat", "table_id": TABLE, "text": "hello   all"})
        assert ack["accepted"]
        said = await c.expect("chat")
        assert said["text"] == "hello all" and said["from"] == "chatty"
        ack = await c.command({"type": "chat", "table_id": TABLE, "text": "x" * 500})
        assert ack["code"] == "bad_length"
        ack = await c.command({"type": "chat", "table_id": TABLE, "emote": "dance"})
        assert ack["code"] == "unknown_emote"
        codes = [
            (await c.command({"type": "chat", "table_id": TABLE, "canned": "gl"}))["code"]
            for _ in range(6)
        ]
        assert "rate_limited" in codes
        ack = await c.command({"type": "chat", "table_id": "arcade-1-2", "text": "hi"})
        assert ack["code"] == "not_subscribed"
        await c.close()

    _run(go())
    live = server.app.state.services.registry.get("arcade-1-2")
    assert not live.actor.table.config.rules.free_chat
