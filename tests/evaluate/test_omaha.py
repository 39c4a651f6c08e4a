"""Omaha and Omaha hi/lo (R-RANK-3, R-RANK-4): exactly two hole cards and three board cards."""

from __future__ import annotations

import numpy as np
import pytest
from pokerkit import OmahaEightOrBetterLowHand, OmahaHoldemHand

from croupier.engine.cards import parse_cards as p
from croupier.engine.errors import InvalidCardError
from croupier.engine.evaluate import category, describe, high
from tests.evaluate.conftest import assert_same_order, peer, random_hands


def test_four_suited_hole_cards_make_no_flush(backend):
    """R-RANK-3: four suited hole cards do not make a flush by themselves."""
    v = backend.omaha_high(p("AsKsQsJs"), p("2s7h8d9cTd"))
    assert category("omaha_high", v) == "straight"  # J-Q + 8-9-T, not a flush
    v = backend.omaha_high(p("AsKsQsJs"), p("2c7h8d3c4d"))
    assert category("omaha_high", v) == "high_card"


def test_board_flush_needs_two_hole_cards_of_the_suit(backend):
    """R-RANK-3: a four-flush board and one suited hole card make no flush."""
    board = p("2s5s8sJsKd")
    assert category("omaha_high", backend.omaha_high(p("AsKcQd3h"), board)) == "pair"
    assert category("omaha_high", backend.omaha_high(p("As3sQd7h"), board)) == "flush"
    # a board quad or full house does not play: only three board cards
    assert category("omaha_high", backend.omaha_high(p("2c3d4h7c"), p("KsKhKdKcQs"))) == (
        "three_of_a_kind"
    )


def test_exactly_two_for_low(backend):
    """R-RANK-3, R-RANK-4: the low also takes exactly two hole and three board cards."""
    assert backend.omaha_low8(p("Ac2d3h4s"), p("5c9dTcJhQs")) is None  # one low board card
    assert backend.omaha_low8(p("AcKdQhJs"), p("2c3d4h5s6c")) is None  # one low hole card
    v = backend.omaha_low8(p("Ac2dKhKs"), p("3c4d5h9sTc"))
    assert describe("omaha_low8", v) == "5-4-3-2-A low"
    # counterfeit: board 2 duplicates a hole 2; the best low uses other cards
    v = backend.omaha_low8(p("Ac2d3hKs"), p("2c4d7hKcQc"))
    assert describe("omaha_low8", v) == "7-4-3-2-A low"


def test_agrees_with_pokerkit(backend):
    """R-RANK-3, R-RANK-4: the same order as PokerKit's Omaha hands on random deals."""
    hands = list(random_hands(11, 1500, 9))
    hi = [backend.omaha_high(h[:4], h[4:]) for h in hands]
    assert_same_order(hi, [peer(OmahaHoldemHand.from_game)(h[:4], h[4:]) for h in hands], "hi")
    lo = [backend.omaha_low8(h[:4], h[4:]) for h in hands]
    pk = peer(OmahaEightOrBetterLowHand.from_game)
    assert_same_order(lo, [pk(h[:4], h[4:]) for h in hands], "lo")
    assert sum(v is not None for v in lo) > 100


@pytest.mark.parametrize(("nh", "nb"), [(4, 3), (4, 4), (4, 5), (5, 5), (6, 5)])
def test_batch_matches_scalar(backend, nh, nb):
    """R-RANK-3: the batch API gives the scalar values; -1 marks no low."""
    hands = np.array(list(random_hands(nh * 10 + nb, 500, nh + nb)), dtype=np.int32)
    hi = backend.omaha_high_batch(hands[:, :nh], hands[:, nh:])
    lo = backend.omaha_low8_batch(hands[:, :nh], hands[:, nh:])
    for row, a, b in zip(hands.tolist(), hi, lo, strict=True):
        assert backend.omaha_high(row[:nh], row[nh:]) == a
        assert backend.omaha_low8(row[:nh], row[nh:]) == (None if b == -1 else b)


def test_pure_and_c_agree(c_backend):
    """R-RANK-3: both backends give identical values."""
    from croupier.engine.evaluate import _pure

    hands = np.array(list(random_hands(5, 1000, 9)), dtype=np.int32)
    h, b = hands[:, :4], hands[:, 4:]
    assert np.array_equal(c_backend.omaha_high_batch(h, b), _pure.omaha_high_batch(h, b))
    assert np.array_equal(c_backend.omaha_low8_batch(h, b), _pure.omaha_low8_batch(h, b))


def test_counts_checked(backend):
    """R-RANK-3: Omaha needs 4 to 6 hole cards and 3 to 5 board cards."""
    with pytest.raises(InvalidCardError):
        backend.omaha_high(p("AsKs"), p("2c3d4h"))
    with pytest.raises(InvalidCardError):
        backend.omaha_low8(p("AsKsQsJs"), p("2c3d"))
    assert high(p("AsKs"), p("2c3d4h")) > 0
