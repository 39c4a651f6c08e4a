"""`croupier play`: the terminal game against bots, in every game of the room."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from croupier.cli import app

runner = CliRunner()


@pytest.mark.parametrize(
    "game",
    [
        "nlhe",
        "plo",
        "flhe",
        "plo8",
        "7stud",
        "stud8",
        "razz",
        "soko",
        "5cd",
        "27td",
        "32cd",
        "badugi",
    ],
)
def test_auto_play_every_game(game: str) -> None:
    """R-BOT-1, R-POS-5, R-DRAW-1: bots play complete hands of every game; chips are conserved."""
    result = runner.invoke(
        app, ["play", "--auto", "--seed", "5", "--hands", "3", "--game", game, "--seats", "3"]
    )
    assert result.exit_code == 0, result.stdout
    last = [line for line in result.stdout.splitlines() if line.startswith("Stacks: ")][-1]
    stacks = [int(part.rsplit(" ", 1)[1]) for part in last.removeprefix("Stacks: ").split(", ")]
    assert sum(stacks) == 3 * 200


def test_human_seat_refused_input_then_fold() -> None:
    """R-BET-8: an illegal or malformed action is refused with a reason and the prompt comes back."""
    result = runner.invoke(
        app,
        ["play", "--seed", "1", "--hands", "1", "--seats", "2"],
        input="x\nr 1\nf\nk\nf\nk\nk\nk\nk\nk\nk\n",
    )
    assert result.exit_code == 0, result.stdout
    assert "Unknown action." in result.stdout


def test_bad_options_exit_2() -> None:
    """Bad input gets a clear error, not a traceback."""
    result = runner.invoke(app, ["play", "--game", "nope"])
    assert result.exit_code == 2
    assert "unknown game" in result.stdout
