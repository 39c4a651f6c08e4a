"""Run the server with uvicorn (used by ``croupier serve`` and ``python -m croupier.server``)."""

from __future__ import annotations

import uvicorn

from croupier.logs import configure
from croupier.server.app import create_app
from croupier.server.settings import Settings

__all__ = ["serve"]


def serve(settings: Settings) -> None:
    """Serve until SIGINT/SIGTERM; shutdown closes sockets (1001) and stops the tables."""
    configure(settings.log_level, settings.log_format)
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        ws_max_size=settings.max_frame_bytes,
        log_level=settings.log_level.lower(),
        lifespan="on",
        # X-Forwarded-For is read by the app, only from CROUPIER_TRUSTED_PROXIES
        # (croupier.server.security); uvicorn's own handling trusts loopback by default.
        proxy_headers=False,
        timeout_graceful_shutdown=int(settings.shutdown_grace_seconds),
    )
