"""Chaos: a real ``croupier serve`` process with 20 bot tables, two private tables where
WebSocket players play, a Sit & Go two players registered to over HTTP (and stay in), and
a Spin a player registers to, fills with bots and plays over the WebSocket, killed with SIGKILL at random moments and restarted (10 times; 100
with ``CROUPIER_SOAK=1``). After each restart ``croupier admin audit`` is clean, the chips
of every account, escrow, pool and house add up to what was minted, and no table escrow of
an earlier life still holds a chip (R-CRASH-1, R-ACC-1).

The workloads are in ``tests/server/chaos.py`` (``WORKLOADS``). ``CROUPIER_CHAOS_SEED`` replays a run.
"""

from __future__ import annotations

import asyncio
import os
import random
import threading
import time
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from click.testing import Result
from typer.testing import CliRunner

from croupier.cli import app as cli_app
from croupier.store import open_store
from croupier.store.schema import ledger_accounts
from tests.server.chaos import (
    SNG_ROOT,
    WORKLOADS,
    ChaosBoot,
    ChaosPlayer,
    ServerProcess,
    register,
    seed_tournaments,
)
from tests.waiting import wait_until

SOAK = os.environ.get("CROUPIER_SOAK") == "1"
KILLS = int(os.environ.get("CROUPIER_CHAOS_KILLS", "100" if SOAK else "10"))


def _run_workloads(boot: ChaosBoot) -> threading.Thread:
    async def main() -> None:
        await asyncio.gather(*(w(boot) for w in WORKLOADS))

    thread = threading.Thread(target=lambda: asyncio.run(main()), daemon=True)
    thread.start()
    return thread


def _cli_audit(url: str) -> Result:
    """``croupier admin audit --db URL``: the command itself, run in this process."""
    return CliRunner().invoke(cli_app, ["admin", "audit", "--db", url])


def _wait_ready(boot: ChaosBoot, timeout: float = 120.0) -> None:
    """Every workload in full swing (each sets its event, also when it fails)."""
    wait_until(
        lambda: (
            len(boot.ready) >= len(WORKLOADS) and all(e.is_set() for e in list(boot.ready.values()))
        ),
        timeout,
        f"every chaos workload to be in full swing ({len(WORKLOADS)} of them)",
    )


def _chips(url: str) -> tuple[int, int, dict[str, int]]:
    """(minted, held, held by kind) for chips, from the balances."""
    with open_store(url) as store:
        rows = store.db.run(
            lambda c: c.execute(
                sa.select(ledger_accounts.c.kind, sa.func.sum(ledger_accounts.c.balance))
                .where(ledger_accounts.c.currency == "chips")
                .group_by(ledger_accounts.c.kind)
            ).all()
        )
    by_kind = {str(k): int(v) for k, v in rows}
    minted = -by_kind.pop("mint", 0)
    return minted, sum(by_kind.values()), by_kind


def _old_escrows(url: str, old_tables: set[str]) -> dict[str, dict[int, int]]:
    with open_store(url) as store:
        found = {t: store.ledger.escrow(t) for t in sorted(old_tables)}
    return {t: e for t, e in found.items() if e}


@pytest.mark.slow
def test_sigkill_chaos_keeps_every_chip(tmp_path: Path) -> None:
    """R-CRASH-1, R-ACC-1, R-TOUR-4: SIGKILL at random moments of bot, private-table and
    Spin play with a Sit & Go registering; after each restart the audit (its
    ``tournaments`` check included) is clean, chips held equal chips minted, and the private tables
    of the killed life hold nothing (every stack went home)."""
    seed = int(os.environ.get("CROUPIER_CHAOS_SEED", "20261201"))
    rng = random.Random(seed)
    url = f"sqlite:///{tmp_path / 'chaos.sqlite3'}"
    server = ServerProcess(url, tmp_path / "server.log")
    seed_tournaments(url, between_hands=0.01, bot_delay=0.005)
    server.start()
    try:
        players = [register(server.base, f"chaos{c}") for c in "abcdefg"]
    except Exception:
        server.kill()
        raise
    started = time.monotonic()
    seen_private: set[str] = set()
    figures: list[str] = []
    totals: dict[str, int] = {}
    try:
        for kill in range(KILLS):
            boot = ChaosBoot(server, players, random.Random(rng.random()))
            thread = _run_workloads(boot)
            _wait_ready(boot)
            # Not a wait: the kill comes at a random moment of full play (the chaos itself).
            time.sleep(rng.uniform(0.0, 2.5))
            server.kill()
            thread.join(30)
            assert not thread.is_alive(), "a workload did not stop when the server died"
            seen_private |= _private_tables(url)
            startup = server.start()
            result = _cli_audit(url)
            assert result.exit_code == 0, (kill, seed, result.output)
            assert "no discrepancies" in result.output
            minted, held, by_kind = _chips(url)
            assert held == minted, (kill, seed, by_kind)
            assert _old_escrows(url, seen_private) == {}, (kill, seed)
            _sit_and_go_stands(server, players[4:6], kill, seed)
            figures.append(f"kill {kill}: {boot.stats} startup {startup:.1f}s held {by_kind}")
            for k, v in boot.stats.items():
                totals[k] = totals.get(k, 0) + v
    finally:
        server.kill()
    print(f"\nchaos seed {seed}: {KILLS} kills in {time.monotonic() - started:.0f}s, {totals}")
    print("\n".join(figures))
    # the private tables were really played, and their players seated in most lives
    assert totals.get("seated", 0) >= 2 * KILLS, totals
    assert totals.get("private_hands", 0) > 0, totals
    assert len(seen_private) >= KILLS, seen_private
    # the Sit & Go registrations stood through every restart, a Spin was played over the
    # WebSocket (and resumed from its journal after restarts)
    assert totals.get("sng_registered", 0) == 2, totals
    assert totals.get("sng_kept", 0) >= KILLS, totals
    assert totals.get("spin_played", 0) >= KILLS // 2, totals
    assert totals.get("spin_hands", 0) > 0, totals


def _sit_and_go_stands(
    server: ServerProcess, players: list[ChaosPlayer], kill: int, seed: int
) -> None:
    """After a restart the Sit & Go is still registering, with both players and their two
    buy-ins in its pool (R-CRASH-1, R-TOUR-4)."""
    rows = httpx.get(f"{server.base}/api/tournaments", timeout=10).json()
    (row,) = [r for r in rows if r["id"].split(".")[0] == SNG_ROOT and r["status"] == "registering"]
    assert {p.pid for p in players} <= set(row["registered"]), (kill, seed, row)
    assert row["pool"] == row["buy_in"] * row["entrants"], (kill, seed, row)


def _private_tables(url: str) -> set[str]:
    with open_store(url) as store:
        return {t for t in store.journal.tables() if t.startswith("private-")}
