"""Pots, showdown and payouts (SPEC §5: R-POT-1 … R-POT-6)."""

from __future__ import annotations

import random

import pytest

from croupier.engine.actions import bring_in, call, check, draw, fold, muck, raise_to, show
from croupier.engine.cards import DECK_52
from croupier.engine.errors import IllegalActionError
from croupier.engine.events import (
    CardsMucked,
    CardsShown,
    ChipsReturned,
    HandEnded,
    PotAwarded,
)
from croupier.engine.game import Game
from croupier.engine.settle import build_pots, split
from croupier.engine.state import Phase, apply, legal_actions, start_hand
from tests.engine.kit import ended, events_of, finish_showdown, play, snapshot, start

NL = Game.of("nlhe", blinds=(1, 2))
BOARD = "2c5d9hTs3h"  # no pair, no straight, no flush possible with the holes below
AA, KK, QQ, JJ, EIGHTS = "AsAh", "KsKh", "QsQc", "JsJc", "8s8c"


def account(res: HandEnded) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    return [(p.amount, p.eligible, p.winnings) for p in res.pots]


# -- R-POT-1: side pots -------------------------------------------------------------------


def test_side_pot_above_an_all_in() -> None:
    """R-POT-1: the short all-in wins only the main pot; the side pot goes to the best of the
    others."""
    s, _ = start(NL, (50, 100, 200), [AA, KK, QQ], BOARD)
    s, ev = play(s, raise_to(2, 200), call(0), call(1))
    assert s.is_over
    res = ended(ev)
    assert account(res) == [(150, (0, 1, 2), (150, 0, 0)), (100, (1, 2), (0, 100, 0))]
    assert res.stacks == (150, 100, 100)
    assert res.net == (100, 0, -100)


def test_multiway_all_in_builds_several_side_pots() -> None:
    """R-POT-1: four all-ins of 20, 50, 120, 300: pots of 80, 90 and 140; each contested only
    by those who put chips in it."""
    s, _ = start(NL, (20, 50, 120, 300), [AA, KK, QQ, JJ], BOARD)
    s, ev = play(s, raise_to(2, 120), call(3), call(0), call(1))
    res = ended(ev)
    assert account(res) == [
        (80, (0, 1, 2, 3), (80, 0, 0, 0)),
        (90, (1, 2, 3), (0, 90, 0, 0)),
        (140, (2, 3), (0, 0, 140, 0)),
    ]
    assert res.pots[0].contributions == (20, 20, 20, 20)
    assert res.pots[2].contributions == (0, 0, 70, 70)
    assert res.stacks == (80, 90, 140, 180)


def test_side_pot_winner_when_the_all_in_player_has_the_best_hand_only_in_main() -> None:
    """R-POT-1: the worst hand can still win a side pot it alone contests against worse."""
    s, _ = start(NL, (20, 50, 120), [KK, EIGHTS, QQ], BOARD)
    s, ev = play(s, raise_to(2, 120), call(0), call(1))
    res = ended(ev)
    # main 60: KK; side 60 (p1 and p2): QQ beats 88
    assert res.stacks == (60, 0, 130)


def test_folded_players_chips_stay_in_the_pot_they_were_put_in() -> None:
    """R-POT-1: a folded player's chips feed the pots but they cannot win them."""
    pots = build_pots((50, 100, 100, 30), (False, False, False, True))
    assert [(p.amount, p.eligible) for p in pots] == [(180, (0, 1, 2)), (100, (1, 2))]
    assert pots[0].contributions == (50, 50, 50, 30)


# -- R-POT-2: uncalled chips ------------------------------------------------------------------


def test_uncalled_chips_are_returned_not_won_and_not_raked() -> None:
    """R-POT-2, R-RAKE-2: the uncalled part of a bet goes back to its owner; rake is taken on
    the called pot only; the return is not in any pot's account."""
    from croupier.engine.rules import RakePolicy, profile

    g = Game.of("nlhe", blinds=(50, 100), rules=profile("room", rake=RakePolicy(kind="room")))
    s, _ = start(g, (1000, 5000), [AA, KK], BOARD)
    s, ev = play(s, raise_to(1, 5000), call(0))
    (ret,) = events_of(ev, ChipsReturned)
    assert (ret.player, ret.amount) == (1, 4000)
    res = ended(ev)
    assert sum(p.amount for p in res.pots) == 2000
    assert res.rake == 75  # heads-up cap, on the 2000 pot only
    assert res.stacks == (2000 - 75, 4000)


