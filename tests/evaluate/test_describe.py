"""Readable hand names for showdown display (R-RANK-1 … R-RANK-6 categories)."""

from __future__ import annotations

import pytest

from croupier.engine.cards import parse_cards as p
from croupier.engine.evaluate import EVALUATORS, KINDS, category, describe


@pytest.mark.parametrize(
    ("kind", "hole", "board", "text", "cat"),
    [
        ("high", "KsKh", "Kd7c7s2h3d", "Full house, kings full of sevens", "full_house"),
        ("high", "AsKs", "QsJsTs2h3d", "Royal flush", "royal_flush"),
        ("high", "5s4s", "3s2sAs9h9d", "Straight flush, five high", "straight_flush"),
        ("high", "9s9h", "9d9c2s3h4d", "Four of a kind, nines", "four_of_a_kind"),
        ("high", "As2s", "7s9sJs3h4d", "Flush, A-J-9-7-2", "flush"),
        ("high", "Ts9h", "8d7c6s2h2d", "Straight, ten high", "straight"),
        ("high", "6s6h", "6d7c9s2hKd", "Three of a kind, sixes", "three_of_a_kind"),
        ("high", "KsKh", "7d7c9s2h3d", "Two pair, kings and sevens", "two_pair"),
        ("high", "AsAh", "7d8c9s2h4d", "Pair of aces", "pair"),
        ("high", "As3h", "7d8c9s2hJd", "High card, A-J-9-8-7", "high_card"),
        ("omaha_high", "AsKsQdJd", "Ts9h8c3c4c", "Straight, queen high", "straight"),
        ("low8", "8c6d", "4h2sAcKcKd", "8-6-4-2-A low", "low"),
        ("omaha_low8", "Ac2dKhKs", "3c4d5h9sTc", "5-4-3-2-A low", "low"),
        ("deuce_seven", "7c5d4h3s2c", "", "7-5-4-3-2 low", "high_card"),
        ("deuce_seven", "7c7d4h3s2c", "", "Pair of sevens", "pair"),
        ("ace_five", "5c4d3h2sAc", "", "5-4-3-2-A low", "high_card"),
        ("ace_five", "AcAd3h2s4c", "", "Pair of aces", "pair"),
        ("badugi", "8c6d3hAs", "", "Badugi 8-6-3-A", "badugi"),
        ("badugi", "8c6c3hAs", "", "Three-card 6-3-A", "three_card"),
        ("short_deck", "Ac6d", "7h8s9cKdKc", "Straight, nine high", "straight"),
        ("thirty_two", "AhKhQhJhTh", "", "Royal flush of hearts", "royal_flush"),
        ("thirty_two", "7c8c9cJcKc", "", "Flush, K-J-9-8-7 (clubs)", "flush"),
    ],
)
def test_names(kind, hole, board, text, cat):
    """R-RANK-1: every evaluator's values have a readable name and a category."""
    value = EVALUATORS[kind](p(hole), p(board))
    assert value is not None
    assert describe(kind, value) == text
    assert category(kind, value) == cat


def test_kinds_and_errors():
    """The evaluator map covers every kind; unknown kinds and values are refused."""
    assert tuple(EVALUATORS) == KINDS
    with pytest.raises(ValueError):
        describe("poker", 1)
    with pytest.raises(ValueError):
        describe("high", 9999)
