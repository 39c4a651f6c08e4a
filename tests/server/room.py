"""A room of several real ``croupier serve`` processes on one database, for the tests of
server/cluster.py and server/bus.py: the processes, and what they say of themselves
(``/health``, ``/metrics``) and of their leases."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from croupier.server.cluster import ROOM_LEASE
from croupier.store import open_store
from tests.server.chaos import ServerProcess
from tests.server.live import free_port

__all__ = ["BUSY", "health", "holders", "metric", "room"]

BUSY = {
    "CROUPIER_CASINO_TABLES": "0",
    # hands back to back, at a pace two processes share a SQLite file at
    "CROUPIER_BOT_DELAY_SECONDS": "0.05",
    "CROUPIER_BETWEEN_HANDS_SECONDS": "0.05",
}
"""Settings of a room whose bot tables deal continuously, with no casino."""


def room(
    url: str,
    tmp_path: Path,
    nodes: tuple[str, ...],
    *,
    bot_tables: int,
    env: dict[str, str],
    lease: float = 2.0,
) -> dict[str, ServerProcess]:
    """One :class:`ServerProcess` per node name (not started), each on its own free port
    with its node settings, ``env`` added."""
    ports = {n: free_port() for n in nodes}
    return {
        n: ServerProcess(
            url,
            tmp_path / f"node-{n}.log",
            bot_tables=bot_tables,
            env={
                **env,
                "CROUPIER_PORT": str(ports[n]),
                "CROUPIER_NODE_ID": n,
                "CROUPIER_NODES": ",".join(nodes),
                "CROUPIER_NODE_URL": f"http://127.0.0.1:{ports[n]}",
                "CROUPIER_LEASE_SECONDS": str(lease),
            },
        )
        for n in nodes
    }


def health(server: ServerProcess) -> dict[str, Any]:
    """``/health`` of ``server`` (``{}`` while it does not answer)."""
    try:
        body: dict[str, Any] = httpx.get(f"{server.base}/health", timeout=2).json()
    except httpx.HTTPError:
        return {}
    return body


def metric(server: ServerProcess, name: str) -> int:
    """The counter ``name`` of ``server``'s ``/metrics`` (0 while it does not answer)."""
    try:
        text = httpx.get(f"{server.base}/metrics", timeout=2).text
    except httpx.HTTPError:
        return 0
    for line in text.splitlines():
        if line.startswith(name + " "):
            return int(float(line.split()[1]))
    return 0


def holders(url: str) -> dict[str, str]:
    """Each table's live lease holder (node name), the room services' lease aside."""
    with open_store(url) as store:
        now = store.leases.now_ms()
        return {
            lease.name: lease.owner.split("/")[0]
            for lease in store.leases.all()
            if lease.live(now) and lease.name != ROOM_LEASE
        }
