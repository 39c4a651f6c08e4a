"""32-Card Draw: every clause of the R-RANK-6 ranking as played in a hand, and the split
option (R-DRAW-5)."""

from __future__ import annotations

import random

import pytest

from croupier.engine.actions import (
    accept_split,
    call,
    check,
    decline_split,
    draw,
    offer_split,
    raise_to,
)
from croupier.engine.cards import DECK_32, DECK_52
from croupier.engine.errors import IllegalActionError
from croupier.engine.events import PotAwarded, SplitResolved
from croupier.engine.game import Game
from croupier.engine.rng import SeededShuffler
from croupier.engine.state import Phase, apply, auto_showdown_action, legal_actions, start_hand
from tests.variants.kit import draw_deck, play, showdown

WINS = [
    # (winner, loser, clause)
    ("AhJh9h8h7h", "KsKdKcQsQd", "flush beats full house"),
    ("KsKdKcKhQd", "AhJh9h8h7h", "four of a kind beats flush"),
    ("Tc9c8c7cAc", "KsKdKcKhQd", "the lowest straight flush beats four of a kind"),
    ("AhKhQhJhTh", "KsQsJsTs9s", "royal flush beats straight flush"),
    ("KsKdKcQsQd", "JhTd9c8s7h", "full house beats straight"),
    ("Ts9d8c7hAc", "KsKdKcQsJd", "A-7-8-9-T is a straight and beats three of a kind"),
    ("JhTd9c8s7h", "Ts9d8c7sAh", "A-7-8-9-T is the lowest straight"),
    ("KsKdKcQsJd", "AsAdQhQd9c", "three of a kind beats two pair"),
    ("AsAdQhQd9c", "AhAcKsQcJd", "two pair beats one pair"),
    ("7s7dAcKhQd", "AhKdQsJd9h", "one pair beats high card"),
    ("AhKhQhJhTh", "AdKdQdJdTd", "royal flush: hearts beat diamonds"),
    ("Tc9c8c7cAc", "Ts9s8s7sAs", "straight flush: same cards, clubs beat spades"),
    ("Jh9d8c7sTd", "Jd9h8d7hTs", "straight: the suit of the highest card (hearts > diamonds)"),
    ("AdKdQdJd9d", "AcKcQcJc9c", "flush: same ranks, diamonds beat clubs"),
    ("AcKcQcJc9c", "AsKsQsJs9s", "flush: same ranks, clubs beat spades"),
    ("KsKhQsQh9h", "KdKcQdQc9d", "two pair: the suit of the kicker (hearts > diamonds)"),
    ("AsAhKhQdJd", "AdAcKdQhJh", "one pair: the suit of the highest kicker"),
    ("AhKsQsJs9s", "AsKhQhJh9h", "high card: the suit of the highest card (hearts > spades)"),
]


def _showdown_winner(hand0: str, hand1: str) -> tuple[int, ...]:
    """Play a heads-up 32-Card Draw hand where both stand pat and check it down; return
    the winners of the pot."""
    game = Game.of("32cd", blinds=(1, 2))
    s, _ = start_hand(game, (50, 50), draw_deck([hand0, hand1], deck=DECK_32))
    s, _ = play(s, call(1), check(0), draw(0), draw(1), check(1), check(0))
    s, events = showdown(s)
    awards = [e for e in events if isinstance(e, PotAwarded)]
    assert len(awards) == 1 and len(awards[0].winners) == 1  # R-RANK-6: no ties
    return awards[0].winners


@pytest.mark.parametrize(("winner", "loser", "clause"), WINS, ids=[w[2] for w in WINS])
def test_r_rank_6_clause_decides_the_pot(winner: str, loser: str, clause: str) -> None:
    """R-RANK-6: each clause of the 32-card ranking, played in a hand, from either seat."""
    assert _showdown_winner(winner, loser) == (0,), clause
    assert _showdown_winner(loser, winner) == (1,), clause


def test_flush_beats_high_card() -> None:
    """R-RANK-6: a flush beats ace-king high."""
    assert _showdown_winner("AdKdQdJd9d", "AhKhQhJh9s") == (0,)


def test_thirty_two_card_draw_never_splits_a_pot_at_showdown() -> None:
    """R-RANK-6: there are no ties: every showdown pot has one winner."""
    game = Game.of("32cd", blinds=(1, 2))
    rng = random.Random(7)
    for seed in range(150):
        s, _ = start_hand(game, (40,) * 4, SeededShuffler(seed).shuffle(DECK_32), entropy=seed)
        events = []
        while not s.is_over:
            la = legal_actions(s)
            assert la is not None
            if s.phase is Phase.DRAWING:
                a = draw(la.player, rng.sample(list(s.hole_cards[la.player]), rng.randint(0, 4)))
            elif s.phase is Phase.SHOWDOWN:
                a = auto_showdown_action(s)
            else:
                a = call(la.player) if la.can_call else check(la.player)
            s, ev = apply(s, a)
            events.extend(ev)
        for e in events:
            if isinstance(e, PotAwarded):
                assert len(e.winners) == 1


# -- the split option (R-DRAW-5) ----------------------------------------------------------


