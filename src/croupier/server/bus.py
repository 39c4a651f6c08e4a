"""Redis between the processes of one room (issue #16): a table watched from any process,
chat across processes, presence.

With ``CROUPIER_REDIS_URL`` set (node mode only, server/cluster.py), every process of the
room joins a Redis server. Each table is still served by one process (its lease holder),
which alone runs it and alone sends its seated players their cards; Redis carries only
what every watcher may see:

- **Watching from anywhere.** A client asks process B to watch a table that process A
  serves. B subscribes to the table's channel and asks A (``watch``, on A's request
  channel). A checks the request (the table is public, admits spectators, and the client
  does not sit there: a seated player plays on A and is sent there, ``table_elsewhere``),
  starts publishing the table's spectator frames (each encoded once, the same text A's
  own spectators get) and answers with the table's row and a spectator snapshot. B sends
  them to its client and relays every later frame of the channel to all its clients
  watching that table. Every frame of A leaves through one connection in order and the
  answer travels in that same order, so the client's stream has neither a gap nor a
  repeat (a frame at or below the snapshot's version is skipped). B renews its interest
  every round; A stops publishing a table nobody relays any more
  (:data:`INTEREST_ROUNDS` rounds after the last renewal).
- **Chat.** A line said on B at A's table is sent to A (``chat``), checked against the
  table's rules there and said at the table: A's watchers get it, and B's through the
  channel.
- **Moves.** When the table is served by another process than A (A died and a process
  took it over, or A lost it), B's relay ends: its clients get ``table_closed`` with
  reason ``moved`` and subscribe again, reaching the table where it now is. While the
  table is served nowhere (between A's death and the takeover), they wait.
- **One connection per account, room-wide.** An account connecting on one process closes
  its connection on any other (``kick``: the newest connection wins, as on one process).
- **Who is online.** Each process keeps the set of accounts connected to it in Redis
  (expiring when the process stops renewing it); the room's count is their sum.

Redis failing never stops a table: a watch that gets no answer falls back to sending the
client to the serving process (``table_elsewhere``), and the bus reconnects by itself.

Messages on a table's channel are ``origin tag frame``: the publishing process, the
frame's version (``-`` for a frame without one, ``x`` for the last one: the table closed)
and the frame's JSON text, relayed as it is.

>>> split_frame("n1/abc 12 {}")
('n1/abc', '12', '{}')
>>> split_frame("garbage") is None
True
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson
import redis.asyncio as aioredis

from croupier.server.arcade import dress, wants_look
from croupier.server.hub import Connection
from croupier.server.protocol import CloseCode
from croupier.server.tablechat import chat_message
from croupier.server.wire import dumps, encoded_event, event_message, snapshot_message
from croupier.table.events import TableEvent
from croupier.table.results import TableError

if TYPE_CHECKING:
    from croupier.server.app import Services
    from croupier.table.actor import EventStream

__all__ = ["INTEREST_ROUNDS", "Bus", "RemoteStream", "split_frame"]

log = logging.getLogger("croupier.server")

INTEREST_ROUNDS = 4
"""Rounds (each half a lease) a serving process keeps publishing a table after the last
renewal of a relaying process's interest."""

LIMBO_ROUNDS = 20
"""Rounds a relay waits for a table served nowhere (its process died) to be served again
(taken over) before its watchers are told it moved (they then find it, or learn it is
gone)."""

PRESENCE_REFRESH_ROUNDS = 30
"""Rounds between two full rewrites of this process's presence set (between them, each
connection adds or removes its account)."""

REQUEST_SECONDS = 2.0
"""How long a request to another process waits for its answer."""


def split_frame(message: str) -> tuple[str, str, str] | None:
    """``(origin, tag, frame)`` of a table channel's message (``None``: malformed)."""
    parts = message.split(" ", 2)
    return (parts[0], parts[1], parts[2]) if len(parts) == 3 else None


@dataclass(slots=True)
class _Shared:
    """A table of this process that other processes relay: its spectator subscription."""

    stream: EventStream
    until: float


@dataclass(slots=True)
class _Relay:
    """A table of another process that clients of this one watch."""

    table_id: str
    node: str
    conns: dict[Connection, int] = field(default_factory=dict)
    """Each watching connection and the version it has seen (its snapshot's)."""
    limbo: int = 0
    """Rounds since the table was last seen served anywhere."""


class RemoteStream:
    """What a connection holds for a table it watches through the bus (as it holds an
    :class:`~croupier.table.actor.EventStream` for a table of this process)."""

    __slots__ = ("_bus", "_conn", "table_id")

    def __init__(self, bus: Bus, conn: Connection, table_id: str) -> None:
        self._bus, self._conn, self.table_id = bus, conn, table_id

    def close(self) -> None:
        self._bus.unwatch(self._conn, self.table_id)


