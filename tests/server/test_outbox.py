"""A connection's outgoing messages (server/outbox.py, issue #16): grouped per pass of the
event loop, written at once while the socket has room, queued in order behind a full
buffer, closed after what was queued, and a reader too slow closed with 1013."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from croupier.server.hub import Metrics
from croupier.server.outbox import LINES_MAX_MESSAGES, MAX_QUEUE, Outbox
from croupier.server.wsproto import SEND_NOW


class Socket:
    """What the outbox uses of a Starlette WebSocket, with the server's direct path when
    ``direct``; ``room`` is whether the direct path accepts a frame (a buffer with room),
    ``gate`` holds the ASGI path's sends until set (a buffer draining)."""

    def __init__(self, *, direct: bool = True) -> None:
        self.direct: list[str] = []
        self.asgi: list[str] = []
        self.closes: list[tuple[int, str]] = []
        self.room = True
        self.gate = asyncio.Event()
        self.gate.set()
        self.fail = False
        self.scope: dict[str, Any] = {"extensions": {SEND_NOW: self._now} if direct else {}}

    def _now(self, text: str) -> bool:
        if not self.room:
            return False
        self.direct.append(text)
        return True

    async def send_text(self, text: str) -> None:
        await self.gate.wait()
        if self.fail:
            raise RuntimeError("the peer went away")
        self.asgi.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closes.append((code, reason))

    @property
    def frames(self) -> list[str]:
        return self.direct + self.asgi


def _box(ws: Socket, *, lines: bool = True) -> Outbox:
    box = Outbox(ws, Metrics())  # type: ignore[arg-type]
    box.lines = lines
    box.start()
    return box


async def _passes(n: int = 3) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


def _messages(frames: list[str]) -> list[int]:
    return [json.loads(line)["n"] for frame in frames for line in frame.split("\n")]


def test_a_pass_of_the_loop_leaves_in_one_frame_written_at_once() -> None:
    async def go() -> tuple[Socket, Metrics]:
        ws = Socket()
        box = _box(ws)
        for n in range(3):
            box.send({"n": n})
        await _passes()
        box.send({"n": 3})
        await _passes()
        assert asyncio.all_tasks() == {asyncio.current_task()}, "a writer task for nothing"
        return ws, box.metrics

    ws, metrics = asyncio.run(go())
    assert ws.asgi == [], "a socket with room took the ASGI path"
    assert [_messages([f]) for f in ws.direct] == [[0, 1, 2], [3]]
    assert (metrics.frames_out, metrics.messages_out) == (2, 4)


def test_a_frame_holds_at_most_lines_max_messages() -> None:
    async def go() -> Socket:
        ws = Socket()
        box = _box(ws)
        for n in range(LINES_MAX_MESSAGES + 5):
            box.send({"n": n})
        await _passes()
        return ws

    ws = asyncio.run(go())
    assert [len(f.split("\n")) for f in ws.direct] == [LINES_MAX_MESSAGES, 5]
    assert _messages(ws.direct) == list(range(LINES_MAX_MESSAGES + 5))


def test_one_message_per_frame_without_lines() -> None:
    async def go() -> Socket:
        ws = Socket()
        box = _box(ws, lines=False)
        for n in range(3):
            box.send({"n": n})
        await _passes()
        return ws

    assert asyncio.run(go()).direct == ['{"n":0}', '{"n":1}', '{"n":2}']


def test_an_open_command_lets_its_ack_join_the_events_frame() -> None:
    async def go() -> Socket:
        ws = Socket()
        box = _box(ws)
        box.commands_open = 1
        box.send({"n": 0})  # the command's events, made durable

        def ack() -> None:  # the command's task, one step later in the same pass
            box.send({"n": 1})
            box.commands_open = 0

        asyncio.get_running_loop().call_soon(ack)
        await _passes()
        return ws

    assert [_messages([f]) for f in asyncio.run(go()).direct] == [[0, 1]]


def test_behind_a_full_buffer_frames_wait_in_order_then_the_close() -> None:
    async def go() -> tuple[Socket, Outbox]:
        ws = Socket()
        box = _box(ws, lines=False)
        box.send({"n": 0})
        await _passes()
        ws.room = False  # the buffer is full: the ASGI path waits for it to drain
        ws.gate.clear()
        box.send({"n": 1})
        await _passes()
        ws.room = True  # room again for the direct path, but a frame still waits
        box.send({"n": 2})
        box.send({"n": 3})
        await _passes()
        assert _messages(ws.frames) == [0], "a frame overtook the one waiting"
        box.close_soon(4000, "bye")
        box.send({"n": 4})  # after the close: dropped
        ws.gate.set()
        await box.closed()
        return ws, box

    ws, box = asyncio.run(go())
    assert _messages(ws.direct) == [0]
    assert _messages(ws.asgi) == [1, 2, 3]
    assert ws.closes == [(4000, "bye")]
    assert (box.metrics.frames_out, box.metrics.messages_out) == (4, 4)


def test_without_the_servers_direct_path_every_frame_takes_asgi() -> None:
    async def go() -> Socket:
        ws = Socket(direct=False)
        box = _box(ws)
        box.send({"n": 0})
        box.send({"n": 1})
        await _passes()
        box.close_soon(1000, "")
        await box.closed()
        return ws

    ws = asyncio.run(go())
    assert ws.direct == [] and _messages(ws.asgi) == [0, 1]
    assert ws.closes == [(1000, "")]


def test_a_reader_too_slow_is_closed_with_1013_after_what_was_queued() -> None:
    async def go() -> tuple[Socket, Outbox]:
        ws = Socket(direct=False)
        ws.gate.clear()  # nothing drains
        box = _box(ws, lines=False)
        for n in range(MAX_QUEUE + 10):
            box.send({"n": n})
            if n % 1000 == 999:
                await _passes()
        assert box.closing
        ws.gate.set()
        await box.closed(timeout=30)
        return ws, box

    ws, _ = asyncio.run(go())
    assert _messages(ws.asgi) == list(range(MAX_QUEUE))
    assert ws.closes == [(1013, "too slow: messages are piling up")]


def test_a_failed_send_stops_the_outbox() -> None:
    async def go() -> tuple[Socket, Outbox]:
        ws = Socket(direct=False)
        ws.fail = True
        box = _box(ws)
        box.send({"n": 0})
        await _passes(5)
        box.send({"n": 1})  # dropped: the socket is gone
        await _passes(5)
        await box.closed()
        return ws, box

    ws, box = asyncio.run(go())
    assert box.closing and ws.asgi == [] and ws.closes == []


def test_a_message_that_cannot_be_encoded_does_not_stall_the_connection() -> None:
    async def go() -> Socket:
        ws = Socket()
        box = _box(ws, lines=False)
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _loop, _context: None)  # the failed flush is logged
        box.send({"n": object()})  # a bug elsewhere: not JSON
        await _passes()
        box.send({"n": 1})
        await _passes()
        return ws

    assert _messages(asyncio.run(go()).direct) == [1]
