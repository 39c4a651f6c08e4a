"""32-Card Draw ranking (R-RANK-6): flush above full house, A-7-8-9-T lowest straight,
suit tie-breaks hearts > diamonds > clubs > spades, no two distinct hands equal."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.engine.cards import DECK_32
from croupier.engine.cards import parse_cards as p
from croupier.engine.errors import InvalidCardError
from croupier.engine.evaluate import category, describe, thirty_two

DECK = [int(c) for c in DECK_32]


def t(s: str) -> int:
    return thirty_two(p(s), ())


def test_category_order():
    """R-RANK-6: royal flush, straight flush, four of a kind, flush, full house, straight,
    three of a kind, two pair, one pair, high card."""
    ladder = [
        "AcKdQhJs9c",
        "7c7d8h9sJc",
        "7c7d8h8sJc",
        "7c7d7h8sJc",
        "Ac7d8h9sTc",
        "7c7d7h8s8c",
        "7c8c9cTcQc",
        "7c7d7h7s8c",
        "7s8s9sTsJs",
        "TsJsQsKsAs",
    ]
    values = [t(x) for x in ladder]
    assert values == sorted(values)
    names = [category("thirty_two", v) for v in values]
    assert names == [
        "high_card", "pair", "two_pair", "three_of_a_kind", "straight", "full_house",
        "flush", "four_of_a_kind", "straight_flush", "royal_flush",
    ]  # fmt: skip


def test_lowest_straight():
    """R-RANK-6: A-7-8-9-T is the lowest straight and the lowest straight flush."""
    assert t("Ac7d8h9sTc") < t("7c8d9hTsJc")
    assert t("Ah7h8h9hTh") < t("7s8s9sTsJs")
    assert category("thirty_two", t("Ac7d8h9sTc")) == "straight"


def test_royal_flush_by_suit():
    """R-RANK-6: royal flushes rank by their suit, hearts > diamonds > clubs > spades."""
    assert t("AhKhQhJhTh") > t("AdKdQdJdTd") > t("AcKcQcJcTc") > t("AsKsQsJsTs")
    assert describe("thirty_two", t("AhKhQhJhTh")) == "Royal flush of hearts"


def test_straight_flush_and_straight_by_top_card_then_its_suit():
    """R-RANK-6: straight flush and straight: the highest card, then its suit."""
    assert t("7s8s9sTsJs") > t("Ah7h8h9hTh")  # higher top card beats any suit
    assert t("7h8h9hThJh") > t("7d8d9dTdJd") > t("7c8c9cTcJc") > t("7s8s9sTsJs")
    assert t("7s8s9sTsJh") > t("7h8h9hTdJd")  # only the top card's suit matters
    assert t("7c8c9cTcJd") > t("7h8h9hThJc")
    assert t("Ac7c8c9cTh") > t("Ah7h8h9hTd")  # in A-7-8-9-T the ten is the top card


def test_flush_by_ranks_then_suit():
    """R-RANK-6: flush: ranks from the top down, then the suit."""
    assert t("7s8s9sJsKs") > t("7h8h9hJhQh")
    assert t("7h8h9hJhKh") > t("7d8d9dJdKd") > t("7c8c9cJcKc") > t("7s8s9sJsKs")


def test_two_pair_and_pair_by_kicker_suit():
    """R-RANK-6: two pair and one pair: ranks and kickers, then the suit of the highest
    kicker."""
    assert t("7c7d8c8dAs") > t("7h7s8h8sKh")  # kicker rank first
    assert t("7s7c8s8cAh") > t("7h7d8h8dAd")  # then the kicker's suit
    assert t("7s7c8s8cAd") > t("7h7d8h8dAc")
    assert t("7s7c8s8cAc") > t("7h7d8h8dAs")
    assert t("7s7cAhKs9s") > t("7h7dAdKh9h")  # one pair: highest kicker's suit
    assert t("AsAc9h8s7s") > t("AhAd9d8h7h")


def test_high_card_by_ranks_then_top_suit():
    """R-RANK-6: high card: ranks, then the suit of the highest card."""
    assert t("Ah9s8s7sJs") > t("Ad9h8h7hJh")
    assert t("Ac9h8h7hJh") > t("As9d8d7dJd")
    assert t("AsKc9c8c7c") > t("AhQh9h8h7s")  # ranks before suits


def test_full_house_quads_trips_by_rank():
    """R-RANK-6: full house, four of a kind and three of a kind: the higher rank wins."""
    assert t("8c8d8h7s7c") > t("7h7d7cAsAh")
    assert t("8c8d8h8s7c") > t("7h7d7c7sAh")
    assert t("8c8d8h7s9c") > t("7h7d7cAsKh")


def test_every_distinct_hand_distinct_value():
    """R-RANK-6: there are no ties: all 201,376 hands of the 32-card deck get different
    values."""
    values = {thirty_two(list(h), ()) for h in combinations(DECK, 5)}
    assert len(values) == 201_376


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=10, max_size=10, unique=True))
def test_no_two_distinct_hands_tie(cards):
    """R-RANK-6: two different 5-card hands never compare equal."""
    a, b = cards[:5], cards[5:]
    assert thirty_two(a, ()) != thirty_two(b, ())
    a2 = [*a[:4], b[0]]
    assert thirty_two(a, ()) != thirty_two(a2, ())


def test_best_five_and_deck():
    """R-RANK-6, R-CARD-2: best 5 of more cards; cards below the seven are refused."""
    assert t("AhKhQhJhThAs7c") == t("AhKhQhJhTh")
    with pytest.raises(InvalidCardError):
        t("2c7d8h9sTc")
