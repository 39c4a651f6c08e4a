"""Crash: SIGKILL the server in the middle of hands at 20 bot tables, restart it, and check
every balance is exactly as before the voided hands, the ledger balanced, the settled hands
paid once (R-CRASH-1, R-CARD-5)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from croupier.store import open_store
from croupier.table.journal import HandVoidRecord, plan_recovery
from tests.server.live import free_port
from tests.waiting import wait_until

TABLES = [f"bots-{i}" for i in range(1, 21)]


def _start(url: str, port: int, log: Path, **extra: str) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "CROUPIER_DATABASE_URL": url,
        "CROUPIER_PORT": str(port),
        "CROUPIER_DEFAULT_TABLES": "0",
        "CROUPIER_BOT_TABLES": "20",
        "CROUPIER_TESTING": "1",
        "CROUPIER_BOT_DELAY_SECONDS": "0.005",
        "CROUPIER_BETWEEN_HANDS_SECONDS": "0.01",
        **extra,
    }
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "croupier.server"], env=env, stdout=out, stderr=subprocess.STDOUT
        )
    deadline = time.monotonic() + 300  # a loaded CI machine starts 20 tables slowly
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"server did not start: {log.read_text()[-2000:]}")
        time.sleep(0.1)  # poll interval of the bounded start-up wait above


def _metric(port: int, name: str) -> int:
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
    line = next(ln for ln in text.splitlines() if ln.split()[0] == name)
    return int(line.split()[1])


def _settled(port: int) -> int:
    return _metric(port, "croupier_hands_settled_total")


def escrow_matches_journal(
    url: str, *, killed: bool = False, tables: list[str] = TABLES
) -> dict[str, object]:
    """For every table: the ledger escrow equals the journal's seat map — plus, after a
    kill, the buy-ins funded whose seat map was not yet durable (their intents are
    journaled: the restart refunds them); returns the recovery plans."""
    plans = {}
    with open_store(url) as store:
        report = store.audit()
        assert report.ok, report
        for tid in tables:
            plan = plan_recovery(store.journal.records(tid))
            want = {int(s.player_id): s.stack for s in plan.seats if s.stack}
            held = store.ledger.escrow(tid)
            if killed:
                for intent in plan.pending_buy_ins:
                    uid = int(intent.player_id)
                    if held.get(uid, 0) > want.get(uid, 0):  # funded before the kill
                        want[uid] = want.get(uid, 0) + intent.amount
            else:
                assert plan.pending_buy_ins == (), (tid, plan.pending_buy_ins)
            assert held == want, tid
            plans[tid] = plan
    return plans


@pytest.mark.slow
def test_sigkill_mid_hands_restart_voids_and_refunds(database_url: str, tmp_path: Path) -> None:
    """R-CRASH-1: hands cut by SIGKILL are voided at restart, every stack is exactly its
    start-of-hand value, settled hands are paid once, and the ledger audit balances."""
    log = tmp_path / "server.log"
    port = free_port()
    proc = _start(database_url, port, log)
    try:
        wait_until(lambda: _settled(port) >= 100, 60, "100 hands settled before the kill")
        # killed while hands are dealt (tables may wait between hands for the archive)
        wait_until(lambda: _metric(port, "croupier_hands_in_play") >= 3, 60, "hands in play")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    before = escrow_matches_journal(database_url, killed=True)
    open_hands = {tid: p.void for tid, p in before.items() if p.void is not None}  # type: ignore[attr-defined]
    assert open_hands, "the kill should cut at least one hand"

    port = free_port()
    proc = _start(database_url, port, log)
    try:  # the restored tables deal again before the graceful stop
        wait_until(lambda: _settled(port) >= 1, 60, "a hand settled after the restart")
    finally:
        proc.send_signal(signal.SIGTERM)
        # uvicorn re-raises SIGTERM after its graceful shutdown: exit status 0 or -15
        assert proc.wait(60) in (0, -signal.SIGTERM), log.read_text()[-3000:]
    assert "Application shutdown complete" in log.read_text()
    after = escrow_matches_journal(database_url)
    assert after
    with open_store(database_url) as store:
        for tid, start in open_hands.items():
            records = store.journal.records(tid)
            voids = [
                r
                for r in records
                if isinstance(r, HandVoidRecord) and r.hand_no == start.hand_no  # type: ignore[union-attr]
            ]
            assert len(voids) == 1 and voids[0].reason == "crash"
            expected = {s.player_id: s.stack for s in before[tid].seats}  # type: ignore[attr-defined]
            assert {s.player_id: s.stack for s in voids[0].seats} == expected


@pytest.mark.slow
def test_sigkill_mid_casino_round_voids_and_returns_every_bet(
    database_url: str, tmp_path: Path
) -> None:
    """R-CRASH-1 at the casino table (Texas Hold'em Bonus): the server is killed after a
    player's ante, bonus and flop bets are on the felt; at restart the round is voided,
    every chip is back in the player's balance, the audit balances, and the table deals
    again."""
    import asyncio

    from croupier.store.casino import casino_escrow
    from croupier.store.ledger import user_account
    from croupier.store.schema import casino_rounds
    from tests.server.live import ORIGIN, Client, register_and_login

    log = tmp_path / "server.log"
    port = free_port()
    env = {
        "CROUPIER_BOT_TABLES": "0",
        "CROUPIER_CASINO_DECISION_SECONDS": "60",
        "CROUPIER_ALLOWED_ORIGINS": ORIGIN,
    }
    proc = _start(database_url, port, log, **env)
    base, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws"

    async def until(c: Client, phase: str) -> dict[str, object]:
        for f in c.frames:
            if f.get("type") == "casino_state" and f["phase"] == phase:
                return f
        while True:
            f = await c.recv()
            if f.get("type") == "casino_state" and f["phase"] == phase:
                return f

    async def bet_then_kill(token: str) -> None:
        c = await Client.open(ws, token)
        assert (await c.command({"type": "casino_subscribe", "table_id": "casino-1"}))["accepted"]
        assert (await c.command({"type": "casino_sit", "table_id": "casino-1"}))["accepted"]
        deal = {"type": "casino_deal", "table_id": "casino-1", "ante": 10, "bonus": 5}
        assert (await c.command(deal))["accepted"]
        await until(c, "preflop")
        play = {"type": "casino_decide", "table_id": "casino-1", "move": "play"}
        assert (await c.command(play))["accepted"]
        await until(c, "turn")
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)

    try:
        token = register_and_login(base, "crashy")
        r = httpx.post(
            base + "/api/exchange",
            json={"diamonds": 500, "key": "crash-casino-1"},
            headers={"Origin": ORIGIN, "Authorization": f"Bearer {token}"},
        )
        uid = int(r.json()["id"])
        asyncio.run(bet_then_kill(token))
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait(30)
    with open_store(database_url) as store:
        assert store.ledger.balance(user_account(uid)) == 500 - 35
        assert store.ledger.balance(casino_escrow("casino-1", uid)) == 35
        assert store.audit().ok  # the escrow belongs to an open round: nothing stuck

    port = free_port()
    proc = _start(database_url, port, log, **env)
    base, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws"

    async def play_again(token: str) -> None:
        c = await Client.open(ws, token)
        assert (await c.command({"type": "casino_subscribe", "table_id": "casino-1"}))["accepted"]
        assert (await c.command({"type": "casino_sit", "table_id": "casino-1"}))["accepted"]
        deal = {"type": "casino_deal", "table_id": "casino-1", "ante": 10}
        assert (await c.command(deal))["accepted"]
        await until(c, "preflop")
        fold = {"type": "casino_decide", "table_id": "casino-1", "move": "fold"}
        assert (await c.command(fold))["accepted"]
        await c.close()

    try:
        with open_store(database_url) as store:  # voided at start, before any message
            assert store.ledger.balance(user_account(uid)) == 500
        asyncio.run(play_again(token))
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) in (0, -signal.SIGTERM), log.read_text()[-3000:]
    with open_store(database_url) as store:
        report = store.audit()
        assert report.ok, report.discrepancies
        assert store.ledger.balance(user_account(uid)) == 490
        assert store.ledger.balance(casino_escrow("casino-1", uid)) == 0
        rows = store.db.run(lambda conn: conn.execute(casino_rounds.select()).all())
        status = sorted(str(r.status) for r in rows)
        assert status == ["settled", "void"]
        void = next(r for r in rows if r.status == "void")
        assert void.outcome == {"reason": "crash", "returned": {str(uid): 35}}
