"""Load clients: one process plays many tables (all six players of a table live in the same
process, so the time an action was sent is known where its broadcast is received).

Each player connects, says hello with its token, subscribes to its table and sits at its
seat. On its ``turn`` (the frame with its ``view``) it waits ``delay`` seconds and acts
(facing a bet: call 85 %, fold 15 %; otherwise check 85 %, bet the minimum 15 %), so a
table sees about one action per second. When the ``acted`` event of that action reaches
each of the five other players, the time since it was sent is one latency sample. Every
event's version is checked against the previous one (a gap is counted). Clients say hello
with ``lines`` (several messages per frame, one per line, as the browser does) unless
``lines`` is off (one message per frame, to compare).

With ``watchers`` > 0 (a room of several processes sharing Redis, server/bus.py), each
table also gets that many guest spectators connected to *another* process (``watch_url``),
which relays the table's frames through Redis: the time from an action sent to its
``acted`` frame at such a watcher is a relay latency sample, and their version gaps are
counted apart. (``watch_url`` may be the serving process itself: the same watchers
without the relay, to compare.)

The parent drives a worker through a pipe: the worker answers ``("ready", seated,
failed)`` once every player is seated (or failed); then ``start`` opens a measured
window, ``stop`` closes it and returns the samples and counters, ``quit`` ends it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

__all__ = ["Assignment", "worker_main"]

Assignment = tuple[str, list[tuple[str, int]]]
"""A table id and its six players: (token, seat)."""


@dataclass(slots=True)
class Counters:
    actions: int = 0
    refused: int = 0
    timeouts: int = 0
    gaps: int = 0
    frames: int = 0
    relay_gaps: int = 0
    relay_frames: int = 0
    codes: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class _Player:
    table_id: str
    token: str
    seat: int
    ws: ClientConnection | None = None
    pid: str = ""
    last_version: int = 0
    seen: int = 0
    ids: int = 0
    watcher: bool = False
    backlog: list[dict[str, Any]] = field(default_factory=list)


class Worker:
    def __init__(
        self,
        url: str,
        tables: list[Assignment],
        delay: float,
        seed: int,
        watch_url: str = "",
        watchers: int = 0,
        lines: bool = True,
    ) -> None:
        self.url = url
        self.lines = lines
        self.watch_url = watch_url
        self.watchers = watchers if watch_url else 0
        self.relay_samples: list[float] = []
        self.tables = tables
        self.delay = delay
        self.rng = random.Random(seed)
        self.pending: dict[str, tuple[float, str, int]] = {}
        self.seq = 0
        self.samples: list[float] = []
        self.settle_samples: list[float] = []
        self.last_sent: dict[str, tuple[float, str, int]] = {}
        """Per table, the latest command sent (an action, or a show at the showdown)."""
        self.settled: dict[str, int] = {}
        """Per table, the command whose settlement was sampled (one sample per hand)."""
        self._cpu0 = time.process_time()
        self.counters = Counters()
        self.measuring = False
        self.connect_sem = asyncio.Semaphore(64)
        self.tasks: list[asyncio.Task[None]] = []

    # -- setup --------------------------------------------------------------------------

    async def _connect(self, url: str, timeout: float) -> ClientConnection:
        async with self.connect_sem:
            return await connect(
                url, compression=None, max_size=2**22, ping_interval=None, open_timeout=timeout
            )

    async def _join(self, p: _Player, timeout: float) -> bool:
        ws = p.ws = await self._connect(self.url, timeout)
        await ws.send(json.dumps({"type": "hello", "token": p.token, "lines": self.lines}))
        buy_in = 0
        early: list[dict[str, Any]] = []  # the table's events before the sit was answered
        while True:
            msg = await _next(p)
            kind = msg.get("type")
            if kind == "welcome":
                p.pid = str(msg["account_id"])
                await ws.send(json.dumps({"type": "subscribe", "table_id": p.table_id}))
            elif kind == "table_info":
                buy_in = int(msg["table"]["buy_in_max"])
            elif kind == "subscribed":
                await ws.send(
                    json.dumps(
                        {
                            "type": "sit",
                            "id": "sit",
                            "table_id": p.table_id,
                            "buy_in": buy_in,
                            "seat": p.seat,
                            "post_big_blind": True,
                        }
                    )
                )
            elif kind == "ack" and msg.get("id") == "sit":
                if not msg["accepted"]:
                    raise RuntimeError(f"sit refused: {msg.get('code')}")
                # played once the set-up is over: the hand may have begun before the sit's
                # answer, with this player's turn in it (a turn dropped here was a decision
                # timed out 30 s later, counted as a timeout in earlier runs)
                p.backlog[:0] = early
                return True
            elif kind == "error":
                raise RuntimeError(f"{msg.get('code')}: {msg.get('message')}")
            elif kind == "event":
                early.append(msg)

    async def _watch(self, p: _Player, timeout: float) -> bool:
        """A guest spectator of ``p.table_id`` at the other process (relayed)."""
        ws = p.ws = await self._connect(self.watch_url, timeout)
        await ws.send(json.dumps({"type": "hello", "token": None, "lines": self.lines}))
        while True:
            msg = await _next(p)
            kind = msg.get("type")
            if kind == "welcome":
                await ws.send(json.dumps({"type": "subscribe", "table_id": p.table_id}))
            elif kind == "subscribed":
                return True
            elif kind == "error" and msg.get("code") == "unknown_table":
                await asyncio.sleep(1.0)  # not yet known there (its lease round is to come)
                await ws.send(json.dumps({"type": "subscribe", "table_id": p.table_id}))
            elif kind == "error":
                raise RuntimeError(f"watch: {msg.get('code')}: {msg.get('message')}")
            elif kind in ("event", "snapshot"):
                p.last_version = int(msg["version"])

    async def setup(self, timeout: float) -> tuple[int, int, list[str]]:
        players = [_Player(tid, tok, seat) for tid, seats in self.tables for tok, seat in seats]
        watchers = [
            _Player(tid, "", -1, watcher=True)
            for tid, _ in self.tables
            for _ in range(self.watchers)
        ]
        results = await asyncio.gather(
            *(asyncio.wait_for(self._join(p, timeout), timeout) for p in players),
            *(asyncio.wait_for(self._watch(p, timeout), timeout) for p in watchers),
            return_exceptions=True,
        )
        errors = [repr(r) for r in results if isinstance(r, BaseException)]
        for p, r in zip(players + watchers, results, strict=True):
            if r is True:
                self.tasks.append(asyncio.create_task(self._play(p)))
        seated = sum(1 for r in results[: len(players)] if r is True)  # (not the watchers)
        return seated, len(errors), errors[:5]

    # -- play ---------------------------------------------------------------------------

    async def _play(self, p: _Player) -> None:
        assert p.ws is not None
        with contextlib.suppress(Exception):
            while True:  # first what came with the set-up's last frame (``p.backlog``)
                self._message(p, await _next(p))

    def _message(self, p: _Player, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        c = self.counters
        if self.measuring:
            c.frames += 1
        if kind == "event" and p.watcher:
            version = int(msg["version"])
            if self.measuring:
                c.relay_frames += 1
                if p.last_version and version != p.last_version + 1:
                    c.relay_gaps += 1
            p.last_version = version
            ev = msg["event"]
            pend = self.pending.get(p.table_id)
            if ev.get("type") == "acted" and pend is not None and pend[2] != p.seen:
                players = msg.get("players") or []
                who = ev.get("player")
                if isinstance(who, int) and who < len(players) and players[who] == pend[1]:
                    p.seen = pend[2]
                    if self.measuring:
                        self.relay_samples.append(time.monotonic() - pend[0])
        elif kind == "event":
            version = int(msg["version"])
            if self.measuring and p.last_version and version != p.last_version + 1:
                c.gaps += 1
            p.last_version = version
            ev = msg["event"]
            etype = ev.get("type")
            if etype == "acted":
                pend = self.pending.get(p.table_id)
                if pend is not None and pend[2] != p.seen and pend[1] != p.pid:
                    players = msg.get("players") or []
                    who = ev.get("player")
                    if isinstance(who, int) and who < len(players) and players[who] == pend[1]:
                        p.seen = pend[2]
                        if self.measuring:
                            self.samples.append(time.monotonic() - pend[0])
            elif etype == "hand_settled":
                # the hand's settlement after the command that ended it (an action, or the
                # last show at the showdown; it waits for its journal record), once per
                # hand, at the first other player it reaches
                sent = self.last_sent.get(p.table_id)
                if (
                    sent is not None
                    and sent[1] != p.pid
                    and self.settled.get(p.table_id) != sent[2]
                ):
                    self.settled[p.table_id] = sent[2]
                    if self.measuring:
                        self.settle_samples.append(time.monotonic() - sent[0])
            elif etype == "turn":
                if ev.get("player_id") == p.pid and ev.get("view"):
                    legal = (ev["view"] or {}).get("legal") or {}
                    asyncio.get_running_loop().call_later(
                        self.delay * (0.9 + 0.2 * self.rng.random()), self._act, p, legal
                    )
            elif etype == "timed_out" and self.measuring:
                c.timeouts += 1
                why = f"timed out: {ev.get('reason')} ({ev.get('action')})"
                c.codes[why] = c.codes.get(why, 0) + 1
        elif kind == "ack" and self.measuring and not msg.get("accepted"):
            c.refused += 1
            code = str(msg.get("code"))
            c.codes[code] = c.codes.get(code, 0) + 1

    def _act(self, p: _Player, legal: dict[str, Any]) -> None:
        r = self.rng.random()
        body: dict[str, Any] = {"type": "act", "table_id": p.table_id}
        if legal.get("show_or_muck"):
            body = {"type": "show", "table_id": p.table_id, "show": True}
        elif legal.get("can_check"):
            if r < 0.15 and legal.get("can_raise"):
                body.update(action="raise", amount=int(legal["min_raise"]))
            else:
                body["action"] = "check"
        elif legal.get("can_call") and r < 0.85:
            body["action"] = "call"
        else:
            body["action"] = "fold"
        p.ids += 1
        body["id"] = f"a{p.ids}"
        self.seq += 1
        self.last_sent[p.table_id] = (time.monotonic(), p.pid, self.seq)
        if body["type"] == "act":
            self.pending[p.table_id] = self.last_sent[p.table_id]
        if self.measuring:
            self.counters.actions += 1
        assert p.ws is not None
        task = asyncio.ensure_future(p.ws.send(json.dumps(body)))
        task.add_done_callback(_quiet)

    # -- control ------------------------------------------------------------------------

    def start(self) -> None:
        self.samples = []
        self.relay_samples = []
        self.settle_samples = []
        self.counters = Counters()
        self.measuring = True
        self._cpu0 = time.process_time()

    def stop(self) -> dict[str, Any]:
        self.measuring = False
        c = self.counters
        return {
            "samples": self.samples,
            "relay_samples": self.relay_samples,
            "settle_samples": self.settle_samples,
            "relay_gaps": c.relay_gaps,
            "relay_frames": c.relay_frames,
            "actions": c.actions,
            "refused": c.refused,
            "timeouts": c.timeouts,
            "gaps": c.gaps,
            "frames": c.frames,
            "codes": c.codes,
            "cpu": time.process_time() - self._cpu0,
        }

    async def close(self) -> None:
        for t in self.tasks:
            t.cancel()


async def _next(p: _Player) -> dict[str, Any]:
    """The next message of ``p``'s socket (a frame may hold several, one per line: the rest
    wait in ``p.backlog``; split on "\n" alone, as JSON text may hold U+2028)."""
    assert p.ws is not None
    while not p.backlog:
        raw = await p.ws.recv()
        p.backlog = [
            json.loads(line) for line in (raw.split("\n") if isinstance(raw, str) else (raw,))
        ]
    return p.backlog.pop(0)


def _quiet(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()


async def _serve(conn: Connection, worker: Worker, timeout: float) -> None:
    loop = asyncio.get_running_loop()
    seated, failed, errors = await worker.setup(timeout)
    conn.send(("ready", seated, failed, errors))
    done = loop.create_future()

    def on_command() -> None:
        while conn.poll():
            cmd = conn.recv()
            if cmd == "start":
                worker.start()
                conn.send(("started",))
            elif cmd == "stop":
                conn.send(("stats", worker.stop()))
            elif cmd == "quit" and not done.done():
                done.set_result(None)

    loop.add_reader(conn.fileno(), on_command)
    await done
    loop.remove_reader(conn.fileno())
    await worker.close()


def worker_main(
    conn: Connection,
    url: str,
    tables: list[Assignment],
    delay: float,
    seed: int,
    timeout: float,
    watch_url: str = "",
    watchers: int = 0,
    lines: bool = True,
) -> None:
    """Entry point of a client process."""
    import logging

    logging.getLogger("asyncio").setLevel(logging.ERROR)  # writes to sockets closed at the end
    worker: Worker | None = None

    async def main() -> None:
        nonlocal worker
        worker = Worker(url, tables, delay, seed, watch_url, watchers, lines)
        await _serve(conn, worker, timeout)

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main())
    conn.close()
