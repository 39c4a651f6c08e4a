"""Equity: exact enumeration, Monte Carlo, hi/lo splits (R-POT-5), CLI."""

from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner

from croupier.analysis import equity as eqmod
from croupier.analysis.equity import GAMES, equity
from croupier.cli import equity as cli_equity
from croupier.engine.cards import parse_cards as p
from croupier.engine.errors import InvalidCardError
from croupier.engine.evaluate import BACKEND


def test_aces_against_kings_exact():
    """R-RANK-1, R-RANK-2: AsAh vs KsKh: 1,410,336 wins and 9,308 ties of 1,712,304."""
    r = equity([p("AsAh"), p("KsKh")])
    assert r.exact and r.total == 1_712_304
    assert r.wins == (1_410_336, 292_660)
    assert r.ties == (9_308, 9_308)
    assert r.tie_shares == (4_654.0, 4_654.0)
    assert f"{r.equity[0]:.6f}" == "0.826366"
    assert sum(r.equity) == pytest.approx(1.0)


CASES = [
    ("holdem", ["AsAh", "KsKh", "7c8c"], "2c9c3h"),
    ("holdem", ["AsKd", "AcKh"], "QsJsTs"),
    ("omaha", ["AsAhKd2d", "KsKh9d8c"], "2c9c3h"),
    ("omaha8", ["AsAh2d3c", "KsKh9d4c", "5h6h7d8d"], "2c9c3h"),
    ("short_deck", ["AsAh", "KsKh"], "6c7c8h"),
]


@pytest.mark.parametrize(("game", "hands", "board"), CASES)
def test_c_and_numpy_paths_agree(game, hands, board):
    """R-RANK-3, R-RANK-4, R-POT-5: the C loops and the NumPy fallback count alike."""
    if BACKEND != "c":  # pragma: no cover
        pytest.skip("C extension not built")
    hs = tuple(tuple(int(c) for c in p(h)) for h in hands)
    bd = tuple(int(c) for c in p(board))
    spec = GAMES[game]
    used = {c for h in hs for c in h} | set(bd)
    deck = tuple(int(c) for c in spec.deck if int(c) not in used)
    from math import comb

    k = 5 - len(bd)
    n = comb(len(deck), k)
    c = eqmod._exact_c(spec, hs, bd, deck, k, n, None)
    py = eqmod._exact_np(spec, hs, bd, deck, k, n, None)
    assert c[0] == py[0] and c[1] == py[1] and c[3] == py[3] == n
    assert c[2] == pytest.approx(py[2])


def test_hi_lo_splits_halves():
    """R-POT-5, R-RANK-4: the low half goes to the best qualifying low; no low, the high
    hand scoops."""
    # the board gives A-2 a nut low and K-K the high: each gets half
    r = equity([p("Ac2dKhQh"), p("KsKdJc9c")], p("3h4s8cKcTd"), game="omaha8")
    assert r.total == 1 and r.ties == (1, 1) and r.equity == (0.5, 0.5)
    # no low possible: the high scoops
    r = equity([p("Ac2dKhQh"), p("KsKdJc9c")], p("9h9sTcKcTd"), game="omaha8")
    assert r.wins == (0, 1) and r.equity == (0.0, 1.0)
    # quartered: both have the same low, one has the high
    r = equity([p("Ac2dKhKd"), p("As2cQs9c")], p("3h4s8cKcTd"), game="omaha8")
    assert r.equity == (0.75, 0.25)


def test_monte_carlo_reproducible():
    """Seeded Monte Carlo repeats exactly and lands near the exact answer."""
    a = equity([p("AsAh"), p("KsKh"), p("7c8c")], trials=200_000, seed=5)
    b = equity([p("AsAh"), p("KsKh"), p("7c8c")], trials=200_000, seed=5)
    assert a == b and not a.exact and a.total == 200_000 and a.seed == 5
    exact = equity([p("AsAh"), p("KsKh"), p("7c8c")], exact=True)
    for x, y in zip(a.equity, exact.equity, strict=True):
        assert abs(x - y) < 0.01


def test_progress_and_dead_cards():
    """Progress reaches the total; dead cards leave the deck."""
    calls: list[tuple[int, int]] = []
    r = equity([p("AsAh"), p("KsKh")], dead=p("Ad"), progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (r.total, r.total) and r.total == 1_533_939  # C(47, 5)


@pytest.mark.parametrize(
    ("hands", "kw", "code"),
    [
        (["AsAh", "AsKh"], {}, "duplicate_card"),
        (["AsAhKd", "KsKh"], {}, "wrong_card_count"),
        (["AsAh", "KsKh"], {"board": "2c3c4c5c6c7c"}, "wrong_card_count"),
        (["AsAh", "KsKh"], {"game": "short_deck", "board": "2c3c4c"}, "invalid_card"),
        (["AsAh", "KsKh"], {"game": "omaha"}, "wrong_card_count"),
        (["AsAh", "KsKh"], {"game": "pineapple"}, "unknown_game"),
    ],
)
def test_bad_input(hands, kw, code):
    """R-CARD-1: bad input is refused with a stable code."""
    with pytest.raises(ValueError) as e:
        equity(hands, **kw)
    assert getattr(e.value, "code", None) == code


def _app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """Test app."""

    cli_equity.register(app)
    return app


def test_cli_prints_the_known_answer():
    """`croupier equity AsAh KsKh` prints 0.826366 for AsAh."""
    res = CliRunner().invoke(_app(), ["equity", "AsAh", "KsKh"])
    assert res.exit_code == 0, res.output
    assert re.search(r"AsAh\s*│\s*0\.826366", res.output)
    assert "1,410,336" in res.output and "9,308" in res.output


@pytest.mark.parametrize(
    "args",
    [
        ["equity", "AsAh", "Kx"],
        ["equity", "AsAh", "AsKh"],
        ["equity", "AsAhKd", "KsKh"],
        ["equity", "AsAh", "KsKh", "--game", "omaha"],
        ["equity", "AsAh", "KsKh", "--exact", "--trials", "5"],
    ],
)
def test_cli_bad_input_exits_2(args):
    """Bad input: a clear message and exit code 2, no traceback."""
    res = CliRunner().invoke(_app(), args)
    assert res.exit_code == 2
    assert "Traceback" not in res.output
    assert "error" in res.output.lower()


def test_cli_monte_carlo():
    """--trials and --seed sample reproducibly."""
    args = ["equity", "AsAh", "KsKh", "--trials", "50000", "--seed", "1"]
    a = CliRunner().invoke(_app(), args)
    assert a.exit_code == 0 and "Monte Carlo" in a.output
    with pytest.raises(InvalidCardError):
        equity(["AsAh", "KsKh"], board=["x"])  # type: ignore[list-item]