# -- R-POT-3: ties and odd chips ------------------------------------------------------------


def _tie_board_hand(stacks: tuple[int, ...], holes: list[str], *actions):  # type: ignore[no-untyped-def]
    s, _ = start(NL, stacks, holes, "AhKhQhJhTh")  # a royal flush on board: everyone ties
    s, ev = play(s, *actions)
    while s.phase is not Phase.COMPLETE and s.phase is not Phase.SHOWDOWN:
        s, ev2 = apply(s, check(s.actor))
        ev += ev2
    s, ev3 = finish_showdown(s)
    return s, ev + ev3


def test_tie_splits_the_pot_and_the_odd_chip_goes_left_of_the_button() -> None:
    """R-POT-3: three-way board tie; the folded small blind's chip makes the pot odd; the odd
    chip goes to the tied winner closest to the button's left (position 1 before 2)."""
    _s, ev = _tie_board_hand((100, 100, 100), ["2c3c", "4c5c", "6c7c"], call(2), fold(0), check(1))
    res = ended(ev)
    assert res.pots[0].amount == 5
    assert res.pots[0].winnings == (0, 3, 2)


def test_odd_chips_one_at_a_time_from_the_left_of_the_button() -> None:
    """R-POT-3: 3 tied winners and 2 odd chips: positions 0 and 1 get one each."""
    assert split(8, (2, 0, 1)) == {0: 3, 1: 3, 2: 2}
    assert split(7, (3, 1)) == {1: 4, 3: 3}
    assert split(6, (4, 2, 0)) == {0: 2, 2: 2, 4: 2}


def test_heads_up_odd_chip_goes_to_the_big_blind() -> None:
    """R-POT-3: heads-up the big blind (0) sits left of the button and takes the odd chip."""
    s, ev = _tie_board_hand((100, 100), ["2c3c", "4c5c"], call(1), check(0))
    # pot 4 even: make it odd with a dead chip
    g_res = ended(ev)
    assert g_res.pots[0].winnings == (2, 2)
    s, _ = start(NL, (100, 100), ["2c3c", "4c5c"], "AhKhQhJhTh", dead=(0, 1))
    s, ev = play(s, call(1), check(0), check(0), check(1), check(0), check(1), check(0), check(1))
    s, ev2 = finish_showdown(s)
    assert ended(ev2).pots[0].winnings == (3, 2)


# -- R-POT-5: hi/lo --------------------------------------------------------------------------

O8 = Game.of("plo8", blinds=(1, 2))


def _o8(holes: list[str], board: str, dead: tuple[int, int] = (0, 0)):  # type: ignore[no-untyped-def]
    s, _ = start(O8, (100, 100), holes, board, dead=dead)
    s, ev = play(s, call(1), check(0), *[check(p) for _ in range(3) for p in (0, 1)])
    s, ev2 = finish_showdown(s)
    return s, ev + ev2


def test_hi_lo_halves_with_the_odd_chip_to_the_high() -> None:
    """R-POT-5, R-POT-3: the pot splits high/low; an odd chip goes to the high half."""
    # p0: KK high (set of kings), no low; p1: A2 for the nut low
    _s, ev = _o8(["KsKdQcJc", "As2d9s9d"], "Kc7h4h3cTd", dead=(0, 1))
    res = ended(ev)
    awards = [(a.share, a.amount, a.winners) for a in events_of(ev, PotAwarded)]
    assert awards == [("high", 3, (0,)), ("low", 2, (1,))]
    assert res.stacks == (101, 99)


def test_hi_lo_no_qualifying_low_high_scoops() -> None:
    """R-POT-5, R-RANK-4: no qualifying low (three high board cards): the high takes it all."""
    _s, ev = _o8(["KsKdQcJc", "As2d9s9d"], "Kc7hQhJdTd")
    awards = [(a.share, a.amount, a.winners) for a in events_of(ev, PotAwarded)]
    assert awards == [("whole", 4, (0,))]
    assert ended(ev).stacks == (102, 98)


