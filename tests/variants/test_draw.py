"""Draw games: draw order, the draw-clock penalty, discards, the reshuffle (R-DRAW-1..4)."""

from __future__ import annotations

import random

import pytest

from croupier.engine.actions import call, check, draw, fold, raise_to
from croupier.engine.cards import DECK_32, DECK_52, Card
from croupier.engine.errors import IllegalActionError
from croupier.engine.events import Drew, Event
from croupier.engine.game import Game
from croupier.engine.rng import SeededShuffler
from croupier.engine.rules import RakePolicy, profile
from croupier.engine.state import HandState, Phase, apply, forbid_raise, legal_actions, start_hand
from tests.variants.kit import draw_deck, play


def limp_to_draw(s: HandState) -> HandState:
    """Everyone calls or checks the first round."""
    while s.phase is Phase.BETTING and s.street == 0:
        la = legal_actions(s)
        assert la is not None
        s, _ = apply(s, call(la.player) if la.can_call else check(la.player))
    return s


def test_draws_in_seat_order_from_the_left_of_the_button() -> None:
    """R-DRAW-1, R-POS-1: draws start with the first active player at the left of the
    button (position 0), even when the pre-draw action started elsewhere."""
    s, _ = start_hand(Game.of("5cd", blinds=(1, 2)), (50, 50, 50, 50), DECK_52)
    assert s.actor == 2
    s = limp_to_draw(s)
    order = []
    while s.phase is Phase.DRAWING:
        order.append(s.actor)
        s, _ = apply(s, draw(s.actor))
    assert order == [0, 1, 2, 3]
    assert s.phase is Phase.BETTING and s.actor == 0


def test_draw_limits_and_bad_discards_are_refused_without_change() -> None:
    """R-DRAW-1, R-BET-8: at most 5 cards in 5-Card Draw, 4 in 32-Card Draw and Badugi;
    only one's own cards; a refused draw changes nothing."""
    for name, limit, deck in (("5cd", 5, DECK_52), ("32cd", 4, DECK_32), ("badugi", 4, DECK_52)):
        s, _ = start_hand(Game.of(name, blinds=(1, 2)), (50, 50, 50), deck)
        s = limp_to_draw(s)
        la = legal_actions(s)
        assert la is not None and la.can_draw and la.max_discards == limit
        hole = s.hole_cards[0]
        for bad, code in (
            (draw(0, list(hole) + [c for c in deck if c not in hole][:1]), "too_many_discards"),
            (draw(0, [c for c in deck if c not in hole][:1]), "not_your_cards"),
            (check(0), "draw_expected"),
        ):
            if code == "too_many_discards" and len(bad.cards) <= limit:
                continue
            with pytest.raises(IllegalActionError) as err:
                apply(s, bad)
            assert err.value.code == code
            assert s.hole_cards[0] == hole and s.actor == 0


def test_missed_draw_clock_stands_pat_and_may_only_check_call_or_fold() -> None:
    """R-DRAW-2: a player who misses the draw clock stands pat and may not bet or raise on
    the next round; the round after, they may again."""
    s, _ = start_hand(Game.of("27td", blinds=(1, 2)), (100, 100, 100), DECK_52)
    s = limp_to_draw(s)
    hole = s.hole_cards[0]
    s = forbid_raise(s, 0)  # the table: player 0's draw clock ran out
    s, _ = play(s, draw(0), draw(1), draw(2))
    assert s.hole_cards[0] == hole
    la = legal_actions(s)
    assert la is not None and la.player == 0 and la.can_check and not la.can_raise
    with pytest.raises(IllegalActionError) as err:
        apply(s, raise_to(0, 2))
    assert err.value.code == "raise_not_allowed"
    s, _ = play(s, check(0), raise_to(1, 2), raise_to(2, 4))
    la = legal_actions(s)
    assert la is not None and la.player == 0 and la.can_call and not la.can_raise
    s, _ = play(s, call(0), call(1))
    s, _ = play(s, draw(0), draw(1), draw(2))
    la = legal_actions(s)
    assert la is not None and la.player == 0 and la.can_raise


def _random_draw_hand(name: str, n: int, seed: int) -> tuple[HandState, list[Event]]:
    """Everyone limps and calls, and discards as many cards as allowed at every draw."""
    game = Game.of(name, blinds=(1, 2))
    deck = SeededShuffler(seed).shuffle(game.variant.deck)
    s, events = start_hand(game, (1000,) * n, deck, entropy=seed)
    rng = random.Random(seed)
    while not s.is_over:
        la = legal_actions(s)
        assert la is not None
        if s.phase is Phase.DRAWING:
            k = la.max_discards if rng.random() < 0.8 else rng.randint(0, la.max_discards)
            action = draw(la.player, rng.sample(list(s.hole_cards[la.player]), k))
        elif s.phase is Phase.BETTING:
            action = call(la.player) if la.can_call else check(la.player)
        else:
            from croupier.engine.state import auto_showdown_action

            action = auto_showdown_action(s)
        s, ev = apply(s, action)
        events.extend(ev)
        held = [c for p in s.in_hand for c in s.hole_cards[p]]
        assert len(set(held)) == len(held)  # R-CARD-4: no card is in two hands
    return s, events


