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

TABLES = [f"bots-{i}" for i in range(1, 21)]


def _start(url: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "CROUPIER_DATABASE_URL": url,
        "CROUPIER_PORT": str(port),
        "CROUPIER_DEFAULT_TABLES": "0",
        "CROUPIER_BOT_TABLES": "20",
        "CROUPIER_TESTING": "1",
        "CROUPIER_BOT_DELAY_SECONDS": "0.005",
        "CROUPIER_BETWEEN_HANDS_SECONDS": "0.01",
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
        time.sleep(0.1)


def _settled(port: int) -> int:
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
    line = next(ln for ln in text.splitlines() if ln.startswith("croupier_hands_settled_total"))
    return int(line.split()[1])


def _escrow_matches_journal(url: str) -> dict[str, object]:
    """For every table: the ledger escrow equals the journal's seat map; returns the
    recovery plans."""
    plans = {}
    with open_store(url) as store:
        report = store.audit()
        assert report.ok, report
        for tid in TABLES:
            plan = plan_recovery(store.journal.records(tid))
            seats = {int(s.player_id): s.stack for s in plan.seats if s.stack}
            assert store.ledger.escrow(tid) == seats, tid
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
        deadline = time.monotonic() + 60
        while _settled(port) < 100 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _settled(port) >= 100
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    before = _escrow_matches_journal(database_url)
    open_hands = {tid: p.void for tid, p in before.items() if p.void is not None}  # type: ignore[attr-defined]
    assert open_hands, "the kill should cut at least one hand"

    port = free_port()
    proc = _start(database_url, port, log)
    try:
        time.sleep(1.0)
    finally:
        proc.send_signal(signal.SIGTERM)
        # uvicorn re-raises SIGTERM after its graceful shutdown: exit status 0 or -15
        assert proc.wait(60) in (0, -signal.SIGTERM), log.read_text()[-3000:]
    assert "Application shutdown complete" in log.read_text()
    after = _escrow_matches_journal(database_url)
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
