"""Equity speed: croupier against peers, measured in the same process.

Run: ``.venv/bin/python bench/bench_equity.py``. Prints times/rates and croupier / peer
ratios. Peers: eval7 (a Python loop over every board with ``eval7.evaluate``, and its
``py_hand_vs_range_monte_carlo``), pokerkit's ``calculate_equities`` (Monte Carlo), treys
(a Python loop). The machine is shared and noisy: compare ratios.
"""

from __future__ import annotations

import argparse
import random
import time
import warnings
from collections.abc import Callable
from itertools import combinations
from typing import Any

from croupier.analysis.equity import equity
from croupier.engine import evaluate as ev
from croupier.engine.cards import DECK_52, parse_cards

with warnings.catch_warnings():  # eval7 0.1.11 uses deprecated pyparsing names
    warnings.simplefilter("ignore")
    import eval7
from pokerkit import Deck, StandardHighHand, calculate_equities, parse_range


def timed(fn: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def eval7_exact(h1: str, h2: str) -> float:
    """AsAh vs KsKh the eval7 way: a Python loop over all boards."""
    a = [eval7.Card(h1[:2]), eval7.Card(h1[2:])]
    b = [eval7.Card(h2[:2]), eval7.Card(h2[2:])]
    used = {h1[:2], h1[2:], h2[:2], h2[2:]}
    deck = [eval7.Card(str(c)) for c in DECK_52 if str(c) not in used]
    win = tie = n = 0
    for board in combinations(deck, 5):
        bl = list(board)
        x, y = eval7.evaluate(a + bl), eval7.evaluate(b + bl)
        win += x > y
        tie += x == y
        n += 1
    return (win + tie / 2) / n


def eval7_mc(hands: list[str], trials: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    hs = [[eval7.Card(h[:2]), eval7.Card(h[2:])] for h in hands]
    used = {c for h in hands for c in (h[:2], h[2:])}
    deck = [eval7.Card(str(c)) for c in DECK_52 if str(c) not in used]
    share = [0.0] * len(hands)
    for _ in range(trials):
        board = rng.sample(deck, 5)
        vals = [eval7.evaluate(h + board) for h in hs]
        best = max(vals)
        winners = [i for i, v in enumerate(vals) if v == best]
        for i in winners:
            share[i] += 1 / len(winners)
    return [s / trials for s in share]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--peer-trials", type=int, default=100_000)
    args = ap.parse_args()
    rows: list[tuple[str, str, str, str, float]] = []
    aa, kk = parse_cards("AsAh"), parse_cards("KsKh")

    t_ours, r = timed(lambda: equity([aa, kk]), args.repeat)
    assert f"{r.equity[0]:.6f}" == "0.826366"
    t_e7, e = timed(lambda: eval7_exact("AsAh", "KsKh"))
    assert abs(e - r.equity[0]) < 1e-9
    rows.append(("exact AsAh vs KsKh (1,712,304 boards)", "eval7 per-board loop",
                 f"{t_ours:.4f} s", f"{t_e7:.2f} s", t_e7 / t_ours))  # fmt: skip

    three = [aa, kk, parse_cards("7c8c")]
    n = 1_000_000
    t_mc, _ = timed(lambda: equity(three, trials=n, seed=1), args.repeat)
    pt = args.peer_trials
    t_e7mc, _ = timed(lambda: eval7_mc(["AsAh", "KsKh", "7c8c"], pt, 1))
    rows.append(("3-way Monte Carlo, 1 M trials", "eval7 per-trial loop",
                 f"{n / t_mc:,.0f} /s", f"{pt / t_e7mc:,.0f} /s", (n / t_mc) / (pt / t_e7mc)))  # fmt: skip
    pkt = max(pt // 20, 2000)
    ranges = [parse_range(x) for x in ("AsAh", "KsKh", "7c8c")]
    t_pk, _ = timed(
        lambda: calculate_equities(
            ranges, (), 2, 5, Deck.STANDARD, (StandardHighHand,), sample_count=pkt
        )
    )
    rows.append(("3-way Monte Carlo, 1 M trials", "pokerkit calculate_equities",
                 f"{n / t_mc:,.0f} /s", f"{pkt / t_pk:,.0f} /s", (n / t_mc) / (pkt / t_pk)))  # fmt: skip

    t_om, r_om = timed(
        lambda: equity([parse_cards("AsAhKd2d"), parse_cards("KsKh9d8c")], game="omaha"),
        args.repeat,
    )
    rows.append((f"exact Omaha AAK2ds vs KK98 ({r_om.total:,} boards)", "-",
                 f"{t_om:.3f} s", "-", float("nan")))  # fmt: skip
    t_o8, r_o8 = timed(
        lambda: equity([parse_cards("AsAh2d3c"), parse_cards("KsKh9d8c")], game="omaha8"),
        args.repeat,
    )
    rows.append((f"exact Omaha/8 A23 vs KK98 ({r_o8.total:,} boards)", "-",
                 f"{t_o8:.3f} s", "-", float("nan")))  # fmt: skip

    print(f"croupier backend: {ev.BACKEND}")
    head = f"{'work':48} {'peer':30} {'croupier':>16} {'peer':>16} {'ratio':>8}"
    print(head)
    print("-" * len(head))
    for work, peer, ours, theirs, ratio in rows:
        print(f"{work:48} {peer:30} {ours:>16} {theirs:>16} {ratio:8.1f}")


if __name__ == "__main__":
    main()
