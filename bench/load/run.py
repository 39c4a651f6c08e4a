"""The load ramp: ``python -m bench.load.run`` (docs/benchmarks.md).

For each step of the ramp (default 10 → 100 → 300 → 600 → 1,000 tables; the full ramp
runs only with ``--full`` or ``CROUPIER_SOAK=1``, otherwise a 10-table smoke step) it
measures the bare Starlette + uvicorn broadcast baseline, then croupier, with the same
client processes, sockets, tables and policy, each in a fresh server process on a free
loopback port, and prints one row per server: actions/s, action→broadcast latency at the
other players (p50/p90/p99/p999/max), server CPU (one core = 100 %), CPU per action,
RSS, event-loop lag, GC pauses, timeouts, refusals and version gaps; then the ratio
croupier / baseline of CPU per action and of p99. Everything is bounded: setup, warm-up
and window durations, and every process is stopped at the end (killed if it hangs).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing as mp
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench.load.client import Assignment, worker_main
from bench.load.stats import Summary, summarize

from croupier.server.cluster import preferred

__all__ = ["Row", "main", "run_step"]

ROOT = Path(__file__).resolve().parents[2]
FULL_RAMP = (10, 100, 300, 600, 1000)


@dataclass(frozen=True, slots=True)
class Row:
    """One measured window of one server."""

    mode: str
    tables: int
    players: int
    seated: int
    window: float
    actions_per_s: float
    latency: Summary
    cpu_pct: float
    cpu_ms_per_action: float
    rss_mb: float
    lag_p99_ms: float
    lag_max_ms: float
    gc_max_ms: float
    gc_full: int
    timeouts: int
    refused: int
    gaps: int
    frames_per_action: float
    rss_start_mb: float = 0.0
    """RSS when the window began (with ``rss_mb`` at its end: growth over the window)."""
    relay: Summary | None = None
    """Action → ``acted`` frame at the guest watchers of another process (relayed through
    Redis), with ``--relay-watchers``."""
    settle: Summary | None = None
    """The command that ended a hand (an action, or the last show at the showdown) → that
    hand's ``hand_settled`` at another player (it waits for the settlement's journal
    record; the ``acted`` does not), croupier only."""
    relay_gaps: int = 0
    relay_frames: int = 0
    relay_local: bool = False
    """Whether those watchers were on the serving process itself (``--local-watchers``)."""
    gc_max_loop_ms: float = 0.0
    """The longest collection run by the event loop's thread (``gc_max_ms``: any thread's)."""
    gc_count: int = 0
    gc_max_gen_ms: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """The longest collection of each generation (young, middle, full)."""
    gc_count_gen: tuple[int, int, int] = (0, 0, 0)
    gc_cpu_max_gen_ms: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """The most CPU time one collection of each generation took on its thread (less than
    its pause when the machine's other processes held the cores meanwhile)."""
    codes: dict[str, int] = field(default_factory=dict)
    """Refusals by code and timeouts by reason, as the clients saw them (a timeout is seen
    by each of the table's six clients)."""
    frames_out: int = 0
    """WebSocket frames croupier sent in the window (0 for the baseline)…"""
    messages_out: int = 0
    """…holding this many messages (several per frame for clients that ask for lines)."""
    clients_cpu_pct: float = 0.0
    """The load generator's own CPU in the window (its client processes, one core = 100 %):
    it shares the machine's cores with the server under test."""
    blocks_start: int = 0
    """Memory blocks held by Python's allocator at the window's start (``sys.getallocatedblocks``)…"""
    blocks: int = 0
    """…and at its end."""
    full_ms: float = 0.0
    """A full collection forced right after the window (``Probe.full_collection``): its
    pause, the longest of the processes…"""
    full_cpu_ms: float = 0.0
    """…its CPU time…"""
    full_scanned: int = 0
    """…and the objects it scanned (that process's)."""
    leases: tuple[int, int, float] = (0, 0, 0.0)
    """A room of several processes (``--nodes``), since its processes started: the tables
    taken over, the tables lost (both 0 while every process keeps up), and the longest
    time between two renewals of a process, in ms (it must stay under the lease's length,
    3 s in the room)."""
    journal_waits: tuple[int, int, int] = (0, 0, 0)
    """croupier's journal records made durable by its writer threads in the window, and
    how many of them waited over 50 ms and over 250 ms from queued to durable (their
    tables' events waited as long: the goal's p99 and p999)."""
    journal_ms: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """croupier's journal in the window, the longest: a record queued → durable (its
    table's events wait that long), a transaction of the writer threads, a write on the
    caller's thread."""


class _Server:
    def __init__(
        self,
        mode: str,
        db: str,
        tables: int,
        tag: str,
        env: dict[str, str],
        node: str = "",
        nodes: tuple[str, ...] = (),
        redis: str = "",
    ) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bench.load.server",
                "--mode",
                mode,
                "--db",
                db,
                "--tables",
                str(tables),
                "--tag",
                tag,
                "--node",
                node,
                "--nodes",
                ",".join(nodes),
                "--redis",
                redis,
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env,
        )
        line = self._line(timeout=120 + tables * 0.5)
        self.port = int(line["port"])

    def _line(self, timeout: float) -> dict[str, Any]:
        assert self.proc.stdout is not None
        import select

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.5)
            if ready:
                line = self.proc.stdout.readline()
                if not line:
                    break
                try:
                    out: dict[str, Any] = json.loads(line)
                    return out
                except ValueError:
                    continue
            if self.proc.poll() is not None:
                break
        raise RuntimeError(f"the server did not answer (exit {self.proc.poll()})")

    def ask(self, cmd: str) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(cmd + "\n")
        self.proc.stdin.flush()
        # a traced server (LOAD_TRACEMALLOC) compares two snapshots of its heap first
        return self._line(timeout=600 if os.environ.get("LOAD_TRACEMALLOC") else 30)

    def stop(self) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            self.proc.wait(timeout=30)
        except Exception:
            self.proc.kill()
            self.proc.wait(timeout=10)
        finally:
            for pipe in (self.proc.stdin, self.proc.stdout):
                if pipe is not None:
                    with contextlib.suppress(OSError):
                        pipe.close()