class Bus:
    """This process's side of the room's Redis (one per process, node mode only)."""

    def __init__(self, sv: Services, url: str, *, monotonic: Callable[[], float] = time.monotonic):
        if sv.node is None:
            raise ValueError("the bus needs node mode (CROUPIER_NODE_ID)")
        self.sv = sv
        self.node = sv.node
        self.redis = aioredis.from_url(
            url, socket_timeout=REQUEST_SECONDS, socket_connect_timeout=2
        )
        self.prefix = sv.settings.redis_prefix
        self.me = self.node.owner
        self.round = sv.settings.lease_seconds / 2
        self._monotonic = monotonic
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        self._out: asyncio.Queue[tuple[str, str, str]] = asyncio.Queue()
        """What to send, in order: ``(command, key or channel, value)``; command
        ``publish``, ``sadd`` or ``srem``."""
        self._waiting: dict[str, Callable[[dict[str, Any]], None]] = {}
        self.shared: dict[str, _Shared] = {}
        self.relays: dict[str, _Relay] = {}
        self._claimed: dict[int, int] = {}
        """When each account connected here (ns, wall clock): a kick from a newer
        connection elsewhere closes ours, an older one does not."""
        self.online = 0
        self.published = 0
        """Publications and presence changes sent (``croupier_bus_sent_total``)."""
        self._fresh = False
        self._rounds_done = 0
        self._tasks: list[asyncio.Task[None]] = []

    # -- names ---------------------------------------------------------------------------

    def _table(self, table_id: str) -> str:
        return f"{self.prefix}:table:{table_id}"

    def _node(self, name: str) -> str:
        return f"{self.prefix}:node:{name}"

    def _reply(self, owner: str) -> str:
        return f"{self.prefix}:reply:{owner}"

    @property
    def _kick(self) -> str:
        return f"{self.prefix}:kick"

    def _presence(self, name: str) -> str:
        return f"{self.prefix}:online:{name}"

    # -- life ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Join: this process's request and reply channels, the kick channel, an empty
        presence set. Raises if Redis cannot be reached (the process does not start
        half-joined)."""
        await self.redis.delete(self._presence(self.node.name))
        await self._pubsub.subscribe(self._node(self.node.name), self._reply(self.me), self._kick)
        self._tasks = [
            asyncio.create_task(self._read()),
            asyncio.create_task(self._write()),
            asyncio.create_task(self._rounds()),
        ]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        for shared in self.shared.values():
            shared.stream.close()
        self.shared.clear()
        with contextlib.suppress(Exception):
            await self.redis.delete(self._presence(self.node.name))
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # -- the wire ------------------------------------------------------------------------

    def _send(self, channel: str, message: str) -> None:
        """Publish ``message`` (in order with every other one of this process)."""
        self._out.put_nowait(("publish", channel, message))

    async def _write(self) -> None:
        """Send the queued publications and presence changes, many per round trip, in
        order, one batch at a time (one connection: the order is Redis's order)."""
        while True:
            batch = [await self._out.get()]
            while not self._out.empty() and len(batch) < 512:
                batch.append(self._out.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for command, key, value in _coalesced(batch):
                        if command == "publish":
                            pipe.publish(key, value)
                        elif command == "sadd":
                            pipe.sadd(key, value)
                        else:
                            pipe.srem(key, value)
                    await pipe.execute()
                self.published += len(batch)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._fresh = False  # presence changes lost too: rewritten next round
                log.warning(
                    "redis publish failed (%d messages lost): %r",
                    len(batch),
                    exc,
                    extra={"event": "bus_publish_failed"},
                )
                await asyncio.sleep(0.2)

    async def _read(self) -> None:
        while True:
            try:
                msg = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("redis read failed", extra={"event": "bus_read_failed"})
                await asyncio.sleep(0.5)
                continue
            if msg is None or msg.get("type") != "message":
                continue
            try:
                self._on(_text(msg["channel"]), _text(msg["data"]))
            except Exception:
                log.exception("bus message failed", extra={"event": "bus_message_failed"})

    def _on(self, channel: str, data: str) -> None:
        for line in data.split("\n"):  # several messages in one publication (_coalesced)
            self._one(channel, line)

    def _one(self, channel: str, data: str) -> None:
        if channel == self._reply(self.me):
            body = _json(data)
            answer = self._waiting.pop(str(body.get("id")), None) if body else None
            if answer is not None and body is not None:
                answer(body)
        elif channel == self._node(self.node.name):
            body = _json(data)
            if body is not None:
                self._request(body)
        elif channel == self._kick:
            body = _json(data)
            if body is not None:
                self._kicked(body)
        else:
            self._frame(channel.removeprefix(f"{self.prefix}:table:"), data)

    # -- requests ------------------------------------------------------------------------

    async def ask(
        self,
        node: str,
        body: dict[str, Any],
        answered: Callable[[dict[str, Any]], None] | None = None,
    ) -> dict[str, Any] | None:
        """Send ``body`` to ``node`` and wait for its answer (``None``: none in time).
        ``answered`` runs on the answer as it is read, in order with the table frames
        read before and after it."""
        rid = uuid.uuid4().hex
        done: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

        def on_answer(answer: dict[str, Any]) -> None:
            if answered is not None and not done.done():
                answered(answer)
            if not done.done():
                done.set_result(answer)

        self._waiting[rid] = on_answer
        self._send(self._node(node), dumps({**body, "id": rid, "from": self.me}))
        try:
            return await asyncio.wait_for(done, REQUEST_SECONDS)
        except TimeoutError:
            return None
        finally:
            self._waiting.pop(rid, None)

    def _answer(self, to: dict[str, Any], body: dict[str, Any]) -> None:
        sender = to.get("from")
        if isinstance(sender, str):
            self._send(self._reply(sender), dumps({**body, "id": to.get("id")}))

    def _request(self, body: dict[str, Any]) -> None:
        op = body.get("op")
        if op == "watch":
            self._answer(body, self._share(body))
        elif op == "keep":  # (publishing again what stopped: Redis was away too long)
            for table_id in body.get("tables") or ():
                live = self.sv.registry.tables.get(str(table_id))
                if live is not None and self._refusal(str(table_id), None) is None:
                    self._publish_from(str(table_id), live)
        elif op == "chat":
            self._answer(body, self._chat(body))

    # -- serving side: tables of this process watched elsewhere ---------------------------

    def _share(self, body: dict[str, Any]) -> dict[str, Any]:
        """Answer a ``watch``: the row and a spectator snapshot, and publish from now."""
        table_id = str(body.get("table"))
        player = body.get("player")
        refused = self._refusal(table_id, player if isinstance(player, str) else None)
        if refused is not None:
            return {"ok": False, "code": refused}
        live = self.sv.registry.get(table_id)
        table = live.actor.table
        self._publish_from(table_id, live)
        snap = dress(
            self.sv, snapshot_message(table_id, table.snapshot(None), now=table.clock.now())
        )
        return {"ok": True, "version": table.version, "info": live.info(), "snapshot": dumps(snap)}

    def _refusal(self, table_id: str, player: str | None) -> str | None:
        """Why ``table_id`` is not watched through the bus by ``player`` (``None``: it is)."""
        registry = self.sv.registry
        live = registry.tables.get(table_id)
        if live is None or not registry.serving(table_id) or not live.actor.alive:
            return "unknown_table"
        table = live.actor.table
        seated = player is not None and any(s.player_id == player for s in table.seats.values())
        if live.spec.private or seated:  # codes and cards are checked where the table runs
            return "table_elsewhere"
        if not table.config.rules.spectators:
            return "spectators_not_allowed"
        return None

    def _publish_from(self, table_id: str, live: Any) -> None:
        """Publish ``table_id``'s spectator frames (for :data:`INTEREST_ROUNDS` more rounds)."""
        until = self._monotonic() + INTEREST_ROUNDS * self.round
        shared = self.shared.get(table_id)
        if shared is not None:
            shared.until = max(shared.until, until)
            return
        channel = self._table(table_id)
        clock = live.actor.table.clock

        def publish(event: TableEvent) -> None:
            if wants_look(event):
                text = dumps(dress(self.sv, event_message(table_id, event, now=clock.now())))
            else:
                text = encoded_event(table_id, event, clock.now())
            self._send(channel, f"{self.me} {event.version} {text}")

        stream = live.actor.subscribe(None, publish, internal=True)
        self.shared[table_id] = _Shared(stream, until)

    def to_table(self, table_id: str, message: dict[str, Any]) -> None:
        """A table-wide message said here (chat, a look, the table closing): to the other
        processes' watchers too, if any relay the table."""
        if table_id not in self.shared:
            return
        last = message.get("type") == "table_closed"
        self._send(self._table(table_id), f"{self.me} {'x' if last else '-'} {dumps(message)}")
        if last:
            self.shared.pop(table_id).stream.close()

    def _chat(self, body: dict[str, Any]) -> dict[str, Any]:
        table_id = str(body.get("table"))
        if not self.sv.registry.serving(table_id):
            return {"ok": False, "code": "not_subscribed", "text": "watch the table to chat"}
        said = chat_message(
            self.sv,
            table_id,
            name=str(body.get("name")),
            account_id=int(body.get("account") or 0),
            text=_opt(body.get("text")),
            canned=_opt(body.get("canned")),
            emote=_opt(body.get("emote")),
        )
        if isinstance(said, TableError):
            return {"ok": False, "code": said.code, "text": str(said)}
        self.sv.hub.to_table(table_id, said)
        return {"ok": True}

    # -- relaying side: tables of other processes watched here -----------------------------

    async def watch(self, conn: Connection, table_id: str, player_id: str | None) -> str | None:
        """Have ``conn`` watch ``table_id`` of another process through its channel: the
        row, a snapshot and ``subscribed`` are sent to it here. Returns ``None`` when done,
        else the refusal's code (``table_elsewhere``: the client must go there)."""
        node = self.node.holder(table_id)
        if node is None:
            return "table_elsewhere"
        relay = self.relays.get(table_id)
        if relay is not None and relay.node != node:  # it moved: its watchers find it anew
            self.moved(table_id)
            relay = None
        if relay is None:
            relay = self.relays[table_id] = _Relay(table_id, node)
            try:
                await self._pubsub.subscribe(self._table(table_id))
            except Exception:
                log.warning("redis subscribe failed", extra={"event": "bus_read_failed"})
                self._drop_if_idle(table_id)
                return "table_elsewhere"

        def answered(answer: dict[str, Any]) -> None:  # in order with the channel's frames
            if not answer.get("ok") or self.relays.get(table_id) is not relay:
                return
            version = int(answer.get("version") or 0)
            info = answer.get("info")
            if isinstance(info, dict):  # where a seat is taken (the client goes there)
                info["node_url"] = self.node.url_of(table_id)
            conn.send({"type": "table_info", "table_id": table_id, "table": info})
            conn.send(str(answer.get("snapshot")))
            conn.send({"type": "subscribed", "table_id": table_id, "version": version})
            relay.conns[conn] = version

        answer = await self.ask(
            node, {"op": "watch", "table": table_id, "player": player_id}, answered
        )
        if answer is None or not answer.get("ok") or conn not in relay.conns:
            relay.conns.pop(conn, None)
            self._drop_if_idle(table_id)
            return "table_elsewhere" if answer is None else str(answer.get("code"))
        return None

    def unwatch(self, conn: Connection, table_id: str) -> None:
        relay = self.relays.get(table_id)
        if relay is not None:
            relay.conns.pop(conn, None)
            self._drop_if_idle(table_id)

    def _drop_if_idle(self, table_id: str) -> None:
        relay = self.relays.get(table_id)
        if relay is not None and not relay.conns:
            del self.relays[table_id]
            self._later(self._unsubscribe(table_id))

    async def _unsubscribe(self, table_id: str) -> None:
        if table_id not in self.relays:  # not watched again meanwhile
            await self._pubsub.unsubscribe(self._table(table_id))

    def _frame(self, table_id: str, data: str) -> None:
        relay = self.relays.get(table_id)
        parts = split_frame(data)
        if relay is None or parts is None:
            return
        _origin, tag, frame = parts
        if tag.isdigit():
            version = int(tag)
            for conn, seen in list(relay.conns.items()):
                if version > seen:
                    relay.conns[conn] = version
                    conn.send(frame)
            return
        for conn in list(relay.conns):
            conn.send(frame)
        if tag == "x":  # the table closed where it ran
            relay.conns.clear()
            self._drop_if_idle(table_id)

    def moved(self, table_id: str) -> None:
        """``table_id`` is no longer served where this process relays it from: its
        watchers here are told (``table_closed``, reason ``moved``) and subscribe again."""
        relay = self.relays.get(table_id)
        if relay is None:
            return
        for conn in list(relay.conns):
            conn.send({"type": "table_closed", "table_id": table_id, "reason": "moved"})
        relay.conns.clear()
        self._drop_if_idle(table_id)

    async def chat(self, table_id: str, body: dict[str, Any]) -> tuple[str, str] | None:
        """Say a line at ``table_id`` of another process (``None``: said), else the
        refusal's ``(code, text)``."""
        relay = self.relays.get(table_id)
        if relay is None:
            return ("not_subscribed", "watch the table to chat")
        answer = await self.ask(relay.node, {"op": "chat", "table": table_id, **body})
        if answer is None:
            return ("unavailable", "the table's process did not answer; try again")
        if not answer.get("ok"):
            return (str(answer.get("code")), str(answer.get("text")))
        return None

    # -- presence ------------------------------------------------------------------------

    def claimed(self, account_id: int) -> None:
        """``account_id`` connected here: close its connection on any other process."""
        at = time.time_ns()
        self._claimed[account_id] = at
        self._send(self._kick, dumps({"account": account_id, "at": at, "by": self.me}))
        self._out.put_nowait(("sadd", self._presence(self.node.name), str(account_id)))

    def released(self, account_id: int) -> None:
        self._claimed.pop(account_id, None)
        self._out.put_nowait(("srem", self._presence(self.node.name), str(account_id)))

    def _kicked(self, body: dict[str, Any]) -> None:
        if body.get("by") == self.me:
            return
        account = body.get("account")
        conn = self.sv.hub.by_account.get(account) if isinstance(account, int) else None
        if conn is None or not isinstance(account, int):
            return
        if self._claimed.get(account, 0) < int(body.get("at") or 0):
            conn.close_soon(CloseCode.REPLACED, "another connection of this account took over")

    # -- rounds --------------------------------------------------------------------------

    async def _rounds(self) -> None:
        while True:
            await asyncio.sleep(self.round)
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("bus round failed", extra={"event": "bus_round_failed"})

    async def tick(self) -> None:
        """One round: renew the interest in the tables relayed here (and end the relays
        of tables that moved), stop publishing the tables nobody relays, renew this
        process's presence and count the room's."""
        by_node: dict[str, list[str]] = {}
        for table_id, relay in list(self.relays.items()):
            holder = self.node.holder(table_id)
            if self.sv.registry.serving(table_id) or holder not in (None, relay.node):
                self.moved(table_id)  # served here now, or by another process
            elif holder is None:  # nobody yet: its process died, a takeover is coming
                relay.limbo += 1
                if relay.limbo > LIMBO_ROUNDS:
                    self.moved(table_id)
            else:
                relay.limbo = 0
                by_node.setdefault(relay.node, []).append(table_id)
        for node, tables in by_node.items():
            self._send(self._node(node), dumps({"op": "keep", "tables": tables, "from": self.me}))
        now = self._monotonic()
        for table_id, shared in list(self.shared.items()):
            if shared.until < now or not self.sv.registry.serving(table_id):
                del self.shared[table_id]
                shared.stream.close()
        key = self._presence(self.node.name)
        self._rounds_done += 1
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                if not self._fresh or self._rounds_done % PRESENCE_REFRESH_ROUNDS == 0:
                    # the whole set again: after Redis was away (restarted empty), and now
                    # and then whatever happened
                    pipe.delete(key)
                    if self.sv.hub.by_account:
                        pipe.sadd(key, *self.sv.hub.by_account)
                pipe.expire(key, max(1, int(self.round * 2 * INTEREST_ROUNDS)))
                for name in self.node.nodes:
                    pipe.scard(self._presence(name))
                counts = await pipe.execute()
        except Exception:
            self._fresh = False
            raise
        self._fresh = True
        self.online = sum(int(c) for c in counts[-len(self.node.nodes) :])

    def _later(self, job: Any) -> None:
        task = asyncio.ensure_future(job)
        task.add_done_callback(_quiet)


def _coalesced(batch: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    r"""``batch`` with each run of publications to one channel made one publication, its
    messages a line each (a JSON text holds no raw newline): fewer messages for Redis and
    for every subscriber to read, and the order unchanged (only neighbours are joined).

    >>> _coalesced([("publish", "t1", "a"), ("publish", "t1", "b"), ("publish", "r", "c"),
    ...             ("sadd", "k", "1"), ("publish", "t1", "d")])
    [('publish', 't1', 'a\nb'), ('publish', 'r', 'c'), ('sadd', 'k', '1'), ('publish', 't1', 'd')]
    """
    out: list[tuple[str, str, str]] = []
    for item in batch:
        last = out[-1] if out else None
        if item[0] == "publish" and last is not None and last[:2] == item[:2]:
            out[-1] = (last[0], last[1], f"{last[2]}\n{item[2]}")
        else:
            out.append(item)
    return out


def _quiet(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and (exc := task.exception()) is not None:
        log.warning("redis call failed: %r", exc, extra={"event": "bus_call_failed"})


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _json(data: str) -> dict[str, Any] | None:
    try:
        body = orjson.loads(data)
    except orjson.JSONDecodeError:
        return None
    return body if isinstance(body, dict) else None


def _opt(value: Any) -> str | None:
    return value if isinstance(value, str) else None
