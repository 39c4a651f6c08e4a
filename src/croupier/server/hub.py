"""Connections of this process: one live WebSocket per account (a newer one takes over),
per-table audiences for chat, lobby watchers, and counters for ``/metrics``."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = ["Connection", "Hub", "Metrics", "RoomLink"]


class Connection(Protocol):
    account_id: int | None
    token_hash: str | None

    def send(self, message: dict[str, Any] | str) -> None: ...

    def close_soon(self, code: int, reason: str) -> None: ...


class RoomLink(Protocol):
    """The other processes of the room (server/bus.py), told what this one's hub sees."""

    def to_table(self, table_id: str, message: dict[str, Any]) -> None: ...

    def claimed(self, account_id: int) -> None: ...

    def released(self, account_id: int) -> None: ...


@dataclass(slots=True)
class Metrics:
    connections_opened: int = 0
    connections_open: int = 0
    messages_in: int = 0
    messages_refused: int = 0
    frames_out: int = 0
    messages_out: int = 0
    http_requests: int = 0


@dataclass(slots=True)
class Hub:
    by_account: dict[int, Connection] = field(default_factory=dict)
    watchers: dict[str, set[Connection]] = field(default_factory=lambda: defaultdict(set))
    lobby: set[Connection] = field(default_factory=set)
    every: set[Connection] = field(default_factory=set)
    metrics: Metrics = field(default_factory=Metrics)
    room: RoomLink | None = None
    """Set in a room of several processes sharing Redis (server/bus.py)."""

    def add(self, conn: Connection) -> None:
        self.every.add(conn)
        self.metrics.connections_opened += 1
        self.metrics.connections_open = len(self.every)

    def claim(self, conn: Connection, account_id: int, code: int) -> None:
        """``conn`` is now the account's connection; an older one is closed with ``code``."""
        old = self.by_account.get(account_id)
        self.by_account[account_id] = conn
        if self.room is not None:
            self.room.claimed(account_id)
        if old is not None and old is not conn:
            old.close_soon(code, "another connection of this account took over")

    def remove(self, conn: Connection) -> None:
        self.every.discard(conn)
        self.lobby.discard(conn)
        for group in self.watchers.values():
            group.discard(conn)
        if conn.account_id is not None and self.by_account.get(conn.account_id) is conn:
            del self.by_account[conn.account_id]
            if self.room is not None:
                self.room.released(conn.account_id)
        self.metrics.connections_open = len(self.every)

    def close_session(self, token_hash: str, code: int) -> int:
        """Close every connection authenticated with this session; how many."""
        hit = [c for c in self.every if c.token_hash == token_hash]
        for c in hit:
            c.close_soon(code, "logged out")
        return len(hit)

    def to_table(self, table_id: str, message: dict[str, Any]) -> None:
        """``message`` to the table's watchers here, and through the room's link to its
        watchers on the other processes."""
        for c in list(self.watchers.get(table_id, ())):
            c.send(message)
        if self.room is not None:
            self.room.to_table(table_id, message)

    def to_lobby(self, message: dict[str, Any]) -> None:
        for c in list(self.lobby):
            c.send(message)

    def close_all(self, code: int, reason: str) -> None:
        for c in list(self.every):
            c.close_soon(code, reason)
