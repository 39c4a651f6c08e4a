"""The PokerStars-style export: PokerKit 0.7.7 reads it and replays it to the same stacks."""

from __future__ import annotations

import random
import warnings

import pytest
from pokerkit import HandHistory as PokerKitHistory

from croupier.engine.actions import call, check, fold, raise_to
from croupier.engine.cards import Card, parse_cards
from croupier.engine.events import Event
from croupier.engine.game import Game
from croupier.engine.state import HandState, apply, auto_showdown_action, legal_actions, start_hand
from croupier.engine.views import redact_all
from croupier.history.pokerstars import PokerStarsError, PokerStarsInfo, to_pokerstars


def _raise_ok(s: HandState, amount: int) -> bool:
    """PokerKit refuses a raise nobody can call more of (engine allows it): avoid it."""
    p = s.actor
    return all(
        s.stacks[q] + s.bets[q] >= amount
        for q in range(s.n)
        if q != p and not s.folded[q] and s.stacks[q] > 0
    ) and any(s.stacks[q] > 0 for q in range(s.n) if q != p and not s.folded[q])


def _play(seed: int, n: int) -> tuple[Game, list[Event], HandState]:
    rng = random.Random(seed)
    game = Game.of("nlhe", blinds=(1, 2))
    deck = [Card(i) for i in range(52)]
    rng.shuffle(deck)
    stacks = tuple(rng.randint(20, 300) for _ in range(n))
    s, events = start_hand(game, stacks, deck)
    while not s.is_over:
        la = legal_actions(s)
        if la is None or la.show_or_muck:
            s, more = apply(s, auto_showdown_action(s))
        else:
            r = rng.random()
            amount = rng.randint(la.min_raise, la.max_raise) if la.can_raise else 0
            if la.can_raise and r < 0.3 and _raise_ok(s, amount):
                action = raise_to(s.actor, amount)
            elif la.can_check:
                action = check(s.actor)
            elif la.can_call and r < 0.8:
                action = call(s.actor)
            else:
                action = fold(s.actor)
            s, more = apply(s, action)
        events += more
    return game, events, s


def _pokerkit_stacks(text: str) -> tuple[int, ...]:
    with warnings.catch_warnings():
        # PokerKit 0.7.7 warns about its own parsed field "time_zone_abbreviation".
        warnings.filterwarnings("ignore", message=".*time_zone_abbreviation.*")
        hands = list(PokerKitHistory.from_pokerstars(text, error_status=True))
        assert len(hands) == 1
        final = list(hands[0])[-1]
    return tuple(final.stacks)


@pytest.mark.parametrize("seed", range(60))
def test_pokerkit_replays_nlhe_export_to_same_stacks(seed: int) -> None:
    """R-POT-6 (history): a No-Limit Hold'em hand exported as PokerStars text is read by
    PokerKit's ``HandHistory.from_pokerstars`` and replays to the engine's final stacks."""
    n = 2 + seed % 5
    game, events, state = _play(seed, n)
    names = tuple(f"player{i}" for i in range(n))
    seats = tuple(sorted(random.Random(seed).sample(range(9), n)))
    text = to_pokerstars(game, events, PokerStarsInfo(seed + 1, names, seats, "T", 9))
    assert text.startswith(f"PokerStars Hand #{seed + 1}:  Hold'em No Limit (1/2)")
    assert _pokerkit_stacks(text) == state.stacks


def test_redacted_export_hides_other_hole_cards() -> None:
    """R-FAIR-1: a player's download shows their own hole cards only (and shown hands)."""
    game = Game.of("nlhe", blinds=(1, 2))
    s, events = start_hand(
        game, (100, 100, 100), parse_cards("AsKsQs AhKhQh 2c 7d8d9d 3c 4c 5c 6c")
    )
    for action in (call(2), fold(0), check(1)):
        s, more = apply(s, action)
        events += more
    text = to_pokerstars(game, redact_all(events, 1), PokerStarsInfo(1, ("a", "b", "c"), (0, 1, 2)))
    assert "Dealt to b [Ks Kh]" in text
    assert "Dealt to a" not in text and "Dealt to c" not in text
    assert "As" not in text and "Qs" not in text


def test_unsupported_variant_and_bad_info_are_refused() -> None:
    """Bad input gets a code: a stud game, or names that do not match the players."""
    game = Game.of("nlhe", blinds=(1, 2))
    _, events = start_hand(game, (100, 100), [Card(i) for i in range(52)])
    with pytest.raises(PokerStarsError) as info:
        to_pokerstars(game, events, PokerStarsInfo(1, ("a",), (0,)))
    assert info.value.code == "bad_info"
    with pytest.raises(PokerStarsError) as info:
        to_pokerstars(game, [], PokerStarsInfo(1, ("a", "b"), (0, 1)))
    assert info.value.code == "bad_events"
