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
from tests.waiting import WaitTimeout, wait_until

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
    env: dict[str, str] = field(default_factory=dict)
    """More ``CROUPIER_*`` settings (a room node's name, ``CROUPIER_PORT`` chosen ahead)."""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self, timeout: float = 300.0) -> float:
        """Start and wait for ``/health`` (startup, recovery included): the seconds taken."""
        self.port = int(self.env.get("CROUPIER_PORT", 0)) or free_port()
        began = time.monotonic()
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [CROUPIER, "serve"],
                env={**server_env(self.url, self.port, self.bot_tables), **self.env},
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        proc = self.proc

        def healthy() -> bool:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited at start: {self.log.read_text()[-3000:]}")
            try:
                return httpx.get(f"{self.base}/health", timeout=1).status_code == 200
            except httpx.HTTPError:
                return False

        try:
            wait_until(healthy, timeout, "the chaos server's /health", interval=0.05)
        except WaitTimeout:
            proc.kill()
            raise
        return time.monotonic() - began

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


async def _play(
    boot: ChaosBoot, client: Client, player: ChaosPlayer, table_id: str, hands: str
) -> None:
    """Answer the player's turns until the connection drops (``hands`` counts the hands
    settled at the table)."""
    while True:
        frame = await client.recv(timeout=3600)
        if frame.get("type") == "snapshot" and frame.get("table_id") == table_id:
            # subscribed mid-hand (a Spin's table opens before we can watch it): the turn
            # may already be ours
            snap = frame["snapshot"]
            seat = next((s for s in snap["seats"] if s["seat"] == snap.get("actor_seat")), None)
            hand = snap.get("hand")
            if seat is not None and seat["player_id"] == player.pid and hand:
                turn = {"view": hand, "phase": hand.get("phase")}
                await client.send(
                    {**_decide(boot.rng, turn), "id": client.next_id(), "table_id": table_id}
                )
            continue
        if frame.get("type") != "event":
            continue
        ev = frame["event"]
        if ev.get("type") == "hand_settled":
            boot.count(hands)
        if ev.get("type") == "turn" and ev.get("view") and ev.get("player_id") == player.pid:
            boot.count(f"{hands}_turns")
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
                asyncio.create_task(_play(boot, hc, host, table_id, "private_hands")),
                asyncio.create_task(_play(boot, gc, guest, table_id, "private_hands")),
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


SNG_ROOT = "chaos-sng"
"""The Sit & Go the chaos run registers to (six seats, never filled: it stays registering)."""
SPIN_ROOT = "chaos-spin"
"""The recurring Spin the chaos run registers to, fills with bots and plays."""


def seed_tournaments(url: str, *, between_hands: float, bot_delay: float) -> None:
    """Publish (journal) the chaos run's Sit & Go and recurring Spin before the first start:
    the server restores them like any journaled event (R-CRASH-1)."""
    from croupier.store import open_store
    from croupier.table.clock import FakeClock
    from croupier.tournament import LedgerCashier, TournamentRegistry, sit_and_go, spin
    from croupier.tournament.persist import tournament_store

    pace = {"between_hands": between_hands, "bot_delay": bot_delay}
    with open_store(url) as store:
        reg = TournamentRegistry(
            LedgerCashier(store.ledger), clock=FakeClock(), store=tournament_store(store)
        )
        reg.add(sit_and_go(SNG_ROOT, "Chaos Sit & Go", seats=6, buy_in=50, **pace), recurring=True)
        reg.add(spin(SPIN_ROOT, "Chaos Spin", buy_in=10, **pace), recurring=True)


def _http(boot: ChaosBoot, player: ChaosPlayer) -> httpx.AsyncClient:
    auth = {"Authorization": f"Bearer {player.token}", "Origin": ORIGIN}
    return httpx.AsyncClient(base_url=boot.server.base, headers=auth, timeout=10)


async def _rows(http: httpx.AsyncClient, root: str) -> list[dict[str, Any]]:
    r = await http.get("/api/tournaments")
    r.raise_for_status()
    return [t for t in r.json() if str(t["id"]).split(".")[0] == root]


