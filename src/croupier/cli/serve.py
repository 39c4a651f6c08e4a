"""``croupier serve [--db URL] [--host H] [--port P] [--processes N|auto]``: run the poker
room server, as one process or as N node processes on one database."""

from __future__ import annotations

from typing import Annotated

import typer

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve_command(
        db: Annotated[
            str | None, typer.Option("--db", help="Database URL (sqlite:///… or postgresql://…)")
        ] = None,
        host: Annotated[str | None, typer.Option(help="Address to listen on")] = None,
        port: Annotated[int | None, typer.Option(help="Port to listen on")] = None,
        processes: Annotated[
            str | None,
            typer.Option(
                "--processes",
                help="Processes on this machine: a number (1..16) or auto (one per core, "
                "at most 8); N > 1 serves ports PORT..PORT+N-1 (CROUPIER_PROCESSES, default 1)",
            ),
        ] = None,
    ) -> None:
        """Start the server: SQLite file by default, PostgreSQL by URL (CROUPIER_* env)."""
        import os

        from croupier.server.processes import configure
        from croupier.server.settings import SettingsError

        changes = {
            k: v
            for k, v in (
                ("database_url", db),
                ("host", host),
                ("port", port),
                ("processes", processes.strip() if processes is not None else None),
            )
            if v is not None
        }
        try:
            settings, n = configure(os.environ, changes)
        except SettingsError as exc:
            typer.echo(f"error [{exc.code}]: {exc}", err=True)
            raise typer.Exit(2) from None
        if n > 1:
            from croupier.server.processes import supervise

            raise typer.Exit(supervise(settings, n))
        from croupier.server.serve import serve

        serve(settings)