def test_hi_lo_same_player_scoops_both_halves() -> None:
    """R-POT-5: the same player may win the high and the low."""
    # p1: A-2-3-4-5 wheel: best low and a straight for high
    _s, ev = _o8(["KsKdQcJc", "As2d9s9d"], "3c4h5dJhTd")
    awards = [(a.share, a.amount, a.winners) for a in events_of(ev, PotAwarded)]
    assert awards == [("high", 2, (1,)), ("low", 2, (1,))]
    assert ended(ev).stacks == (98, 102)


def test_hi_lo_low_half_split_is_quartered() -> None:
    """R-POT-5, R-POT-3: two equal lows split the low half; its odd chip goes left of the
    button."""
    g = Game.of("plo8", blinds=(1, 2))
    s, _ = start(g, (100, 100, 100), ["As2dKcKd", "Ac2hQsQd", "9s9dJsJd"], "3c4h7dKhTd")
    s, ev = play(s, call(2), call(0), check(1), *[check(p) for _ in range(3) for p in (0, 1, 2)])
    s, ev2 = finish_showdown(s)
    awards = [(a.share, a.amount, a.winners, a.amounts) for a in events_of(ev + ev2, PotAwarded)]
    # pot 6: high 3 (kings set, p0), low 3 split p0/p1 -> 2/1
    assert awards == [("high", 3, (0,), (3,)), ("low", 3, (0, 1), (2, 1))]


def test_hi_lo_side_pots_are_split_separately() -> None:
    """R-POT-5, R-POT-1: each pot splits between its own eligible players."""
    g = Game.of("plo8", blinds=(1, 2))
    s, _ = start(g, (20, 100, 100), ["As2d9s9d", "KsKdQcJc", "QsQd8c8d"], "Kc7h4h3cTd")
    s, ev = play(s, raise_to(2, 7), raise_to(0, 20), call(1), call(2))
    s, ev2 = play(s, *[check(p) for _ in range(3) for p in (1, 2)])
    s, ev3 = finish_showdown(s)
    res = ended(ev + ev2 + ev3)
    # main 60: high KKK (p1) 30, low A-2-3-4-7 (p0) 30; side pot empty (all matched 20)
    assert account(res)[0] == (60, (0, 1, 2), (30, 30, 0))


# -- R-POT-4: showdown order, showing and mucking ------------------------------------------


def test_showdown_order_last_aggressor_first() -> None:
    """R-POT-4: a bet on the river: the last aggressor shows first."""
    s, _ = start(NL, (100, 100, 100), [KK, QQ, AA], BOARD)
    s, _ = play(s, call(2), call(0), check(1))
    s, _ = play(s, *[check(p) for _ in range(2) for p in (0, 1, 2)])
    s, _ = play(s, check(0), raise_to(1, 10), call(2), call(0))
    assert s.phase is Phase.SHOWDOWN and s.actor == 1
    la = legal_actions(s)
    assert la is not None and la.show_or_muck


def test_showdown_order_first_to_act_when_checked_around() -> None:
    """R-POT-4: no bet on the last round: the first player to act on it shows first."""
    s, _ = start(NL, (100, 100, 100), [KK, QQ, AA], BOARD)
    s, _ = play(s, call(2), fold(0), check(1))
    s, _ = play(s, *[check(p) for _ in range(3) for p in (1, 2)])
    assert s.phase is Phase.SHOWDOWN and s.actor == 1
    s, ev = apply(s, show(1))
    assert s.actor == 2
    s, ev2 = apply(s, show(2))
    assert s.is_over
    shown = [e.player for e in events_of(ev + ev2, CardsShown)]
    assert shown == [1, 2]


def test_a_bet_on_an_earlier_street_does_not_set_the_order() -> None:
    """R-POT-4: the aggressor of the turn does not show first if the river was checked."""
    s, _ = start(NL, (100, 100, 100), [KK, QQ, AA], BOARD)
    s, _ = play(s, call(2), call(0), check(1))
    s, _ = play(s, check(0), check(1), check(2))
    s, _ = play(s, check(0), check(1), raise_to(2, 10), call(0), call(1))
    s, _ = play(s, check(0), check(1), check(2))
    assert s.phase is Phase.SHOWDOWN and s.actor == 0


