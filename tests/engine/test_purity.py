"""States are values: branching a hand, or asking about it, never changes another state
(R-BET-8: apply is pure; R-POT-4 / R-POT-6: showdown values come from the final cards)."""

from __future__ import annotations

from croupier.engine.actions import call, check, draw, show
from croupier.engine.cards import DECK_52, parse_cards
from croupier.engine.game import Game
from croupier.engine.settle import describe_hands
from croupier.engine.state import HandState, apply, legal_actions, start_hand
from tests.engine.kit import ended, finish_showdown, play, start


def test_describing_a_hand_mid_hand_does_not_freeze_its_value() -> None:
    """R-POT-6, R-RANK-2: describing a hand on the flop (as a client view may) must not
    make the showdown use the flop's value: kings that fill up to quads on the river win."""
    g = Game.of("nlhe", blinds=(1, 2))
    s, _ = start(g, (100, 100), ["AsAh", "KsKh"], "2c5d9hKdKc")
    s, _ = play(s, call(1), check(0))
    assert describe_hands(s, 1) == ("Pair of kings",)
    s, _ = play(s, *[check(p) for _ in range(3) for p in (0, 1)])
    assert describe_hands(s, 1) == ("Four of a kind, kings",)
    s, ev = finish_showdown(s)
    assert ended(ev).stacks == (98, 102)


def _draw_hand() -> HandState:
    g = Game.of("5cd", blinds=(1, 2))
    holes = [parse_cards("AsAhAdAcKd"), parse_cards("KsKhQdJc9h")]
    junk = parse_cards("3c4d6h8s7c2d")
    deck = [holes[p][k] for k in range(5) for p in (0, 1)]
    deck += list(junk) + [c for c in DECK_52 if c not in deck and c not in junk]
    s, _ = start_hand(g, (100, 100), deck)
    s, _ = play(s, call(1), check(0))
    la = legal_actions(s)
    assert la is not None and la.can_draw and la.player == 0
    return s


def _finish(s: HandState, discards: tuple[int, ...]) -> tuple[int, ...]:
    s, _ = apply(s, draw(s.actor, discards))
    s, _ = apply(s, draw(s.actor, ()))
    while not s.is_over:
        la = legal_actions(s)
        assert la is not None
        s, _ = apply(s, show(s.actor) if la.show_or_muck else check(s.actor))
    assert s.result is not None
    return s.result.stacks


def test_branches_of_a_hand_do_not_share_showdown_values() -> None:
    """R-BET-8, R-POT-4: two branches from the same state (break the aces / stand pat) are
    settled on their own cards, whichever is played first."""
    s = _draw_hand()
    broke = _finish(s, s.hole_cards[0][:4])
    pat = _finish(s, ())
    assert broke == (98, 102)  # king high against a pair of kings
    assert pat == (102, 98)  # four aces
    assert _finish(_draw_hand(), ()) == (102, 98)
