"""``croupier serve [--db URL] [--host H] [--port P]``: run the poker room server."""

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
    ) -> None:
        """Start the server: SQLite file by default, PostgreSQL by URL (CROUPIER_* env)."""
        from croupier.server.serve import serve
        from croupier.server.settings import Settings, SettingsError

        try:
            settings = Settings.from_env()
            changes = {
                k: v
                for k, v in (("database_url", db), ("host", host), ("port", port))
                if v is not None
            }
            settings = settings.with_(**changes) if changes else settings
        except SettingsError as exc:
            typer.echo(f"error [{exc.code}]: {exc}", err=True)
            raise typer.Exit(2) from None
        serve(settings)
