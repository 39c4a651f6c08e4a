"""Stud, razz, draw and short-deck games against PokerKit 0.7.7 (2,000 random hands each).

The harness is :mod:`tests.variants.pkdiff_variants`; its docstring lists the differences
between the SPEC and PokerKit that are counted and left out of the comparison.
"""

from __future__ import annotations

import pytest

from tests.variants.pkdiff_variants import GAMES, run


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_same_legal_ranges_and_final_stacks_as_pokerkit(game: str) -> None:
    """R-POS-5, R-BET-4, R-BET-8, R-DRAW-1, R-RANK-4, R-RANK-5, R-POT-1, R-POT-5: 2,000
    random hands decided by the same actions give the same player to act, the same legal
    actions and amounts at every decision, and the same final stacks as PokerKit."""
    tally = run(game, 2000, seed=1)
    assert tally.hands == 2000
    assert tally.decisions > 10_000
    compared = tally.decisions - sum(tally.excluded_decisions.values())
    assert compared > 0.9 * tally.decisions
    assert sum(tally.excluded_hands.values()) < 0.05 * tally.hands


@pytest.mark.parametrize("game", GAMES)
def test_pokerkit_agrees_on_a_few_hands(game: str) -> None:
    """R-BET-8, R-POS-5, R-DRAW-1: a quick differential run (different seed) per game."""
    tally = run(game, 60, seed=2)
    assert tally.hands == 60
