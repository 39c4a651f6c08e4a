"""Several messages per frame (``hello`` with ``lines``): what a socket has queued when it is
written goes in one frame, one message per line, in order; without ``lines`` every frame is
one message (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import itertools
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from tests.server.live import ORIGIN, LiveServer, fast_settings, register_and_login, running

TABLE = "nlhe-1-2"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path: Path = tmp_path_factory.mktemp("lines") / "db.sqlite3"
    with running(fast_settings(f"sqlite:///{path}")) as srv:
        yield srv


def _metric(srv: LiveServer, name: str) -> int:
    text = httpx.get(srv.url + "/metrics").text
    return int(next(line.split()[1] for line in text.splitlines() if line.split()[0] == name))


async def _watch(srv: LiveServer, hello: dict[str, Any], seconds: float) -> list[str]:
    """The raw frames a guest watching the bots' table receives in ``seconds``."""
    frames: list[str] = []
    async with connect(srv.ws_url, origin=ORIGIN) as ws:  # type: ignore[arg-type]
        await ws.send(json.dumps(hello))
        await ws.send(json.dumps({"type": "subscribe", "table_id": TABLE}))
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        while (left := end - loop.time()) > 0:
            try:
                raw = await asyncio.wait_for(ws.recv(), left)
            except TimeoutError:
                break
            assert isinstance(raw, str)
            frames.append(raw)
    return frames


def _versions(messages: list[dict[str, Any]]) -> list[int]:
    return [int(m["version"]) for m in messages if m["type"] == "event"]


def test_lines_carry_what_one_message_per_frame_carries_in_fewer_frames(
    server: LiveServer,
) -> None:
    """R-FAIR-1: two guests watch the bots' table at once, one with ``lines`` and one
    without. The first gets frames of several messages, each line one JSON message; the
    second one message per frame; both get the same events in the same order (a guest is
    not sent the notices meant for one player, so versions may skip, never repeat or go
    back); the server counts fewer frames than messages."""
    frames0 = _metric(server, "croupier_frames_out_total")
    messages0 = _metric(server, "croupier_messages_out_total")

    async def both() -> list[list[str]]:
        return list(
            await asyncio.gather(
                _watch(server, {"type": "hello", "lines": True}, 4.0),
                _watch(server, {"type": "hello"}, 4.0),
            )
        )

    lined, single = asyncio.run(both())
    got = [json.loads(line) for raw in lined for line in raw.split("\n")]
    plain = [json.loads(raw) for raw in single]
    assert got[0]["type"] == "welcome" and got[0]["lines"] is True
    assert plain[0]["type"] == "welcome" and plain[0]["lines"] is False
    assert any("\n" in raw for raw in lined), "no frame held more than one message"
    assert all("\n" not in raw for raw in single)
    a, b = _versions(got), _versions(plain)
    assert len(a) > 20 and len(b) > 20, "the bots played too little to judge"
    for versions in (a, b):
        assert all(x < y for x, y in itertools.pairwise(versions))
    common = set(range(max(a[0], b[0]), min(a[-1], b[-1]) + 1))
    assert len(common) > 20
    assert [v for v in a if v in common] == [v for v in b if v in common]
    sent_frames = _metric(server, "croupier_frames_out_total") - frames0
    sent_messages = _metric(server, "croupier_messages_out_total") - messages0
    assert sent_frames < sent_messages


def test_a_bad_lines_value_is_refused_and_hello_can_follow(server: LiveServer) -> None:
    """A ``lines`` that is not a boolean is refused with ``invalid`` (strict: "yes" and 1
    are not true); the connection waits for a proper hello."""

    async def go() -> list[dict[str, Any]]:
        async with connect(server.ws_url, origin=ORIGIN) as ws:  # type: ignore[arg-type]
            got = []
            for bad in ("yes", 1, None):
                await ws.send(json.dumps({"type": "hello", "lines": bad}))
                got.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
            await ws.send(json.dumps({"type": "hello", "lines": True}))
            got.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
            return got

    *refusals, welcome = asyncio.run(go())
    assert [r["code"] for r in refusals] == ["invalid"] * 3
    assert all(r["message"].startswith("lines:") for r in refusals)
    assert welcome["type"] == "welcome" and welcome["lines"] is True


def test_a_players_ack_rides_in_the_frame_of_the_events_it_made(server: LiveServer) -> None:
    """R-FAIR-1, issue #16: with ``lines``, a player's ack is written in the same frame as
    the events its action made (the ``acted`` broadcast first, then the ack): one frame
    per action for the player who acts, not two. An action that ends its hand is
    broadcast at once, and its ack rides with the settlement's events, which wait for
    their record to be durable."""
    token = register_and_login(server.url, "liner")
    with httpx.Client(
        base_url=server.url, headers={"Origin": ORIGIN, "Authorization": f"Bearer {token}"}
    ) as http:
        r = http.post("/api/exchange", json={"diamonds": 200, "key": "ex-liner-1"})
        assert r.status_code == 200, r.text
        me = str(r.json()["id"])

    async def play() -> list[list[dict[str, Any]]]:
        frames: list[list[dict[str, Any]]] = []
        acks = 0
        async with connect(server.ws_url, origin=ORIGIN) as ws:  # type: ignore[arg-type]
            await ws.send(json.dumps({"type": "hello", "token": token, "lines": True}))
            await ws.send(json.dumps({"type": "subscribe", "table_id": TABLE}))
            sit = {"type": "sit", "table_id": TABLE, "buy_in": 120, "id": "sit"}
            await ws.send(json.dumps(sit))
            loop = asyncio.get_running_loop()
            end = loop.time() + 60
            n = 0
            while acks < 6 and loop.time() < end:
                raw = await asyncio.wait_for(ws.recv(), end - loop.time())
                assert isinstance(raw, str)
                frame = [json.loads(line) for line in raw.split("\n")]
                frames.append(frame)
                for m in frame:
                    if m["type"] == "ack" and m["id"].startswith("a"):
                        acks += 1
                    ev = m.get("event") or {}
                    mine = ev.get("type") == "turn" and ev.get("player_id") == me
                    if m["type"] == "event" and mine and ev.get("view"):
                        n += 1
                        act = {"type": "act", "table_id": TABLE, "id": f"a{n}"}
                        legal = ev["view"]["legal"]
                        action = "check" if legal["can_check"] else "fold"
                        await ws.send(json.dumps({**act, "action": action}))
        return frames

    frames = asyncio.run(play())
    acked = [(f, m) for f in frames for m in f if m["type"] == "ack" and m["id"].startswith("a")]
    accepted = [(f, m) for f, m in acked if m["accepted"]]
    assert len(accepted) >= 3, acked
    endings = 0
    for frame, ack in accepted:
        kinds = [m["event"]["type"] if m["type"] == "event" else m["type"] for m in frame]
        at = frame.index(ack)
        made = [i for i, m in enumerate(frame) if m["type"] == "event"]
        assert made and made[-1] < at and frame[made[-1]]["version"] == ack["version"], kinds
        if "acted" not in kinds[:at]:
            # it ended the hand: its ``acted`` went out at once, and the ack waited with
            # the settlement's events for their record (R-CRASH-1)
            assert "hand_settled" in kinds[:at], kinds
            endings += 1
    assert endings < len(accepted), "every action ended its hand"
