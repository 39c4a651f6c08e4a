"""The WebSocket protocol the room runs under uvicorn: uvicorn's sans-I/O protocol,
with reading paused only once messages pile up.

uvicorn's protocol pauses a socket's reading after every message it hands to the
application and resumes it as soon as the application takes it: two ``epoll_ctl`` system
calls, and the selector's bookkeeping, per message received (5–6 % of the event loop's
time at 300 tables, issue #16's py-spy profile). A player's client sends a message and
waits for the answer, so its socket's queue is nearly always empty. Here reading is paused
only when uvicorn's ``ws_max_queue`` messages (32 by default) wait for the session, and
resumed once the session has taken them all, as uvicorn does: a client that floods is
still read no faster than the room handles its messages.

It also offers the application a way to write a text frame at once, without the ASGI
round trip (Starlette's ``send``, then uvicorn's, each a coroutine): the scope's
extension :data:`SEND_NOW` is the protocol's :meth:`RoomWebSocketProtocol.send_text_now`.
A session's outbox (``croupier.server.outbox``) writes its frames through it while the
socket's buffer has room, from a callback rather than a task per socket: one task
wake-up less per frame, about six per action at a table of six (issue #16). When the
buffer is full, or the socket closing, it answers ``False`` and the session takes the
ASGI path, which waits for the buffer to drain or reports the disconnection.

Once the handshake's answer is made, the protocol lets go of what only the handshake
needed: uvicorn keeps its request and response for the connection's life, and the
websockets parser the request. Their headers (a list per header name) were about a sixth
of the objects a connection kept, each scanned by every full collection (issue #16,
docs/benchmarks.md).
"""

from __future__ import annotations

import contextlib
from typing import Any

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.http11 import Request

__all__ = ["SEND_NOW", "RoomWebSocketProtocol", "uvicorn_options"]

SEND_NOW = "croupier.send_text_now"
"""The scope extension naming :meth:`RoomWebSocketProtocol.send_text_now`."""


class RoomWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol pausing reading at ``ws_max_queue`` queued
    messages rather than at each message (see the module)."""

    def send_receive_event_to_app(self) -> None:
        if self.read_paused or self.queue.qsize() + 1 >= self.config.ws_max_queue:
            super().send_receive_event_to_app()  # queue the message, pause reading
            return
        # uvicorn's method pauses reading unless it is paused already: say it is, then
        # put the flag back; the socket was never paused.
        self.read_paused = True
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = False

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        # The scope has its own copy of the headers, and the handshake's answer is made
        # (``conn.accept``): nothing reads the request's again, but the websockets parser
        # keeps the request for the connection's life (a local of its generator).
        event.headers.clear()
        scope = getattr(self, "scope", None)  # none when the handshake was refused
        if scope is not None:  # the application's task is created, not started yet
            scope["extensions"][SEND_NOW] = self.send_text_now

    async def send(self, message: ASGISendEvent) -> None:
        await super().send(message)
        if message["type"] == "websocket.accept" and self.handshake_complete:
            # Read by uvicorn only until its answer is sent (``handle_connect``, ``send``).
            # ``del``, not ``__dict__``: reading that would make the instance a dict of
            # its own, one more object to scan.
            for name in ("request", "response"):
                with contextlib.suppress(AttributeError):
                    delattr(self, name)

    def send_text_now(self, text: str) -> bool:
        """Write ``text`` as one text frame now, if the handshake is done, no close was
        sent or received and the transport's buffer is under its high-water mark: whether
        it was written. ``False`` asks the caller to take the ASGI path (``send``), which
        waits for room in the buffer or raises the disconnection."""
        if (
            not self.writable.is_set()
            or self.disconnected
            or self.close_sent
            or not self.handshake_complete
            or self.initial_response is not None
            or self.transport.is_closing()
        ):
            return False
        try:
            self.conn.send_text(text.encode())
        except InvalidState:
            return False
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True


def uvicorn_options(max_frame_bytes: int) -> dict[str, Any]:
    """What every way of serving the room passes to uvicorn (``croupier serve``, the
    tests' live server, the load harness)."""
    return {
        "ws": RoomWebSocketProtocol,
        "ws_max_size": max_frame_bytes,
        "lifespan": "on",
        # X-Forwarded-For is read by the app, only from CROUPIER_TRUSTED_PROXIES
        # (croupier.server.security); uvicorn's own handling trusts loopback by default.
        "proxy_headers": False,
    }