JOURNAL_MAXIMA = ("journal_wait_max", "journal_write_max", "journal_sync_max")
"""The server's journal waits, the longest of the window (``Probe.maxima``)."""
JOURNAL_WAITS = ("journal_waits", "journal_waits_over_50ms", "journal_waits_over_250ms")
"""The server's journal records in the window, all and those that waited over 50 and
250 ms (``Probe.counters``)."""


def _triple(values: Any) -> Any:
    """Three figures, one per GC generation, as a tuple."""
    a, b, c = values
    return (a, b, c)


def _combined(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of a room of several processes: CPU time and RSS summed, the worst
    loop lag and GC pause, the longest window."""
    if len(reports) == 1:
        return reports[0]
    return {
        "wall": max(float(r["wall"]) for r in reports),
        "cpu": sum(float(r["cpu"]) for r in reports),
        "rss": sum(int(r["rss"]) for r in reports),
        "rss_start": sum(int(r.get("rss_start", 0)) for r in reports),
        "lag_p99": max(float(r["lag_p99"]) for r in reports),
        "lag_max": max(float(r["lag_max"]) for r in reports),
        "gc_max": max(float(r["gc_max"]) for r in reports),
        "gc_max_loop": max(float(r.get("gc_max_loop", 0.0)) for r in reports),
        "gc_count": sum(int(r.get("gc_count", 0)) for r in reports),
        "gc_max_gen": [max(r.get("gc_max_gen", [0.0] * 3)[g] for r in reports) for g in range(3)],
        "gc_count_gen": [sum(r.get("gc_count_gen", [0] * 3)[g] for r in reports) for g in range(3)],
        "gc_cpu_max_gen": [
            max(r.get("gc_cpu_max_gen", [0.0] * 3)[g] for r in reports) for g in range(3)
        ],
        "gc_full": sum(int(r["gc_full"]) for r in reports),
        "frames_out": sum(int(r.get("frames_out", 0)) for r in reports),
        "messages_out": sum(int(r.get("messages_out", 0)) for r in reports),
        "blocks": sum(int(r.get("blocks", 0)) for r in reports),
        "blocks_start": sum(int(r.get("blocks_start", 0)) for r in reports),
        **{k: max(float(r.get(k, 0.0)) for r in reports) for k in JOURNAL_MAXIMA},
        **{k: sum(int(r.get(k, 0)) for r in reports) for k in JOURNAL_WAITS},
        **max(
            ({k: r.get(k, 0) for k in ("full_pause", "full_cpu", "full_scanned")} for r in reports),
            key=lambda f: float(f["full_pause"]),
        ),
        "lease_takeovers": sum(int(r.get("lease_takeovers", 0)) for r in reports),
        "lease_lost": sum(int(r.get("lease_lost", 0)) for r in reports),
        "lease_gap_max": max(float(r.get("lease_gap_max", 0.0)) for r in reports),
    }


def full_line(row: Row) -> str:
    """The full collection forced right after the window (the process it took longest)."""
    return (
        f"  a full collection right after the window: {row.full_ms:.0f} ms"
        f" (CPU {row.full_cpu_ms:.0f} ms), {row.full_scanned:,} objects scanned"
    )


def _summed(counts: Any) -> dict[str, int]:
    total: dict[str, int] = {}
    for each in counts:
        for k, v in each.items():
            total[k] = total.get(k, 0) + int(v)
    return dict(sorted(total.items(), key=lambda kv: -kv[1]))


def _split(items: list[Assignment], n: int) -> list[list[Assignment]]:
    return [items[i::n] for i in range(n) if items[i::n]]


def run_step(
    mode: str,
    tables: int,
    *,
    db: str,
    tokens: list[str],
    window: float,
    warmup: float,
    processes: int,
    tag: str,
    delay: float = 1.0,
    profile: Path | None = None,
    nodes: int = 1,
    redis: str = "",
    watchers: int = 0,
    local: bool = False,
    lines: bool = True,
) -> Row:
    """Measure one server (``croupier`` or ``baseline``) at ``tables`` tables; with
    ``nodes`` > 1, croupier as a room of that many processes on the one database, each
    client connected to the process that serves its table."""
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    names = tuple(f"n{i + 1}" for i in range(nodes)) if mode == "croupier" and nodes > 1 else ()
    servers: list[_Server] = []
    for name in names or ("",):  # one after the other: the first migrates the database
        servers.append(_Server(mode, db, tables, tag, env, name, names, redis if names else ""))
    server = servers[0]
    ctx = mp.get_context("spawn")
    by_node: dict[int, list[Assignment]] = {}
    for t in range(tables):
        seats = [(tokens[t * 6 + s], s) for s in range(6)]
        table_id = f"load-{tag}-{t}" if mode == "croupier" else f"base-{t}"
        where = names.index(preferred(table_id, names)) if names else 0
        by_node.setdefault(where, []).append((table_id, seats))
    pipes, procs = [], []
    setup_timeout = 60.0 + tables * 0.3
    try:
        for where, mine in sorted(by_node.items()):
            url = f"ws://127.0.0.1:{servers[where].port}/ws"
            # its watchers' process: another one (relayed through Redis), or its own
            other = servers[where if local else (where + 1) % len(servers)]
            watch_url = f"ws://127.0.0.1:{other.port}/ws" if local or (redis and names) else ""
            share = max(1, round(processes * len(mine) / tables))
            for part in _split(mine, share):
                parent, child = ctx.Pipe()
                proc = ctx.Process(
                    target=worker_main,
                    args=(
                        child,
                        url,
                        part,
                        delay,
                        len(procs),
                        setup_timeout,
                        watch_url,
                        watchers,
                        lines,
                    ),
                    daemon=True,
                )
                proc.start()
                pipes.append(parent)
                procs.append(proc)
        seated = 0
        for p in pipes:
            if not p.poll(setup_timeout + 30):
                raise RuntimeError("a client process did not get ready in time")
            _, ok, failed, errors = p.recv()
            seated += ok
            if failed:
                print(f"  {failed} players failed to sit: {errors}", file=sys.stderr)
        time.sleep(warmup)
        for each in servers:
            each.ask("reset")
        for p in pipes:
            p.send("start")
        for p in pipes:
            p.recv()
        spy = None
        if profile is not None:
            spy = subprocess.Popen(
                [
                    str(Path(sys.executable).with_name("py-spy")),
                    "record",
                    "-p",
                    str(server.proc.pid),
                    "-d",
                    str(int(window)),
                    "-r",
                    "50",
                    "--format",
                    "raw",
                    "-o",
                    str(profile),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        time.sleep(window)
        report = _combined([each.ask("report") for each in servers])
        if spy is not None:
            try:
                spy.wait(timeout=60)
            except subprocess.TimeoutExpired:
                spy.kill()
        stats = []
        for p in pipes:
            p.send("stop")
        for p in pipes:
            if not p.poll(60):
                raise RuntimeError("a client process did not report")
            stats.append(p.recv()[1])
    finally:
        for p in pipes:
            with contextlib.suppress(BrokenPipeError, OSError):
                p.send("quit")
        for proc in procs:
            proc.join(timeout=15)
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=5)
        for each in servers:
            each.stop()
    samples = [s for st in stats for s in st["samples"]]
    actions = sum(st["actions"] for st in stats)
    wall = max(float(report["wall"]), 1e-9)
    frames = sum(st["frames"] for st in stats)
    label = f"{mode} ({len(names)} processes)" if names else mode
    if mode == "croupier" and not lines:
        label += ", one message per frame"
    return Row(
        mode=label,
        tables=tables,
        players=tables * 6,
        seated=seated,
        window=wall,
        actions_per_s=actions / wall,
        latency=summarize(samples),
        cpu_pct=100.0 * float(report["cpu"]) / wall,
        cpu_ms_per_action=1000.0 * float(report["cpu"]) / max(actions, 1),
        rss_mb=int(report["rss"]) / 2**20,
        rss_start_mb=int(report.get("rss_start", 0)) / 2**20,
        lag_p99_ms=1000.0 * float(report["lag_p99"]),
        lag_max_ms=1000.0 * float(report["lag_max"]),
        gc_max_ms=1000.0 * float(report["gc_max"]),
        gc_max_loop_ms=1000.0 * float(report.get("gc_max_loop", 0.0)),
        gc_count=int(report.get("gc_count", 0)),
        gc_max_gen_ms=_triple(1000.0 * float(d) for d in report.get("gc_max_gen", [0.0] * 3)),
        gc_count_gen=_triple(int(n) for n in report.get("gc_count_gen", [0] * 3)),
        gc_cpu_max_gen_ms=_triple(
            1000.0 * float(d) for d in report.get("gc_cpu_max_gen", [0.0] * 3)
        ),
        gc_full=int(report["gc_full"]),
        full_ms=1000.0 * float(report.get("full_pause", 0.0)),
        full_cpu_ms=1000.0 * float(report.get("full_cpu", 0.0)),
        full_scanned=int(report.get("full_scanned", 0)),
        timeouts=sum(st["timeouts"] for st in stats),
        refused=sum(st["refused"] for st in stats),
        gaps=sum(st["gaps"] for st in stats),
        frames_per_action=frames / max(actions, 1),
        relay=(
            summarize([s for st in stats for s in st["relay_samples"]])
            if watchers and (local or (redis and names))
            else None
        ),
        relay_local=local,
        settle=(
            summarize(settled)
            if (settled := [s for st in stats for s in st["settle_samples"]])
            else None
        ),
        relay_gaps=sum(st["relay_gaps"] for st in stats),
        relay_frames=sum(st["relay_frames"] for st in stats),
        frames_out=int(report.get("frames_out", 0)),
        messages_out=int(report.get("messages_out", 0)),
        codes=_summed(st.get("codes", {}) for st in stats),
        clients_cpu_pct=100.0 * sum(float(st.get("cpu", 0.0)) for st in stats) / wall,
        blocks_start=int(report.get("blocks_start", 0)),
        blocks=int(report.get("blocks", 0)),
        journal_ms=_triple(1000.0 * float(report.get(k, 0.0)) for k in JOURNAL_MAXIMA),
        journal_waits=_triple(int(report.get(k, 0)) for k in JOURNAL_WAITS),
        leases=(
            int(report.get("lease_takeovers", 0)),
            int(report.get("lease_lost", 0)),
            1000.0 * float(report.get("lease_gap_max", 0.0)),
        ),
    )


HEADER = (
    "| tables / players | server | actions/s | p50 | p90 | p99 | p999 | max | CPU % | CPU ms/action "
    "| RSS MB (window start → end) | loop lag p99/max | GC max (full) | timeouts / refused / gaps | clients' CPU % |"
)


def format_row(r: Row) -> str:
    lat = r.latency.cells
    return (
        f"| {r.tables:,} / {r.players:,} | {r.mode} | {r.actions_per_s:.0f} | "
        + " | ".join(f"{c} ms" for c in lat)
        + f" | {r.cpu_pct:.0f} % | {r.cpu_ms_per_action:.2f} | {r.rss_start_mb:.0f} → {r.rss_mb:.0f} | "
        f"{r.lag_p99_ms:.0f} / {r.lag_max_ms:.0f} ms | {r.gc_max_ms:.0f} ms ({r.gc_full}) | "
        f"{r.timeouts} / {r.refused} / {r.gaps} | {r.clients_cpu_pct:.0f} % |"
    )


def frames_line(r: Row) -> str:
    """What croupier sent in ``r``'s window: frames, messages, per action."""
    if not r.frames_out:
        return ""
    actions = max(1.0, r.actions_per_s * r.window)
    return (
        f"  sent {r.frames_out:,} frames holding {r.messages_out:,} messages: "
        f"{r.messages_out / r.frames_out:.2f} messages per frame, "
        f"{r.frames_out / actions:.1f} frames per action"
    )


def store_line(r: Row) -> str:
    """croupier's journal waits and Python's allocated blocks in ``r``'s window."""
    if r.mode.startswith("baseline"):
        return ""
    wait, write, sync = r.journal_ms
    records, over50, over250 = r.journal_waits
    share = (
        f"; of {records:,} records durable, {over50:,} ({100.0 * over50 / records:.2f} %) "
        f"waited over 50 ms and {over250:,} ({100.0 * over250 / records:.2f} %) over 250 ms"
        if records
        else ""
    )
    taken, lost, gap = r.leases
    leases = (
        f"; leases since the start: {taken:,} tables taken over, {lost:,} lost, the longest "
        f"between two renewals {gap:.0f} ms"
        if " processes)" in r.mode
        else ""
    )
    return (
        f"  journal, the longest: record queued → durable {wait:.0f} ms, transaction "
        f"{write:.0f} ms, write on the caller's thread {sync:.0f} ms{share}; Python's "
        f"allocated blocks {r.blocks_start:,} → {r.blocks:,}{leases}"
    )


def settle_line(r: Row) -> str:
    """How long a hand's settlement followed the action that ended it (``r.settle``)."""
    if r.settle is None:
        return ""
    lat = r.settle.cells
    return (
        f"  a hand's settlement after the command that ended it (its record durable first): "
        f"p50 {lat[0]} ms, p90 {lat[1]} ms, p99 {lat[2]} ms, p999 {lat[3]} ms, max {lat[4]} ms "
        f"({r.settle.count:,} hands)"
    )


def relay_line(r: Row) -> str:
    """The relayed watchers' figures of ``r`` (``--relay-watchers``)."""
    if r.relay is None:
        return ""
    lat = r.relay.cells
    where = (
        "at the guest watchers of the serving process"
        if r.relay_local
        else "relayed through Redis to the watchers of another process"
    )
    return (
        f"  {where} at {r.tables:,} tables: "
        f"p50 {lat[0]} ms, p90 {lat[1]} ms, p99 {lat[2]} ms, p999 {lat[3]} ms, max {lat[4]} ms "
        f"({r.relay.count:,} samples, {r.relay_frames:,} frames, {r.relay_gaps} gaps)"
    )


def ratio_line(base: Row, cro: Row) -> str:
    cpu = cro.cpu_ms_per_action / base.cpu_ms_per_action if base.cpu_ms_per_action else math.nan
    p99 = cro.latency.p99 / base.latency.p99 if base.latency.p99 else math.nan
    return (
        f"  ratio {cro.mode} / baseline at {cro.tables:,} tables: CPU per action {cpu:.1f}×, "
        f"p99 {p99:.1f}×"
    )


def main(argv: list[str] | None = None) -> list[Row]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument(
        "--tables", type=int, nargs="*", help="ramp steps (default: 10, or the full ramp)"
    )
    ap.add_argument("--full", action="store_true", help="the full ramp 10 → 1,000 tables")
    ap.add_argument("--window", type=float, default=None, help="measured seconds per step")
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--processes", type=int, default=0, help="client processes (0: by size)")
    ap.add_argument("--db", default="", help="database URL (default: a temporary SQLite file)")
    ap.add_argument("--only", choices=("croupier", "baseline"), default=None)
    ap.add_argument(
        "--nodes",
        type=int,
        default=1,
        help="croupier as a room of N processes on the one database (server/cluster.py)",
    )
    ap.add_argument(
        "--redis",
        default="",
        help="with --nodes: the room's Redis URL (server/bus.py; bash scripts/redis.sh starts one)",
    )
    ap.add_argument(
        "--relay-watchers",
        type=int,
        default=0,
        help="with --redis: guest watchers per table on another process (relayed)",
    )
    ap.add_argument(
        "--local-watchers",
        type=int,
        default=0,
        help="guest watchers per table on the process serving it (to compare with relayed ones)",
    )
    ap.add_argument(
        "--frames",
        choices=("lines", "single", "both"),
        default="lines",
        help="croupier's clients ask for several messages per frame (lines, as the browser"
        " does), one per frame (single), or both one after the other",
    )
    ap.add_argument("--json", type=Path, default=None, help="also write the rows as JSON")
    ap.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="py-spy (dev extra) samples croupier's process during each window into"
        " PROFILE-<tables>.txt (collapsed stacks)",
    )
    ap.add_argument(
        "--memory",
        type=int,
        nargs=2,
        metavar=("TABLES", "CONNECTIONS"),
        help="measure croupier's memory per empty table and per idle connection instead",
    )
    args = ap.parse_args(argv)
    if args.memory:
        tables, conns = args.memory
        with tempfile.TemporaryDirectory(prefix="croupier-load-") as tmp:
            db = args.db or f"sqlite:///{tmp}/load.sqlite3"
            mem = measure_memory(db, provision_tokens(db, conns), tables, conns)
        for k, v in mem.items():
            print(f"{k}: {v:,.1f}")
        return []

    full = args.full or os.environ.get("CROUPIER_SOAK") == "1"
    steps = args.tables or (list(FULL_RAMP) if full else [10])
    window = args.window if args.window is not None else (30.0 if full else 15.0)
    if max(steps) > 1000 or min(steps) < 1:
        ap.error("1 to 1,000 tables per step")
    if args.redis and args.nodes < 2:
        ap.error("--redis needs --nodes 2 or more")
    if args.relay_watchers and not args.redis:
        ap.error("--relay-watchers needs --redis")
    if not 0 <= args.relay_watchers <= 10 or not 0 <= args.local_watchers <= 10:
        ap.error("--relay-watchers, --local-watchers: 0 to 10")
    if args.frames == "both" and args.nodes > 1:
        # the second room would take over the first one's tables (their leases in the database)
        ap.error(
            "--frames both runs one process: run --frames single and lines one after the other"
        )
    if args.relay_watchers and args.local_watchers:
        ap.error("--relay-watchers or --local-watchers, not both")
    with tempfile.TemporaryDirectory(prefix="croupier-load-") as tmp:
        db = args.db or f"sqlite:///{tmp}/load.sqlite3"
        t0 = time.monotonic()
        tokens = provision_tokens(db, 6 * max(steps))
        print(f"provisioned {len(tokens):,} accounts in {time.monotonic() - t0:.1f} s", flush=True)
        base_tokens = [f"base-{i + 1}" for i in range(len(tokens))]
        rows: list[Row] = []
        print(HEADER)
        print("| " + " | ".join(["---"] * 15) + " |", flush=True)
        for n, tables in enumerate(steps):
            procs = args.processes or max(1, min(4, math.ceil(tables / 150)))
            pair: dict[str, Row] = {}
            runs = [("baseline", True)] + [
                ("croupier", lines)
                for lines in (False, True)
                if args.frames == "both" or (args.frames == "lines") == lines
            ]
            for mode, lines in runs:
                if args.only and mode != args.only:
                    continue
                row = run_step(
                    mode,
                    tables,
                    lines=lines,
                    db=db,
                    tokens=tokens if mode == "croupier" else base_tokens,
                    window=window,
                    warmup=args.warmup,
                    processes=procs,
                    tag=f"s{n}",
                    nodes=args.nodes,
                    redis=args.redis,
                    watchers=args.relay_watchers or args.local_watchers,
                    local=bool(args.local_watchers),
                    profile=(
                        args.profile.with_name(f"{args.profile.stem}-{tables}.txt")
                        if args.profile is not None and mode == "croupier"
                        else None
                    ),
                )
                pair[mode if lines else "single"] = row
                rows.append(row)
                print(format_row(row), flush=True)
                if row.frames_out:
                    print(frames_line(row), flush=True)
                if line := store_line(row):
                    print(line, flush=True)
                if line := settle_line(row):
                    print(line, flush=True)
                print(
                    f"  {row.gc_count:,} collections, the longest {row.gc_max_ms:.0f} ms, "
                    f"the longest on the event loop's thread {row.gc_max_loop_ms:.0f} ms; "
                    "by generation (young / middle / full): "
                    + " / ".join(
                        f"{n:,} up to {ms:.0f} ms"
                        for n, ms in zip(row.gc_count_gen, row.gc_max_gen_ms, strict=True)
                    )
                    + " (the most CPU time one took: "
                    + " / ".join(f"{ms:.0f}" for ms in row.gc_cpu_max_gen_ms)
                    + " ms)",
                    flush=True,
                )
                if row.full_scanned:
                    print(full_line(row), flush=True)
                if row.codes:
                    print("  " + ", ".join(f"{k}: {v}" for k, v in row.codes.items()), flush=True)
                if row.relay is not None:
                    print(relay_line(row), flush=True)
            if "baseline" in pair:
                for key in ("single", "croupier"):
                    if key in pair:
                        print(ratio_line(pair["baseline"], pair[key]), flush=True)
        if args.json is not None:
            args.json.write_text(json.dumps([asdict(r) for r in rows], indent=1))
        return rows


