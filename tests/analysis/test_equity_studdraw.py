"""Equity of stud (stud, stud8, razz) and draw games (draw5, td27, badugi, draw32).

Known answers are recomputed here by brute force with the scalar evaluators.
"""

from __future__ import annotations

import re
from itertools import combinations

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from croupier.analysis import equity as eqmod
from croupier.analysis.equity import GAMES, equity, keep_cards
from croupier.cli import equity as cli_equity
from croupier.engine import evaluate as ev
from croupier.engine.cards import format_cards
from croupier.engine.cards import parse_cards as p


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(c) for c in p(text))


def _brute_stud(game: str, hands: list[str], dead: str = "") -> tuple[list[float], int]:
    """Pot shares summed over every deal of the missing cards (scalar evaluators)."""
    hs = [_ints(h) for h in hands]
    used = {c for h in hs for c in h} | set(_ints(dead))
    deck = [c for c in range(52) if c not in used]
    needs = [7 - len(h) for h in hs]
    shares = [0.0] * len(hs)
    total = 0

    def deals(rest: list[int], i: int, acc: list[tuple[int, ...]]) -> None:
        nonlocal total
        if i == len(hs):
            total += 1
            full = [hs[j] + acc[j] for j in range(len(hs))]
            if game == "razz":
                vals = [ev.ace_five(f, ()) for f in full]
                best = max(vals)
                win = [v == best for v in vals]
                for j in range(len(hs)):
                    shares[j] += win[j] / sum(win)
                return
            vals = [ev.high(f, ()) for f in full]
            best = max(vals)
            hi = [(v == best) / sum(x == best for x in vals) for v in vals]
            if game == "stud8":
                lows = [ev.low8(f, ()) for f in full]
                q = [x for x in lows if x is not None]
                if q:
                    bl = max(q)
                    nl = sum(x == bl for x in lows)
                    lo = [(x == bl) / nl for x in lows]
                    hi = [0.5 * a + 0.5 * b for a, b in zip(hi, lo, strict=True)]
            for j in range(len(hs)):
                shares[j] += hi[j]
            return
        for mine in combinations(rest, needs[i]):
            deals([c for c in rest if c not in mine], i + 1, [*acc, mine])

    deals(deck, 0, [])
    return shares, total


STUD_CASES = [
    ("stud", ["AsAhKd7c2c3d", "KsKh8d8c2h4s"], ""),
    ("stud", ["9s9hTdJcQc3d", "5s6s7s8s2h4c"], "Ts"),
    ("stud8", ["As2h3d4c6h8d", "KsKh8s8c2d4s"], ""),
    ("stud8", ["As2h3d4cKhKd", "Ac2c5d7cQhQs", "9s9d9c5h6hTh"], ""),
    ("razz", ["As2h3d4cKhKd", "Ac2c5d7cQhJs"], "6s"),
]


@pytest.mark.parametrize(("game", "hands", "dead"), STUD_CASES)
def test_stud_one_card_to_come_exact(game, hands, dead):
    """R-RANK-1, R-RANK-4, R-POT-5: one card to come each: the exact count equals a brute
    force over every deal with the scalar evaluators (stud 8 splits halves, no low scoops;
    razz ranks ace-to-five)."""
    r = equity(hands, dead=dead, game=game)
    shares, total = _brute_stud(game, hands, dead)
    assert r.exact and r.total == total
    n_left = 52 - 6 * len(hands) - len(dead) // 2
    expect_total = 1
    for i in range(len(hands)):
        expect_total *= n_left - i
    assert total == expect_total
    for got, want in zip(r.equity, shares, strict=True):
        assert got == pytest.approx(want / total, abs=1e-12)
    assert sum(r.equity) == pytest.approx(1.0)


def test_stud_two_cards_to_come_exact_small():
    """R-RANK-1: fewer known cards (two to come for one player) still matches brute force."""
    hands = ["AsAhKd7c2c", "KsKh8d8c2h4s"]
    r = equity(hands, game="stud")
    shares, total = _brute_stud("stud", hands)
    assert r.exact and r.total == total == 41 * 40 // 2 * 39
    assert r.equity[0] == pytest.approx(shares[0] / total)


