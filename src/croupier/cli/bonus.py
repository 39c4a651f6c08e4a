"""`croupier bonus`: Texas Hold'em Bonus against the dealer in the terminal, and
`croupier bonus edge`: the game's exact expected returns.

Keyboard (R-BONUS-5), one key then Enter on a terminal line:

- between rounds: ``1`` ``5`` ``25`` ``100`` ``500`` add a chip to the ante (``b5``: to
  the bonus bet), Enter deals, Delete / ``del`` or ``.`` clears the bet, ``0`` repeats
  the last bet, ``q`` quits;
- in a round: Enter plays (pre-flop) or bets (turn, river), ``-`` folds (pre-flop) or
  checks (turn, river).

Live play shuffles with the OS CSPRNG; ``--seed`` makes a reproducible (not live) game.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeRemainingColumn
from rich.table import Table

from croupier.casino import optimal as O
from croupier.casino import returns as R
from croupier.casino.bonus import (
    BonusAction,
    BonusConfig,
    Phase,
    RoundState,
    apply,
    legal_actions,
    shuffled_deck,
    start_round,
)
from croupier.casino.events import Move, Outcome
from croupier.casino.keys import command_for
from croupier.casino.paytable import BONUS_LINES
from croupier.casino.slip import BetSlip, Spot
from croupier.cli.keyboard import tty_lines
from croupier.engine.cards import format_cards
from croupier.engine.errors import EngineError
from croupier.engine.evaluate import describe, high
from croupier.engine.rng import SeededShuffler, Shuffler, SystemShuffler

__all__ = ["edge_table", "play_session", "register"]

_COMMANDS = {"play": Move.PLAY, "fold": Move.FOLD, "bet": Move.BET, "check": Move.CHECK}


def _cards(cards: Iterable[int]) -> str:
    return " ".join(format_cards([c]) for c in cards) or "-"


def _show(console: Console, s: RoundState) -> None:
    seat = s.seats[0]
    console.print(
        f"  you [bold]{_cards(seat.hole)}[/bold]   dealer "
        f"{_cards(s.dealer) if s.is_over else '?? ??'}   board {_cards(s.board)}"
    )
    console.print(
        f"  ante {seat.ante}  bonus {seat.bonus}  flop {seat.flop}  turn {seat.turn}"
        f"  river {seat.river}"
    )


def _prompt(s: RoundState) -> str:
    if s.phase is Phase.PREFLOP:
        return f"Enter: play ({2 * s.seats[0].ante})   -: fold"
    return f"Enter: bet ({s.seats[0].ante})   -: check"


def _report(console: Console, s: RoundState) -> None:
    assert s.result is not None
    r = s.result.results[0]
    _show(console, s)
    if r.outcome is Outcome.FOLD:
        console.print("  you folded: the ante is lost")
    else:
        dealer_value = high(s.dealer, s.board)
        console.print(
            f"  you: {describe('high', r.value or 0)}   dealer: {describe('high', dealer_value)}"
            f"   → [bold]{r.outcome.value}[/bold]"
        )
    if r.bonus_line:
        console.print(f"  bonus: {r.bonus_line} ({r.bonus_net:+d})")
    colour = "green" if r.net > 0 else "red" if r.net < 0 else "white"
    console.print(f"  round: [{colour}]{r.net:+d}[/{colour}]")


def play_session(
    lines: Iterator[str],
    console: Console,
    shuffler: Shuffler,
    balance: int,
    config: BonusConfig = BonusConfig(),  # noqa: B008
) -> int:
    """Run rounds from the keyboard lines until ``q`` or the end of input; return the
    balance. Pure of I/O but for ``lines`` and ``console`` (tests drive it with a list)."""
    slip = BetSlip()
    chips = ", ".join(str(c) for c in config.chips)
    console.print(
        f"Texas Hold'em Bonus: ante {config.ante_min}-{config.ante_max}, bonus "
        f"{config.bonus_min}-{config.bonus_max}. Chips {chips} (b25: on the bonus); "
        "Enter deals, Delete or . clears, 0 repeats, q quits."
    )
    while True:
        console.print(f"[bold]balance {balance}[/bold]   ante {slip.ante}   bonus {slip.bonus}")
        key = next(lines, None)
        if key is None or key.strip().lower() in ("q", "quit"):
            return balance
        text = key.strip().lower()
        try:
            cmd = command_for(key, None)
            if cmd == "clear":
                slip = slip.clear()
            elif cmd == "repeat":
                slip = slip.repeat()
            elif cmd == "deal":
                bets, after = slip.deal(config)
                state, _ = start_round(config, [bets], shuffled_deck(shuffler), stacks=[balance])
                slip = after
                played = _play_round(state, lines, console)
                if played is None:
                    return balance
                _report(console, played)
                final = played.final_stacks[0]
                balance = final if final is not None else balance
            elif text.isdigit() or (text.startswith("b") and text[1:].isdigit()):
                spot: Spot = "bonus" if text.startswith("b") else "ante"
                slip = slip.add(config, spot, int(text.lstrip("b")))
                if slip.total > balance:
                    slip = slip.clear()
                    raise EngineError("insufficient_chips", f"your balance is {balance}")
            else:
                console.print(f"  ? {key!r}: chips {chips}, Enter, ., 0 or q")
        except EngineError as e:
            console.print(f"  [red]{e.code}[/red]: {e}")


def _play_round(state: RoundState, lines: Iterator[str], console: Console) -> RoundState | None:
    while (legal := legal_actions(state)) is not None:
        _show(console, state)
        console.print(f"  {_prompt(state)}")
        key = next(lines, None)
        if key is None:
            return None
        cmd = command_for(key, state.phase)
        if cmd is None:
            console.print(f"  ? {key!r}")
            continue
        try:
            state, _ = apply(state, BonusAction(legal.player, _COMMANDS[cmd]))
        except EngineError as e:
            console.print(f"  [red]{e.code}[/red]: {e}")
    return state


def _pct(x: Fraction | float) -> str:
    return f"{100 * float(x):+.4f} %"


def edge_table(
    recompute: bool = False, progress: Callable[[int, int], None] | None = None
) -> Table:
    """The exact figures as a rich table (``recompute``: enumerate again, a few minutes)."""
    table = Table(title="Texas Hold'em Bonus: expected return")
    for col in ("bet / strategy", "method", "return", "played", "staked / round", "per staked"):
        table.add_column(col, justify="left" if col in ("bet / strategy", "method") else "right")
    bonus = R.bonus_return(BONUS_LINES)
    table.add_row("bonus bet", "exact", _pct(bonus), "", "1", _pct(bonus))
    if recompute:
        tick = None if progress is None else (lambda d, t: progress(d, 2 * t))
        rows, method = R.figures(R.exact_counts(tick)), "exact (enumerated now)"
        tick2 = (
            None
            if progress is None
            else (lambda st, d, t: progress(t + d if st == "boards" else 2 * t, 2 * t))
        )
        opt = O.optimal_returns(tick2)
        best = R.Figure("optimal", opt.ev, opt.played, opt.staked)
    else:
        rows, method = R.EXACT_FIGURES, "exact"
        best = R.Figure(
            "optimal", O.EXACT_OPTIMAL_EV, O.EXACT_OPTIMAL_PLAYED, O.EXACT_OPTIMAL_STAKED
        )
    rows = (*rows, best)
    for f in rows:
        table.add_row(
            f"main game: {f.strategy}",
            method,
            _pct(f.ev),
            f"{100 * float(f.played):.2f} %",
            f"{float(f.staked):.4f}",
            _pct(f.per_staked),
        )
    return table


def _write(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def register(app: typer.Typer) -> None:
    """Add ``croupier bonus`` and ``croupier bonus edge`` to ``app``."""
    bonus_app = typer.Typer(
        help="Texas Hold'em Bonus against the dealer (play, or `edge` for the returns).",
        invoke_without_command=True,
        add_completion=False,
    )

    @bonus_app.callback()
    def bonus_command(
        ctx: typer.Context,
        balance: Annotated[int, typer.Option("--balance", help="Starting chips")] = 1000,
        seed: Annotated[
            int | None, typer.Option("--seed", help="Reproducible shuffle (not live)")
        ] = None,
    ) -> None:
        """Play Texas Hold'em Bonus against the dealer (keyboard of R-BONUS-5)."""
        if ctx.invoked_subcommand is not None:
            return
        console = Console(highlight=False)
        if balance < 1:
            Console(stderr=True).print("[red]error:[/red] --balance must be at least 1")
            raise typer.Exit(2)
        shuffler: Shuffler = SystemShuffler() if seed is None else SeededShuffler(seed)

        def keyboard() -> Iterator[str]:
            if sys.stdin.isatty():  # key by key: the Delete key clears the bet by itself
                yield from tty_lines(sys.stdin.fileno(), _write)
                return
            while True:
                try:
                    yield input("> ")
                except EOFError:
                    return

        final = play_session(keyboard(), console, shuffler, balance)
        console.print(f"final balance {final} ({final - balance:+d})")

    @bonus_app.command("edge")
    def edge_command(
        recompute: Annotated[
            bool, typer.Option("--recompute", help="Enumerate every deal again (a few minutes)")
        ] = False,
        trials: Annotated[
            int, typer.Option("--trials", "-n", help="Also deal N seeded rounds per strategy")
        ] = 0,
        seed: Annotated[int, typer.Option("--seed", help="Monte Carlo seed")] = 1,
    ) -> None:
        """Print the exact expected return of the main game and of the bonus bet."""
        console = Console(highlight=False)
        start = time.perf_counter()
        if recompute:
            with Progress(
                TextColumn("[bold]enumerating"),
                BarColumn(),
                TaskProgressColumn(),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            ) as bar:
                task = bar.add_task("boards", total=None)

                def tick(done: int, total: int) -> None:
                    bar.update(task, completed=done, total=total)

                table = edge_table(True, tick)
        else:
            table = edge_table(False)
        console.print(table)
        if recompute:
            console.print(f"enumerated in {time.perf_counter() - start:.1f} s")
        console.print(
            "Returns per unit of ante (bonus: per unit of bonus bet); 'pair rule' bets the "
            "turn and river when a hole card makes a pair or better; 'best folds' plays a "
            "hand class only when playing it beats folding; 'optimal' bets the turn and river "
            "whenever the hand wins more remaining deals than it loses. See docs/bonus.md."
        )
        if trials > 0:
            if trials > 50_000_000:
                Console(stderr=True).print("[red]error:[/red] at most 50,000,000 trials")
                raise typer.Exit(2)
            for bets in (False, True):
                sim = R.simulate_strategy(trials, seed, bets=bets)
                rule = "pair rule" if bets else "always check"
                console.print(
                    f"Monte Carlo, always play, {rule}: {_pct(sim.mean)} ± "
                    f"{100 * sim.half_width:.4f} % (95 %, {trials:,} rounds, seed {seed})"
                )

    app.add_typer(bonus_app, name="bonus")