def test_beaten_hand_may_be_mucked_after_its_turn() -> None:
    """R-POT-4: ordered showdown: the first shows; a beaten hand may muck; the winner is paid."""
    s, _ = start(NL, (100, 100), [AA, KK], BOARD)
    s, _ = play(s, call(1), check(0), *[check(p) for _ in range(3) for p in (0, 1)])
    assert s.actor == 0
    s, _ev = apply(s, show(0))
    assert s.actor == 1
    s, ev2 = apply(s, muck(1))
    assert s.is_over
    assert [e.player for e in events_of(ev2, CardsMucked)] == [1]
    assert ended(ev2).stacks == (102, 98)
    assert s.shown == (True, False) and s.mucked == (False, True)


def test_muck_concedes_even_a_winning_hand() -> None:
    """R-POT-4: a player may muck a hand that would have won; the shown hand takes the pot."""
    s, _ = start(NL, (100, 100), [KK, AA], BOARD)
    s, _ = play(s, call(1), check(0), *[check(p) for _ in range(3) for p in (0, 1)])
    s, _ = apply(s, show(0))
    s, ev = apply(s, muck(1))
    assert ended(ev).stacks == (102, 98)


def test_first_player_mucks_the_other_wins_without_showing() -> None:
    """R-POT-4: when every other hand is mucked, the last hand wins the pot uncontested,
    without being asked to show (it is not forced to show, nor can the pot be refunded)."""
    s, _ = start(NL, (100, 100), [AA, KK], BOARD)
    s, _ = play(s, call(1), check(0), *[check(p) for _ in range(3) for p in (0, 1)])
    assert s.actor == 0
    s, ev = apply(s, muck(0))
    assert s.is_over, "the last unmucked hand wins at once"
    res = ended(ev)
    assert res.stacks == (98, 102)
    assert not events_of(ev, CardsShown)


def test_three_way_two_muck_the_last_wins() -> None:
    """R-POT-4: three-way showdown, the first two muck: the third wins without showing."""
    s, _ = start(NL, (100, 100, 100), [AA, KK, QQ], BOARD)
    s, _ = play(s, call(2), call(0), check(1))
    s, _ = play(s, *[check(p) for _ in range(3) for p in (0, 1, 2)])
    s, _ = play(s, muck(0), muck(1))
    assert s.is_over
    assert s.result is not None and s.result.stacks == (98, 98, 104)


def test_naiko_profile_shows_every_unfolded_hand() -> None:
    """R-POT-4: profile naiko reveals every unfolded hand at showdown, without asking."""
    g = Game.of("nlhe", blinds=(1, 2), rules="naiko")
    s, _ = start(g, (100, 100, 100), [AA, KK, QQ], BOARD)
    s, _ = play(s, call(2), fold(0), check(1))
    s, ev = play(s, *[check(p) for _ in range(3) for p in (1, 2)])
    assert s.is_over
    assert sorted(e.player for e in events_of(ev, CardsShown)) == [1, 2]


def test_all_in_showdown_shows_every_hand() -> None:
    """R-POT-4: an all-in showdown: every hand is turned up without a decision."""
    s, _ = start(NL, (50, 100), [AA, KK], BOARD)
    s, ev = play(s, raise_to(1, 100), call(0))
    assert s.is_over
    assert sorted(e.player for e in events_of(ev, CardsShown)) == [0, 1]


def test_showdown_refuses_betting_actions_and_changes_nothing() -> None:
    """R-BET-8, R-POT-4: at showdown only show or muck; anything else is refused."""
    s, _ = start(NL, (100, 100), [AA, KK], BOARD)
    s, _ = play(s, call(1), check(0), *[check(p) for _ in range(3) for p in (0, 1)])
    before = snapshot(s)
    for action in (check(0), fold(0), raise_to(0, 10), show(1)):
        with pytest.raises(IllegalActionError) as info:
            apply(s, action)
        assert info.value.code in {"show_or_muck_expected", "not_your_turn"}
        assert snapshot(s) == before


def test_uncontested_winner_is_not_asked_to_show() -> None:
    """R-POT-4: winning uncontested needs no showdown (the winner may show by choice via the
    table: the engine does not force it)."""
    s, _ = start(NL, (100, 100), [AA, KK], BOARD)
    s, ev = play(s, raise_to(1, 10), fold(0))
    assert s.is_over and not events_of(ev, CardsShown)


