"""Where PokerKit 0.7.7 and SPEC.md disagree, croupier follows the SPEC.

One test per difference listed in ``docs/pokerkit-differences.md``: each shows croupier's
behaviour and PokerKit's, so a change on either side is noticed. The random differential
(``test_differential.py``) detects exactly these cases and leaves only them out.
"""

from __future__ import annotations

import random

import pytest

from croupier.engine.actions import call, check, fold, raise_to
from croupier.engine.cards import Card
from croupier.engine.game import Game
from croupier.engine.state import legal_actions
from tests.differential.pkdiff import Deal, Tally, Twin, croupier_game, play_hand, random_deal
from tests.engine.kit import deck_for


def deal(
    game: str,
    stacks: tuple[int, ...],
    blinds: tuple[int, int] = (1, 2),
    holes: list[str] | None = None,
    board: str = "",
    ante: int = 0,
) -> Deal:
    cards: tuple[Card, ...] = deck_for(holes or [], board)
    return Deal(game, stacks, blinds, ante, cards, 0)


def test_short_all_in_raise_does_not_reopen_preflop() -> None:
    """R-BET-6: UTG limps, the button raises all-in by less than a full raise, the blinds
    call: UTG may only call or fold. PokerKit lets UTG raise again."""
    t = Twin(deal("nlhe", (100, 100, 100, 3)))
    t.act(call(2), raise_to(3, 3), call(0), call(1))
    mine, theirs = t.croupier, t.pokerkit
    assert mine.actor == theirs.actor == 2
    assert mine.raise_bounds is None
    assert mine.call == theirs.call == 1
    assert theirs.raise_bounds == (5, 100)


def test_short_all_in_bet_does_not_reopen_postflop() -> None:
    """R-BET-6, R-BET-1: after two checks, an all-in bet smaller than the minimum bet does
    not let the players who checked raise. PokerKit counts it as a full bet."""
    t = Twin(deal("nlhe", (100, 100, 3)))
    t.act(call(2), call(0), check(1))  # pre-flop: the button keeps 1 chip
    t.act(check(0), check(1), raise_to(2, 1))  # flop: the button bets its last chip
    mine, theirs = t.croupier, t.pokerkit
    assert (mine.actor, mine.call, mine.raise_bounds) == (0, 1, None)
    assert theirs.raise_bounds is not None


def test_short_all_ins_adding_up_to_a_full_raise_reopen() -> None:
    """R-BET-6, R-BET-1: UTG raises to 40 (a raise of 30); two short all-ins (to 60, to 80)
    add up to a full raise, so the betting is open again for UTG, and a third short all-in
    (to 90) does not close it. PokerKit refuses UTG's raise."""
    t = Twin(deal("nlhe", (90, 500, 500, 60, 80), blinds=(5, 10)))
    t.act(raise_to(2, 40), raise_to(3, 60), raise_to(4, 80), raise_to(0, 90), call(1))
    mine, theirs = t.croupier, t.pokerkit
    assert (mine.actor, mine.call) == (theirs.actor, theirs.call) == (2, 50)
    assert mine.raise_bounds == (120, 500)
    assert theirs.raise_bounds is None


def test_fixed_limit_three_raises_over_the_big_blind() -> None:
    """R-BET-4: fixed limit, before the flop the big blind is the bet and three raises
    follow; then nobody may raise. PokerKit allows a fourth raise (to 10)."""
    t = Twin(deal("flhe", (100, 100, 100, 100)))
    t.act(raise_to(2, 4), raise_to(3, 6), raise_to(0, 8))
    mine, theirs = t.croupier, t.pokerkit
    assert (mine.actor, mine.call, mine.raise_bounds) == (1, 6, None)
    assert theirs.raise_bounds == (10, 10)
    t.act(call(1), call(2), call(3))  # and on the flop the cap is one bet and three raises
    t.act(raise_to(0, 2), raise_to(1, 4), raise_to(2, 6), raise_to(3, 8))
    assert t.croupier.raise_bounds is None and t.pokerkit.raise_bounds is None


