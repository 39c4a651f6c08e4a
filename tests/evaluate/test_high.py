"""Standard high hands (R-RANK-1, R-RANK-2): golden counts, peers, both backends."""

from __future__ import annotations

import warnings
from collections import Counter
from itertools import combinations
from math import comb

import numpy as np
import pytest
from pokerkit import StandardHighHand

from croupier.engine.cards import format_cards, parse_cards
from croupier.engine.errors import InvalidCardError
from croupier.engine.evaluate import category, high, high7, high_batch
from tests.evaluate.conftest import assert_same_order, peer, random_hands

with warnings.catch_warnings():  # eval7 0.1.11 uses deprecated pyparsing names
    warnings.simplefilter("ignore")
    import eval7

FIVE_CARD_COUNTS = {
    "straight_flush": 36,
    "royal_flush": 4,
    "four_of_a_kind": 624,
    "full_house": 3744,
    "flush": 5108,
    "straight": 10200,
    "three_of_a_kind": 54912,
    "two_pair": 123552,
    "pair": 1098240,
    "high_card": 1302540,
}
SEVEN_CARD_COUNTS = {
    "straight_flush": 41584,
    "four_of_a_kind": 224848,
    "full_house": 3473184,
    "flush": 4047644,
    "straight": 6180020,
    "three_of_a_kind": 6461620,
    "two_pair": 31433400,
    "pair": 58627800,
    "high_card": 23294460,
}


def _class_counts(values: np.ndarray) -> tuple[Counter[str], int]:
    counts = np.bincount(values, minlength=7463)
    by_cat: Counter[str] = Counter()
    for v in np.flatnonzero(counts):
        by_cat[category("high", int(v))] += int(counts[v])
    return by_cat, int(np.count_nonzero(counts))


def test_all_five_card_hands(backend, all5):
    """R-RANK-1: class counts of all 2,598,960 five-card hands, 7,462 distinct values."""
    values = backend.high_batch(all5.astype(np.int32))
    by_cat, distinct = _class_counts(values)
    assert dict(by_cat) == FIVE_CARD_COUNTS
    assert distinct == 7462
    assert values.min() == 1 and values.max() == 7462


@pytest.mark.slow
def test_all_seven_card_hands(c_backend, all5):
    """R-RANK-1, R-RANK-2: class counts of all 133,784,560 seven-card hands (4,824 values)."""
    # every 7-card hand is a pair (a, b) followed by five cards above b: a suffix of all5
    starts = np.searchsorted(all5[:, 0].astype(np.int32), np.arange(53))
    counts = np.zeros(7463, dtype=np.int64)
    total = 0
    for b in range(1, 47):
        rest = all5[starts[b + 1] :].astype(np.int32)
        block = np.empty((rest.shape[0], 7), dtype=np.int32)
        block[:, 2:] = rest
        block[:, 1] = b
        for a in range(b):
            block[:, 0] = a
            counts += np.bincount(c_backend.high_batch(block), minlength=7463)
            total += rest.shape[0]
    assert total == comb(52, 7) == 133_784_560
    by_cat: Counter[str] = Counter()
    for v in np.flatnonzero(counts):
        name = category("high", int(v))
        by_cat["straight_flush" if name == "royal_flush" else name] += int(counts[v])
    assert dict(by_cat) == SEVEN_CARD_COUNTS
    assert np.count_nonzero(counts) == 4824


def test_rank_order_examples():
    """R-RANK-1: categories in order; the wheel is the lowest straight; no wrap-around;
    suits have no order; equal five cards tie."""
    h = lambda s: high(parse_cards(s), ())  # noqa: E731
    ladder = [
        "7c5d4h3s2c",
        "AcKdQhJs9c",
        "2c2d3h4s5c",
        "AcAdKhKsQc",
        "2c2d2h3s4c",
        "Ac2d3h4s5c",
        "2c3d4h5s6c",
        "TcJdQhKsAc",
        "2c3c4c5c7c",
        "2c2d2h3s3c",
        "AcAdAhKsKc",
        "2c2d2h2s3c",
        "Ac2c3c4c5c",
        "9cTcJcQcKc",
        "TcJcQcKcAc",
    ]
    values = [h(x) for x in ladder]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert category("high", h("QcKdAh2s3c")) == "high_card"  # Q-K-A-2-3 is no straight
    assert h("AsKs9d7c4h") == h("AhKh9c7s4d")
    assert category("high", h("TsJsQsKsAs")) == "royal_flush"


def test_holdem_uses_zero_one_or_two_hole_cards():
    """R-RANK-2: the best five of seven, whatever comes from the hole."""
    board = parse_cards("AsKsQsJsTs")
    assert high(parse_cards("2c3d"), board) == high(board, ())  # plays the board
    assert high(parse_cards("9s2d"), parse_cards("KsQsJsTs3h")) == high(
        parse_cards("9sKsQsJsTs"), ()
    )


def test_high7_matches_high_and_batch(backend):
    """R-RANK-2: the scalar, 7-argument and batch APIs give one value scale."""
    hands = list(random_hands(1, 3000, 7))
    batch = backend.high_batch(np.array(hands, dtype=np.int32))
    for cards, b in zip(hands, batch, strict=True):
        assert backend.high(cards[:2], cards[2:]) == int(b)
    for cards in hands[:300]:
        assert high7(*cards) == high(cards, ())


@pytest.mark.parametrize("n", [5, 6, 7, 8, 9])
def test_best_five_of_n(backend, n):
    """R-RANK-1: the value of n cards is the best of its 5-card subsets."""
    for cards in random_hands(n, 300, n):
        assert backend.high(cards, ()) == max(high(list(c), ()) for c in combinations(cards, 5))


def test_agrees_with_pokerkit_and_eval7(backend):
    """R-RANK-1, R-RANK-2: the same order as PokerKit 0.7.7 and eval7 on random hands."""
    hands = list(random_hands(2, 3000, 7))
    ours = [backend.high(h[:2], h[2:]) for h in hands]
    pk = peer(StandardHighHand.from_game)
    assert_same_order(ours, [pk(h[:2], h[2:]) for h in hands], "pokerkit")
    e7 = [eval7.evaluate([eval7.Card(format_cards([c])) for c in h]) for h in hands]
    assert_same_order(ours, e7, "eval7")


def test_backends_agree(c_backend):
    """R-RANK-1: the C extension and the pure fallback give identical values."""
    from croupier.engine.evaluate import _pure

    hands = np.array(list(random_hands(3, 2000, 7)), dtype=np.int32)
    assert np.array_equal(c_backend.high_batch(hands), _pure.high_batch(hands))
    for h in hands[:500].tolist():
        assert c_backend.high(h[:2], h[2:]) == _pure.high(h[:2], h[2:])


@pytest.mark.parametrize(
    ("hole", "board", "code"),
    [
        ([0, 0], [1, 2, 3], "duplicate_card"),
        ([0, 52], [1, 2, 3], "invalid_card"),
        ([0, 1], [2, 3], "wrong_card_count"),
        (list(range(6)), list(range(6, 10)), "wrong_card_count"),
    ],
)
def test_bad_input(backend, hole, board, code):
    """R-CARD-1: bad cards are refused with a stable code."""
    with pytest.raises(InvalidCardError) as e:
        backend.high(hole, board)
    assert e.value.code == code


def test_batch_rejects_bad_cards():
    """R-CARD-1: the batch API checks the card range."""
    with pytest.raises(InvalidCardError):
        high_batch(np.array([[0, 1, 2, 3, 60]]))
    with pytest.raises(InvalidCardError):
        high_batch(np.array([[0, 1, 2, 3]]))