# -- R-POT-6: the exact account ----------------------------------------------------------------


def test_hand_ended_carries_the_exact_account() -> None:
    """R-POT-6: contributors, eligible players, winners, amounts and rake of every pot; the
    stacks + pot is constant during the hand; nets sum to minus the rake."""
    s, _ev0 = start(NL, (30, 100, 100, 100), [AA, KK, QQ, JJ], BOARD)
    total = sum(s.stacks) + s.pot
    s, ev = play(s, raise_to(2, 10), fold(3), raise_to(0, 30), call(1), call(2))
    assert sum(s.stacks) + s.pot == total
    s, ev2 = play(s, raise_to(1, 20), call(2))
    s, ev3 = play(s, check(1), check(2), check(1), check(2))
    s, ev4 = finish_showdown(s)
    res = ended(ev + ev2 + ev3 + ev4)
    assert sum(res.stacks) + res.rake == total
    assert sum(res.net) == -res.rake
    main, side = res.pots
    assert main.contributions == (30, 30, 30, 0) and main.eligible == (0, 1, 2)
    assert main.amount == 90 and sum(main.winnings) + main.rake == main.amount
    assert side.contributions == (0, 20, 20, 0) and side.eligible == (1, 2)
    assert side.winnings == (0, 40, 0, 0)
    assert main.winnings == (90, 0, 0, 0)
    d = res.to_dict()
    assert d["type"] == "hand_ended" and d["pots"][0]["eligible"] == [0, 1, 2]


def test_every_chip_is_accounted_in_some_pot() -> None:
    """R-POT-6: contributions of all pots add up to what each player put in (net of returns)."""
    s, _ = start(NL, (20, 50, 120, 300), [AA, KK, QQ, JJ], BOARD)
    contributed_before = None
    s, ev = play(s, raise_to(2, 120), call(3), call(0), call(1))
    res = ended(ev)
    per_player = [sum(p.contributions[i] for p in res.pots) for i in range(4)]
    assert per_player == [20, 50, 120, 120]
    assert contributed_before is None


def test_dead_money_goes_to_the_main_pot() -> None:
    """R-SEAT-3, R-POT-1: a returning player's dead small blind is not a bet to match: it cuts
    no side pot and goes to the main pot's winner (it is never handed back to its poster)."""
    s, _ev0 = start(NL, (100, 100, 5), [AA, KK, QQ], BOARD, blinds=(1, 2, 2), dead=(0, 0, 1))
    assert s.contributions == (1, 2, 3)
    s, ev = play(s, raise_to(2, 4), call(0), call(1))
    s, ev2 = play(s, *[check(p) for _ in range(3) for p in (0, 1)])
    s, ev3 = finish_showdown(s)
    res = ended(ev + ev2 + ev3)
    assert [(p.amount, p.eligible) for p in res.pots] == [(13, (0, 1, 2))]
    assert res.pots[0].contributions == (4, 4, 5)
    assert res.stacks == (109, 96, 0)


def test_dead_money_in_build_pots() -> None:
    """R-SEAT-3, R-POT-1: build_pots puts dead chips in the main pot."""
    pots = build_pots((5, 10, 11), (False, False, False), dead=(0, 0, 1))
    assert [(p.amount, p.eligible, p.contributions) for p in pots] == [
        (16, (0, 1, 2), (5, 5, 6)),
        (10, (1, 2), (0, 5, 5)),
    ]


def test_unmatched_ante_is_returned_not_won_and_not_raked() -> None:
    """R-POT-2, R-RAKE-2: a player all-in from the ante; the other's ante above it is matched
    by nobody: it comes back as a return (ChipsReturned), in no pot, never raked."""
    from croupier.engine.rules import RakePolicy, profile

    g = Game.of(
        "nlhe", blinds=(50, 100), ante=100, rules=profile("room", rake=RakePolicy(kind="room"))
    )
    s, _ = start(g, (50, 5000), [AA, KK], BOARD)
    assert s.actor == 1 and s.stacks[0] == 0
    s, ev = play(s, call(1))
    assert s.is_over
    returns = [(e.player, e.amount) for e in events_of(ev, ChipsReturned)]
    assert returns == [(1, 100), (1, 50)]  # the uncalled call, then the unmatched ante
    res = ended(ev)
    assert [(p.amount, p.contributions) for p in res.pots] == [(100, (50, 50))]
    assert res.rake == 5  # on the 100 matched: 1 per 20 (not 7 on 150)
    assert res.stacks == (95, 4950)


