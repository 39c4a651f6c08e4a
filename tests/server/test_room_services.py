"""The room-wide services of a room on several processes (issue #16, server/cluster.py):
tournaments and the casino run on the room's first process only, and a player on any
other one sees them in the lobby (R-LOBBY-1, R-TOUR-1) with the address they run at, and
is sent there to register or to play (``tournament_elsewhere``, ``table_elsewhere``),
with no chip moved by the refusal. Each process names the others to its pages."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from croupier.server.cluster import ROOM_LEASE
from croupier.store import open_store
from tests.server.chaos import ServerProcess, register
from tests.server.live import ORIGIN, Client
from tests.server.room import room
from tests.waiting import wait_until

pytestmark = [pytest.mark.slow, pytest.mark.rules("R-LOBBY-1", "R-TOUR-1")]

NODES = ("a", "b")


def _room(url: str, tmp_path: Path) -> dict[str, ServerProcess]:
    settings = {"CROUPIER_DEFAULT_TABLES": "1", "CROUPIER_CASINO_TABLES": "1"}
    return room(url, tmp_path, NODES, bot_tables=0, env=settings)


def _tournaments(server: ServerProcess) -> dict[str, dict[str, Any]]:
    rows = httpx.get(f"{server.base}/api/tournaments", timeout=5).json()
    return {r["id"]: r for r in rows}


def test_tournaments_and_casino_are_seen_from_every_process_and_played_at_the_room_node(
    sqlite_url: str, tmp_path: Path
) -> None:
    nodes = _room(sqlite_url, tmp_path)
    a, b = nodes["a"], nodes["b"]
    a.start()
    b.start()
    try:
        at_a = _tournaments(a)
        assert at_a and all("node_url" not in r for r in at_a.values())
        wait_until(lambda: set(_tournaments(b)) == set(at_a), 15, "b lists a's tournaments")
        assert {r["node_url"] for r in _tournaments(b).values()} == {a.base}
        with open_store(sqlite_url) as store:  # the room node holds the services' lease
            lease = store.leases.get(ROOM_LEASE)
            assert lease is not None and lease.owner.startswith("a/")
        player = register(a.base, "roomsvc")
        auth = {"Authorization": f"Bearer {player.token}", "Origin": ORIGIN}
        tid = next(iter(at_a))
        before = httpx.get(f"{a.base}/api/me", headers=auth).json()["chips"]
        # registering at b: refused with a's address, nothing moved
        r = httpx.post(f"{b.base}/api/tournaments/{tid}/register", headers=auth)
        assert r.status_code == 409, r.text
        assert r.json()["error"]["code"] == "tournament_elsewhere"
        assert r.json()["error"]["url"] == a.base
        assert httpx.get(f"{a.base}/api/me", headers=auth).json()["chips"] == before
        # at a it is taken, and b's lobby shows the registration at the next renewal
        r = httpx.post(f"{a.base}/api/tournaments/{tid}/register", headers=auth)
        assert r.status_code == 200, r.text
        wait_until(
            lambda: player.pid in (_tournaments(b)[tid].get("registered") or []),
            15,
            "b's lobby shows the registration",
        )

        # each process names the other to its pages: where a page goes on if its own
        # process dies (the welcome's peers), which their CSP lets them ask
        for here, other in ((a, b), (b, a)):
            csp = httpx.get(f"{here.base}/", timeout=5).headers["content-security-policy"]
            assert f"connect-src 'self' {other.base};" in csp, csp

        async def casino() -> None:
            client = await Client.open(b.ws_url, player.token)
            welcome = next(f for f in client.frames if f["type"] == "welcome")
            assert welcome["peers"] == [a.base], welcome
            await client.send({"type": "subscribe"})
            lobby = await client.expect("lobby")
            rows = lobby["casino"]
            assert rows and {r["node_url"] for r in rows} == {a.base}, rows
            assert {t["id"] for t in lobby["tournaments"]} == set(at_a)
            ack = await client.command({"type": "casino_sit", "table_id": rows[0]["table_id"]})
            assert (ack["accepted"], ack["code"], ack["data"]) == (
                False,
                "table_elsewhere",
                {"url": a.base},
            )
            await client.close()

        asyncio.run(casino())
    finally:
        for n in NODES:
            nodes[n].kill()
