"""Betting structures: sizes and bounds (SPEC §3: R-BET-1 … R-BET-5, R-BET-8)."""

from __future__ import annotations

import pytest

from croupier.engine.actions import call, check, fold, raise_to
from croupier.engine.errors import IllegalActionError
from croupier.engine.game import Game
from croupier.engine.rules import profile
from croupier.engine.state import HandState, legal_actions
from tests.engine.kit import play, start

STRICT = profile("room", under_raise="strict")
"""R-BET-9: strict refusals (naiko/arcade); the room profile counts under-raises instead."""


def bounds(s: HandState) -> tuple[int, int]:
    legal = legal_actions(s)
    assert legal is not None
    return legal.min_raise, legal.max_raise


# -- No-Limit (R-BET-1) ------------------------------------------------------------------


def test_nl_opening_bet_is_at_least_the_big_blind_and_at_most_the_stack() -> None:
    """R-BET-1, R-BET-8: post-flop the smallest bet is the big blind, the largest the stack."""
    g = Game.of("nlhe", blinds=(5, 10), rules=STRICT)
    s, _ = start(g, (500, 800, 300))
    s, _ = play(s, call(2), call(0), check(1))
    assert s.street == 1 and s.actor == 0
    legal = legal_actions(s)
    assert legal is not None
    assert legal.can_check and not legal.can_call and not legal.can_fold
    assert (legal.min_raise, legal.max_raise) == (10, 490)
    with pytest.raises(IllegalActionError) as info:
        play(s, raise_to(0, 9))
    assert info.value.code == "raise_too_small"
    with pytest.raises(IllegalActionError) as info:
        play(s, raise_to(0, 491))
    assert info.value.code == "raise_too_large"


def test_nl_min_raise_follows_the_last_full_raise() -> None:
    """R-BET-1: a raise increases the current bet by at least the last full bet or raise."""
    g = Game.of("nlhe", blinds=(1, 2), rules=STRICT)
    s, _ = start(g, (1000,) * 4)
    assert bounds(s) == (4, 1000)  # UTG: BB 2 + 2
    s, _ = play(s, raise_to(2, 7))  # raise by 5
    assert bounds(s) == (12, 1000)  # 7 + 5
    s, _ = play(s, raise_to(3, 20))  # raise by 13
    assert bounds(s) == (33, 1000)
    with pytest.raises(IllegalActionError):
        play(s, raise_to(0, 32))
    s, _ = play(s, raise_to(0, 33))
    assert bounds(s) == (46, 1000)


def test_nl_min_raise_post_flop_after_a_bet() -> None:
    """R-BET-1: post-flop, after a bet of 30, the smallest raise is to 60."""
    g = Game.of("nlhe", blinds=(5, 10))
    s, _ = start(g, (1000, 1000))
    s, _ = play(s, call(1), check(0))
    s, _ = play(s, raise_to(0, 30))
    assert bounds(s) == (60, 990)


def test_nl_raise_limited_to_the_stack_and_all_in_below_minimum_allowed() -> None:
    """R-BET-1, R-BET-6: a player with less than a full raise may still move all-in."""
    g = Game.of("nlhe", blinds=(5, 10))
    s, _ = start(g, (1000, 1000, 25))
    # p2 (UTG, 25 chips) may raise all-in to 25 although a full raise is to 20: fine;
    assert bounds(s) == (20, 25)
    s, _ = play(s, raise_to(2, 25))
    s, _ = play(s, call(0))
    # p1 (BB) faces 25 with a raise of 15 made: min raise-to 25 + 15 = 40
    assert bounds(s) == (40, 1000)


# -- Pot-Limit (R-BET-2) --------------------------------------------------------------