@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
def test_stud_monte_carlo_near_exact(game):
    """Seeded Monte Carlo is reproducible and within 0.01 of the exact answer."""
    hands = ["As2h3d4c6hKd", "KsKh8s8c2d4s"]
    exact = equity(hands, game=game)
    a = equity(hands, game=game, trials=40_000, seed=11)
    b = equity(hands, game=game, trials=40_000, seed=11)
    assert a == b and not a.exact and a.total == 40_000 and a.seed == 11
    for x, y in zip(a.equity, exact.equity, strict=True):
        assert abs(x - y) < 0.01


def test_stud_hi_lo_no_low_scoops_and_split():
    """R-POT-5, R-RANK-4: with seven known cards each (nothing to come) the high hand
    scoops when nobody has a low, and the pot splits when one has the low."""
    r = equity(["AsAhKdKcQh9d9s", "2s3h5dJcQdTcTs"], game="stud8")
    assert r.total == 1 and r.exact and r.equity == (1.0, 0.0) and r.wins == (1, 0)
    r = equity(["AsAhKdKcQh9d9s", "2s3h5d6c8dTcTs"], game="stud8")
    assert r.equity == (0.5, 0.5) and r.ties == (1, 1)


def test_razz_batch_matches_scalar():
    """The razz batch (one vectorized evaluation per rank multiset) equals the scalar
    ace_five, pairs to quads included."""
    rng = np.random.default_rng(3)
    rows = np.array([rng.permutation(52)[:7] for _ in range(3000)], dtype=np.int32)
    few = np.array([rng.permutation(16)[:7] + 4 * rng.integers(0, 10) for _ in range(500)])
    rows = np.concatenate([rows, few.astype(np.int32)])  # four ranks: pairs, trips, quads
    got = eqmod._ace_five_batch(rows)
    assert got.tolist() == [ev.ace_five(r.tolist(), ()) for r in rows]


@pytest.mark.parametrize(
    ("game", "hands"),
    [
        ("draw5", ["AsAhKd7c2c", "KsKh8d8c2h"]),
        ("td27", ["7s5h4d3c2c", "8s6h4s3h2d"]),
        ("td27", ["7s5h4d3c2c", "7h5s4c3d2h"]),
        ("badugi", ["Ac2d5h9s", "3c4d6hKh"]),
        ("draw32", ["AsKsQsJs9s", "AhKhQhJh9h"]),
    ],
)
def test_draw_no_draw_is_one_comparison(game, hands):
    """R-RANK-1, R-RANK-5, R-RANK-6: no draw left: one exact comparison of the hands."""
    r = equity(hands, game=game)
    vals = [eqmod._draw_value(game, _ints(h)) for h in hands]
    best = max(vals)
    winners = [v == best for v in vals]
    assert r.exact and r.total == 1
    assert r.equity == tuple(w / sum(winners) for w in winners)


def test_td27_wheel_is_not_a_straight_and_32_never_ties():
    """R-RANK-5: A-2-3-4-5 is ace high in 2-7 (loses to K-high); R-RANK-6: suits break ties
    (hearts > spades)."""
    r = equity(["As5h4d3c2c", "Ks8h6d4c3d"], game="td27")
    assert r.equity == (0.0, 1.0)
    r = equity(["AsKsQsJs9s", "AhKhQhJh9h"], game="draw32")
    assert r.equity == (0.0, 1.0)


def _exact_draw_one(game: str, pat: str, drawer: str, ndraw: int) -> float:
    """Equity of the player standing pat against one who draws ``ndraw`` (by the keep rule),
    enumerating every set of replacement cards."""
    a, b = _ints(pat), _ints(drawer)
    kept = keep_cards(game, b)
    assert keep_cards(game, a) == a and len(b) - len(kept) == ndraw
    deck = [c for c in GAMES[game].deck if int(c) not in set(a) | set(b)]
    va = eqmod._draw_value(game, a)
    share = n = 0.0
    for new in combinations((int(c) for c in deck), ndraw):
        vb = eqmod._draw_value(game, kept + new)
        share += 1.0 if va > vb else 0.5 if va == vb else 0.0
        n += 1
    return share / n


