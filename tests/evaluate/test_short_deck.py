"""Short-deck (6+) Hold'em high: PokerKit 0.7.7's ShortDeckHoldemHand order."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from pokerkit import ShortDeckHoldemHand

from croupier.engine.cards import DECK_36
from croupier.engine.cards import parse_cards as p
from croupier.engine.errors import InvalidCardError
from croupier.engine.evaluate import category, describe
from tests.evaluate.conftest import assert_same_order, peer, random_hands

DECK = [int(c) for c in DECK_36]


def test_category_order(backend):
    """Flush beats full house; straight beats three of a kind (as PokerKit 0.7.7 ranks
    them); A-6-7-8-9 is the lowest straight."""
    s = lambda x: backend.short_deck(p(x), ())  # noqa: E731
    assert s("6c7c8c9cJc") > s("AcAdAhKsKc")
    assert s("AcAdAhKsKc") > s("6c7d8h9sTc")
    assert s("Ac6d7h8s9c") < s("6c7d8h9sTc")
    assert s("Ac6d7h8s9c") > s("AcAdAhKsQc")  # straight above trips
    assert category("short_deck", s("Ac6d7h8s9c")) == "straight"
    assert category("short_deck", s("Ac6c7c8c9c")) == "straight_flush"
    assert describe("short_deck", s("Ac6d7h8s9c")) == "Straight, nine high"


def test_all_hands_and_classes(backend):
    """All 376,992 five-card short-deck hands fall in 1,404 classes."""
    hands = np.array(list(combinations(DECK, 5)), dtype=np.int32)
    values = backend.short_deck_batch(hands)
    assert len(np.unique(values)) == 1404 and values.min() == 1 and values.max() == 1404


def test_agrees_with_pokerkit(backend):
    """Random 7-card short-deck hands rank as PokerKit's ShortDeckHoldemHand."""
    hands = list(random_hands(61, 3000, 7, DECK))
    ours = [backend.short_deck(h[:2], h[2:]) for h in hands]
    pk = peer(ShortDeckHoldemHand.from_game)
    assert_same_order(ours, [pk(h[:2], h[2:]) for h in hands])
    batch = backend.short_deck_batch(np.array(hands, dtype=np.int32))
    assert batch.tolist() == ours


def test_low_cards_refused(backend):
    """Cards 2 to 5 are not in the short deck."""
    with pytest.raises(InvalidCardError):
        backend.short_deck(p("2c7d"), p("8h9sTcJcQc"))
