"""Low hands: eight-or-better (R-RANK-4), deuce-to-seven (R-RANK-5), ace-to-five, badugi."""

from __future__ import annotations

import numpy as np
import pytest
from pokerkit import BadugiHand, EightOrBetterLowHand, RegularLowHand, StandardLowHand

from croupier.engine.cards import parse_cards as p
from croupier.engine.evaluate import ace_five, badugi, category, describe, deuce_seven, low8
from tests.evaluate.conftest import assert_same_order, peer, random_hands


def test_eight_or_better_count(backend, all5):
    """R-RANK-4: 57,344 of the 2,598,960 five-card hands are 8-or-better lows."""
    values = backend.low8_batch(all5.astype(np.int32))
    assert int((values != -1).sum()) == 57344
    assert len(set(values[values != -1].tolist())) == 56


def test_eight_or_better_rules(backend):
    """R-RANK-4: distinct ranks 8 or lower, ace low, straights and flushes do not count;
    compare from the top card down; best is A-2-3-4-5."""
    assert backend.low8(p("Ac2c3c4c5c"), ()) == 224  # a straight flush is the nut low
    assert backend.low8(p("8c7d6h5s4c"), ()) == 7
    assert backend.low8(p("9c2d3h4s5c"), ()) is None
    assert backend.low8(p("AcAd3h4s5c"), ()) is None
    assert backend.low8(p("8c6d4h3s2c"), ()) > backend.low8(p("8c6d5h2sAc"), ())
    assert backend.low8(p("7c6d5h4s3c"), ()) > backend.low8(p("8c4d3h2sAc"), ())
    assert describe("low8", backend.low8(p("KcKd8c6d4h2sAc"), ())) == "8-6-4-2-A low"


def test_stud8_low_agrees_with_pokerkit(backend):
    """R-RANK-4: best 5 of 7 (stud hi/lo) in the same order as PokerKit."""
    hands = list(random_hands(21, 3000, 7))
    ours = [backend.low8(h, ()) for h in hands]
    assert_same_order(ours, [peer(EightOrBetterLowHand.from_game)(h, []) for h in hands])
    batch = backend.low8_batch(np.array(hands, dtype=np.int32))
    assert [None if v == -1 else v for v in batch.tolist()] == ours


def test_deuce_seven_rules():
    """R-RANK-5: ace always high, straights and flushes count, A-2-3-4-5 is no straight,
    7-5-4-3-2 unsuited is best, pairs rank as in high poker reversed."""
    d = lambda s: deuce_seven(p(s), ())  # noqa: E731
    assert d("7c5d4h3s2c") == 7462
    assert d("7c5d4h3s2c") > d("7c6d4h3s2c") > d("8c5d4h3s2c")
    assert category("deuce_seven", d("Ac2d3h4s5c")) == "high_card"
    assert d("Ac2d3h4s5c") < d("Kc2d3h4s5c")  # ace high is worse than king high
    assert d("6c5d4h3s2c") < d("Ac5d4h3s2c")  # the 6-high straight is worse than A-high
    assert d("7c5c4c3c2c") < d("KcQdJhTs8c")  # flush counts against you
    assert d("2c2d3h4s5c") < d("AcKdQhJs9c")  # a pair is worse than any no-pair hand
    assert describe("deuce_seven", d("7c5d4h3s2c")) == "7-5-4-3-2 low"
    assert d("7c5d4h3s2cKcKd") == 7462  # best 5 of more


def _agree(fn, pk, seed, n, k):
    hands = list(random_hands(seed, n, k))
    assert_same_order([fn(h, ()) for h in hands], [peer(pk)(h, []) for h in hands])


def test_deuce_seven_agrees_with_pokerkit():
    """R-RANK-5: PokerKit's StandardLowHand order on random 5- and 7-card hands."""
    _agree(deuce_seven, StandardLowHand.from_game, 31, 3000, 5)
    _agree(deuce_seven, StandardLowHand.from_game, 32, 800, 7)


def test_razz_agrees_with_pokerkit():
    """Ace-to-five (Razz): PokerKit's RegularLowHand order, best 5 of 7."""
    assert ace_five(p("5c4d3h2sAc"), ()) > ace_five(p("6c4d3h2sAc"), ())
    assert ace_five(p("KcQdJhTs9c"), ()) > ace_five(p("AcAd2h3s4c"), ())  # pairs count
    assert ace_five(p("5c4c3c2cAc"), ()) == ace_five(p("5c4d3h2sAc"), ())  # flush ignored
    assert describe("ace_five", ace_five(p("5c4d3h2sAcKcKd"), ())) == "5-4-3-2-A low"
    _agree(ace_five, RegularLowHand.from_game, 41, 2000, 7)
    _agree(ace_five, RegularLowHand.from_game, 42, 2000, 5)


def test_badugi_agrees_with_pokerkit():
    """Badugi: more cards beat fewer, then lowest from the top; PokerKit's BadugiHand."""
    assert badugi(p("Ac2d3h4s"), ()) > badugi(p("Ac2d3h5s"), ()) > badugi(p("Ac2d3hKs"), ())
    assert badugi(p("KcQdJhTs"), ()) > badugi(p("Ac2d3h3s"), ())  # four cards beat three
    assert describe("badugi", badugi(p("8c6d3hAs"), ())) == "Badugi 8-6-3-A"
    assert describe("badugi", badugi(p("8c6c3hAs"), ())) == "Three-card 6-3-A"
    assert category("badugi", badugi(p("AcAdAhAs"), ())) == "one_card"
    _agree(badugi, BadugiHand.from_game, 51, 3000, 4)


@pytest.mark.parametrize("fn", [low8, deuce_seven, ace_five, badugi])
def test_bad_input(fn):
    """R-CARD-1: duplicates are refused."""
    with pytest.raises(ValueError):
        fn(p("AcAc2d3h4s"), ())