async def _enter(http: httpx.AsyncClient, tid: str, action: str) -> dict[str, Any]:
    """``POST /api/tournaments/{tid}/{action}``: the row, or the coded refusal."""
    r = await http.post(f"/api/tournaments/{tid}/{action}")
    body: dict[str, Any] = r.json()
    assert r.status_code in (200, 409), (tid, action, r.status_code, body)
    return body


async def sit_and_go_registering(boot: ChaosBoot) -> None:
    """Two players register to the Sit & Go over HTTP (their buy-ins go to its pool) and
    stay registered, never filling it: after every restart their registrations stand and
    the pool still holds both buy-ins (the audit's ``tournaments`` check)."""
    ready = boot.readiness("sit_and_go")
    try:
        for player in boot.players[4:6]:
            async with _http(boot, player) as http:
                (row,) = [t for t in await _rows(http, SNG_ROOT) if t["status"] == "registering"]
                if player.pid in row["registered"]:
                    boot.count("sng_kept")  # the registration of an earlier life stands
                else:
                    body = await _enter(http, row["id"], "register")
                    assert player.pid in body.get("registered", ()), body
                    boot.count("sng_registered")
        async with _http(boot, boot.players[4]) as http:
            (row,) = [t for t in await _rows(http, SNG_ROOT) if t["status"] == "registering"]
            assert {p.pid for p in boot.players[4:6]} <= set(row["registered"]), row
        ready.set()
    except Exception:  # the server was killed under us
        return
    finally:
        ready.set()


async def _spin_table(boot: ChaosBoot, http: httpx.AsyncClient, pid: str) -> str | None:
    """The table of a running Spin the player is still in; else register to the registering
    one and fill it with bots (``…/fill``), then wait for its table. ``None``: not yet."""
    rows = await _rows(http, SPIN_ROOT)
    for row in rows:
        if row["status"] != "running" or pid not in row["registered"]:
            continue
        placed = {s["player_id"] for s in row.get("standings", ()) if s.get("place")}
        if pid not in placed and row.get("tables"):
            return str(row["tables"][0])
    (row,) = [t for t in rows if t["status"] == "registering"]
    if pid not in row["registered"]:
        body = await _enter(http, row["id"], "register")
        if pid not in body.get("registered", ()):
            return None
        boot.count("spin_registered")
    await _enter(http, row["id"], "fill")
    boot.count("spin_filled")
    return None


async def spin_running(boot: ChaosBoot) -> None:
    """A player registers to the Spin over HTTP, fills it with bots, and plays its turns
    over the WebSocket at the Spin's table; when it busts or the Spin ends, the next Spin
    (recurring) is entered. A running Spin resumes after each restart from its journal."""
    player = boot.players[6]
    ready = boot.readiness("spin")
    client: Client | None = None
    try:
        async with _http(boot, player) as http:
            client = await Client.open(boot.server.ws_url, player.token)
            current: str | None = None
            deadline = time.monotonic() + 3600
            while time.monotonic() < deadline:
                table_id = await _spin_table(boot, http, player.pid)
                if table_id is None:
                    await asyncio.sleep(0.1)  # poll interval: look for the next Spin again
                    continue
                if table_id != current:
                    if current is not None:
                        await client.send({"type": "unsubscribe", "table_id": current})
                    await client.send({"type": "subscribe", "table_id": table_id})
                    current = table_id
                    boot.count("spin_played")
                ready.set()
                with contextlib.suppress(TimeoutError):  # then look whether it is still on
                    await asyncio.wait_for(_play(boot, client, player, table_id, "spin_hands"), 2.0)
    except Exception:  # the server was killed under us
        return
    finally:
        ready.set()
        if client is not None:
            with contextlib.suppress(Exception):
                await client.close()


WORKLOADS: list[Workload] = [private_tables, sit_and_go_registering, spin_running]
"""What runs during each life of the server: bot tables (the server's own), two private
tables, a Sit & Go registering, a Spin running."""
