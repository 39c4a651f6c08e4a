"""The room-wide services of a room on several processes (issue #16, server/cluster.py):
tournaments and the casino run on the process holding their lease (the first one, until
it dies: then another takes them over), and a player on any other one sees them in the
lobby (R-LOBBY-1, R-TOUR-1) with the address they run at, and is sent there to register
or to play (``tournament_elsewhere``, ``table_elsewhere``), with no chip moved by the
refusal. Each process names the others to its pages."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from croupier.server.cluster import ROOM_LEASE
from croupier.store import open_store
from tests.server.chaos import ChaosPlayer, ServerProcess, register
from tests.server.live import ORIGIN, Client
from tests.server.room import metric, room
from tests.waiting import wait_until

pytestmark = [pytest.mark.slow, pytest.mark.rules("R-LOBBY-1", "R-TOUR-1")]

NODES = ("a", "b")


@contextlib.contextmanager
def _running(url: str, tmp_path: Path) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """The room's two processes, a (which runs the services) started first; both killed
    at the end."""
    settings = {"CROUPIER_DEFAULT_TABLES": "1", "CROUPIER_CASINO_TABLES": "1"}
    nodes = room(url, tmp_path, NODES, bot_tables=0, env=settings)
    try:
        nodes["a"].start()
        nodes["b"].start()
        yield nodes["a"], nodes["b"]
    finally:
        for node in nodes.values():
            node.kill()


def _tournaments(server: ServerProcess) -> dict[str, dict[str, Any]]:
    rows = httpx.get(f"{server.base}/api/tournaments", timeout=5).json()
    return {r["id"]: r for r in rows}


@dataclass(frozen=True)
class Registered:
    """A player of a room of two (a runs the services) registered to a's Sit & Go."""

    player: ChaosPlayer
    auth: dict[str, str]
    tid: str
    before: int
    """The player's chips before the buy-in."""


def _registered(a: ServerProcess, name: str) -> Registered:
    player = register(a.base, name)
    auth = {"Authorization": f"Bearer {player.token}", "Origin": ORIGIN}
    tid = next(t for t, r in _tournaments(a).items() if r["kind"] == "sitngo")
    before = int(httpx.get(f"{a.base}/api/me", headers=auth).json()["chips"])
    r = httpx.post(f"{a.base}/api/tournaments/{tid}/register", headers=auth)
    assert r.status_code == 200, r.text
    return Registered(player, auth, tid, before)


def _stop_and_audit(url: str, *servers: ServerProcess) -> None:
    """Stop ``servers`` (SIGTERM) and audit the room at rest: the room services' lease is
    held by whoever holds it now, every chip accounted for."""
    for server in servers:
        server.proc.send_signal(signal.SIGTERM)  # type: ignore[union-attr]
        server.proc.wait(60)  # type: ignore[union-attr]
    with open_store(url) as store:
        report = store.audit()
        assert report.ok, report


def test_tournaments_and_casino_are_seen_from_every_process_and_played_at_the_room_node(
    sqlite_url: str, tmp_path: Path
) -> None:
    with _running(sqlite_url, tmp_path) as (a, b):
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


