"""A room served by two processes on one database (issue #16, server/cluster.py): the
tables are split between them under leases; a process killed with SIGKILL has its tables
taken over by the other within 5 s (R-CRASH-1: the hand in play voided, every stack home)
with the audit clean; a process frozen past its leases finds them lost when it wakes and
writes nothing more for those tables (fencing); a client reaches a table from either
process (watched through the room's Redis; a seat is taken where ``table_elsewhere``
says)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import signal
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest

from croupier.lobby import TableSummary
from croupier.server.cluster import Node, preferred
from croupier.server.settings import Settings
from croupier.server.wire import plain
from croupier.store import open_store
from croupier.store.schema import table_leases
from croupier.table.journal import HandVoidRecord
from tests.server.chaos import ServerProcess, register
from tests.server.live import Client
from tests.server.room import BUSY, health, holders, metric, room
from tests.server.test_crash import escrow_matches_journal
from tests.waiting import wait_until

pytestmark = [pytest.mark.slow, pytest.mark.rules("R-CRASH-1")]

NODES = ("a", "b")
BOT_TABLES = 6
TABLES = [f"bots-{i}" for i in range(1, BOT_TABLES + 1)]
LEASE = 2.0


def _pair(url: str, tmp_path: Path, redis_env: dict[str, str]) -> dict[str, ServerProcess]:
    # the room's Redis too, as deployed (server/bus.py)
    return room(url, tmp_path, NODES, bot_tables=BOT_TABLES, env={**redis_env, **BUSY}, lease=LEASE)


def _audit_clean(url: str) -> None:
    """The audit balances and every table's escrow is exactly its journal's seat map."""
    escrow_matches_journal(url, tables=TABLES)


async def _sit(server: ServerProcess, token: str, table_id: str) -> Client:
    client = await Client.open(server.ws_url, token)
    await client.send({"type": "subscribe", "table_id": table_id})
    info = await client.expect("table_info", table_id=table_id)
    ack = await client.command(
        {"type": "sit", "table_id": table_id, "buy_in": info["table"]["buy_in_min"]}
    )
    assert ack["accepted"], ack
    return client


def test_a_killed_process_s_tables_are_served_by_the_other_within_5_s(
    database_url: str, tmp_path: Path, redis_env: dict[str, str]
) -> None:
    share = {n: [t for t in TABLES if preferred(t, NODES) == n] for n in NODES}
    assert share["a"] and share["b"], share
    nodes = _pair(database_url, tmp_path, redis_env)
    nodes["a"].start()  # the room node first: it migrates the database
    nodes["b"].start()
    try:
        wait_until(
            lambda: holders(database_url) == {t: preferred(t, NODES) for t in TABLES},
            30,
            "each table leased by its node",
        )
        assert health(nodes["a"])["tables"] == len(share["a"])
        assert health(nodes["b"])["tables"] == len(share["b"])
        player = register(nodes["a"].base, "failover1")
        before = _chips(database_url, int(player.pid))
        table = share["b"][0]

        async def reach_and_sit() -> None:
            # asked of the wrong process: watched from there through Redis (server/bus.py),
            # a seat refused with the address of the right one
            wrong = await Client.open(nodes["a"].ws_url, player.token)
            await wrong.send({"type": "subscribe", "table_id": table})
            info = await wrong.expect("table_info", "error")
            assert info["type"] == "table_info", info
            assert info["table"]["node_url"] == nodes["b"].base
            ack = await wrong.command({"type": "sit", "table_id": table, "buy_in": 100})
            assert (ack["accepted"], ack["code"], ack["data"]) == (
                False,
                "table_elsewhere",
                {"url": nodes["b"].base},
            )
            await wrong.close()
            client = await _sit(nodes["b"], player.token, table)
            await client.close()

        asyncio.run(reach_and_sit())
        assert _chips(database_url, int(player.pid)) < before  # bought in at b
        for node in nodes.values():  # both alive: no table changed process, renewals seen
            assert metric(node, "croupier_lease_takeovers_total") == 0
            assert metric(node, "croupier_lease_tables_lost_total") == 0
            text = httpx.get(f"{node.base}/metrics", timeout=5).text
            assert "croupier_lease_renewal_gap_seconds_max " in text
        # killed while one of its hands is durably started (group commit: a hand dealt in
        # memory is journaled a moment later, and one not journaled has nothing to void)
        wait_until(
            lambda: _open_hands(database_url, share["b"]),
            30,
            "a hand of b's open in the journal",
            interval=0.1,
        )
        killed = time.monotonic()
        nodes["b"].kill()
        cut = _open_hands(database_url, share["b"])  # before the takeover (a 2 s lease)
        assert cut, "the kill should cut at least one hand"
        wait_until(
            lambda: health(nodes["a"]).get("tables") == BOT_TABLES,
            30,
            "every table served by a",
            interval=0.05,
        )
        took = time.monotonic() - killed
        print(f"\nfailover: b's {len(share['b'])} tables served by a {took:.2f} s after SIGKILL")
        assert took <= 5.0, took
        wait_until(
            lambda: holders(database_url) == dict.fromkeys(TABLES, "a"), 10, "a holds them all"
        )
        # R-CRASH-1: the player's stack went home; the hands cut by the kill were voided
        assert _chips(database_url, int(player.pid)) == before + _net(
            database_url, table, player.pid
        )
        with open_store(database_url) as store:  # every hand the kill cut was voided
            for table_id, hand_no in cut:
                voids = [
                    r
                    for r in store.journal.records(table_id)
                    if isinstance(r, HandVoidRecord) and r.hand_no == hand_no
                ]
                assert [v.reason for v in voids] == ["crash"], (table_id, hand_no)

        async def back_at_a() -> None:  # the client reconnects to a and plays on
            client = await _sit(nodes["a"], player.token, table)
            await client.expect("event", table_id=table, timeout=30)
            await client.close()

        asyncio.run(back_at_a())
        wait_until(lambda: _settled(nodes["a"]) >= 5, 60, "hands settled at a after the takeover")
        nodes["a"].proc.send_signal(signal.SIGTERM)  # type: ignore[union-attr]
        nodes["a"].proc.wait(60)  # type: ignore[union-attr]
        _audit_clean(database_url)
    finally:
        for n in NODES:
            nodes[n].kill()


def test_a_frozen_process_loses_its_tables_and_writes_nothing_more(
    database_url: str, tmp_path: Path, redis_env: dict[str, str]
) -> None:
    """SIGSTOP past the lease: the other process takes the tables over (fencing: epoch + 1);
    at SIGCONT the frozen one finds its leases lost, stops those tables without writing
    for them (a write would be refused: lease_lost) and the audit stays clean.

    PostgreSQL only: PostgreSQL ends the frozen process's session left idle inside a
    transaction (``idle_in_transaction_session_timeout``), releasing its locks; a process
    frozen while it holds SQLite's one write lock stops every write of the room until it
    wakes or dies (docs/storage.md)."""
    if database_url.startswith("sqlite"):
        pytest.skip("SQLite: a frozen writer holds the database's only write lock")
    nodes = _pair(database_url, tmp_path, redis_env)
    nodes["a"].start()
    nodes["b"].start()
    proc_b = nodes["b"].proc
    assert proc_b is not None
    try:
        wait_until(lambda: len(holders(database_url)) == BOT_TABLES, 30, "every table leased")
        wait_until(lambda: _settled(nodes["b"]) >= 3, 30, "hands settled at b")
        os.kill(proc_b.pid, signal.SIGSTOP)
        try:
            wait_until(
                lambda: health(nodes["a"]).get("tables") == BOT_TABLES,
                30,
                "a took b's tables over",
                interval=0.05,
            )
        finally:
            os.kill(proc_b.pid, signal.SIGCONT)
        wait_until(lambda: health(nodes["b"]).get("tables") == 0, 30, "b let its tables go")
        log = nodes["b"].log.read_text()
        assert "lost to another process" in log
        wait_until(lambda: _settled(nodes["a"]) >= 10, 60, "a deals on")
        wait_until(
            lambda: holders(database_url) == dict.fromkeys(TABLES, "a"), 10, "a holds them all"
        )
        for n in NODES:
            nodes[n].proc.send_signal(signal.SIGTERM)  # type: ignore[union-attr]
            nodes[n].proc.wait(60)  # type: ignore[union-attr]
        _audit_clean(database_url)
    finally:
        for n in NODES:
            nodes[n].kill()


def test_a_room_s_settings_must_agree() -> None:
    """A node must be one of the room's nodes, and a lease last 0.4 to 600 s: anything else
    stops the start with a code (``croupier serve`` prints it)."""
    from croupier.server.settings import Settings, SettingsError

    ok = Settings.from_env({"CROUPIER_NODE_ID": "n2", "CROUPIER_NODES": "n1, n2"})
    assert (ok.node_id, ok.nodes, ok.lease_seconds) == ("n2", ("n1", "n2"), 3.0)
    for env, code in (
        ({"CROUPIER_NODE_ID": "n3", "CROUPIER_NODES": "n1,n2"}, "bad_node"),
        ({"CROUPIER_NODES": "n1,n2"}, "bad_node"),
        ({"CROUPIER_NODE_ID": "n1"}, "bad_node"),
        ({"CROUPIER_LEASE_SECONDS": "0.1"}, "bad_delay"),
        ({"CROUPIER_LEASE_SECONDS": "-3"}, "bad_delay"),
        ({"CROUPIER_LEASE_SECONDS": "many"}, "bad_setting"),
    ):
        with pytest.raises(SettingsError) as err:
            Settings.from_env(env)
        assert err.value.code == code, (env, err.value)


class _Registry:
    """The tables a node serves, as :meth:`Node.tick` asks of them (server/registry.py)."""

    def __init__(self, rows: dict[str, TableSummary]) -> None:
        self.tables = rows
        self.lease: Any = None

    def serving(self, table_id: str) -> bool:
        return table_id in self.tables

    def summaries(self) -> list[TableSummary]:
        return list(self.tables.values())

    async def forget(self, table_id: str, reason: str) -> None:
        del self.tables[table_id]


def _summary(table_id: str, players: int) -> TableSummary:
    return TableSummary(
        table_id, table_id, "cash", "nlhe", "holdem", "nl", "room", "1/2", 6, players, 0, 0,
        40, 200, True,
    )  # fmt: skip


def test_a_round_writes_only_the_lobby_rows_that_changed(database_url: str) -> None:
    """R-LOBBY-1: a process renews all its leases every round but writes a table's lobby
    row (the lease's info, which the other processes list) only when it changed since it
    last wrote it: a new lease's at its first round, none at a round where nothing
    changed, a changed row at the next round; a lease acquired again (its info emptied)
    gets its row back at the next round, and a lease lost is forgotten."""
    rows = {"t1": _summary("t1", 1), "t2": _summary("t2", 3)}
    registry = _Registry(rows)
    store = open_store(database_url)
    given: list[dict[str, Any]] = []
    renew = store.leases.renew_and_read

    def spy(
        owner: str, held: dict[str, int], *, ttl: float, info: Any = None
    ) -> tuple[set[str], list[Any]]:
        given.append(dict(info or {}))
        return renew(owner, held, ttl=ttl, info=info)

    store.leases.renew_and_read = spy  # type: ignore[method-assign]
    settings = Settings(node_id="b", nodes=("a", "b"))
    sv = SimpleNamespace(
        settings=settings, store=store, registry=registry, tournaments=None, casino=None
    )
    node = Node(sv)  # type: ignore[arg-type]

    def info(name: str) -> dict[str, Any]:
        lease = store.leases.get(name)
        assert lease is not None and lease.owner == node.owner
        return dict(lease.info)

    def row(name: str) -> dict[str, Any]:
        return {"node": "b", "room": False, "table": plain(rows[name])}

    async def rounds() -> None:
        assert await node.lease("t1") and await node.lease("t2")
        assert info("t1") == {} == info("t2")
        await node.tick()
        assert given[-1] == {"t1": row("t1"), "t2": row("t2")}
        assert (info("t1"), info("t2")) == (row("t1"), row("t2"))
        await node.tick()
        assert given[-1] == {}  # nothing changed: nothing written
        rows["t1"] = dataclasses.replace(rows["t1"], players=2)
        await node.tick()
        assert given[-1] == {"t1": row("t1")}
        assert (info("t1"), info("t2")) == (row("t1"), row("t2"))
        await node.tick()
        assert given[-1] == {}
        assert await node.lease("t2")  # taken again (same epoch): its info emptied
        assert info("t2") == {}
        await node.tick()
        assert given[-1] == {"t2": row("t2")} and info("t2") == row("t2")
        # t1 taken over by another process: lost, forgotten here
        store.db.run(
            lambda conn: conn.execute(
                table_leases.update()
                .where(table_leases.c.name == "t1")
                .values(owner="a/other", epoch=2)
            )
        )
        await node.tick()
        assert "t1" not in registry.tables and store.fence.lost("t1")
        assert set(node._written) == {"t2"}
        await node.tick()
        assert given[-1] == {}

    try:
        asyncio.run(rounds())
    finally:
        store.close()


def test_a_round_keeps_the_other_processes_unchanged_leases(database_url: str) -> None:
    """R-LOBBY-1: each round reads every lease row; another process's lease whose holder,
    epoch and lobby row did not change keeps its object (nothing new for the collector to
    scan, round after round), a changed lobby row or a new epoch gives a new one, and an
    expired lease leaves ``others``. The other processes' addresses (``peers``, told to
    this one's pages) are those of the live leases."""
    store = open_store(database_url)
    registry = _Registry({"t1": _summary("t1", 1)})
    settings = Settings(node_id="b", nodes=("a", "b"))
    sv = SimpleNamespace(
        settings=settings, store=store, registry=registry, tournaments=None, casino=None
    )
    node = Node(sv)  # type: ignore[arg-type]
    row = {"node": "a", "room": False, "table": {"table_id": "t9", "players": 2}}

    async def rounds() -> None:
        assert await node.lease("t1")
        assert store.leases.acquire("t9", "a/other", url="http://a", ttl=30, info=row)
        await node.tick()
        first = node.others["t9"]
        assert dict(first.info) == row and first.url == "http://a"
        assert node.peers == ("http://a",)  # where b's pages go on if b dies
        store.leases.renew("a/other", {"t9": 1}, ttl=60)  # only its expiry moves
        await node.tick()
        assert node.others["t9"] is first
        assert node.remote_tables() == [{"table_id": "t9", "players": 2, "node_url": "http://a"}]
        changed = {**row, "table": {"table_id": "t9", "players": 3}}
        store.leases.renew("a/other", {"t9": 1}, ttl=60, info={"t9": changed})
        await node.tick()
        assert node.others["t9"] is not first and dict(node.others["t9"].info) == changed
        assert node.remote_tables()[0]["players"] == 3
        store.db.run(
            lambda conn: conn.execute(
                table_leases.update().where(table_leases.c.name == "t9").values(expires_ms=0)
            )
        )
        await node.tick()
        assert "t9" not in node.others and node.peers == ()

    try:
        asyncio.run(rounds())
    finally:
        asyncio.run(node.close())
        store.close()


def _node_serving_t1(store: Any, *, lease_seconds: float) -> Node:
    """Process b of a room of two, serving one table, ``t1`` (no server around it)."""
    settings = Settings(node_id="b", nodes=("a", "b"), lease_seconds=lease_seconds)
    sv = SimpleNamespace(
        settings=settings,
        store=store,
        registry=_Registry({"t1": _summary("t1", 1)}),
        tournaments=None,
        casino=None,
    )
    return Node(sv)  # type: ignore[arg-type]


def test_a_round_renews_while_the_default_executor_is_full(database_url: str) -> None:
    """R-CRASH-1: a process's renewal round has a thread of its own. Under load the loop's
    default executor is taken by the tables' own store calls (at 1,000 tables, thousands
    of buy-ins queued); a renewal queued behind them came seconds late, the leases
    expired, and the other process took the tables of a live one over (measured with 3 s
    leases: 965 tables lost in a minute). Here every thread of the default executor is
    held, and more calls wait behind them: the round still renews."""
    store = open_store(database_url)
    node = _node_serving_t1(store, lease_seconds=3.0)
    gate = threading.Event()

    async def rounds() -> None:
        assert await node.lease("t1")
        before = store.leases.get("t1")
        assert before is not None
        held = [asyncio.create_task(asyncio.to_thread(gate.wait, 30)) for _ in range(64)]
        await asyncio.sleep(0.2)  # every default thread now waits on the gate
        try:
            await asyncio.wait_for(node.tick(), 10)
        finally:
            gate.set()
            await asyncio.gather(*held)
        after = store.leases.get("t1")
        assert after is not None and after.owner == node.owner
        assert after.expires_ms > before.expires_ms

    try:
        time.sleep(0.01)  # (the lease's clock is in ms: the renewal must extend it)
        asyncio.run(rounds())
    finally:
        asyncio.run(node.close())
        store.close()


def test_the_keeper_renews_while_the_loop_is_held_and_not_once_it_is_stuck(
    database_url: str,
) -> None:
    """R-CRASH-1: the keeper's thread renews a process's leases while its event loop is
    held (a full collection, a lag of seconds under load), but not once the loop has not
    run for a lease's length: a process whose loop is stuck loses its tables to the
    others, as one that died."""
    store = open_store(database_url)
    node = _node_serving_t1(store, lease_seconds=2.0)

    def expires() -> int:
        lease = store.leases.get("t1")
        assert lease is not None and lease.owner == node.owner
        return lease.expires_ms

    async def held_then_stuck() -> None:
        assert await node.lease("t1")
        rounds = asyncio.create_task(node.run())
        await asyncio.sleep(0.3)
        start = store.leases.now_ms()
        time.sleep(1.6)  # the loop held for most of a lease: no round runs
        assert expires() > start + 2000  # renewed meanwhile, by the keeper
        time.sleep(4.0)  # stuck past the lease's length: the keeper stopped renewing
        assert expires() < store.leases.now_ms()
        rounds.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await rounds

    try:
        asyncio.run(held_then_stuck())
    finally:
        asyncio.run(node.close())
        store.close()


def _open_hands(url: str, tables: list[str]) -> list[tuple[str, int]]:
    """(table, hand) of every hand of ``tables`` started in the journal and not closed."""
    with open_store(url) as store:
        return [(t, h) for t, h in store.journal.unsettled() if t in tables]


def _chips(url: str, uid: int) -> int:
    with open_store(url) as store:
        return store.ledger.balances(uid).chips


def _net(url: str, table_id: str, pid: str) -> int:
    """The player's net over the hands settled at ``table_id``."""
    with open_store(url) as store:
        return sum(
            int(net)
            for outcome in _settled_hands(store, table_id)
            for player, net in zip(outcome["players"], outcome["nets"], strict=True)
            if player == pid
        )


def _settled_hands(store: Any, table_id: str) -> list[dict[str, Any]]:
    import sqlalchemy as sa

    from croupier.store.schema import hands

    stmt = sa.select(hands.c.outcome).where(
        hands.c.table_id == table_id, hands.c.status == "settled"
    )
    return [dict(r.outcome) for r in store.db.run(lambda c: c.execute(stmt).all())]


def _settled(server: ServerProcess) -> int:
    return metric(server, "croupier_hands_settled_total")