@pytest.mark.parametrize(
    ("game", "pat", "drawer", "ndraw"),
    [
        ("draw5", "2s5s9sKsQs", "AhAdKd7c2c", 3),
        ("td27", "7s5h4d3c2c", "8s6h4s3hKd", 2),
        ("badugi", "Ac2d5h9s", "3c4d6hKh", 1),
        ("draw32", "AsAhAdKsKh", "QsQhJdJc9c", 1),
    ],
)
def test_one_draw_monte_carlo_near_exact(game, pat, drawer, ndraw):
    """R-RANK-5, R-RANK-6: one draw, a pat hand against a drawing one: seeded Monte Carlo
    lands within 0.015 of the exact enumeration of the replacement cards."""
    want = _exact_draw_one(game, pat, drawer, ndraw)
    r = equity([pat, drawer], game=game, draws=1, trials=8_000, seed=4)
    assert not r.exact and r.seed == 4 and r.total == 8_000
    assert abs(r.equity[0] - want) < 0.015
    assert r == equity([pat, drawer], game=game, draws=1, trials=8_000, seed=4)


def test_more_draws_help_the_drawing_hand():
    """Three draws give a drawing 2-7 hand (7-5-4, two cards to draw) more chances against
    a pat 8-6 than one draw."""
    hands = ["8s6h4d3c2c", "9s7h5s4hKd"]
    one = equity(hands, game="td27", draws=1, trials=6_000, seed=2)
    three = equity(hands, game="td27", draws=3, trials=6_000, seed=2)
    assert three.equity[1] > one.equity[1] + 0.05


def test_six_way_triple_draw_badugi_runs_the_stub_dry():
    """R-DRAW-4: six badugi hands over three draws need more cards than the stub holds;
    the other players' discards are reshuffled in; the run completes, reproducibly, and
    every trial's pot is shared out (shares sum to 1)."""
    hands = ["Ac2d5h9s", "3c4d6hKh", "7c8d9hTs", "JcQdKs2s", "5c6d7s8h", "9cTdJhQs"]
    r = equity(hands, game="badugi", draws=3, trials=1500, seed=8)
    assert r.total == 1500 and sum(r.equity) == pytest.approx(1.0)
    assert sum(r.wins) + sum(r.ties) >= 1500
    assert r == equity(hands, game="badugi", draws=3, trials=1500, seed=8)


@pytest.mark.parametrize(
    ("game", "hand", "kept"),
    [
        ("draw5", "AsKsQsJs9s", "AsKsQsJs9s"),  # flush stands pat
        ("draw5", "9s8h7d6c5c", "9s8h7d6c5c"),  # straight stands pat
        ("draw5", "KsKhKd7c7s", "KsKhKd7c7s"),  # full house
        ("draw5", "KsKhKdKc7s", "KsKhKdKc"),  # quads keep the quads
        ("draw5", "KsKh7d7c2s", "KsKh7d7c"),  # two pair draws one
        ("draw5", "9s8h7d6cKc", "9s8h7d6c"),  # four to a straight
        ("draw5", "Ah2d3c4sQh", "Ah2d3c4s"),  # four to the wheel
        ("draw5", "Ah9d7c4s2h", "Ah"),  # nothing: the top card
        ("draw32", "AhTd9c8sKc", "AhTd9c8s"),  # four to A-7-8-9-T (the ace plays low)
        ("draw32", "AhKdQcJs8h", "AhKdQcJs"),  # four to the ace-high straight
        ("td27", "8s6h4d3c2c", "8s6h4d3c2c"),  # a made 8-low stands pat
        ("td27", "6s5h4d3c2c", "5h4d3c2c"),  # a 2-7 straight breaks its top card
        ("td27", "7s5s4s3s2s", "5s4s3s2s"),  # a flush too
        ("td27", "7s5h4d3c2c", "7s5h4d3c2c"),  # the nuts stands pat
        ("td27", "AsKh4d4c2c", "4d2c"),  # aces are high, pairs go
        ("badugi", "AcAd5h9s", "Ad5h9s"),  # of equal badugis, the later cards
        ("badugi", "Ac2c3c4c", "Ac"),
    ],
)
def test_keep_rule(game, hand, kept):
    """The documented drawing rule of the equity simulation."""
    assert format_cards(keep_cards(game, p(hand))) == kept


