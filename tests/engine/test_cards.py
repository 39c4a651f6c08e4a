"""Cards, decks and shuffling (SPEC §1: R-CARD-1 … R-CARD-5)."""

from __future__ import annotations

from collections import Counter

import pytest

from croupier.engine.cards import DECK_32, DECK_52, RANKS, SUITS, Card, format_cards, parse_cards
from croupier.engine.errors import ConfigurationError, InconsistentStateError, InvalidCardError
from croupier.engine.game import Game
from croupier.engine.rng import SeededShuffler, SystemShuffler, fisher_yates
from croupier.engine.state import start_hand
from tests.engine.kit import deck_for

NLHE = Game.of("nlhe", blinds=(1, 2))


def test_deck_52_has_every_card_once_and_no_joker() -> None:
    """R-CARD-1: 52 distinct cards, 13 ranks × 4 suits, no joker."""
    assert len(DECK_52) == 52
    assert len(set(DECK_52)) == 52
    assert {str(c) for c in DECK_52} == {r + s for r in RANKS for s in SUITS}
    assert RANKS == "23456789TJQKA"
    assert SUITS == "cdhs"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("As", "As"),
        ("as", "As"),
        ("AS", "As"),
        ("aS", "As"),
        ("10h", "Th"),
        ("10H", "Th"),
        ("td", "Td"),
        ("Tc", "Tc"),
        ("7c", "7c"),
        ("2D", "2d"),
        ("kh", "Kh"),
        ("qS", "Qs"),
        ("jc", "Jc"),
    ],
)
def test_parse_accepts_10_and_any_case_and_formats_canonically(text: str, canonical: str) -> None:
    """R-CARD-1: parsing accepts ``10`` for ``T`` and any case; formatting is canonical."""
    card = Card.parse(text)
    assert str(card) == canonical
    assert format_cards([card]) == canonical
    assert Card.parse(canonical) is card


def test_parse_cards_together_apart_and_as_list() -> None:
    """R-CARD-1: several cards written together, apart, with commas, or as a list."""
    expected = (Card.parse("As"), Card.parse("Td"), Card.parse("7c"))
    assert parse_cards("AsTd7c") == expected
    assert parse_cards("as 10D, 7C") == expected
    assert parse_cards(["AS", "10d", "7c"]) == expected
    assert format_cards(parse_cards("as 10d 7c")) == "AsTd7c"


def test_card_integer_encoding_round_trips() -> None:
    """R-CARD-1: every card's text parses back to the same card (rank * 4 + suit)."""
    for i, card in enumerate(DECK_52):
        assert int(card) == i
        assert Card.parse(str(card)) is card
        assert Card.of(card.rank, card.suit) is card
        assert card.rank * 4 + card.suit == i


@pytest.mark.parametrize("text", ["Ax", "1s", "11h", "A", "", "Joker", "0c", "As7", "Zs", "A s"])
def test_parse_refuses_what_is_not_a_card(text: str) -> None:
    """R-CARD-1: no jokers, no unknown ranks or suits; a clear error with a code."""
    with pytest.raises(InvalidCardError) as info:
        Card.parse(text)
    assert info.value.code == "invalid_card"


@pytest.mark.parametrize("bad", ["AsKx", "As 1d", "Xx", "AsK"])
def test_parse_cards_refuses_bad_text(bad: str) -> None:
    """R-CARD-1: a bad token anywhere is refused."""
    with pytest.raises(InvalidCardError):
        parse_cards(bad)


@pytest.mark.parametrize("value", [-1, 52, 100, True, 3.0, "As"])
def test_card_from_bad_integer_is_refused(value: object) -> None:
    """R-CARD-1: a card is an integer 0..51, nothing else."""
    with pytest.raises(InvalidCardError):
        Card(value)  # type: ignore[arg-type]


def test_deck_32_holds_seven_to_ace() -> None:
    """R-CARD-2: the 32-card deck is A K Q J T 9 8 7 of each suit."""
    assert len(DECK_32) == 32
    assert len(set(DECK_32)) == 32
    assert {c.rank_char for c in DECK_32} == set("AKQJT987")
    assert Counter(c.suit_char for c in DECK_32) == {s: 8 for s in SUITS}
    assert set(DECK_32) <= set(DECK_52)


def test_live_shuffler_uses_the_os_csprng_and_seeded_is_not_live() -> None:
    """R-CARD-3: the live shuffler is marked live; the seeded one never is."""
    import random

    live = SystemShuffler()
    assert live.live is True
    assert isinstance(live._rng, random.SystemRandom)
    assert SeededShuffler(1).live is False
    assert SeededShuffler("replay").live is False


def test_seeded_shuffle_is_reproducible_and_a_permutation() -> None:
    """R-CARD-3: a seeded shuffle replays exactly; every shuffle is a permutation."""
    a = SeededShuffler(42).shuffle(DECK_52)
    b = SeededShuffler(42).shuffle(DECK_52)
    c = SeededShuffler(43).shuffle(DECK_52)
    assert a == b
    assert a != c
    assert sorted(a) == list(DECK_52)
    assert sorted(SystemShuffler().shuffle(DECK_52)) == list(DECK_52)


