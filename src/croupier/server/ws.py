"""One WebSocket connection: hello/auth, subscriptions, commands forwarded to the table
actors with acknowledgements, chat, quick match, and the limits (Origin allowlist, frame
cap, token bucket, malformed-message budget). Protocol: docs/protocol.md."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from croupier.accounts import Account, AccountError, Guest
from croupier.lobby import LobbyError, invitation_code, private_spec
from croupier.lobby.access import seat_refusal, watch_refusal
from croupier.server import protocol as P
from croupier.server.arcade import (
    dress,
    prime_looks,
    push_queue_status,
    quick_match_buy_in,
    wants_look,
)
from croupier.server.bus import RemoteStream
from croupier.server.casino_ws import casino_cleanup, casino_dispatch
from croupier.server.outbox import Outbox
from croupier.server.protocol import CloseCode, ProtocolError, error, parse_client
from croupier.server.ratelimit import Bucket
from croupier.server.security import connection_ip
from croupier.server.tablechat import chat_message
from croupier.server.wire import encoded_event, event_message, plain, snapshot_message
from croupier.table import commands as C
from croupier.table.actor import EventStream
from croupier.table.chat import CANNED, EMOTES
from croupier.table.events import TableEvent
from croupier.table.results import TableError

if TYPE_CHECKING:
    from croupier.server.app import Services

__all__ = ["CANNED", "EMOTES", "WsSession"]

log = logging.getLogger("croupier.server")

HELLO_SECONDS = 10.0
MAX_PROTOCOL_ERRORS = 20
FLOOD_REFUSALS = 50


class WsSession:
    """The server side of one connection (one per socket)."""

    def __init__(self, ws: WebSocket, services: Services) -> None:
        self.ws = ws
        self.sv = services
        self.account: Account | None = None
        self.guest: Guest | None = None
        self.token_hash: str | None = None
        self.account_id: int | None = None
        self.streams: dict[str, EventStream | RemoteStream] = {}
        self.outbox = Outbox(ws, services.hub.metrics)
        s = services.settings
        self.bucket = Bucket.full(
            rate=s.messages_per_second, burst=s.message_burst, now=self._now()
        )
        self.chat_bucket = Bucket.full(rate=s.chat_per_minute / 60, burst=3, now=self._now())
        self.bad = 0
        self.replaced = False

    @staticmethod
    def _now() -> float:
        return asyncio.get_running_loop().time()

    @property
    def player_id(self) -> str | None:
        return None if self.account is None else str(self.account.id)

    # -- Connection protocol (for the hub) -----------------------------------------------

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue ``message`` (a dict, or JSON text already encoded) for the socket."""
        self.outbox.send(message)

    def close_soon(self, code: int, reason: str) -> None:
        if self.outbox.closing:
            return
        if code == CloseCode.REPLACED:
            self.replaced = True
        self.outbox.close_soon(code, reason)

    @property
    def closing(self) -> bool:
        """A close was asked for (or the socket failed): nothing more is sent."""
        return self.outbox.closing

    # -- lifecycle -----------------------------------------------------------------------

    async def run(self) -> None:
        origin = self.ws.headers.get("origin")
        if origin and not self.sv.origin_allowed(origin):
            await self.ws.close(code=CloseCode.POLICY, reason="origin not allowed")
            return
        await self.ws.accept()
        self.sv.hub.add(self)
        client = self.ws.client.host if self.ws.client is not None else ""
        log.info("connection opened", extra={"event": "connection_opened", "client": client})
        self.outbox.start()
        try:
            await self._reader()
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("connection failed", extra={"event": "connection_failed"})
        finally:
            log.info(
                "connection closed",
                extra={
                    "event": "connection_closed",
                    "client": client,
                    "user": self.account.id if self.account is not None else None,
                },
            )
            self.outbox.close_soon(CloseCode.NORMAL, "")  # no-op if a close was asked
            await self._cleanup()
            await self.outbox.closed()

    async def _cleanup(self) -> None:
        self.sv.hub.remove(self)
        await casino_cleanup(self)
        if self.account is not None:
            self.sv.quick.cancel(str(self.account.id))
        for table_id, stream in list(self.streams.items()):
            stream.close()
            if not self.replaced:
                await self._tell_table(table_id, C.Disconnect)
        self.streams.clear()

    async def _tell_table(
        self, table_id: str, kind: type[C.Disconnect] | type[C.Reconnect]
    ) -> None:
        pid = self.player_id
        live = self.sv.registry.tables.get(table_id)
        if pid is None or live is None or not live.actor.alive:
            return
        if not any(s.player_id == pid for s in live.actor.table.seats.values()):
            return
        with contextlib.suppress(Exception):
            await live.actor.submit(kind(f"{pid}:sys:{secrets.token_hex(6)}", pid))

    async def _reader(self) -> None:
        first = True
        while not self.closing:
            if first:
                try:
                    msg = await asyncio.wait_for(self.ws.receive(), HELLO_SECONDS)
                except TimeoutError:
                    self.close_soon(CloseCode.AUTH_REQUIRED, "say hello first")
                    return
            else:
                msg = await self.ws.receive()
            if msg["type"] == "websocket.disconnect":
                return
            raw = msg.get("text")
            if raw is None:
                raw = msg.get("bytes") or b""
            if len(raw) > self.sv.settings.max_frame_bytes:
                self.close_soon(CloseCode.TOO_BIG, "frame over the size cap")
                return
            self.sv.hub.metrics.messages_in += 1
            self.bucket, ok = self.bucket.take(self._now())
            if not ok:
                self.sv.hub.metrics.messages_refused += 1
                if self.bucket.refused >= FLOOD_REFUSALS:
                    self.close_soon(CloseCode.FLOOD, "too many messages")
                    return
                self.send(error("rate_limited", "too many messages; slow down"))
                continue
            try:
                parsed = parse_client(raw)
            except ProtocolError as exc:
                if exc.code == "unknown_type" and not first and await casino_dispatch(self, raw):
                    continue  # a casino_* message (server/casino_ws.py)
                self.bad += 1
                self.send(error(exc.code, str(exc), exc.id))
                if self.bad >= MAX_PROTOCOL_ERRORS:
                    self.close_soon(CloseCode.PROTOCOL, "too many malformed messages")
                    return
                continue
            if first:
                first = False
                if not isinstance(parsed, P.Hello):
                    self.close_soon(CloseCode.AUTH_REQUIRED, "the first message must be hello")
                    return
                await self._hello(parsed)
                continue
            await self._dispatch(parsed)

    # -- messages ------------------------------------------------------------------------

    async def _hello(self, msg: P.Hello) -> None:
        self.outbox.lines = msg.lines
        token = msg.token or self.ws.cookies.get(self.sv.cookie_name) or None
        if token:
            try:
                account = await asyncio.to_thread(self.sv.accounts.authenticate, token)
            except AccountError as exc:
                self.send(error(exc.code, str(exc)))
                self.close_soon(CloseCode.AUTH_REQUIRED, exc.code)
                return
            from croupier.accounts.sessions import token_hash

            self.account = account
            self.account_id = account.id
            self.token_hash = token_hash(token)
            self.sv.hub.claim(self, account.id, CloseCode.REPLACED)
            who: dict[str, Any] = {"account_id": account.id, "name": account.name, "guest": False}
        else:
            self.guest = Guest.new()
            who = {"account_id": None, "name": self.guest.name, "guest": True}
        node = self.sv.node
        self.send(
            {
                "type": "welcome",
                **who,
                "server": "croupier",
                "protocol": 1,
                "lines": self.outbox.lines,
                # the room's other processes: where the page goes on if this one dies
                **({"peers": list(node.peers)} if node is not None else {}),
            }
        )

    async def _dispatch(self, msg: Any) -> None:
        if isinstance(msg, P.Hello):
            self.send(error("already_hello", "hello is sent once"))
        elif isinstance(msg, P.Ping):
            self.send({"type": "pong", "id": msg.id})
        elif isinstance(msg, P.Subscribe):
            await self._subscribe(msg)
        elif isinstance(msg, P.Unsubscribe):
            self._unsubscribe(msg.table_id)
        elif isinstance(msg, P.Resync):
            await self._resync(msg.table_id)
        elif isinstance(msg, P.Chat):
            await self._chat(msg)
        elif isinstance(msg, P.QuickMatch):
            await self._quick_match(msg)
        elif isinstance(msg, P.CreatePrivate):
            await self._create_private(msg)
        elif isinstance(msg, P.JoinPrivate):
            if not self._may_guess(msg.id, None):
                return
            table_id = self.sv.registry.codes.get(msg.code.upper())
            if table_id is None:
                self._wrong_guess()
                self._ack(msg.id, None, False, "bad_code", "no table has this invitation code")
            else:
                info = self._table_info(table_id)
                self._ack(msg.id, table_id, True, data={"table_id": table_id, "table": info})
        else:
            await self._command(msg)

    def _ack(
        self,
        cid: str,
        table_id: str | None,
        accepted: bool,
        code: str = "ok",
        message: str = "",
        *,
        version: int | None = None,
        data: dict[str, Any] | None = None,
    ) -> None:
        self.send(P.ack(cid, accepted, code, message, table_id, version, data))

    def _table_info(self, table_id: str) -> dict[str, Any]:
        """The table's lobby row, :meth:`LiveTable.info`."""
        return self.sv.registry.get(table_id).info()

    @property
    def ip(self) -> str:
        """The client's address (``X-Forwarded-For`` only from trusted proxies)."""
        return connection_ip(self.ws, self.sv.settings)

    def _may_guess(self, cid: str | None, table_id: str | None) -> bool:
        """Whether this connection may try an invitation code now; else answers
        ``throttled`` (wrong codes are limited per account and per address)."""
        if self.sv.guesses.allowed(self.account_id, self.ip, self._now()):
            return True
        wait = int(self.sv.guesses.retry_after(self.account_id, self.ip, self._now())) + 1
        text = f"too many wrong invitation codes; try again in {wait} s"
        if cid is None:
            self.send(error("throttled", text))
        else:
            self._ack(cid, table_id, False, "throttled", text, data={"retry_after": wait})
        return False

    def _wrong_guess(self) -> None:
        self.sv.guesses.wrong(self.account_id, self.ip, self._now())

    def _elsewhere(self, table_id: str) -> str | None:
        """The address of the room's other process serving ``table_id``, if one does."""
        node = self.sv.node
        return node.elsewhere(table_id) if node is not None else None

    @staticmethod
    def _guessable(table_id: str, why: str | None) -> bool:
        """Whether refusing ``table_id`` for ``why`` tells a guesser something about a code
        (a private table's id carries its code)."""
        return why == "bad_code" or (why == "unknown_table" and table_id.startswith("private-"))

    def _code_matters(self, table_id: str) -> bool:
        """Whether reaching ``table_id`` depends on an invitation code for this connection
        (a private table where it is neither the host nor seated): such attempts are
        guesses, refused while the guess throttle is empty."""
        if not table_id.startswith("private-"):
            return False
        live = self.sv.registry.tables.get(table_id)
        if live is None:
            return True
        if self.account is not None and self.account.id == live.spec.host:
            return False
        pid = self.player_id
        return not (
            pid is not None and any(s.player_id == pid for s in live.actor.table.seats.values())
        )

    def _may_watch(self, table_id: str, code: str | None) -> str | None:
        """Why this connection may not watch ``table_id`` (``None``: it may)."""
        live = self.sv.registry.tables.get(table_id)
        if live is None:
            return "unknown_table"
        pid = self.player_id
        seated = pid is not None and any(
            s.player_id == pid for s in live.actor.table.seats.values()
        )
        if seated:
            return None
        refused = watch_refusal(
            live.spec, code=code, account_id=self.account.id if self.account else None
        )
        if refused is not None:
            return refused.code
        # whether the table admits spectators at all is the table's rule (R-SEAT-2): its
        # subscribe refuses with ``spectators_not_allowed``
        if self.account is None and not self.sv.settings.guest_spectators:
            return "login_required"
        return None

    async def _subscribe(self, msg: P.Subscribe) -> None:
        if msg.table_id is None:
            self.sv.hub.lobby.add(self)
            self.send(self.sv.lobby_message())
            return
        table_id = msg.table_id
        if self._code_matters(table_id) and not self._may_guess(None, table_id):
            return
        why = self._may_watch(table_id, msg.code)
        url = self._elsewhere(table_id) if why == "unknown_table" else None
        if url is not None:  # another process of the room serves it (server/cluster.py)
            if await self._watch_remote(table_id):
                return
            self.send({**error("table_elsewhere", f"{table_id} is served at {url}"), "url": url})
            return
        node = self.sv.node
        if why == "unknown_table" and node is not None and node.restarting(table_id):
            text = f"{table_id} is being restarted (its process died): subscribe again"
            self.send(error("table_restarting", text))
            return
        if self._guessable(table_id, why):
            self._wrong_guess()
        if why is not None:
            self.send(error(why, f"cannot watch {table_id}: {why.replace('_', ' ')}"))
            return
        live = self.sv.registry.get(table_id)
        await prime_looks(self.sv, [s.player_id for s in live.actor.table.seats.values()])
        old = self.streams.pop(table_id, None)
        if old is not None:
            old.close()

        clock = live.actor.table.clock

        def deliver(event: TableEvent, table_id: str = table_id) -> None:
            if wants_look(event):  # a seat arriving: with the player's look (arcade.py)
                self.send(dress(self.sv, event_message(table_id, event, now=clock.now())))
            else:
                self.send(encoded_event(table_id, event, clock.now()))

        try:
            stream = live.actor.subscribe(self.player_id, deliver, since=msg.since, epoch=msg.epoch)
        except TableError as exc:
            self.send(error(exc.code, str(exc)))
            return
        self.streams[table_id] = stream
        self.sv.hub.watchers[table_id].add(self)
        self.send({"type": "table_info", "table_id": table_id, "table": self._table_info(table_id)})
        initial = stream.initial
        if isinstance(initial, list):
            for e in initial:
                self.send(
                    dress(self.sv, event_message(table_id, e, now=live.actor.table.clock.now()))
                )
        else:
            now = live.actor.table.clock.now()
            self.send(dress(self.sv, snapshot_message(table_id, initial, now=now)))
        self.send({"type": "subscribed", "table_id": table_id, "version": live.actor.table.version})
        await self._tell_table(table_id, C.Reconnect)

    async def _watch_remote(self, table_id: str) -> bool:
        """Watch another process's table from here through the room's Redis
        (server/bus.py); ``False``: the client must go there (no Redis, no answer, a
        private table, or a seat of this player's at it)."""
        bus = self.sv.bus
        if bus is None:
            return False
        if self.account is None and not self.sv.settings.guest_spectators:
            self.send(error("login_required", f"cannot watch {table_id}: login required"))
            return True
        old = self.streams.get(table_id)
        if old is not None and not isinstance(old, RemoteStream):
            del self.streams[table_id]
            old.close()
        why = await bus.watch(self, table_id, self.player_id)  # a relay's watcher: anew
        if why is not None:
            self.streams.pop(table_id, None)
        if why == "table_elsewhere":
            return False
        if why is not None:
            self.send(error(why, f"cannot watch {table_id}: {why.replace('_', ' ')}"))
            return True
        if self.closing:  # the socket went while the other process answered
            bus.unwatch(self, table_id)
            return True
        self.streams[table_id] = RemoteStream(bus, self, table_id)
        return True

    def _unsubscribe(self, table_id: str | None) -> None:
        if table_id is None:
            self.sv.hub.lobby.discard(self)
            return
        stream = self.streams.pop(table_id, None)
        if stream is not None:
            stream.close()
        self.sv.hub.watchers[table_id].discard(self)

    async def _resync(self, table_id: str) -> None:
        if table_id not in self.streams:
            self.send(error("not_subscribed", f"subscribe to {table_id} first"))
            return
        if isinstance(self.streams[table_id], RemoteStream):  # a fresh snapshot from there
            if not await self._watch_remote(table_id):
                self.streams.pop(table_id, None)
                url = self._elsewhere(table_id) or ""
                self.send(
                    {**error("table_elsewhere", f"{table_id} is served at {url}"), "url": url}
                )
            return
        live = self.sv.registry.get(table_id)
        table = live.actor.table
        snap = snapshot_message(table_id, table.snapshot(self.player_id), now=table.clock.now())
        self.send(dress(self.sv, snap))

    async def _chat(self, msg: P.Chat) -> None:
        stream = self.streams.get(msg.table_id)
        if stream is None or (
            not isinstance(stream, RemoteStream) and msg.table_id not in self.sv.registry.tables
        ):
            self._ack(msg.id, msg.table_id, False, "not_subscribed", "watch the table to chat")
            return
        if self.account is None:
            self._ack(msg.id, msg.table_id, False, "login_required", "guests cannot chat")
            return
        said = {"name": self.account.name, "account": self.account.id}
        line = {"text": msg.text, "canned": msg.canned, "emote": msg.emote}
        if isinstance(stream, RemoteStream) and self.sv.bus is not None:
            if not self._chat_allowed(msg):
                return
            # said where the table runs: its rules there, its watchers everywhere
            refused = await self.sv.bus.chat(msg.table_id, {**said, **line})
            if refused is not None:
                self._ack(msg.id, msg.table_id, False, *refused)
            else:
                self._ack(msg.id, msg.table_id, True)
            return
        message = chat_message(  # the table's house rules say what may be said (table/chat.py)
            self.sv,
            msg.table_id,
            name=self.account.name,
            account_id=self.account.id,
            text=msg.text,
            canned=msg.canned,
            emote=msg.emote,
        )
        if isinstance(message, TableError):
            self._ack(msg.id, msg.table_id, False, message.code, str(message))
            return
        if not self._chat_allowed(msg):
            return
        self._ack(msg.id, msg.table_id, True)
        self.sv.hub.to_table(msg.table_id, message)

    def _chat_allowed(self, msg: P.Chat) -> bool:
        """Take one line from the connection's chat allowance; else refuse ``msg``."""
        self.chat_bucket, ok = self.chat_bucket.take(self._now())
        if not ok:
            self._ack(msg.id, msg.table_id, False, "rate_limited", "chat is rate limited")
        return ok

    async def _quick_match(self, msg: P.QuickMatch) -> None:
        if self.account is None:
            self._ack(msg.id, None, False, "login_required", "log in to play")
            return
        pid = str(self.account.id)
        if msg.cancel:
            if self.sv.quick.cancel(pid):
                self._ack(msg.id, None, True)
                push_queue_status(self.sv, self._now())  # the others: one fewer waiting
            else:
                self._ack(msg.id, None, False, "not_queued", "you are not in the quick-match queue")
            return
        if not self.sv.arcade_gate.is_open(self.sv.wall()):
            self._ack(msg.id, None, False, "arcade_closed", "the arcade is closed now")
            return
        sv, uid = self.sv, self.account.id
        account = await asyncio.to_thread(sv.accounts.account, uid) or self.account
        need = quick_match_buy_in()
        if account.level >= sv.quick.min_level and (
            (await asyncio.to_thread(sv.store.ledger.balances, uid)).chips < need
        ):
            # Found out now, not when the table starts without you.
            self._ack(
                msg.id, None, False, "insufficient_chips", f"the quick match needs {need} chips"
            )
            return
        try:
            self.sv.quick.join(pid, level=account.level, now=self._now())
        except LobbyError as exc:
            self._ack(msg.id, None, False, exc.code, str(exc))
            return
        self._ack(msg.id, None, True, data={"waiting": len(self.sv.quick)})
        push_queue_status(self.sv, self._now())  # the queue's news at once, to everyone

    async def _create_private(self, msg: P.CreatePrivate) -> None:
        if self.account is None:
            self._ack(msg.id, None, False, "login_required", "log in to host a table")
            return
        why = await self._arcade_level_refusal() if msg.profile == "arcade" else None
        if why is not None:
            self._ack(msg.id, None, False, why[0], why[1])
            return
        code = invitation_code()
        table_id = f"private-{code.lower()}"
        caps = self.sv.private_caps
        try:
            spec = private_spec(
                table_id,
                game=msg.game,
                profile=msg.profile,
                blinds=(msg.small_blind, msg.big_blind),
                seats=msg.seats,
                bots=msg.bots,
                buy_in_min=msg.buy_in_min,
                buy_in_max=msg.buy_in_max,
                code=code,
                host=self.account.id,
                spread=msg.spread,
            )
        except LobbyError as exc:
            self._ack(msg.id, None, False, exc.code, str(exc))
            return
        if caps is not None:
            refused = caps.refusal(self.account.id, self.ip, spec.bots)
            if refused is not None:
                self._ack(msg.id, None, False, refused.code, refused.message)
                return
            caps.reserve(table_id, self.account.id, self.ip, spec.bots)
        try:
            await self.sv.registry.open(spec)
        except LobbyError as exc:
            if caps is not None:
                caps.forget(table_id)
            self._ack(msg.id, None, False, exc.code, str(exc))
            return
        except BaseException:
            if caps is not None:
                caps.forget(table_id)
            raise
        if caps is not None:
            caps.opened(table_id)
        self._ack(msg.id, table_id, True, data={"table_id": table_id, "code": code})

    async def _command(self, msg: Any) -> None:
        self.outbox.commands_open += 1
        try:
            await self._table_command(msg)
        finally:
            self.outbox.commands_open -= 1

    async def _table_command(self, msg: Any) -> None:
        cid: str = msg.id
        table_id: str = msg.table_id
        if self.account is None:
            self._ack(cid, table_id, False, "login_required", "log in to play")
            return
        if self._code_matters(table_id) and not self._may_guess(cid, table_id):
            return
        live = self.sv.registry.tables.get(table_id)
        if live is None:
            url = self._elsewhere(table_id)
            if url is not None:  # another process of the room serves it
                text = f"{table_id} is served at {url}"
                self._ack(cid, table_id, False, "table_elsewhere", text, data={"url": url})
                return
            if table_id.startswith("private-"):
                self._wrong_guess()
            self._ack(cid, table_id, False, "unknown_table", f"no table {table_id!r}")
            return
        pid = str(self.account.id)
        tcid = f"{pid}:{cid}"
        table = live.actor.table
        cmd: C.Command
        if isinstance(msg, P.Sit):
            why = await self._may_sit(live, msg.code)
            if why is not None and why[0] == "bad_code":
                self._wrong_guess()
            if why is not None:
                self._ack(cid, table_id, False, why[0], why[1])
                return
            await prime_looks(self.sv, [pid])  # their seat shows it at once
            cmd = C.SitDown(
                tcid,
                pid,
                self.account.name,
                msg.buy_in,
                msg.seat,
                post_big_blind=msg.post_big_blind,
            )
        elif isinstance(msg, P.Act | P.DrawCards | P.UsePower):
            if msg.version is not None and (
                msg.version < live.last_turn_version or msg.version > table.version
            ):
                self._ack(
                    cid,
                    table_id,
                    False,
                    "stale_version",
                    f"the table is at version {table.version}; resync",
                    version=table.version,
                )
                return
            if isinstance(msg, P.Act):
                cmd = C.Act(tcid, pid, msg.action, msg.amount)
            elif isinstance(msg, P.UsePower):
                cmd = C.UsePower(tcid, pid, msg.power, msg.target_seat, msg.card)
            else:
                cmd = C.Draw(tcid, pid, msg.discards.replace(" ", ""))
        elif isinstance(msg, P.Show):
            cmd = C.ShowCards(tcid, pid, msg.show)
        elif isinstance(msg, P.SitOut):
            cmd = C.SitOut(tcid, pid)
        elif isinstance(msg, P.SitIn):
            cmd = C.SitIn(tcid, pid, msg.post_blinds)
        elif isinstance(msg, P.Leave):
            cmd = C.Leave(tcid, pid)
        elif isinstance(msg, P.Reload):
            cmd = C.Reload(tcid, pid, msg.amount)
        elif isinstance(msg, P.RespondAncre):
            cmd = C.RespondAncre(tcid, pid, msg.block)
        elif isinstance(msg, P.TimeBank):
            cmd = C.UseTimeBank(tcid, pid)
        else:  # pragma: no cover - every message type is handled above
            self.send(error("unknown_type", "unhandled message"))
            return
        try:
            result = await live.actor.submit(cmd)
        except TableError as exc:
            self._ack(cid, table_id, False, exc.code, str(exc))
            return
        await self.sv.registry.flushed(table_id)  # acknowledged once durable (group commit)
        data = None if result.data is None else {"result": plain(result.data)}
        self._ack(
            cid,
            table_id,
            result.accepted,
            result.code,
            result.message,
            version=result.version,
            data=data,
        )

    async def _may_sit(self, live: Any, code: str | None) -> tuple[str, str] | None:
        """The lobby's refusal to seat this account at ``live`` (lobby/access.py)."""
        assert self.account is not None
        refused = seat_refusal(
            live.spec,
            arcade_rules=live.actor.table.config.rules.name == "arcade",
            code=code,
            account_id=self.account.id,
            level=await self._level(),
            now=self.sv.wall(),
            gate=self.sv.arcade_gate,
        )
        return None if refused is None else (refused.code, str(refused))

    async def _level(self) -> int:
        """This account's level now (it changes as it plays; read off the loop)."""
        assert self.account is not None
        found = await asyncio.to_thread(self.sv.accounts.account, self.account.id)
        return (found or self.account).level

    async def _arcade_level_refusal(self) -> tuple[str, str] | None:
        """Hosting a private arcade table asks the arcade's level (R-SEAT-2), not its hours."""
        level = await self._level()
        refused = self.sv.arcade_gate.refusal(level, self.sv.wall(), hours=False)
        return None if refused is None else (refused.code, str(refused))