def test_three_way_split_odd_chips_one_at_a_time() -> None:
    """R-POT-3: a 20-chip pot split three ways gives the two odd chips one each to the tied
    winners closest to the left of the button. PokerKit gives both to the first winner."""
    holes = ["2c3d", "4h5h", "2d3c", "2h3s"]
    t = Twin(deal("nlhe", (100, 100, 100, 100), holes=holes, board="AsKdQhJcTs"))
    t.act(raise_to(2, 6), call(3), call(0), fold(1))
    for _ in range(3):
        t.act(check(0), check(2), check(3))
    t.finish()
    assert t.s.stacks == (101, 98, 101, 100)
    assert tuple(t.pk.stacks) == (102, 98, 100, 100)


def test_side_pots_split_one_by_one() -> None:
    """R-POT-3, R-POT-1: every pot is split on its own. Two tied winners of a 21-chip main
    pot and a 23-chip side pot: the first winner gets the odd chip of each. PokerKit merges
    the pots once the beaten hand is killed and splits the 44 chips evenly."""
    holes = ["5c6d", "3c4d", "JcTd", "JdTc", "8h9h"]
    t = Twin(deal("nlhe", (100, 5, 100, 100, 100), (1, 3), holes, "AsKdQh7c2s"))
    t.act(raise_to(2, 6), call(3), call(4), fold(0), call(1))  # p1 all-in for 5
    t.act(raise_to(2, 10), call(3), fold(4))
    t.act(check(2), check(3), check(2), check(3))
    t.finish()
    result = t.s.result
    assert result is not None
    assert [(p.amount, p.winnings[2], p.winnings[3]) for p in result.pots] == [
        (21, 11, 10),
        (23, 12, 11),
    ]
    assert t.s.stacks == (99, 0, 107, 105, 94)
    assert tuple(t.pk.stacks) == (99, 0, 106, 106, 94)


def test_lone_player_is_not_asked_to_check() -> None:
    """R-BET-10: when the others are all-in and nothing is owed, the cards are dealt
    without betting. PokerKit waits for a check from the big blind (when the last player
    before it folded)."""
    t = Twin(deal("nlhe", (1, 100, 2, 50)))
    t.act(call(2), fold(3))
    assert t.s.is_over and legal_actions(t.s) is None
    assert t.pk.actor_index == 1 and t.pk.checking_or_calling_amount == 0


def test_heads_up_equal_blinds_button_acts_first() -> None:
    """R-POS-1: heads-up the button posts the small blind and acts first before the flop,
    also when both blinds are equal. PokerKit lets the big blind act first then."""
    t = Twin(deal("nlhe", (100, 100), blinds=(2, 2)))
    assert t.croupier.actor == 1
    assert t.pokerkit.actor == 0


def test_short_big_blind_sets_the_full_call_by_default() -> None:
    """R-POS-3: by default (house rule ``short_blind = full``) a big blind posted short
    still makes the others call the full blind; PokerKit (``posted``) asks for what was
    posted, the house rule croupier's differential run uses."""
    d = deal("nlhe", (100, 1, 100))
    t = Twin(d, Game.of("nlhe", blinds=(1, 2)))
    assert (t.croupier.actor, t.croupier.call) == (2, 2)
    assert (t.pokerkit.actor, t.pokerkit.call) == (2, 1)
    posted = Twin(d, croupier_game(d))
    assert posted.croupier.call == 1


def test_no_raise_when_no_one_can_call_it() -> None:
    """R-BET-8, R-BET-7: when the only opponent with chips cannot put in more than the
    current bet, no raise is offered (croupier agrees with PokerKit since 02a44a3); the
    short big blind may only call all-in or fold."""
    t = Twin(deal("nlhe", (100, 3, 5)))
    t.act(raise_to(2, 5))  # the button is all-in for 5; the big blind has 1 chip behind
    assert t.croupier.raise_bounds is None and t.pokerkit.raise_bounds is None
    t.act(call(0))
    mine = t.croupier
    assert (mine.actor, mine.call, mine.raise_bounds) == (1, 1, None)
    assert mine == t.pokerkit


@pytest.mark.parametrize("game", ["nlhe", "plo", "flhe"])
def test_random_hands_agree(game: str) -> None:
    """R-BET-8, R-POT-6: a short seeded run of the harness in each game (the long run is
    test_differential.py) and the tally counts what it compared."""
    tally = Tally()
    rng = random.Random(f"smoke:{game}")
    for _ in range(50):
        play_hand(random_deal(rng, game), tally)
    assert tally.decisions > 100
    assert tally.hands + tally.excluded_hands["R-POS-1"] == 50
