"""The chaos run's parts: a real ``croupier serve`` process, and *workloads*: what players do
over WebSocket/HTTP while the server lives (until it is killed under them).

A workload is an async function of a :class:`ChaosBoot` (the running server, the room's
player accounts, a random source) that plays until its connection drops; it must swallow
the connection errors a SIGKILL causes. :data:`WORKLOADS` lists them; a new flow (a Sit & Go
registering, a Spin running: the ``tourney`` area) is one more entry there.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests.server.live import ORIGIN, Client, free_port

CROUPIER = str(Path(sys.executable).with_name("croupier"))


def server_env(url: str, port: int, bot_tables: int) -> dict[str, str]:
    """A fast testing server on loopback: ``bot_tables`` bot tables, no default tables."""
    return {
        **os.environ,
        "CROUPIER_DATABASE_URL": url,
        "CROUPIER_HOST": "127.0.0.1",
        "CROUPIER_PORT": str(port),
        "CROUPIER_DEFAULT_TABLES": "0",
        "CROUPIER_BOT_TABLES": str(bot_tables),
        "CROUPIER_TESTING": "1",
        "CROUPIER_BOT_DELAY_SECONDS": "0.005",
        "CROUPIER_BETWEEN_HANDS_SECONDS": "0.01",
        "CROUPIER_ALLOWED_ORIGINS": ORIGIN,
        "CROUPIER_REGISTRATION_BURST": "1000",
        "CROUPIER_MESSAGES_PER_SECOND": "200",
        "CROUPIER_MESSAGE_BURST": "400",
    }


@dataclass
class ServerProcess:
    """``croupier serve`` in a subprocess, on a free port."""

    url: str
    log: Path
    bot_tables: int = 20
    port: int = 0
    proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self, timeout: float = 300.0) -> float:
        """Start and wait for ``/health`` (startup, recovery included): the seconds taken."""
        self.port = free_port()
        began = time.monotonic()
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [CROUPIER, "serve"],
                env=server_env(self.url, self.port, self.bot_tables),
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = began + timeout
        while True:
            try:
                if httpx.get(f"{self.base}/health", timeout=1).status_code == 200:
                    return time.monotonic() - began
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.proc.kill()
                raise RuntimeError(f"server did not start: {self.log.read_text()[-3000:]}")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(30)


@dataclass
class ChaosPlayer:
    name: str
    token: str
    pid: str


@dataclass
class ChaosBoot:
    """One life of the server, as the workloads see it."""

    server: ServerProcess
    players: list[ChaosPlayer]
    rng: random.Random
    stats: dict[str, int] = field(default_factory=dict)
    ready: dict[str, threading.Event] = field(default_factory=dict)
    """Workloads say when they are in full swing (``ready[name].set()``): the kill waits
    for all of them, then comes at a random moment."""

    def readiness(self, name: str) -> threading.Event:
        return self.ready.setdefault(name, threading.Event())

    def count(self, what: str, n: int = 1) -> None:
        self.stats[what] = self.stats.get(what, 0) + n


Workload = Callable[[ChaosBoot], Awaitable[None]]


def register(base: str, name: str) -> ChaosPlayer:
    """A funded account (sign-up, login, diamonds exchanged for chips)."""
    password = "correct horse battery"
    with httpx.Client(base_url=base, headers={"Origin": ORIGIN}, timeout=10) as http:
        r = http.post("/api/register", json={"name": name, "password": password})
        assert r.status_code == 201, r.text
        token = str(
            http.post("/api/login", json={"name": name, "password": password}).json()["token"]
        )
        auth = {"Authorization": f"Bearer {token}"}
        r = http.post("/api/exchange", json={"diamonds": 800, "key": f"fund-{name}"}, headers=auth)
        assert r.status_code == 200, r.text
        pid = str(http.get("/api/me", headers=auth).json()["id"])
    return ChaosPlayer(name, token, pid)


def _decide(rng: random.Random, turn: dict[str, Any]) -> dict[str, Any]:
    legal = turn["view"]["legal"]
    if turn["phase"] == "drawing" or legal.get("can_draw"):
        return {"type": "draw", "discards": ""}
    if legal.get("show_or_muck"):
        return {"type": "show", "show": True}
    if legal.get("split_answer"):
        return {"type": "act", "action": "decline_split"}
    roll = rng.random()
    if roll < 0.15 and legal.get("can_raise") and legal.get("min_raise"):
        return {"type": "act", "action": "raise", "amount": legal["min_raise"]}
    if legal.get("can_check"):
        return {"type": "act", "action": "check"}
    if roll < 0.8 and legal.get("can_call"):
        return {"type": "act", "action": "call"}
    return {"type": "act", "action": "fold"}


async def _play(boot: ChaosBoot, client: Client, player: ChaosPlayer, table_id: str) -> None:
    """Answer the player's turns until the connection drops."""
    while True:
        frame = await client.recv(timeout=3600)
        if frame.get("type") != "event":
            continue
        ev = frame["event"]
        if ev.get("type") == "hand_settled":
            boot.count("private_hands")
        if ev.get("type") == "turn" and ev.get("view") and ev.get("player_id") == player.pid:
            msg = {**_decide(boot.rng, ev), "id": client.next_id(), "table_id": table_id}
            await client.send(msg)


async def private_tables(boot: ChaosBoot) -> None:
    """Two private tables, each with two players seated over WebSocket who play every turn
    (call, check, some raises, some folds), until the server dies."""
    clients: list[Client] = []
    ready = boot.readiness("private_tables")
    try:
        pairs = [boot.players[i : i + 2] for i in range(0, 4, 2)]
        tasks = []
        for host, guest in pairs:
            hc = await Client.open(boot.server.ws_url, host.token)
            gc = await Client.open(boot.server.ws_url, guest.token)
            clients += [hc, gc]
            ack = await hc.command(
                {"type": "create_private", "small_blind": 1, "big_blind": 2, "seats": 2}
            )
            assert ack["accepted"], ack
            table_id, code = ack["data"]["table_id"], ack["data"]["code"]
            for c in (hc, gc):
                await c.send({"type": "subscribe", "table_id": table_id, "code": code})
                buy_in = boot.rng.choice((100, 150, 200))
                sit = {"type": "sit", "table_id": table_id, "buy_in": buy_in, "code": code}
                ack = await c.command(sit)
                if ack["accepted"]:
                    boot.count("seated")
            tasks += [
                asyncio.create_task(_play(boot, hc, host, table_id)),
                asyncio.create_task(_play(boot, gc, guest, table_id)),
            ]
        ready.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    except Exception:  # the server was killed under us: that is the point
        return
    finally:
        ready.set()
        for c in clients:
            with contextlib.suppress(Exception):
                await c.close()


WORKLOADS: list[Workload] = [private_tables]
"""What runs during each life of the server. The ``tourney`` area adds a Sit & Go
registering and a Spin running here once the director is crash-safe."""
