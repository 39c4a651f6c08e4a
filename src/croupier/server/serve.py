"""Run the server with uvicorn (used by ``croupier serve`` and ``python -m croupier.server``)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import AsyncIterator
from typing import Any

import uvicorn
from starlette.applications import Starlette

from croupier.logs import configure
from croupier.server.app import create_app
from croupier.server.gctune import tune_and_pace
from croupier.server.settings import Settings
from croupier.server.switching import tune_switching
from croupier.server.wsproto import uvicorn_options

__all__ = ["serve", "tuned"]


def tuned(app: Starlette, pace: float = 0.0, switch_ms: float | None = None) -> Starlette:
    """``app`` whose start-up ends by tuning the garbage collector and, with ``pace``
    seconds, starting a ``GcPacer`` on its loop (stopped at shutdown), and with
    ``switch_ms``, setting the GIL's switch interval (:mod:`croupier.server.switching`;
    the previous one is restored at shutdown)."""
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(a: Any) -> AsyncIterator[None]:
        async with inner(a):
            pacer = tune_and_pace(pace)
            previous = sys.getswitchinterval()
            if switch_ms is not None:
                tune_switching(switch_ms)
            try:
                yield
            finally:
                sys.setswitchinterval(previous)
                if pacer is not None:
                    pacer.stop()

    app.router.lifespan_context = lifespan
    return app


def serve(settings: Settings) -> None:
    """Serve until SIGINT/SIGTERM; shutdown closes sockets (1001) and stops the tables.
    Once the room is open the garbage collector is tuned and paced
    (:mod:`croupier.server.gctune`, ``gc_pace_seconds``) and the GIL's switch interval
    set (:mod:`croupier.server.switching`, ``switch_interval_ms``)."""
    configure(settings.log_level, settings.log_format)
    uvicorn.run(
        tuned(create_app(settings), settings.gc_pace_seconds, settings.switch_interval_ms),
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level.lower(),
        timeout_graceful_shutdown=int(settings.shutdown_grace_seconds),
        **uvicorn_options(settings.max_frame_bytes),
    )
