"""Run the server with uvicorn (used by ``croupier serve`` and ``python -m croupier.server``)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import uvicorn
from starlette.applications import Starlette

from croupier.logs import configure
from croupier.server.app import create_app
from croupier.server.gctune import tune_and_pace
from croupier.server.settings import Settings
from croupier.server.wsproto import uvicorn_options

__all__ = ["serve", "tuned"]


def tuned(app: Starlette, pace: float = 0.0) -> Starlette:
    """``app`` whose start-up ends by tuning the garbage collector and, with ``pace``
    seconds, starting a ``GcPacer`` on its loop (stopped at shutdown)."""
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(a: Any) -> AsyncIterator[None]:
        async with inner(a):
            pacer = tune_and_pace(pace)
            try:
                yield
            finally:
                if pacer is not None:
                    pacer.stop()

    app.router.lifespan_context = lifespan
    return app


def serve(settings: Settings) -> None:
    """Serve until SIGINT/SIGTERM; shutdown closes sockets (1001) and stops the tables.
    Once the room is open the garbage collector is tuned and paced
    (:mod:`croupier.server.gctune`, ``gc_pace_seconds``)."""
    configure(settings.log_level, settings.log_format)
    uvicorn.run(
        tuned(create_app(settings), settings.gc_pace_seconds),
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level.lower(),
        timeout_graceful_shutdown=int(settings.shutdown_grace_seconds),
        **uvicorn_options(settings.max_frame_bytes),
    )