def test_dead_money_goes_to_the_winner_when_every_bet_came_back() -> None:
    """R-SEAT-3, R-POT-2: no small blind, a dead chip posted, everyone folds to the big
    blind: the blind comes back as uncalled and the dead chip is won by the big blind (it
    is not handed back to the player who folded)."""
    g = Game.of("nlhe", blinds=(0, 1))
    s, _ = start(g, (10, 10, 10, 10), dead=(0, 0, 1, 0))
    s, ev = play(s, fold(2), fold(3), fold(0))
    res = ended(ev)
    assert res.stacks == (10, 11, 9, 10)
    assert [(p.amount, p.eligible, p.winnings) for p in res.pots] == [(1, (1,), (0, 1, 0, 0))]
    assert build_pots((0, 0, 1), (True, False, True), dead=(0, 0, 1))[0].eligible == (1,)


def test_big_blind_ante_goes_to_the_winner() -> None:
    """R-POT-1, R-POT-2: a big-blind ante (one player antes for the table) is dead money of
    the main pot: the winner who covered every live bet takes it (reported from the WSOP
    PHH corpus, docs/phh.md)."""
    from croupier.engine.cards import parse_cards
    from croupier.engine.state import start_hand

    deck = parse_cards("2c 7h As 3d 8d Ad 5s KcQs4h 6s 9c 6d Jd")
    s, _ = start_hand(NL, (1000, 1000, 1000), deck, blinds=(1, 2, 0), antes=(0, 10, 0))
    s, _ = play(s, raise_to(2, 30), fold(0), call(1))
    s, _ = play(s, *[check(p) for _ in range(3) for p in (1, 2)])
    s, ev = finish_showdown(s)
    res = ended(ev)
    assert res.stacks == (999, 960, 1041)
    assert [(p.amount, p.eligible) for p in res.pots] == [(71, (1, 2))]
    assert not events_of(ev, ChipsReturned)


def test_all_in_on_the_ante_wins_only_what_it_matched() -> None:
    """R-POT-1: a player all-in for part of the ante wins from each opponent only what they
    put in: the antes stay layered when someone is all-in on them."""
    g = Game.of("nlhe", blinds=(1, 2), ante=10)
    s, _ = start(g, (4, 100, 100), [AA, KK, QQ], BOARD)
    assert s.stacks[0] == 0
    s, ev = play(s, call(2), check(1))
    s, ev2 = play(s, *[check(p) for _ in range(3) for p in (1, 2)])
    s, ev3 = finish_showdown(s)
    res = ended(ev + ev2 + ev3)
    # p0 is all-in on 4 of its ante: main pot 4 x 3 = 12 to AA; the side pot (2 x 6 of
    # the antes + 2 x 2 of the blinds) to KK
    assert res.pots[0].amount == 12 and res.pots[0].winnings[0] == 12
    assert res.stacks == (12, 104, 88)


@pytest.mark.parametrize("game", ["7stud", "stud8", "razz", "soko", "nlhe", "5cd"])
def test_checked_through_shows_from_the_dealers_left_in_every_game(game: str) -> None:
    """R-POT-4: no bet on the last round: the first player still in the hand to the left
    of the dealer (position 0) shows first, in stud and Soko too (not the best board)."""
    g = Game.of_stakes(game, 2, 4)
    for seed in range(6):
        deck = list(DECK_52)
        random.Random(seed).shuffle(deck)
        s, _ = start_hand(g, (500, 500, 500), deck)
        while s.phase not in (Phase.SHOWDOWN, Phase.COMPLETE):
            lg = legal_actions(s)
            assert lg is not None
            if lg.can_draw:
                s, _ = apply(s, draw(s.actor, ()))
            elif lg.can_bring_in:
                s, _ = apply(s, bring_in(s.actor))
            elif lg.can_check:
                s, _ = apply(s, check(s.actor))
            else:
                s, _ = apply(s, call(s.actor))
        assert s.phase is Phase.SHOWDOWN and s.actor == 0, (game, seed, s.actor)