def _chi_square_positions(shuffle: object, draws: int) -> float:
    """Chi-square statistic of (item, final position) counts for a 4-item list."""
    items = (0, 1, 2, 3)
    counts: Counter[tuple[int, int]] = Counter()
    for _ in range(draws):
        out = shuffle(items)  # type: ignore[operator]
        for pos, item in enumerate(out):
            counts[(item, pos)] += 1
    expected = draws / 4
    return sum((counts[(i, p)] - expected) ** 2 / expected for i in items for p in range(4))


def _chi_square_permutations(shuffle: object, draws: int) -> float:
    """Chi-square statistic of the 24 permutations of a 4-item list."""
    counts = Counter(shuffle((0, 1, 2, 3)) for _ in range(draws))  # type: ignore[operator]
    expected = draws / 24
    assert len(counts) == 24, "every permutation must be reachable"
    return sum((counts[perm] - expected) ** 2 / expected for perm in counts)


def test_system_shuffler_is_unbiased() -> None:
    """R-CARD-3: every permutation of a small list is equally likely (chi-square check).

    24 permutations, 23 degrees of freedom: the chance of exceeding 72 is about 1e-6 for a
    fair shuffle (Wilson-Hilferty), so this is not flaky in practice. A biased shuffle
    (the naive swap-with-any-index shuffle) scores in the hundreds at this sample size, as
    the control below shows, so the test can fail.
    """
    live = SystemShuffler()
    draws = 24_000
    assert _chi_square_permutations(live.shuffle, draws) < 72
    # 9 free cells (4x4 item-position table): P(> 46) is about 1e-6.
    assert _chi_square_positions(live.shuffle, draws) < 46


def test_chi_square_check_detects_a_biased_shuffle() -> None:
    """R-CARD-3: the control: the naive 'swap each with any index' shuffle is biased."""
    import random

    rng = random.Random(5)

    def naive(items: tuple[int, ...]) -> tuple[int, ...]:
        out = list(items)
        for i in range(len(out)):
            j = rng.randrange(len(out))
            out[i], out[j] = out[j], out[i]
        return tuple(out)

    assert _chi_square_permutations(naive, 24_000) > 200
    # and the real Fisher-Yates with the same kind of generator passes
    rng2 = random.Random(9)
    assert _chi_square_permutations(lambda xs: fisher_yates(xs, rng2), 24_000) < 72


def test_a_dealt_hand_never_repeats_a_card() -> None:
    """R-CARD-4: hole cards, burns and board of a hand are distinct cards of the deck."""
    from croupier.engine.actions import call, check
    from tests.engine.kit import play

    deck = SeededShuffler(3).shuffle(DECK_52)
    s, _ = start_hand(NLHE, (100,) * 9, deck)
    s, _ = play(s, *[call(p) for p in (2, 3, 4, 5, 6, 7, 8, 0)], check(1))
    for _ in range(3):
        s, _ = play(s, *[check(p) for p in range(9)])
    cards = [c for h in s.hole_cards for c in h] + list(s.board) + list(s.burnt)
    assert len(cards) == 9 * 2 + 5 + 3
    assert len(set(cards)) == len(cards)
    assert cards and set(cards) <= set(deck[: s.deck_pos])


def test_a_deck_with_a_duplicate_card_is_refused() -> None:
    """R-CARD-5: the same card twice in the deck: InconsistentStateError, nothing dealt."""
    deck = list(deck_for(["AsKs", "QhQd"]))
    deck[5] = deck[0]
    with pytest.raises(InconsistentStateError) as info:
        start_hand(NLHE, (100, 100), deck)
    assert info.value.code == "inconsistent_state"
    assert isinstance(info.value, ValueError)


def test_a_deck_too_short_for_the_hand_is_refused_before_dealing() -> None:
    """R-CARD-5: a stub that cannot complete the hand is an impossible state.

    Decision: a deck that cannot even deal the hole cards is refused at ``start_hand``
    (InconsistentStateError: nothing has been committed yet, so voiding is trivial).
    """
    deck = deck_for(["AsKs", "QhQd"])[:3]
    with pytest.raises(InconsistentStateError):
        start_hand(NLHE, (100, 100), deck)


def test_a_deck_with_cards_the_variant_does_not_use_is_refused() -> None:
    """R-CARD-1: a Hold'em deck is the 52-card deck; a foreign card is a configuration error."""
    with pytest.raises((ConfigurationError, InvalidCardError)):
        start_hand(NLHE, (100, 100), [*DECK_52[:10], 60])


def test_a_stub_running_out_mid_hand_raises_and_changes_nothing() -> None:
    """R-CARD-5: the dealing machinery finds an impossible state (no card left for the flop):
    InconsistentStateError with its code, and the state given to apply is unchanged, so the
    table can void the hand and refund every chip from it."""
    from croupier.engine.actions import call
    from croupier.engine.state import apply
    from tests.engine.kit import snapshot

    deck = deck_for(["AsKs", "QhQd"])[:6]  # holes + 2 cards: no full flop
    s, _ = start_hand(NLHE, (100, 100), deck)
    s, _ = apply(s, call(1))
    before = snapshot(s)
    from croupier.engine.actions import check

    with pytest.raises(InconsistentStateError) as info:
        apply(s, check(0))
    assert info.value.code == "inconsistent_state"
    assert snapshot(s) == before
    assert s.contributions == (2, 2)  # what the table refunds