def test_split_offered_by_first_to_act_after_the_draw_and_all_accept() -> None:
    """R-DRAW-5: after the draw the first player to act may offer to split; the offer
    goes round; if everyone accepts, the pot is divided equally and the hand ends."""
    game = Game.of("32cd", blinds=(1, 2))
    s, _ = start_hand(game, (50, 50, 50), DECK_32)
    la = legal_actions(s)
    assert la is not None and not la.can_offer_split  # not before the draw
    s, _ = play(s, raise_to(2, 4), call(0), call(1), draw(0), draw(1), draw(2))
    la = legal_actions(s)
    assert la is not None and la.player == 2 and la.can_offer_split
    s, events = play(s, offer_split(2))
    assert s.phase is Phase.SPLIT and s.actor == 0
    la = legal_actions(s)
    assert la is not None and la.split_answer and not la.can_raise
    s, events = play(s, accept_split(0), accept_split(1))
    assert s.is_over and s.stacks == (50, 50, 50)
    assert [e.share for e in events if isinstance(e, PotAwarded)] == ["split"]


def test_split_declined_goes_on_betting_and_cannot_be_offered_again() -> None:
    """R-DRAW-5: a single refusal keeps the pot at stake; the offerer then acts as usual;
    a later player cannot offer, nor can anyone once a bet is made."""
    game = Game.of("32cd", blinds=(1, 2))
    s, _ = start_hand(game, (50, 50, 50), DECK_32)
    s, _ = play(s, call(2), call(0), check(1), draw(0), draw(1), draw(2))
    s, events = play(s, offer_split(2), accept_split(0), decline_split(1))
    assert next(e for e in events if isinstance(e, SplitResolved)).pots == ()
    assert s.phase is Phase.BETTING and s.actor == 2
    la = legal_actions(s)
    assert la is not None and la.can_check and not la.can_offer_split
    s, _ = play(s, check(2))
    la = legal_actions(s)
    assert la is not None and la.player == 0 and not la.can_offer_split
    with pytest.raises(IllegalActionError) as err:
        apply(s, offer_split(0))
    assert err.value.code == "split_not_allowed"


def test_split_side_pot_decided_by_its_own_players() -> None:
    """R-DRAW-5, R-POT-1: a side pot is divided when every one of its players accepts,
    even if a player of the main pot declines; the main pot goes to the showdown."""
    game = Game.of("draw32/nl", blinds=(1, 2))
    hands = ["AhAdAcKhKd", "7s8s9sJdQc", "7h7d8h8dTs"]  # 0 wins at showdown
    s, _ = start_hand(game, (50, 6, 50), draw_deck(hands, deck=DECK_32))
    s, _ = play(s, raise_to(2, 10), call(0), call(1))
    assert s.contributions == (10, 6, 10)
    s, _ = play(s, draw(0), draw(1), draw(2))
    assert s.actor == 2
    s, events = play(s, offer_split(2), accept_split(0), decline_split(1))
    assert next(e for e in events if isinstance(e, SplitResolved)).pots == (1,)
    s, events = play(s, check(2), check(0))
    s, more = showdown(s)  # an all-in player is in: every hand is shown at once
    events += more
    assert s.result is not None
    awards = [(e.share, e.winners, e.amount) for e in events if isinstance(e, PotAwarded)]
    assert ("split", (0, 2), 8) in awards and ("whole", (0,), 18) in awards
    assert s.stacks == (50 - 10 + 4 + 18, 0, 50 - 10 + 4)


def test_split_all_accept_divides_each_pot_among_its_own_players() -> None:
    """R-DRAW-5, R-POT-3: with everyone accepting, every pot is divided equally among its
    players (odd chips from the left of the button)."""
    game = Game.of("draw32/nl", blinds=(1, 2))
    s, _ = start_hand(game, (50, 7, 50), DECK_32)
    s, _ = play(s, raise_to(2, 10), call(0), call(1), draw(0), draw(1), draw(2))
    s, events = play(s, offer_split(2), accept_split(0), accept_split(1))
    assert s.is_over
    pots = [(e.winners, e.amounts) for e in events if isinstance(e, PotAwarded)]
    assert pots == [((0, 1, 2), (7, 7, 7)), ((0, 2), (3, 3))]
    assert s.stacks == (50, 7, 50)


def test_split_answers_out_of_turn_or_of_the_wrong_kind_are_refused() -> None:
    """R-BET-8, R-DRAW-5: bad split input gets a clear code and changes nothing."""
    game = Game.of("32cd", blinds=(1, 2))
    s, _ = start_hand(game, (50, 50, 50), DECK_32)
    for action, code in (
        (offer_split(2), "split_not_allowed"),
        (accept_split(2), "not_a_betting_action"),
    ):
        with pytest.raises(IllegalActionError) as err:
            apply(s, action)
        assert err.value.code == code
    s, _ = play(s, call(2), call(0), check(1), draw(0), draw(1), draw(2), offer_split(2))
    before = (s.phase, s.actor, s.stacks)
    for action, code in ((call(0), "split_answer_expected"), (accept_split(1), "not_your_turn")):
        with pytest.raises(IllegalActionError) as err:
            apply(s, action)
        assert err.value.code == code
        assert (s.phase, s.actor, s.stacks) == before
    h, _ = start_hand(Game.of("nlhe", blinds=(1, 2)), (50, 50), DECK_52)
    la = legal_actions(h)
    assert la is not None and not la.can_offer_split
    with pytest.raises(IllegalActionError) as err:
        apply(h, offer_split(h.actor))
    assert err.value.code == "split_not_allowed"
