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
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["RoomWebSocketProtocol", "uvicorn_options"]


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
