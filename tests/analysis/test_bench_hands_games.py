"""bench/bench_hands.py on the stud, draw and short-deck games against PokerKit."""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_hands.py"


@pytest.fixture(scope="module")
def bench() -> dict[str, Any]:
    return runpy.run_path(str(BENCH))


@pytest.mark.parametrize("game", ["7stud", "stud8", "razz", "27td", "27sd", "badugi", "shortdeck"])
def test_bench_plays_the_game_in_both_engines(bench: dict[str, Any], game: str) -> None:
    """R-POT-6, R-POS-5: the same random policy (bring-in posted, random discards at the
    draws) plays complete hands in croupier and in PokerKit, chips conserved in both (the
    PokerKit loop asserts it), and one line with both rates and the ratio."""
    lines: list[str] = []
    ratio = bench["bench"](game, 12, 3, 5, lines.append)
    (line,) = lines
    assert ratio > 0
    assert line.startswith(f"{game} ") and "PokerKit" in line and "croupier-C n/a" in line
    n, actions, _ = bench["pokerkit_run"](game, 3, 5)
    assert n == 3 and actions >= 3 * 2


def test_games_all_and_unknown(bench: dict[str, Any]) -> None:
    """`--games all` covers every game; an unknown game stops with the list."""
    assert set(bench["ALL_GAMES"]) >= {"nlhe", "7stud", "27td", "badugi", "shortdeck"}
    with pytest.raises(SystemExit, match="one of"):
        bench["_pokerkit_state"]("pineapple")