def test_pl_naiko_worked_example() -> None:
    """R-BET-2: pot 100, bet 40 facing a player with nothing in: call 40, largest raise-to 220."""
    g = Game.of("plhe", blinds=(10, 20))
    s, _ = start(g, (1000,) * 5)
    s, _ = play(s, call(2), call(3), call(4), call(0), check(1))
    assert s.pot == 100 and s.street == 1
    s, _ = play(s, raise_to(0, 40))
    legal = legal_actions(s)
    assert legal is not None and legal.player == 1
    assert legal.call == 40
    assert (legal.min_raise, legal.max_raise) == (80, 220)
    with pytest.raises(IllegalActionError) as info:
        play(s, raise_to(1, 221))
    assert info.value.code == "raise_too_large"
    s2, _ = play(s, raise_to(1, 220))
    assert s2.pot == 360
    s3, _ = play(s, call(1))
    assert s3.pot == 180


def test_pl_preflop_pot_counts_the_blinds_and_the_call() -> None:
    """R-BET-2: blinds 1/2, UTG may raise to 2 + (3 + 2) = 7; then next to 7 + (10 + 7)."""
    g = Game.of("plhe", blinds=(1, 2))
    s, _ = start(g, (1000,) * 4)
    assert bounds(s) == (4, 7)
    s, _ = play(s, raise_to(2, 7))
    # pot = 1 + 2 + 7 = 10; the button calls 7 -> 17; raise-to 7 + 17 = 24
    assert bounds(s) == (12, 24)


def test_pl_pot_counts_every_chip_in_the_hand_including_antes_and_dead() -> None:
    """R-BET-2: the pot counts every chip committed in the hand (antes included)."""
    g = Game.of("plhe", blinds=(1, 2), ante=1)
    s, _ = start(g, (1000,) * 3)
    # pot = 3 antes + 1 + 2 = 6; UTG calls 2 -> 8; max raise-to 2 + 8 = 10
    assert bounds(s) == (4, 10)


def test_pl_max_is_capped_by_the_stack() -> None:
    """R-BET-2, R-BET-1: the pot limit never lets anyone bet more than their stack."""
    g = Game.of("plo", blinds=(25, 50))
    s, _ = start(g, (1000, 60))
    assert bounds(s) == (60, 60)


# -- Half-Pot-Limit (R-BET-3) ------------------------------------------------------------


def test_half_pot_rounds_down() -> None:
    """R-BET-3: half of (pot + call), rounded down to the chip."""
    g = Game.of("hplhe", blinds=(25, 50), min_bet=10)
    s, _ = start(g, (1000, 1000))
    s, _ = play(s, call(1), check(0))
    s, _ = play(s, raise_to(0, 45))  # pot 145; call 45 -> 190; half 95
    assert bounds(s) == (90, 45 + 95)
    s, _ = play(s, raise_to(1, 140))
    # pot 285, call 95 -> 380, half 190: 140 + 190
    assert bounds(s) == (235, 330)
    # an odd pot: a dead chip makes it 101; bet 40 -> 141 + call 40 = 181 -> 90
    s2, _ = start(g, (1000, 1000), dead=(1, 0))
    s2, _ = play(s2, call(1), check(0))
    assert s2.pot == 101
    s2, _ = play(s2, raise_to(0, 40))
    assert bounds(s2) == (80, 130)


def test_half_pot_odd_total_rounds_down() -> None:
    """R-BET-3: an odd (pot + call) rounds down: 3 + 2 = 5 -> 2."""
    g = Game.of("hplhe", blinds=(1, 2))
    s, _ = start(g, (1000,) * 4)
    # UTG: pot 3 + call 2 = 5, half 2 (rounded down), raise-to 2 + 2 = 4 = the minimum
    assert bounds(s) == (4, 4)
    s, _ = play(s, raise_to(2, 4))
    # button: pot 7 + call 4 = 11 -> 5; max 9; min 4 + 2 = 6
    assert bounds(s) == (6, 9)


