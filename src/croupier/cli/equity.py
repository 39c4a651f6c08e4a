"""`croupier equity HAND HAND... [--board CARDS] [--dead CARDS] [--game G] [--draws K] [--exact|--trials N]`.

Board games (holdem, omaha, omaha8, short_deck); stud games (stud, stud8, razz: each hand
is the player's 2 to 7 known cards, --dead the folded up cards); draw games (draw5, td27,
badugi, draw32: 5 cards, badugi 4; --draws K simulates K draws with the keep rule of
``croupier.analysis.equity.keep_cards``).

Prints a rich table of each hand's wins, ties and equity; long runs show a progress bar.
Bad input (card text, duplicates, hole card counts) prints one error line and exits 2.
"""

from __future__ import annotations

import time
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeRemainingColumn
from rich.table import Table

from croupier.analysis.equity import (
    EXACT_WORK_LIMIT,
    GAMES,
    NONBOARD_EXACT_LIMIT,
    EquityResult,
    equity,
)
from croupier.engine.cards import format_cards, parse_cards
from croupier.engine.errors import EngineError

__all__ = ["register", "render"]

_LONG_WORK = 20_000_000  # board-player evaluations above which a progress bar is shown


def render(result: EquityResult, seconds: float | None = None) -> Table:
    """The result as a rich table."""
    unit = "boards" if GAMES[result.game].kind == "board" else "deals"
    if GAMES[result.game].kind == "draw" and result.exact:
        unit = "showdown (no draw left)"
    how = (
        f"exact: {result.total:,} {unit}"
        if result.exact
        else f"Monte Carlo: {result.total:,} trials, seed {result.seed}"
    )
    if seconds is not None:
        how += f", {seconds:.3f} s"
    board = format_cards(result.board) or "-"
    title = f"{result.game} equity" + (
        f", board {board}" if GAMES[result.game].kind == "board" else ""
    )
    table = Table(title=title, caption=how)
    table.add_column("Hand")
    table.add_column("Equity", justify="right")
    table.add_column("Wins", justify="right")
    table.add_column("Ties", justify="right")
    table.add_column("Tie share", justify="right")
    for i, hand in enumerate(result.hands):
        table.add_row(
            format_cards(hand),
            f"{result.equity[i]:.6f}",
            f"{result.wins[i]:,}",
            f"{result.ties[i]:,}",
            f"{result.tie_shares[i]:,.2f}",
        )
    return table


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""

    @app.command("equity")
    def equity_command(
        hands: Annotated[
            list[str], typer.Argument(help="Hands, e.g. AsAh KsKh", show_default=False)
        ],
        board: Annotated[str, typer.Option("--board", "-b", help="Known board cards")] = "",
        dead: Annotated[str, typer.Option("--dead", "-d", help="Dead (folded, burnt) cards")] = "",
        game: Annotated[
            str,
            typer.Option(
                "--game",
                "-g",
                help="holdem, omaha, omaha8, short_deck; stud, stud8, razz (2 to 7 known"
                " cards a hand, dealt to 7); draw5, td27, badugi, draw32 (5 cards, badugi 4)",
            ),
        ] = "holdem",
        draws: Annotated[
            int,
            typer.Option(
                "--draws",
                help="Draw games: draws left (Monte Carlo). Each player keeps: high (draw5,"
                " draw32) a made straight or better, else paired cards, else four to a flush,"
                " else four to a straight, else the top card; td27 one card of each rank 7 or"
                " lower (a straight or flush breaks its top card); badugi its badugi cards",
            ),
        ] = 0,
        exact: Annotated[
            bool | None,
            typer.Option("--exact/--monte-carlo", help="Force exact enumeration or sampling"),
        ] = None,
        trials: Annotated[
            int | None, typer.Option("--trials", "-n", help="Monte Carlo trials")
        ] = None,
        seed: Annotated[int | None, typer.Option("--seed", help="Monte Carlo seed")] = None,
    ) -> None:
        """All-in equity of two or more hands."""
        console = Console()
        err = Console(stderr=True)
        try:
            if game not in GAMES:
                raise typer.BadParameter(f"unknown game {game!r}; one of {', '.join(GAMES)}")
            if exact and trials is not None:
                raise typer.BadParameter("--exact and --trials exclude each other")
            parsed = [tuple(int(c) for c in parse_cards(h)) for h in hands]
            bd = tuple(int(c) for c in parse_cards(board))
            dd = tuple(int(c) for c in parse_cards(dead))
            spec = GAMES[game]
            long_run = spec.kind == "board" and (
                (trials or 0) >= 2_000_000
                or (
                    exact is not False
                    and trials is None
                    and len(parsed) * spec.evals_per_player * 1_000_000 >= _LONG_WORK
                    and len(bd) < 3
                )
            )
            start = time.perf_counter()
            if long_run:
                with Progress(
                    TextColumn("[bold]equity"),
                    BarColumn(),
                    TaskProgressColumn(),
                    TimeRemainingColumn(),
                    console=err,
                    transient=True,
                ) as bar:
                    task = bar.add_task("equity", total=None)

                    def tick(done: int, total: int) -> None:
                        bar.update(task, completed=done, total=total)

                    result = equity(
                        parsed, bd, dd, game=game, exact=exact, trials=trials, seed=seed,
                        progress=tick, draws=draws,
                    )  # fmt: skip
            else:
                result = equity(
                    parsed, bd, dd, game=game, exact=exact, trials=trials, seed=seed, draws=draws
                )
            seconds = time.perf_counter() - start
        except (EngineError, typer.BadParameter) as e:
            err.print(f"[red]error:[/red] {e}")
            raise typer.Exit(2) from None
        console.print(render(result, seconds))
        if not result.exact and exact is None and trials is None and spec.kind != "draw":
            limit = (
                f"{EXACT_WORK_LIMIT:,} evaluations"
                if spec.kind == "board"
                else f"{NONBOARD_EXACT_LIMIT:,} deals"
            )
            console.print(f"(more than {limit} to enumerate: sampled; --exact forces enumeration)")