@pytest.mark.rules("R-CRASH-1")
def test_the_room_services_move_to_another_process_when_theirs_dies(
    database_url: str, tmp_path: Path
) -> None:
    """SIGKILL the process running tournaments and the casino: the other takes their lease
    over (epoch + 1) and runs them within 5 s, restored from the database (R-CRASH-1): a
    registration made before the kill stands and can be taken back there, every chip home;
    the casino plays there. The killed process, started again, leaves them where they are
    and sends players there. The audit balances."""
    with _running(database_url, tmp_path) as (a, b):
        at_a = _tournaments(a)
        wait_until(lambda: set(_tournaments(b)) == set(at_a), 15, "b lists a's tournaments")
        reg = _registered(a, "roomsvc2")
        player, auth, tid, before = reg.player, reg.auth, reg.tid, reg.before
        with open_store(database_url) as store:
            lease = store.leases.get(ROOM_LEASE)
            assert lease is not None and lease.owner.startswith("a/")
            epoch = lease.epoch

        killed = time.monotonic()
        a.kill()

        def served_at_b() -> bool:
            rows = _tournaments(b)
            return tid in rows and "node_url" not in rows[tid]

        wait_until(served_at_b, 30, "b runs the tournaments", interval=0.05)
        took = time.monotonic() - killed
        print(f"\nroom services: run by b {took:.2f} s after a's SIGKILL")
        assert took <= 5.0, took
        with open_store(database_url) as store:
            lease = store.leases.get(ROOM_LEASE)
            assert lease is not None and lease.owner.startswith("b/")
            assert lease.epoch == epoch + 1
        wait_until(lambda: metric(b, "croupier_room_services_here") == 1, 10, "b runs them")
        assert metric(b, "croupier_room_services_taken_over_total") == 1
        # the registration stands (its buy-in in the pool), and is taken back at b
        assert player.pid in _tournaments(b)[tid]["registered"]
        assert httpx.get(f"{b.base}/api/me", headers=auth).json()["chips"] == before - 100
        r = httpx.post(f"{b.base}/api/tournaments/{tid}/unregister", headers=auth)
        assert r.status_code == 200, r.text
        assert httpx.get(f"{b.base}/api/me", headers=auth).json()["chips"] == before

        async def casino_at_b() -> None:
            client = await Client.open(b.ws_url, player.token)
            await client.send({"type": "subscribe"})
            lobby = await client.expect("lobby")
            rows = lobby["casino"]
            assert rows and all("node_url" not in r for r in rows), rows
            ack = await client.command({"type": "casino_sit", "table_id": rows[0]["table_id"]})
            assert ack["accepted"], ack
            await client.close()

        asyncio.run(casino_at_b())

        # a comes back: the services stay at b, and a sends players there
        a.start()
        wait_until(
            lambda: {r.get("node_url") for r in _tournaments(a).values()} == {b.base},
            15,
            "a lists b's tournaments",
        )
        r = httpx.post(f"{a.base}/api/tournaments/{tid}/register", headers=auth)
        assert r.status_code == 409, r.text
        assert (r.json()["error"]["code"], r.json()["error"]["url"]) == (
            "tournament_elsewhere",
            b.base,
        )
        assert httpx.get(f"{a.base}/api/me", headers=auth).json()["chips"] == before
        with open_store(database_url) as store:
            lease = store.leases.get(ROOM_LEASE)
            assert lease is not None and lease.owner.startswith("b/")
        _stop_and_audit(database_url, a, b)


@pytest.mark.rules("R-CRASH-1")
def test_a_frozen_room_process_finds_the_services_moved_and_stops_running_them(
    database_url: str, tmp_path: Path
) -> None:
    """SIGSTOP the process running tournaments and the casino past their lease: the other
    takes them over; at SIGCONT the frozen one finds the lease lost (its writes for them
    refused from then on), stops running them and sends players to the new holder. A
    registration made before the freeze is refunded once, at the new holder.

    PostgreSQL only, as the frozen tables' test (test_failover.py): a process frozen while
    it holds SQLite's one write lock stops every write of the room until it wakes."""
    if database_url.startswith("sqlite"):
        pytest.skip("SQLite: a frozen writer holds the database's only write lock")
    with _running(database_url, tmp_path) as (a, b):
        reg = _registered(a, "roomsvc3")
        auth, tid = reg.auth, reg.tid
        assert a.proc is not None
        os.kill(a.proc.pid, signal.SIGSTOP)
        try:
            wait_until(
                lambda: tid in (rows := _tournaments(b)) and "node_url" not in rows[tid],
                30,
                "b runs the tournaments",
                interval=0.05,
            )
        finally:
            os.kill(a.proc.pid, signal.SIGCONT)
        wait_until(
            lambda: {r.get("node_url") for r in _tournaments(a).values()} == {b.base},
            30,
            "a sends players to b",
        )
        assert "room services lost to another process" in a.log.read_text()
        assert metric(a, "croupier_room_services_lost_total") == 1
        assert metric(a, "croupier_room_services_here") == 0
        assert metric(b, "croupier_room_services_here") == 1
        r = httpx.post(f"{a.base}/api/tournaments/{tid}/unregister", headers=auth)
        assert (r.status_code, r.json()["error"]["url"]) == (409, b.base), r.text
        r = httpx.post(f"{b.base}/api/tournaments/{tid}/unregister", headers=auth)
        assert r.status_code == 200, r.text
        assert httpx.get(f"{b.base}/api/me", headers=auth).json()["chips"] == reg.before
        _stop_and_audit(database_url, a, b)
        with open_store(database_url) as store:
            lease = store.leases.get(ROOM_LEASE)
            assert lease is not None and lease.owner.startswith("b/")


