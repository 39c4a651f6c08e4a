"""The ``croupier`` command (typer + rich).

Each sub-command lives in its own module with a ``register(app)`` function.
"""

from __future__ import annotations

import typer

from croupier.cli import admin, bonus, equity, phh, play, serve, simulate

app = typer.Typer(
    name="croupier",
    help="croupier: an open online poker room.",
    no_args_is_help=True,
    add_completion=False,
)

for _module in (serve, play, simulate, equity, phh, bonus, admin):
    _module.register(app)


def main() -> None:
    """Entry point of the ``croupier`` console script."""
    app()