@pytest.mark.parametrize("name,n", [("27td", 6), ("badugi", 6), ("5cd", 6), ("32cd", 5)])
def test_reshuffle_never_gives_a_player_a_card_they_threw(name: str, n: int) -> None:
    """R-DRAW-3, R-DRAW-4, R-CARD-4: discards are out of play until the stub runs short;
    then the discards are reshuffled and nobody receives a card they discarded, in this
    draw or an earlier one."""
    reshuffled = 0
    for seed in range(40):
        s, events = _random_draw_hand(name, n, seed)
        thrown: dict[int, set[Card]] = {p: set() for p in range(n)}
        dealt: set[Card] = set()
        for e in events:
            if isinstance(e, Drew):
                got = {c for c in e.received if c is not None}
                assert not got & thrown[e.player]
                assert not got & {c for c in e.discarded if c is not None}
                if got & set().union(*thrown.values()):
                    reshuffled += 1
                thrown[e.player] |= {c for c in e.discarded if c is not None}
                dealt |= got
        assert sum(s.stacks) + (s.result.rake if s.result else 0) == 1000 * n
    assert reshuffled > 0  # the property was exercised


def test_thirty_two_card_reshuffle_includes_the_burnt_cards() -> None:
    """R-DRAW-4 (32-Card Draw): when the stub runs short the burnt cards are shuffled in
    with the discards."""
    burnt_dealt = 0
    for seed in range(40):
        _, events = _random_draw_hand("32cd", 5, seed)
        burnt_dealt += len(_burnt_then_dealt(events))
    assert burnt_dealt > 0


def _burnt_then_dealt(events: list[Event]) -> set[Card]:
    """Cards dealt in a draw after they were burnt (and not dealt in between)."""
    burnt: set[Card] = set()
    out: set[Card] = set()
    for e in events:
        if e.type == "card_burnt" and e.card is not None:  # type: ignore[attr-defined]
            burnt.add(e.card)  # type: ignore[attr-defined]
        elif isinstance(e, Drew):
            got = {c for c in e.received if c is not None}
            out |= got & burnt
            burnt -= got
    return out


def test_other_draw_games_never_deal_a_burnt_card() -> None:
    """R-CARD-4, R-DRAW-4: outside 32-Card Draw only discards are reshuffled."""
    for seed in range(40):
        _, events = _random_draw_hand("27td", 6, seed)
        assert not _burnt_then_dealt(events)


def test_thirty_two_card_draw_first_to_act_after_the_draw_follows_the_big_blind() -> None:
    """R-POS-2: 32-Card Draw, after the draw the first active player after the big blind
    acts first (in other draw games: the first at the left of the button)."""
    s, _ = start_hand(Game.of("32cd", blinds=(1, 2)), (50, 50, 50, 50), DECK_32)
    s = limp_to_draw(s)
    s, _ = play(s, draw(0), draw(1), draw(2), draw(3))
    assert s.actor == 2
    s, _ = start_hand(Game.of("5cd", blinds=(1, 2)), (50, 50, 50, 50), DECK_52)
    s = limp_to_draw(s)
    s, _ = play(s, draw(0), draw(1), draw(2), draw(3))
    assert s.actor == 0


def test_draw_games_no_drop_before_a_draw() -> None:
    """R-RAKE-2: no rake in a draw game that ends before the draw; rake once drawn."""
    rules = profile("room", rake=RakePolicy(kind="room"))
    game = Game.of("5cd", blinds=(50, 100), rules=rules)
    s, _ = start_hand(game, (5000,) * 3, DECK_52)
    s, _ = play(s, raise_to(2, 200), call(0), call(1))
    s, _ = play(s, draw(0), draw(1), draw(2))
    s, _ = play(s, raise_to(0, 100), fold(1), fold(2))
    assert s.result is not None and s.result.rake > 0
    s, _ = start_hand(game, (5000,) * 3, DECK_52)
    s, _ = play(s, raise_to(2, 200), fold(0), fold(1))
    assert s.result is not None and s.result.rake == 0


def test_draw_deck_helper_deals_the_given_hands() -> None:
    """R-DRAW-1: the stacked deck gives each position its hand and the draw its stub."""
    deck = draw_deck(["7c5d4h3s2c", "AsAhAdKsKh"], stub="9c 8d")
    s, _ = start_hand(Game.of("27sd", blinds=(1, 2)), (100, 100), deck)
    assert str(s.hole_cards[0][0]) == "7c" and str(s.hole_cards[1][4]) == "Kh"
