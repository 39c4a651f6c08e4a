"""What one connection sends, in order: messages queued by the room, grouped into frames,
written to the socket, and at the end the close.

A message is a dict, or JSON text already encoded (an event encoded once for its
audience, ``croupier.server.wire``). :meth:`Outbox.send` queues it and asks the event loop
for one flush (``call_soon``): everything queued in one pass of the loop (a table's events
for its six players, a command's ack) leaves in that flush. On a ``lines`` connection the
messages of a flush share frames, one per line (up to ``LINES_MAX_MESSAGES`` messages and
``LINES_MAX_CHARS`` characters a frame); otherwise each is a frame.

A frame is written at once through the server's :data:`~croupier.server.wsproto.SEND_NOW`
(``croupier serve`` runs the room's own uvicorn protocol) while the socket's buffer has
room. Otherwise (a slow reader's full buffer, a server without the extension such as the
tests' ``TestClient``) frames wait in a queue for the outbox's writer task, which sends
them through ASGI and so waits for the buffer to drain; once a frame waits there, every
later one follows it, so the order holds. The writer task is started the first time it
has something to do (a frame to queue, the close): an idle connection of ``croupier
serve`` has none. A client that lets ``MAX_QUEUE`` messages pile up is closed (1013).
Before this module each connection's writer task woke once per frame (a future, a
queue's coroutine, a task step: about six per action at a table of six, issue #16).

>>> import asyncio
>>> class Socket:  # what the outbox uses of a Starlette WebSocket
...     scope = {"extensions": {}}
...     def __init__(self): self.frames = []
...     async def send_text(self, text): self.frames.append(text)
...     async def close(self, code, reason): self.frames.append(("close", code))
>>> async def demo():
...     ws = Socket()
...     box = Outbox(ws, Metrics())
...     box.lines = True
...     box.start()
...     box.send({"type": "a"})
...     box.send('{"type":"b"}')
...     box.close_soon(1000, "bye")
...     await box.closed()
...     return ws.frames
>>> asyncio.run(demo())
['{"type":"a"}\\n{"type":"b"}', ('close', 1000)]
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocket

from croupier.server.hub import Metrics
from croupier.server.wire import dumps
from croupier.server.wsproto import SEND_NOW

__all__ = ["LINES_MAX_CHARS", "LINES_MAX_MESSAGES", "MAX_QUEUE", "Outbox"]

MAX_QUEUE = 5000
"""Messages a connection may leave unsent before it is closed as too slow (1013)."""
LINES_MAX_MESSAGES = 64
"""At most this many messages in one frame of a ``lines`` connection…"""
LINES_MAX_CHARS = 32_768
"""…and no more added once the frame holds this many characters."""


def _text(message: dict[str, Any] | str) -> str:
    """A queued message as JSON text (a ``str`` is already encoded)."""
    return message if isinstance(message, str) else dumps(message)


class Outbox:
    """One connection's outgoing messages (see the module)."""

    def __init__(self, ws: WebSocket, metrics: Metrics) -> None:
        self.ws = ws
        self.metrics = metrics
        self.lines = False
        """Several messages per frame, one per line (the client asked in its hello)."""
        self.commands_open = 0
        """The connection's table commands between submission and their ack: while one
        is open, a flush waits one pass of the loop so the ack joins the frame of the
        events it follows."""
        self.closing = False
        self._pending: list[dict[str, Any] | str] = []
        self._flush_handle: asyncio.Handle | None = None
        self._waited = False
        self._queue: deque[tuple[str, int]] = deque()
        """Frames for the writer task, in order, with the number of messages each holds."""
        self._queued_messages = 0
        self._close: tuple[int, str] | None = None
        self._wake: asyncio.Event | None = None
        """Wakes the writer task; made with it (most connections never need one)."""
        self._send_now: Callable[[str], bool] | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start writing (after the handshake), directly if the server offers it."""
        extensions = self.ws.scope.get("extensions") or {}
        self._send_now = extensions.get(SEND_NOW)

    def _wake_writer(self) -> None:
        if self._wake is None:
            self._wake = asyncio.Event()
        if self._task is None:
            self._task = asyncio.create_task(self._writer())
        self._wake.set()

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue ``message`` (a dict, or JSON text already encoded)."""
        if self.closing:
            return
        pending = self._pending
        if len(pending) + self._queued_messages >= MAX_QUEUE:
            self.close_soon(1013, "too slow: messages are piling up")
            return
        pending.append(message)
        if self._flush_handle is None:
            self._flush_handle = asyncio.get_running_loop().call_soon(self._flush)

    def close_soon(self, code: int, reason: str) -> None:
        """Send what is queued, then close with ``code``; later messages are dropped."""
        if self.closing:
            return
        self.closing = True
        self.flush()
        self._close = (code, reason)
        self._wake_writer()

    async def closed(self, timeout: float = 2.0) -> None:
        """Wait (up to ``timeout`` seconds) for the writer to send the close, then stop
        it."""
        task = self._task
        if task is None:
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(task), timeout)
        task.cancel()

    def flush(self) -> None:
        """Write (or hand to the writer) every message queued, now."""
        if self._flush_handle is not None:
            self._flush_handle.cancel()
            self._flush_handle = None
        self._waited = False
        messages, self._pending = self._pending, []  # taken first: a failure loses no later flush
        self._write(messages)

    def _flush(self) -> None:
        self._flush_handle = None
        if self.lines and self.commands_open and not self._waited:
            # The events a command made are delivered as the journal makes them durable,
            # and its ack a step later in the same pass of the loop: one pass's wait sends
            # both in one frame (6 frames per action, not 7).
            self._waited = True
            self._flush_handle = asyncio.get_running_loop().call_soon(self._flush)
            return
        self.flush()

    def _write(self, messages: list[dict[str, Any] | str]) -> None:
        metrics = self.metrics
        send_now = self._send_now
        queue = self._queue
        at, end = 0, len(messages)
        while at < end:
            text = _text(messages[at])
            count = 1
            if self.lines:
                texts, size = [text], len(text)
                while at + count < end and count < LINES_MAX_MESSAGES and size < LINES_MAX_CHARS:
                    more = _text(messages[at + count])
                    texts.append(more)
                    size += len(more)
                    count += 1
                if count > 1:
                    text = "\n".join(texts)
            at += count
            if queue or send_now is None or not send_now(text):
                queue.append((text, count))
                self._queued_messages += count
                self._wake_writer()
                continue
            metrics.frames_out += 1
            metrics.messages_out += count

    async def _writer(self) -> None:
        """Send the frames the direct path could not, in order, then the close."""
        queue = self._queue
        metrics = self.metrics
        wake = self._wake
        assert wake is not None  # made before the task
        while True:
            while not queue and self._close is None:
                wake.clear()
                await wake.wait()
            if not queue:
                assert self._close is not None
                code, reason = self._close
                with contextlib.suppress(Exception):
                    await self.ws.close(code=code, reason=reason)
                return
            text, count = queue[0]
            try:
                await self.ws.send_text(text)
            except Exception:
                self.closing = True
                queue.clear()
                return
            queue.popleft()  # only now: until it is sent, later frames wait behind it
            self._queued_messages -= count
            metrics.frames_out += 1
            metrics.messages_out += count
