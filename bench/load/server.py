"""The server under test, in its own process: ``python -m bench.load.server --mode croupier``
(or ``baseline``). It listens on a free loopback port, opens ``--tables`` empty 6-max NLHE
1/2 tables (croupier), prints ``{"port": …}`` on stdout when ready, then answers the
harness's stdin commands: ``reset`` (start a measured window), ``report`` (one JSON line
of figures since the reset: CPU, RSS, loop lag, GC pauses), ``quit``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import sys
import threading
from collections.abc import AsyncIterator
from typing import Any

import uvicorn
from bench.load.probe import Probe

__all__ = ["main"]


def _croupier_app(
    db: str,
    tables: int,
    tag: str,
    probe: Probe,
    node: str = "",
    nodes: tuple[str, ...] = (),
    redis: str = "",
) -> Any:
    from croupier.lobby import TableSpec
    from croupier.server.app import create_app
    from croupier.server.cluster import preferred
    from croupier.server.serve import tuned
    from croupier.server.settings import Settings
    from croupier.store.groupcommit import GroupCommitJournal

    settings = Settings(
        database_url=db,
        allowed_origins=("*",),
        default_tables=False,
        messages_per_second=50.0,
        message_burst=100,
        between_hands_seconds=1.0,
        casino_tables=0 if node and node != nodes[0] else 1,
        node_id=node,
        nodes=nodes,
        # the room's own lease length (3 s) unless CROUPIER_LEASE_SECONDS says otherwise
        **(
            {"lease_seconds": float(lease)}
            if (lease := os.environ.get("CROUPIER_LEASE_SECONDS"))
            else {}
        ),
        redis_url=redis,
        redis_prefix=f"load-{tag}",
        # CROUPIER_GC_PACE_SECONDS=0 measures the collector's automatic collections alone
        **(
            {"gc_pace_seconds": float(pace)}
            if (pace := os.environ.get("CROUPIER_GC_PACE_SECONDS"))
            else {}
        ),
        # CROUPIER_SWITCH_INTERVAL_MS=5 measures CPython's default switch interval
        **(
            {"switch_interval_ms": float(switch)}
            if (switch := os.environ.get("CROUPIER_SWITCH_INTERVAL_MS"))
            else {}
        ),
    )
    app = create_app(settings)
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(a: Any) -> AsyncIterator[None]:
        async with inner(a):
            registry = a.state.services.registry
            for i in range(tables):
                table_id = f"load-{tag}-{i}"
                if node and preferred(table_id, nodes) != node:
                    continue  # another process of the room serves it
                spec = TableSpec(table_id, f"Load {i}", "nlhe", "room", (1, 2), 6)
                await registry.open(spec)
            metrics = a.state.services.hub.metrics
            journal = registry.journal
            waits = None
            cluster = a.state.services.node
            if isinstance(journal, GroupCommitJournal):
                waits, writes, syncs = journal.waits, journal.writes, journal.sync_writes

                def maxima() -> dict[str, float]:
                    out = {
                        "journal_wait_max": waits.take_window_max(),
                        "journal_write_max": writes.take_window_max(),
                        "journal_sync_max": syncs.take_window_max(),
                    }
                    if cluster is not None:  # since the process started, not per window
                        out["lease_takeovers"] = cluster.takeovers
                        out["lease_lost"] = cluster.lost
                        out["lease_gap_max"] = cluster.longest_gap
                    return out

                probe.maxima = maxima

            def counters() -> dict[str, int]:
                out = {"frames_out": metrics.frames_out, "messages_out": metrics.messages_out}
                if waits is not None:
                    out["journal_waits"] = waits.count
                    out["journal_waits_over_50ms"] = waits.longer_than(0.05)
                    out["journal_waits_over_250ms"] = waits.longer_than(0.25)
                return out

            probe.counters = counters
            probe.start()
            yield

    app.router.lifespan_context = lifespan
    # as croupier serve: once the tables are open, the collector tuned and paced and the
    # GIL's switch interval set (restored, and the pacer stopped, at shutdown)
    return tuned(app, settings.gc_pace_seconds, settings.switch_interval_ms)


def _baseline_app(probe: Probe) -> Any:
    from bench.load.baseline import baseline_app

    app = baseline_app()

    @contextlib.asynccontextmanager
    async def lifespan(a: Any) -> AsyncIterator[None]:
        probe.start()
        yield

    app.router.lifespan_context = lifespan
    return app


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--mode", choices=("croupier", "baseline"), required=True)
    ap.add_argument("--db", default="sqlite:///./load.sqlite3")
    ap.add_argument("--tables", type=int, default=10)
    ap.add_argument("--tag", default="t")
    ap.add_argument("--node", default="", help="this process's node name (a room of several)")
    ap.add_argument("--nodes", default="", help="every node of the room, comma-separated")
    ap.add_argument("--redis", default="", help="the room's Redis URL (server/bus.py)")
    args = ap.parse_args(argv)

    probe = Probe()
    nodes = tuple(n for n in args.nodes.split(",") if n)
    app = (
        _croupier_app(args.db, args.tables, args.tag, probe, args.node, nodes, args.redis)
        if args.mode == "croupier"
        else _baseline_app(probe)
    )
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    from croupier.server.wsproto import uvicorn_options

    options = uvicorn_options(64 * 1024) if args.mode == "croupier" else {"lifespan": "on"}
    if stock := os.environ.get("LOAD_UVICORN_WS"):  # e.g. websockets-sansio: uvicorn's own
        options["ws"] = stock
    config = uvicorn.Config(
        app, log_level="warning", backlog=8192, ws_ping_interval=None, **options
    )
    server = uvicorn.Server(config)
    started = threading.Event()

    def control(loop: asyncio.AbstractEventLoop) -> None:
        started.wait()
        print(json.dumps({"port": port}), flush=True)
        for line in sys.stdin:
            cmd = line.strip()
            if cmd == "reset":
                loop.call_soon_threadsafe(probe.reset)
                print(json.dumps({"ok": True}), flush=True)
            elif cmd == "report":
                print(json.dumps(probe.report()), flush=True)
            elif cmd == "quit":
                break
        server.should_exit = True

    async def run() -> None:
        loop = asyncio.get_running_loop()
        threading.Thread(target=control, args=(loop,), daemon=True).start()
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started:
            if task.done():
                task.result()
                return
            await asyncio.sleep(0.05)
        started.set()
        await task

    asyncio.run(run())


if __name__ == "__main__":
    main()
