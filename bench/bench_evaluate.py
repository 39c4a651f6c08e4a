"""Hand evaluation speed: croupier against its peers, measured in the same process.

Run: ``.venv/bin/python bench/bench_evaluate.py [--n N] [--repeat R]``. Prints rates
(evaluations per second, best of R runs) and the ratio croupier / peer. The machine is shared
and noisy: compare ratios, not absolute figures.
"""

from __future__ import annotations

import argparse
import random
import time
import warnings
from collections.abc import Callable

import numpy as np

from croupier.engine import evaluate as ev
from croupier.engine.cards import format_cards

with warnings.catch_warnings():  # eval7 0.1.11 uses deprecated pyparsing names
    warnings.simplefilter("ignore")
    import eval7
import phevaluator
import treys
from phevaluator import _pheval
from pokerkit import OmahaHoldemHand, StandardHighHand


def best_rate(fn: Callable[[], object], n: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return n / best


def deal(rng: random.Random, n: int, k: int) -> list[list[int]]:
    return [rng.sample(range(52), k) for _ in range(n)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=200_000, help="hands for one-call loops")
    ap.add_argument("--batch", type=int, default=5_000_000, help="hands for batch runs")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rng = random.Random(2024)
    n, r = args.n, args.repeat
    hands = deal(rng, n, 7)
    rows: list[tuple[str, str, float, str, float]] = []

    # --- 7-card, one call each ----------------------------------------------------
    high7 = ev.high7
    ours = best_rate(lambda: [high7(*h) for h in hands], n, r)
    ours_seq = best_rate(lambda: [ev.high(h[:2], h[2:]) for h in hands], n, r)
    e7cards = [[eval7.Card(format_cards([c])) for c in h] for h in hands]
    e7 = best_rate(lambda: [eval7.evaluate(h) for h in e7cards], n, r)
    ph7 = _pheval.evaluate_7cards
    ph = best_rate(lambda: [ph7(*h) for h in hands], n, r)
    phpub = best_rate(lambda: [phevaluator.evaluate_cards(*h) for h in hands], n, r)
    tcards = [[treys.Card.new(format_cards([c])) for c in h] for h in hands]
    tev = treys.Evaluator()
    tr = best_rate(lambda: [tev.evaluate(h[:2], h[2:]) for h in tcards], n, r)
    npk = max(n // 100, 500)
    pk_hands = [(format_cards(h[:2]), format_cards(h[2:])) for h in hands[:npk]]
    pk = best_rate(lambda: [StandardHighHand.from_game(a, b) for a, b in pk_hands], npk, 1)
    for peer, rate in [
        ("eval7.evaluate", e7),
        ("phevaluator._pheval.evaluate_7cards", ph),
        ("phevaluator.evaluate_cards", phpub),
        ("treys", tr),
        ("pokerkit StandardHighHand", pk),
    ]:
        rows.append(("7-card, one call: high7(*cards)", peer, ours, f"{rate:,.0f}", ours / rate))
    rows.append(("7-card, one call: high(hole, board)", "eval7.evaluate", ours_seq, f"{e7:,.0f}",
                 ours_seq / e7))  # fmt: skip

    # --- 7-card batch ------------------------------------------------------------
    nb = args.batch
    np_rng = np.random.default_rng(7)
    batch = np.argsort(np_rng.random((nb, 52)), axis=1)[:, :7].astype(np.int32)
    ours_b = best_rate(lambda: ev.high_batch(batch), nb, r)
    rows.append(("7-card batch: high_batch (N, 7)", "phevaluator C, one call each", ours_b,
                 f"{ph:,.0f}", ours_b / ph))  # fmt: skip
    rows.append(("7-card batch: high_batch (N, 7)", "PH evaluator native C (ref. 30 M/s)", ours_b,
                 "30,000,000", ours_b / 30e6))  # fmt: skip

    # --- Omaha high -----------------------------------------------------------------
    no = max(nb // 10, 100_000)
    om = np.argsort(np_rng.random((no, 52)), axis=1)[:, :9].astype(np.int32)
    hole, board = np.ascontiguousarray(om[:, :4]), np.ascontiguousarray(om[:, 4:])
    ours_o = best_rate(lambda: ev.omaha_high_batch(hole, board), no, r)
    om_list = om[: n // 2].tolist()
    pho = _pheval.evaluate_omaha_cards
    ph_o = best_rate(lambda: [pho(*h[4:], *h[:4]) for h in om_list], len(om_list), r)
    ours_o1 = best_rate(lambda: [ev.omaha_high(h[:4], h[4:]) for h in om_list], len(om_list), r)
    npo = max(n // 400, 200)
    pko = [(format_cards(h[:4]), format_cards(h[4:])) for h in om_list[:npo]]
    pk_o = best_rate(lambda: [OmahaHoldemHand.from_game(a, b) for a, b in pko], npo, 1)
    rows.append(("Omaha high batch (N,4)+(N,5)", "phevaluator omaha C, one call each", ours_o,
                 f"{ph_o:,.0f}", ours_o / ph_o))  # fmt: skip
    rows.append(("Omaha high batch (N,4)+(N,5)", "phevaluator native C (ref. 4 M/s)", ours_o,
                 "4,000,000", ours_o / 4e6))  # fmt: skip
    rows.append(("Omaha high, one call", "phevaluator omaha C, one call each", ours_o1,
                 f"{ph_o:,.0f}", ours_o1 / ph_o))  # fmt: skip
    rows.append(("Omaha high, one call", "pokerkit OmahaHoldemHand", ours_o1, f"{pk_o:,.0f}",
                 ours_o1 / pk_o))  # fmt: skip

    # --- lows ------------------------------------------------------------------------
    ours_l = best_rate(lambda: ev.low8_batch(batch), nb, r)
    ours_ol = best_rate(lambda: ev.omaha_low8_batch(hole, board), no, r)
    rows.append(("low8 batch (N, 7)", "-", ours_l, "-", float("nan")))
    rows.append(("Omaha low8 batch", "-", ours_ol, "-", float("nan")))

    print(f"croupier backend: {ev.BACKEND}; one-call loops over {n:,} hands, batches {nb:,}")
    head = f"{'work':38} {'peer':40} {'croupier /s':>14} {'peer /s':>14} {'ratio':>8}"
    print(head)
    print("-" * len(head))
    for work, peer, ours_rate, peer_rate, ratio in rows:
        print(f"{work:38} {peer:40} {ours_rate:14,.0f} {peer_rate:>14} {ratio:8.2f}")


if __name__ == "__main__":
    main()