def test_half_pot_never_below_the_minimum() -> None:
    """R-BET-3: when half the pot is less than the minimum raise, the minimum is allowed."""
    g = Game.of("hplhe", blinds=(5, 10))
    s, _ = start(g, (1000, 1000, 1000))
    s, _ = play(s, call(2), call(0), check(1))  # pot 30
    s, _ = play(s, raise_to(0, 10))  # p1 faces 10: (40 + 10) // 2 = 25 -> 35, min 20
    s, _ = play(s, raise_to(1, 35))  # raise by 25; p2 faces 35: (75 + 35) // 2 = 55 -> 90
    assert bounds(s) == (60, 90)
    g2 = Game.of("hplhe", blinds=(1, 10))
    s2, _ = start(g2, (1000,) * 4)
    # UTG: pot 11 + call 10 = 21 -> 10: max 20 = the minimum raise-to 20
    assert bounds(s2) == (20, 20)
    g3 = Game.of("hplhe", blinds=(1, 10), ante=0)
    s3, _ = start(g3, (1000, 1000))
    s3, _ = play(s3, call(1), check(0), raise_to(0, 10))
    # pot 30 + call 10 = 40 -> 20: max 30, min 20
    assert bounds(s3) == (20, 30)


def test_half_pot_minimum_dominates_when_half_is_smaller() -> None:
    """R-BET-3: never below the legal minimum (pot tiny compared with the last raise)."""
    g = Game.of("hplhe", blinds=(1, 2), min_bet=50)
    s, _ = start(g, (1000, 1000))
    s, _ = play(s, call(1), check(0))
    # pot 4: half of 4 is 2 but the smallest bet is 50
    assert bounds(s) == (50, 50)


# -- Fixed-Limit (R-BET-4) -----------------------------------------------------------------


def test_fl_small_bet_on_first_two_rounds_big_bet_later() -> None:
    """R-BET-4: small bet pre-flop and flop, big bet on turn and river; BB = small bet."""
    g = Game.of("flhe", blinds=(1, 2), rules=STRICT)
    assert (g.small_bet, g.big_bet) == (2, 4)
    s, _ = start(g, (1000, 1000, 1000))
    assert bounds(s) == (4, 4)
    s, _ = play(s, call(2), call(0), check(1))
    assert bounds(s) == (2, 2)
    s, _ = play(s, raise_to(0, 2))
    assert bounds(s) == (4, 4)
    s, _ = play(s, call(1), call(2))
    assert s.street == 2
    assert bounds(s) == (4, 4)
    s, _ = play(s, raise_to(0, 4))
    assert bounds(s) == (8, 8)
    s, _ = play(s, call(1), call(2))
    assert s.street == 3
    assert bounds(s) == (4, 4)
    with pytest.raises(IllegalActionError):
        play(s, raise_to(0, 3))
    with pytest.raises(IllegalActionError):
        play(s, raise_to(0, 8))


def test_fl_cap_one_bet_and_three_raises() -> None:
    """R-BET-4: at most one bet and three raises per round (the blind counts as the bet)."""
    g = Game.of("flhe", blinds=(1, 2))
    s, _ = start(g, (1000, 1000, 1000))
    s, _ = play(s, raise_to(2, 4), raise_to(0, 6), raise_to(1, 8))  # capped: 2, 4, 6, 8
    legal = legal_actions(s)
    assert legal is not None and legal.player == 2
    assert not legal.can_raise and legal.can_call and legal.call == 4
    with pytest.raises(IllegalActionError) as info:
        play(s, raise_to(2, 10))
    assert info.value.code == "raise_not_allowed"
    s, _ = play(s, call(2), call(0))
    assert s.street == 1
    # post-flop: bet + 3 raises
    s, _ = play(s, raise_to(0, 2), raise_to(1, 4), raise_to(2, 6), raise_to(0, 8))
    legal = legal_actions(s)
    assert legal is not None and not legal.can_raise


def test_fl_custom_bet_sizes() -> None:
    """R-BET-4: explicit small/big bets are used."""
    g = Game.of("flo8", blinds=(5, 10), bets=(10, 20))
    s, _ = start(g, (1000, 1000))
    assert bounds(s) == (20, 20)
    s, _ = play(s, call(1), check(0))
    assert bounds(s) == (10, 10)
    s, _ = play(s, check(0), check(1))
    assert bounds(s) == (20, 20)


# -- Spread-Limit (R-BET-5) ------------------------------------------------------------------