@pytest.mark.parametrize(
    ("hands", "kw", "code"),
    [
        (["As", "KsKh"], {"game": "stud"}, "wrong_card_count"),
        (["AsAhAdAc2s2h2d2c", "KsKh"], {"game": "stud"}, "wrong_card_count"),
        (["AsAh", "KsKh"], {"game": "stud", "board": "2c3c4c"}, "wrong_card_count"),
        (["AsAh3c", "AsKh4c"], {"game": "razz"}, "duplicate_card"),
        (["AsAh", "KsKh"], {"game": "stud", "draws": 1}, "bad_draws"),
        (["AsAs", "KsKh"], {"game": "stud"}, "duplicate_card"),
        ([f"{r}s{r}h" for r in "23456789"], {"game": "stud"}, "wrong_card_count"),
        (["AsAhKd7c", "KsKh8d8c2h"], {"game": "draw5"}, "wrong_card_count"),
        (["AsAhKd7c2c", "KsKh8d8c"], {"game": "badugi"}, "wrong_card_count"),
        (["AsAhKd7c8c", "KsKh8d9c5h"], {"game": "draw32"}, "invalid_card"),
        (["AsAhKd7c2c", "KsKh8d8c2h"], {"game": "td27", "draws": -1}, "bad_draws"),
        (["AsAhKd7c2c", "KsKh8d8c2h"], {"game": "td27", "trials": 10}, "bad_trials"),
        (["AsAhKd7c2c", "KsKh8d8c2h"], {"game": "td27", "draws": 1, "exact": True}, "bad_trials"),
        (["AsAhKd7c2c", "KsKh8d8c2h"], {"game": "td27", "draws": 1, "trials": 0}, "bad_trials"),
        (["AsAh", "KsKh"], {"draws": 1}, "bad_draws"),
        (["AsAhKd7c2c", "KsKh8d8c2h"], {"game": "draw5", "dead": "As"}, "duplicate_card"),
    ],
)
def test_bad_input(hands, kw, code):
    """R-CARD-1, R-CARD-2: wrong card counts, duplicates, cards outside the 32-card deck,
    a board or draws where the game has none: refused with a stable code."""
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


def test_cli_stud_exact():
    """`croupier equity ... --game stud` prints the exact deal count and equities."""
    hands = ["AsAhKd7c2c3d", "KsKh8d8c2h4s"]
    res = CliRunner().invoke(_app(), ["equity", *hands, "--game", "stud"])
    assert res.exit_code == 0, res.output
    shares, total = _brute_stud("stud", hands)
    assert f"exact: {total:,} deals" in res.output
    assert re.search(rf"AsAhKd7c2c3d\s*│\s*{shares[0] / total:.6f}", res.output)


def test_cli_draws_seeded():
    """--draws samples with a seed; the same seed prints the same table."""
    args = ["equity", "7s5h4d3c9c", "8s6h4s3h2c", "-g", "td27", "--draws", "2", "-n", "3000"]
    a = CliRunner().invoke(_app(), [*args, "--seed", "9"])
    b = CliRunner().invoke(_app(), [*args, "--seed", "9"])
    assert a.exit_code == 0 and "Monte Carlo: 3,000 trials, seed 9" in a.output
    assert a.output.split("trials")[0] == b.output.split("trials")[0]
    res = CliRunner().invoke(_app(), ["equity", "--help"])
    assert "--draws" in res.output and "badugi" in res.output


@pytest.mark.parametrize(
    "args",
    [
        ["equity", "AsAhKd7c", "KsKh8d8c2h", "-g", "draw5"],
        ["equity", "AsAhKd7c8c", "KsKh8d9c6h", "-g", "draw32"],
        ["equity", "AsAhKd7c2c", "KsKh8d8c", "-g", "badugi"],
        ["equity", "As", "KsKh", "-g", "stud"],
        ["equity", "AsKh", "KsKh", "-g", "razz"],
        ["equity", "AsKh", "KsQh", "-g", "stud8", "--draws", "1"],
    ],
)
def test_cli_bad_input_exits_2(args):
    """Bad input: a clear message and exit code 2, no traceback."""
    res = CliRunner().invoke(_app(), args)
    assert res.exit_code == 2
    assert "Traceback" not in res.output
    assert "error" in res.output.lower()
