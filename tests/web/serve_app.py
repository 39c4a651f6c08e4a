"""Run the croupier server for the browser tests: ``python tests/web/serve_app.py``.

Settings come from the ``CROUPIER_*`` environment, as for ``croupier serve``. The web client
(``src/croupier/web``) is mounted at ``/`` unless the server already serves it.
"""

from __future__ import annotations

from pathlib import Path

import uvicorn
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

import croupier
from croupier.server.app import create_app
from croupier.server.settings import Settings

WEB = Path(croupier.__file__).parent / "web"


def build() -> object:
    settings = Settings.from_env()
    app = create_app(settings)
    if not any(getattr(r, "path", None) in ("", "/") for r in app.routes):
        app.routes.append(Mount("/", app=StaticFiles(directory=WEB, html=True), name="web"))
    return app


def main() -> None:
    settings = Settings.from_env()
    uvicorn.run(
        build(),  # type: ignore[arg-type]
        host=settings.host,
        port=settings.port,
        log_level="warning",
        lifespan="on",
        timeout_graceful_shutdown=1,
    )


if __name__ == "__main__":
    main()
