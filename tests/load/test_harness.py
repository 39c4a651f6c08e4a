"""The load harness (bench/load, docs/benchmarks.md) as a CI smoke test: a short ramp of
10 tables (60 WebSocket players) against the bare Starlette baseline and against the real
croupier server (store, ledger, journal with group commit, table actors), through the
player's layer. It asserts that the harness works and measures, never a timing threshold
(the machine is shared and noisy).

R-CRASH-1 (nothing published before it is durable) is exercised end to end: every event
the clients see went through the group-commit journal's hold, and no version gap is seen.
"""

from __future__ import annotations

import math

import pytest
from bench.load.run import (
    format_row,
    full_line,
    main,
    ratio_line,
    relay_line,
    settle_line,
    store_line,
)

pytestmark = [pytest.mark.slow, pytest.mark.rules("R-CRASH-1")]


def test_a_short_ramp_measures_both_servers(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    rows = main(
        [
            "--tables", "10",
            "--window", "12",
            "--warmup", "3",
            "--processes", "2",
            "--db", f"sqlite:///{tmp_path}/load.sqlite3",
            "--json", str(tmp_path / "rows.json"),
        ]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert [r.mode for r in rows] == ["baseline", "croupier"]
    base, cro = rows
    for r in rows:
        assert r.tables == 10 and r.players == 60
        assert r.seated == 60, f"{r.mode}: {r.seated} of 60 players seated"
        assert r.actions_per_s > 0
        assert r.latency.count > 0, f"{r.mode}: no action reached the other players"
        assert 0 < r.latency.p50 <= r.latency.p99 <= r.latency.max
        assert r.cpu_pct > 0 and r.rss_mb > 0
        assert r.gaps == 0, f"{r.mode}: version gaps seen by the clients"
        assert math.isfinite(r.frames_per_action) and r.frames_per_action > 1
    # croupier played real hands: its frames per action include deals, turns and
    # settlements, more than the baseline's two broadcasts per action.
    assert cro.frames_per_action > base.frames_per_action
    # the records its journal made durable in the window, counted by how long they waited
    # (how many waited long is measured, never asserted; a 12 s window at 10 tables may
    # hold no hand's start or end)
    records, over50, over250 = cro.journal_waits
    assert records >= over50 >= over250 >= 0
    assert base.journal_waits == (0, 0, 0)
    # each collection's CPU time on its thread is at most its pause (within the clocks'
    # resolution): the longest CPU time of a generation is at most its longest pause
    assert sum(cro.gc_count_gen) == cro.gc_count > 0
    for pause, cpu in zip(cro.gc_max_gen_ms, cro.gc_cpu_max_gen_ms, strict=True):
        assert 0 <= cpu <= pause + 1.0, (cro.gc_max_gen_ms, cro.gc_cpu_max_gen_ms)
    assert "(the most CPU time one took: " in out
    # a full collection forced after the window, in both servers (croupier's froze what
    # it loaded at start-up: it scans fewer objects than the bare server, which did not)
    for r in (base, cro):
        assert r.full_scanned > 0 and 0 < r.full_cpu_ms <= r.full_ms + 1.0, r
        assert full_line(r) in out
    assert store_line(cro) in out
    # a hand's settlement after the action that ended it (it waits for its record): the
    # baseline has none; croupier's, where a hand ended in the window (a hand of checks
    # and calls takes about 25 actions, so a 12 s window may hold none)
    assert base.settle is None and settle_line(base) == ""
    if cro.settle is not None:
        assert 0 < cro.settle.p50 <= cro.settle.max and settle_line(cro) in out
    assert (f"of {records:,} records durable" in out) == (records > 0)
    assert format_row(cro) in out and ratio_line(base, cro) in out
    assert (tmp_path / "rows.json").read_text().count('"mode"') == 2


def test_a_room_of_two_processes_is_measured(tmp_path, capsys, redis_env) -> None:  # type: ignore[no-untyped-def]
    """``--nodes 2``: croupier as two processes on one database (server/cluster.py), each
    serving its share of the tables under leases, each client connected to the process
    serving its table; the figures are the sum (CPU, RSS) or worst (lag, GC) of both.
    ``--redis`` and ``--relay-watchers``: a guest watcher per table on the other process,
    relayed through Redis (server/bus.py), measured apart."""
    rows = main(
        [
            "--tables", "10",
            "--window", "8",
            "--warmup", "3",
            "--processes", "2",
            "--nodes", "2",
            "--redis", redis_env["CROUPIER_REDIS_URL"],
            "--relay-watchers", "1",
            "--only", "croupier",
            "--db", f"sqlite:///{tmp_path}/load.sqlite3",
        ]
    )  # fmt: skip
    out = capsys.readouterr().out
    (row,) = rows
    assert row.mode == "croupier (2 processes)"
    assert row.seated == 60, f"{row.seated} of 60 players seated"
    assert row.latency.count > 0 and row.gaps == 0 and row.refused == 0
    assert row.cpu_pct > 0 and row.rss_mb > 0
    assert format_row(row) in out
    assert row.relay is not None and row.relay.count > 0 and row.relay_gaps == 0
    assert relay_line(row) in out
    # the room's own 3 s leases: no table changed process, renewed well within the lease
    taken, lost, gap = row.leases
    assert (taken, lost) == (0, 0) and 0 < gap < 3000
    assert store_line(row) in out and "0 tables taken over, 0 lost" in out
