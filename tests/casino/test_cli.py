"""`croupier bonus` and `croupier bonus edge` (R-BONUS-1, R-BONUS-5)."""

from __future__ import annotations

import typer
from rich.console import Console
from typer.testing import CliRunner

from croupier.cli import bonus as cli
from croupier.engine.rng import SeededShuffler


def _app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """croupier (test root)."""

    cli.register(app)
    return app


def _session(keys: list[str], balance: int = 1000, seed: int = 3) -> tuple[int, str]:
    console = Console(record=True, width=120, force_terminal=False)
    final = cli.play_session(iter(keys), console, SeededShuffler(seed), balance)
    return final, console.export_text()


def test_keyboard_session_deals_plays_and_settles() -> None:
    """R-BONUS-5, R-BONUS-1: chips, Enter deals, Enter plays and bets, "-" checks; the
    balance moves by the round's net."""
    final, text = _session(["25", "5", "b5", "", "", "-", ""])
    assert "ante 30" in text and "bonus 5" in text
    assert "round:" in text
    net = int(text.split("round:")[1].split()[0])
    assert final == 1000 + net
    assert "flop 60" in text  # Enter pre-flop placed the flop bet (2x ante)


def test_keyboard_fold_clear_and_repeat() -> None:
    """R-BONUS-5: "." clears the bet, "0" repeats the last one, "-" folds pre-flop."""
    final, text = _session(["5", ".", "5", "", "-", "0", "", "-", "q"])
    assert "ante 0   bonus 0" in text  # cleared
    assert text.count("you folded") == 2
    assert final == 1000 - 5 - 5  # two folded antes of 5 (repeated)


def test_keyboard_refusals_are_reported_and_change_nothing() -> None:
    """R-BONUS-1: an unknown chip, a repeat before any round and a deal without a bet are
    refused with their codes; the balance is unchanged."""
    final, text = _session(["7", "0", "", "q"])
    assert "unknown_chip" in text and "no_previous_bet" in text and "no_bet" in text
    assert final == 1000


def test_balance_limits_the_bets() -> None:
    """R-BONUS-1: a player cannot bet more than the balance."""
    final, text = _session(["25", "q"], balance=10)
    assert "insufficient_chips" in text and final == 10


def test_edge_command_prints_exact_figures() -> None:
    """R-BONUS-4, R-BONUS-3: `croupier bonus edge` prints the bonus bet's exact return
    (-8.5406 %) and the main game's documented exact figures."""
    result = CliRunner().invoke(_app(), ["bonus", "edge", "--trials", "20000"])
    assert result.exit_code == 0, result.output
    assert "-8.5406 %" in result.output
    assert "-6.9773 %" in result.output and "-39.2268 %" in result.output
    assert "-2.0369 %" in result.output  # the optimal strategy
    assert "Monte Carlo" in result.output


def test_play_command_reads_the_keyboard_until_end_of_input() -> None:
    """R-BONUS-5: the terminal game runs from standard input (seeded: reproducible)."""
    result = CliRunner().invoke(_app(), ["bonus", "--seed", "4"], input="5\n\n-\nq\n")
    assert result.exit_code == 0, result.output
    assert "you folded" in result.output and "final balance 995 (-5)" in result.output