def measure_memory(db: str, tokens: list[str], tables: int, connections: int) -> dict[str, float]:
    """RSS of croupier's process: empty, with ``tables`` empty tables open, and with
    ``connections`` idle authenticated WebSockets (hello only) on top; per table and per
    connection in KiB, and the objects the collector tracks (and a full collection
    scans) per table and per connection. A collection runs before each reading
    (gc.collect in ``report``)."""
    import asyncio

    from websockets.asyncio.client import connect

    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    env["LOAD_COLLECT_BEFORE_REPORT"] = "1"
    env["LOAD_COUNT_OBJECTS"] = "1"
    empty = _Server("croupier", db, 0, "m0", env)
    try:
        time.sleep(2)
        report0 = empty.ask("report")
        rss0, objects0 = float(report0["rss"]), int(report0["gc_objects"])
    finally:
        empty.stop()
    server = _Server("croupier", db, tables, "m1", env)
    try:
        time.sleep(2)
        report1 = server.ask("report")
        rss1, objects1 = float(report1["rss"]), int(report1["gc_objects"])

        async def idle() -> dict[str, Any]:
            url = f"ws://127.0.0.1:{server.port}/ws"
            socks = []
            sem = asyncio.Semaphore(64)

            async def one(token: str) -> None:
                async with sem:
                    ws = await connect(url, compression=None, ping_interval=None)
                await ws.send(json.dumps({"type": "hello", "token": token}))
                await ws.recv()
                socks.append(ws)

            await asyncio.wait_for(
                asyncio.gather(*(one(t) for t in tokens[:connections])), 60 + connections / 20
            )
            await asyncio.sleep(2)
            report = await asyncio.to_thread(server.ask, "report")
            for ws in socks:
                await ws.close()
            return report

        report2 = asyncio.run(idle())
        rss2, objects2 = float(report2["rss"]), int(report2["gc_objects"])
    finally:
        server.stop()
    return {
        "rss_empty_mb": rss0 / 2**20,
        "rss_tables_mb": rss1 / 2**20,
        "rss_connections_mb": rss2 / 2**20,
        "kib_per_table": (rss1 - rss0) / tables / 1024,
        "kib_per_connection": (rss2 - rss1) / connections / 1024,
        "objects_per_table": (objects1 - objects0) / tables,
        "objects_per_connection": (objects2 - objects1) / connections,
    }


def provision_tokens(db: str, count: int) -> list[str]:
    from bench.load.provision import provision

    return provision(db, count)


if __name__ == "__main__":
    main()
