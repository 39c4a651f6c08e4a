"""`croupier simulate --game nlhe --seats 6 --stack 200 --blinds 1/2 --hands N --policy random --seed S`.

Plays N complete hands (fresh stacks each hand) with a self-play policy and ends with the
line ``N hands, A actions in T s: H hands/s, R actions/s``. The loop is
:func:`croupier.analysis.simulate.simulate`; bad input prints one error line and exits 2.
``--engine auto|c|python`` (default auto) picks the C core when it plays the game and
policy, else the Python engine; the first line says which one ran.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from croupier.analysis.simulate import ENGINES, POLICIES, simulate
from croupier.engine.errors import EngineError
from croupier.engine.game import find_game

__all__ = ["parse_blinds", "register"]


def parse_blinds(text: str) -> tuple[int, int]:
    """``"1/2"`` → ``(1, 2)``.

    >>> parse_blinds("5/10")
    (5, 10)
    """
    small, sep, big = text.partition("/")
    if not sep or not small.strip().isdigit() or not big.strip().isdigit():
        raise typer.BadParameter(f"blinds look like 1/2, not {text!r}")
    return int(small), int(big)


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""

    @app.command("simulate")
    def simulate_command(
        game: Annotated[
            str, typer.Option("--game", "-g", help="Game preset: nlhe, plo, flhe, plo8, 7stud, …")
        ] = "nlhe",
        seats: Annotated[
            int | None,
            typer.Option(
                "--seats", help="Players at the table (default: 6, or the game's maximum)"
            ),
        ] = None,
        stack: Annotated[int, typer.Option("--stack", help="Starting stack of every hand")] = 200,
        blinds: Annotated[
            str,
            typer.Option("--blinds", help="small/big blind (stud: ante and bring-in / small bet)"),
        ] = "1/2",
        ante: Annotated[int, typer.Option("--ante", help="Ante per player")] = 0,
        hands: Annotated[int, typer.Option("--hands", "-n", help="Hands to play")] = 1000,
        policy: Annotated[
            str, typer.Option("--policy", help=f"Self-play policy: {', '.join(POLICIES)}")
        ] = "random",
        seed: Annotated[int, typer.Option("--seed", help="Seed of decks and policy")] = 0,
        engine: Annotated[
            str,
            typer.Option(
                "--engine", help=f"{'|'.join(ENGINES)}: the C core when it can, C, or Python"
            ),
        ] = "auto",
    ) -> None:
        """Play N complete hands with a self-play policy and report the speed."""
        err = Console(stderr=True, soft_wrap=True)
        try:
            if seats is None:
                seats = min(6, find_game(game)[0].max_players)
            result = simulate(
                game,
                seats=seats,
                stack=stack,
                blinds=parse_blinds(blinds),
                ante=ante,
                hands=hands,
                policy=policy,
                seed=seed,
                engine=engine,
            )
        except (EngineError, typer.BadParameter) as e:
            err.print(f"[red]error:[/red] {e}")
            raise typer.Exit(2) from None
        typer.echo(
            f"{result.game}, {seats} seats, policy {result.policy}, seed {seed},"
            f" engine {result.engine}:"
            f" {result.showdowns} showdowns, chips conserved in every hand"
        )
        typer.echo(result.line())