def test_spread_limit_1_2_3() -> None:
    """R-BET-5: 1-2-3: min bet the big blind in every round; max 1, 1, 2, 3 by round."""
    g = Game.of("slhe", blinds=(1, 1), spread=(1, 1, 2, 3))
    s, _ = start(g, (100, 100, 100))
    assert bounds(s) == (2, 2)
    s, _ = play(s, call(2), check(0), check(1))
    assert bounds(s) == (1, 1)
    s, _ = play(s, check(0), check(1), check(2))
    assert bounds(s) == (1, 2)
    s, _ = play(s, raise_to(0, 2))
    # a raise is at least the previous bet (2) and at most the round's maximum (2)
    assert bounds(s) == (4, 4)
    s, _ = play(s, call(1), call(2))
    assert bounds(s) == (1, 3)
    s, _ = play(s, raise_to(0, 1))
    assert bounds(s) == (2, 4)
    s, _ = play(s, raise_to(1, 3))  # raise by 2
    assert bounds(s) == (5, 6)


def test_spread_limit_default_uses_small_and_big_bet() -> None:
    """R-BET-5: without a spread table, the maxima are the small then the big bet."""
    g = Game.of("slhe", blinds=(2, 4), bets=(4, 8))
    s, _ = start(g, (500, 500))
    assert bounds(s) == (8, 8)
    s, _ = play(s, call(1), check(0))
    assert bounds(s) == (4, 4)
    s, _ = play(s, check(0), check(1))
    assert bounds(s) == (4, 8)


def test_spread_limit_needs_one_maximum_per_street() -> None:
    """R-BET-5: a spread table of the wrong length is a configuration error with a code."""
    from croupier.engine.errors import ConfigurationError

    with pytest.raises(ConfigurationError) as info:
        Game.of("slhe", blinds=(1, 1), spread=(1, 2, 3))
    assert info.value.code == "invalid_configuration"


def test_spread_maximum_below_the_minimum_bet_is_refused() -> None:
    """R-BET-5, R-BET-8: a maximum below the big blind (the minimum bet) cannot work: it would
    offer raises whose minimum exceeds their maximum; the game is refused with a code."""
    from croupier.engine.errors import ConfigurationError

    with pytest.raises(ConfigurationError) as info:
        Game.of("slhe", blinds=(1, 2), spread=(1, 1, 2, 3))
    assert info.value.code == "invalid_configuration"
    assert Game.of("slhe", blinds=(1, 2), spread=(2, 2, 4, 6)).spread_max(3) == 6


def test_legal_actions_offers_fold_only_facing_a_bet() -> None:
    """R-BET-8: facing a bet: fold, call (amount), raise (min/max); else check or bet."""
    g = Game.of("nlhe", blinds=(1, 2))
    s, _ = start(g, (100, 100, 100))
    legal = legal_actions(s)
    assert legal is not None
    assert legal.can_fold and legal.can_call and legal.call == 2 and not legal.can_check
    s, _ = play(s, call(2), call(0))
    legal = legal_actions(s)
    assert legal is not None and legal.player == 1
    assert legal.can_check and not legal.can_fold and not legal.can_call and legal.call == 0
    assert (legal.min_raise, legal.max_raise) == (4, 100)
    with pytest.raises(IllegalActionError) as info:
        play(s, fold(1))
    assert info.value.code == "fold_when_check"


def test_fl_short_all_in_raise_counts_toward_the_cap_and_raises_go_on_top() -> None:
    """R-BET-4, R-BET-6: fixed limit 5/10, a player all-in for 13 over the big blind of 10.

    Decision (the SPEC is silent): every raise action counts toward the cap of one bet and
    three raises, a short all-in included (as PokerKit counts it), and the next raise is a
    full bet on top of the all-in (23), like No-Limit's "last full raise on top of the
    current bet". Players who had acted may not re-raise on the short all-in (R-BET-6).
    """
    g = Game.of("flhe", blinds=(5, 10))
    s, _ = start(g, (1000, 1000, 1000, 13))
    assert bounds(s) == (20, 20)
    s, _ = play(s, call(2), raise_to(3, 13))
    assert s.stacks[3] == 0 and s.bet_count == 2
    assert bounds(s) == (23, 23)
    s, _ = play(s, raise_to(0, 23), raise_to(1, 33))
    legal = legal_actions(s)
    assert legal is not None and legal.player == 2 and not legal.can_raise
