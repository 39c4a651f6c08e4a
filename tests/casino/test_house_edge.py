"""The casino table's settlement against the exact house edge (R-BONUS-3, R-BONUS-4).

Seven players sit at one table and play many rounds through :class:`CasinoTable` (the
table actor's logic and settlement, the money on a :class:`MemoryCashier`), every player
with the same documented strategy: fold 32o 42o 52o 62o 72o, bet the turn and the river
with the pair rule (``croupier.casino.returns``), and a bonus bet every round. The mean
result per ante must match the exact figure (``EXACT_BEST_FOLD_PAIR``, -6.5383 %) and
the bonus bet's mean its exact return (-8.5406 %) within 3 standard errors, and the
cashier's balances must add up to the chips the players started with.

CI plays 3,000 rounds (21,000 player-rounds); ``CROUPIER_SOAK=1`` plays 1,000,000
player-rounds (142,858 rounds of 7).
"""

from __future__ import annotations

import math
import os
from fractions import Fraction
from typing import Any

from croupier.casino.advice import OPTIMAL_FOLDS
from croupier.casino.bonus import Phase
from croupier.casino.cashier import MemoryCashier
from croupier.casino.returns import EXACT_BEST_FOLD_PAIR, bonus_return, hand_class
from croupier.casino.table import CasinoTable, CasinoTableConfig, Deal, Decide, Sit
from croupier.engine.rng import SeededShuffler

PLAYERS = 7
ANTE = 2
BONUS = 1


class _Never:
    def cancel(self) -> None:
        pass


class _Clock:
    """Time that never moves: no decision ever times out in the simulation."""

    def now(self) -> float:
        return 0.0

    def call_at(self, when: float, callback: Any) -> _Never:
        return _Never()


def _pair_rule(hole: Any, board: Any) -> bool:
    ranks = {c.rank for c in board}
    return hole[0].rank == hole[1].rank or hole[0].rank in ranks or hole[1].rank in ranks


def simulate(rounds: int, seed: int) -> tuple[list[int], list[int], MemoryCashier]:
    """Play ``rounds`` rounds; returns each round's main-game total, bonus total (both in
    chips, over the 7 players) and the cashier."""
    start = 10**9
    cash = MemoryCashier({str(i): start for i in range(PLAYERS)})
    t = CasinoTable(CasinoTableConfig("sim"), cash, _Clock(), SeededShuffler(seed))
    for i in range(PLAYERS):
        assert t.handle(Sit(f"s{i}", str(i), f"p{i}", i)).accepted  # type: ignore[union-attr]
    main_totals: list[int] = []
    bonus_totals: list[int] = []
    n = 0
    for _ in range(rounds):
        for i in range(PLAYERS):
            n += 1
            r = t.handle(Deal(f"d{n}", str(i), ANTE, BONUS))
            assert r is not None and r.accepted, r
        while t.round is not None:
            state = t.round
            p = state.actor
            assert p is not None
            hole = state.seats[p].hole
            if state.phase is Phase.PREFLOP:
                move = "fold" if hand_class(int(hole[0]), int(hole[1])) in OPTIMAL_FOLDS else "play"
            else:
                move = "bet" if _pair_rule(hole, state.board) else "check"
            n += 1
            r = t.handle(Decide(f"m{n}", str(t.round_seats[p]), move))
            assert r is not None and r.accepted, r
        last = t.last
        assert last is not None
        main_totals.append(sum(x["net"] - x["bonus_net"] for x in last["results"]))
        bonus_totals.append(sum(x["bonus_net"] for x in last["results"]))
    total = sum(cash.balances.values()) + cash.house
    assert total == PLAYERS * start and not cash.escrow
    assert -cash.house == sum(main_totals) + sum(bonus_totals)
    return main_totals, bonus_totals, cash


def _within(totals: list[int], unit: int, exact: Fraction) -> tuple[float, float]:
    """Mean per player per unit, and its standard error (rounds are the independent
    draws: the seven players of a round share the dealer's hand)."""
    r = len(totals)
    mean_round = sum(totals) / r
    var = sum((x - mean_round) ** 2 for x in totals) / (r - 1)
    mean = mean_round / (PLAYERS * unit)
    se = math.sqrt(var / r) / (PLAYERS * unit)
    assert abs(mean - float(exact)) < 3 * se, (mean, float(exact), se)
    return mean, se


def test_table_settlement_matches_exact_house_edge() -> None:
    """R-BONUS-3, R-BONUS-4: the live table's settlement over many rounds gives the exact
    expected return of the strategy played and of the bonus bet, within 3 sigma."""
    soak = bool(os.environ.get("CROUPIER_SOAK"))
    rounds = math.ceil(1_000_000 / PLAYERS) if soak else 3_000
    main, bonus, _cash = simulate(rounds, seed=20261201)
    m, se = _within(main, ANTE, EXACT_BEST_FOLD_PAIR)
    b, bse = _within(bonus, BONUS, bonus_return())
    print(
        f"\n{rounds * PLAYERS} player-rounds: main {m:+.5f} ± {se:.5f} "
        f"(exact {float(EXACT_BEST_FOLD_PAIR):+.5f}), bonus {b:+.5f} ± {bse:.5f} "
        f"(exact {float(bonus_return()):+.5f})"
    )