@pytest.mark.rules("R-CRASH-1", "R-TOUR-2")
def test_a_running_spin_goes_on_at_the_process_that_takes_the_services_over(
    sqlite_url: str, tmp_path: Path
) -> None:
    """A player plays a Spin (filled with bots) at the room services' process, which is
    killed: from the other process the player's client is sent to the dead one while its
    lease runs (``table_elsewhere``), then told the table restarts while the services
    move (``table_restarting``), never that it does not exist, then finds the Spin's table
    there, restored from its journal with the player seated (R-CRASH-1: the cut hand void,
    the tournament resumed), and b lists the Spin as its own. The casino table the same
    way: elsewhere, then restarting, then served at b."""
    with _running(sqlite_url, tmp_path) as (a, b):
        player = register(a.base, "spinner")
        gambler = register(a.base, "gambler")
        auth = {"Authorization": f"Bearer {player.token}", "Origin": ORIGIN}
        tid = next(t for t, r in _tournaments(a).items() if t.startswith("spin-10"))
        for action in ("register", "fill"):
            r = httpx.post(f"{a.base}/api/tournaments/{tid}/{action}", headers=auth)
            assert r.status_code == 200, r.text
        wait_until(lambda: _tournaments(a)[tid].get("tables"), 30, "the Spin's table open")
        table = _tournaments(a)[tid]["tables"][0]
        wait_until(lambda: _tournaments(b).get(tid, {}).get("tables") == [table], 15, "b lists it")

        async def subscribe(client: Client) -> dict[str, Any]:
            await client.send({"type": "subscribe", "table_id": table})
            return await client.expect("table_info", "error")

        async def casino(client: Client, table_id: str) -> list[str]:
            """Ask for the casino table until it is served: what b said meanwhile."""
            said: list[str] = []
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                ack = await client.command({"type": "casino_subscribe", "table_id": table_id})
                if ack["accepted"]:  # its state follows the subscription (or came first)
                    if not any(
                        f.get("type") == "casino_state" and f.get("table_id") == table_id
                        for f in client.frames
                    ):
                        await client.expect("casino_state", table_id=table_id)
                    return said
                said.append(str(ack["code"]))
                await asyncio.sleep(0.2)
            raise AssertionError(f"the casino table never came back at b: {said}")

        async def follow() -> tuple[list[str], list[str]]:
            client = await Client.open(b.ws_url, player.token)
            first = await subscribe(client)  # a runs it: the player is sent there
            assert (first["type"], first.get("code"), first.get("url")) == (
                "error",
                "table_elsewhere",
                a.base,
            ), first
            # the casino too: another player (an account has one connection)
            other = await Client.open(b.ws_url, gambler.token)
            await other.send({"type": "subscribe"})
            lobby = await other.expect("lobby")
            (row,) = lobby["casino"]
            assert row["node_url"] == a.base, row
            ack = await other.command({"type": "casino_subscribe", "table_id": row["table_id"]})
            assert (ack["accepted"], ack["code"], ack["data"]) == (
                False,
                "table_elsewhere",
                {"url": a.base},
            ), ack
            a.kill()
            casino_said = asyncio.ensure_future(casino(other, row["table_id"]))
            seen: list[str] = []
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                got = await subscribe(client)
                if got["type"] == "table_info":
                    snap = await client.expect("snapshot", table_id=table)
                    seated = {s["player_id"] for s in snap["snapshot"]["seats"] if s}
                    assert player.pid in seated, snap
                    await client.close()
                    said = await casino_said
                    await other.close()
                    return seen, said
                seen.append(str(got["code"]))
                await asyncio.sleep(0.2)
            casino_said.cancel()
            raise AssertionError(f"the Spin's table never came back at b: {seen}")

        seen, casino_said = asyncio.run(follow())
        print(f"\nthe Spin's table at b after {seen}; the casino table after {casino_said}")
        assert set(seen) <= {"table_elsewhere", "table_restarting"}, seen
        # the casino is never said not to exist while it moves either
        assert set(casino_said) <= {"table_elsewhere", "table_restarting"}, casino_said
        row = _tournaments(b)[tid]
        assert row["status"] == "running" and "node_url" not in row, row
        assert row["tables"] == [table]
