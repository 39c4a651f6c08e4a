"""Betting rounds: short all-ins, calls for less, refusals, under-raises, round ends
(SPEC §3: R-BET-6 … R-BET-10, R-BET-8)."""

from __future__ import annotations

import pytest

from croupier.engine.actions import (
    Action,
    ActionKind,
    bring_in,
    call,
    check,
    draw,
    fold,
    muck,
    raise_to,
    show,
)
from croupier.engine.errors import IllegalActionError
from croupier.engine.events import Acted, BoardDealt, ChipsReturned, HandEnded, StreetStarted
from croupier.engine.game import Game
from croupier.engine.rules import profile
from croupier.engine.state import HandState, Phase, apply, legal_actions
from tests.engine.kit import ended, events_of, play, snapshot, start

NL = Game.of("nlhe", blinds=(5, 10))
STRICT = Game.of("nlhe", blinds=(5, 10), rules=profile("room", under_raise="strict"))


def legal(s: HandState):  # type: ignore[no-untyped-def]
    la = legal_actions(s)
    assert la is not None
    return la


# -- R-BET-6: a short all-in does not reopen the betting --------------------------------


def test_short_all_in_does_not_reopen_for_players_who_acted() -> None:
    """R-BET-6: bet 100, short all-in to 150: the bettor may only call or fold."""
    s, _ = start(NL, (1000, 1000, 150))
    s, _ = play(s, call(2), call(0), check(1))  # pot 30, each has 10 in
    s, _ = play(s, raise_to(0, 100), call(1), raise_to(2, 140))  # p2 all-in: 140 of 150 left
    assert s.stacks[2] == 0
    la = legal(s)
    assert la.player == 0
    assert la.can_call and la.call == 40 and la.can_fold
    assert not la.can_raise
    with pytest.raises(IllegalActionError) as info:
        play(s, raise_to(0, 300))
    assert info.value.code == "raise_not_allowed"
    s, _ = play(s, call(0))
    la = legal(s)
    assert la.player == 1 and not la.can_raise and la.call == 40


def test_short_all_in_leaves_raising_open_for_players_yet_to_act() -> None:
    """R-BET-6: a player who has not acted on the full bet may still raise (at least a full
    raise above the all-in: the last full raise is still the increment)."""
    s, _ = start(NL, (1000, 1000, 1000, 150))
    s, _ = play(s, call(2), call(3), call(0), check(1))
    s, _ = play(s, raise_to(0, 100), raise_to(1, 200))  # full raise by 100
    s, _ = play(s, fold(2), call(3))  # all-in for less than the call
    assert s.stacks[3] == 0
    la = legal(s)
    assert la.player == 0
    # p0 acted on 100, faces a full raise to 200: the betting is open for p0
    assert la.can_raise and la.min_raise == 300


def test_cumulative_short_raises_reopen_the_betting() -> None:
    """R-BET-6: two short all-ins that add up to a full raise reopen the betting."""
    s, _ = start(NL, (1000, 1000, 160, 210))
    s, _ = play(s, call(2), call(3), call(0), check(1))  # each 10 in
    s, _ = play(s, raise_to(0, 100), call(1))
    s, _ = play(s, raise_to(2, 150))  # all-in, +50: short
    s, _ = play(s, raise_to(3, 200))  # all-in, +50: short, but 200 - 100 = a full raise
    la = legal(s)
    assert la.player == 0
    assert la.can_raise and la.min_raise == 300 and la.call == 100


def test_short_all_ins_that_do_not_add_up_keep_it_closed() -> None:
    """R-BET-6: two short all-ins adding up to less than a full raise keep it closed."""
    s, _ = start(NL, (1000, 1000, 140, 190))
    s, _ = play(s, call(2), call(3), call(0), check(1))
    s, _ = play(s, raise_to(0, 100), call(1))
    s, _ = play(s, raise_to(2, 130), raise_to(3, 180))
    la = legal(s)
    assert la.player == 0 and not la.can_raise and la.call == 80


def test_short_all_in_sets_the_call_and_the_next_minimum() -> None:
    """R-BET-6, R-BET-1: after bet 100 and a short all-in to 150, the next full raise is to
    250 (the all-in plus the last full raise)."""
    s, _ = start(NL, (1000, 150, 1000))
    s, _ = play(s, call(2), call(0), check(1))
    s, _ = play(s, raise_to(0, 100), raise_to(1, 140))
    la = legal(s)
    assert la.player == 2 and la.call == 140 and la.min_raise == 240


def test_short_all_in_in_pot_limit_keeps_pot_bound() -> None:
    """R-BET-6, R-BET-2: in pot limit the reopened max is computed on the whole pot."""
    g = Game.of("plo", blinds=(5, 10))
    s, _ = start(g, (1000, 1000, 1000, 25))
    # UTG p2 raises pot: 10 + (15 + 10) = 35
    assert legal(s).max_raise == 35
    s, _ = play(s, raise_to(2, 35), call(3))  # p3: a call all-in for less
    la = legal(s)
    assert la.player == 0 and la.call == 30 and la.can_raise


# -- R-BET-7: a player who cannot cover the call ------------------------------------------


def test_player_who_cannot_cover_may_only_call_all_in_or_fold() -> None:
    """R-BET-7: facing more than the stack: fold or call all-in; no raise offered."""
    s, _ = start(NL, (1000, 60, 1000))
    s, _ = play(s, raise_to(2, 100), fold(0))
    la = legal(s)
    assert la.player == 1
    assert la.can_fold and la.can_call and la.call == 50
    assert not la.can_raise and la.max_raise == 0 and not la.can_check
    with pytest.raises(IllegalActionError):
        play(s, raise_to(1, 60))
    _s2, ev = play(s, call(1))
    (acted,) = [e for e in events_of(ev, Acted) if e.player == 1]
    assert acted.added == 50 and acted.all_in
    # uncalled 40 chips of the raiser are returned (R-POT-2)
    (ret,) = events_of(ev, ChipsReturned)
    assert (ret.player, ret.amount) == (2, 40)


def test_call_for_less_with_the_last_chips_is_offered_as_call() -> None:
    """R-BET-7: a short stack's call is an all-in for what is left (LegalActions.call)."""
    s, _ = start(NL, (1000, 1000, 7))
    la = legal(s)
    assert la.player == 2 and la.call == 7 and la.min_raise == la.max_raise == 0
    s, _ev = play(s, call(2))
    assert s.stacks[2] == 0


# -- R-BET-8: refusals change nothing -----------------------------------------------------


def _bad_actions(s: HandState) -> list[tuple[Action, str]]:
    p = s.actor
    other = (p + 1) % s.n
    return [
        (call(other), "not_your_turn"),
        (fold(p), "fold_when_check"),
        (call(p), "nothing_to_call"),
        (raise_to(p, 1), "raise_too_small"),
        (raise_to(p, 10**6), "raise_too_large"),
        (draw(p, ()), "not_a_betting_action"),
        (show(p), "not_a_betting_action"),
        (muck(p), "not_a_betting_action"),
        (bring_in(p), "bring_in_not_allowed|not_a_betting_action"),
        (Action(ActionKind.RAISE, p, 12.5), "bad_amount"),  # type: ignore[arg-type]
        (Action(ActionKind.RAISE, p, True), "bad_amount"),
        ("check", "malformed_action"),  # type: ignore[list-item]
    ]


def test_illegal_actions_are_refused_with_a_code_and_change_nothing() -> None:
    """R-BET-8: every refusal raises IllegalActionError with its code; the state object is
    unchanged (deep snapshot before/after)."""
    s, _ = start(STRICT, (1000, 1000, 1000))
    s, _ = play(s, call(2), call(0), check(1))
    before = snapshot(s)
    for action, code in _bad_actions(s):
        with pytest.raises(IllegalActionError) as info:
            apply(s, action)  # type: ignore[arg-type]
        assert info.value.code in code.split("|"), (action, info.value)
        assert isinstance(info.value, ValueError) and str(info.value)
        assert snapshot(s) == before, action
    # facing a bet
    s2, _ = play(s, raise_to(0, 50))
    before = snapshot(s2)
    for action, code in [
        (check(1), "check_facing_bet"),
        (raise_to(1, 60), "raise_too_small"),
        (raise_to(1, 2000), "raise_too_large"),
        (check(0), "not_your_turn"),
    ]:
        with pytest.raises(IllegalActionError) as info:
            apply(s2, action)
        assert info.value.code == code
        assert snapshot(s2) == before


def test_actions_after_the_hand_are_refused() -> None:
    """R-BET-8, R-BET-10: once the hand is over, every action is refused with hand_over."""
    s, _ = start(NL, (1000, 1000))
    s, _ = play(s, fold(1))
    assert s.is_over and legal_actions(s) is None
    before = snapshot(s)
    with pytest.raises(IllegalActionError) as info:
        apply(s, check(0))
    assert info.value.code == "hand_over"
    assert snapshot(s) == before


def test_apply_never_mutates_its_input() -> None:
    """R-BET-8: apply is pure: the state given is unchanged after a legal action too."""
    s, _ = start(NL, (1000, 1000, 1000))
    before = snapshot(s)
    s2, _ = apply(s, raise_to(2, 30))
    assert snapshot(s) == before
    assert s2 is not s and s2.bets != s.bets


# -- R-BET-9: under-raises -------------------------------------------------------------------


def test_under_raise_is_refused_by_naiko_and_arcade_and_counted_by_room() -> None:
    """R-BET-9: `naiko` and `arcade` strict: an amount between the call and the minimum is
    refused; `room` (holdem-rules) counts it: below half the increment a call, else the
    minimum raise; the legal actions say where the two ranges are."""
    for name in ("naiko", "arcade"):
        g = Game.of("nlhe", blinds=(5, 10), rules=name)
        s, _ = start(g, (1000, 1000, 1000))
        with pytest.raises(IllegalActionError) as info:
            apply(s, raise_to(2, 15))
        assert info.value.code == "raise_too_small"
        legal = legal_actions(s)
        assert legal is not None and (legal.call_above, legal.round_up_from) == (0, 0)
    s, _ = start(Game.of("nlhe", blinds=(5, 10), rules="room"), (1000, 1000, 1000))
    legal = legal_actions(s)
    assert legal is not None and (legal.call_above, legal.round_up_from, legal.min_raise) == (
        10,
        15,
        20,
    )
    _, ev = apply(s, raise_to(2, 14))
    assert events_of(ev, Acted)[0].action is ActionKind.CALL
    _, ev = apply(s, raise_to(2, 15))
    assert events_of(ev, Acted)[0].amount == 20


TDA = Game.of("nlhe", blinds=(5, 10), rules=profile("room", under_raise="tda_half_raise"))


def test_tda_half_raise_below_half_is_a_call() -> None:
    """R-BET-9 tda_half_raise: bet 100, raise to 140 (40 < half of 100): a call of 100."""
    s, _ = start(TDA, (1000, 1000, 1000))
    s, _ = play(s, call(2), call(0), check(1), raise_to(0, 100))
    s2, ev = apply(s, raise_to(1, 149))
    (acted,) = events_of(ev, Acted)
    assert acted.action is ActionKind.CALL and acted.added == 100 and acted.amount == 100
    assert s2.current_bet == 100 and s2.bets[1] == 100


def test_tda_half_raise_half_or_more_is_the_minimum_raise() -> None:
    """R-BET-9 tda_half_raise: bet 100, raise to 150 (exactly half): raised to 200."""
    s, _ = start(TDA, (1000, 1000, 1000))
    s, _ = play(s, call(2), call(0), check(1), raise_to(0, 100))
    for amount in (150, 199):
        s2, ev = apply(s, raise_to(1, amount))
        (acted,) = events_of(ev, Acted)
        assert acted.action is ActionKind.RAISE and acted.amount == 200
        assert s2.current_bet == 200 and s2.bets[1] == 200


def test_tda_half_raise_uses_the_true_minimum_increment_for_short_stacks() -> None:
    """R-BET-9 tda_half_raise: the half is taken of the minimum raise increment (100), also
    for a player who cannot afford a full raise: with 160 behind, 'raise to 140' (+40) is
    a call, 'raise to 150' (+50) is raised to the most they can: all-in 160.

    Decision (the spec is silent on short stacks): the threshold does not shrink with
    the stack; a player who meant a small raise is never pushed all-in for it.
    """
    s, _ = start(TDA, (1000, 170, 1000))
    s, _ = play(s, call(2), call(0), check(1), raise_to(0, 100))
    _s2, ev = apply(s, raise_to(1, 140))
    (acted,) = events_of(ev, Acted)
    assert acted.action is ActionKind.CALL and acted.added == 100
    _s3, ev = apply(s, raise_to(1, 150))
    (acted,) = events_of(ev, Acted)
    assert acted.action is ActionKind.RAISE and acted.amount == 160 and acted.all_in


def test_tda_half_raise_does_not_soften_other_refusals() -> None:
    """R-BET-9: a raise above the maximum is still refused under tda_half_raise."""
    s, _ = start(TDA, (1000, 1000, 1000))
    with pytest.raises(IllegalActionError) as info:
        apply(s, raise_to(2, 5000))
    assert info.value.code == "raise_too_large"


def test_tda_undersized_opening_bet_is_a_check_or_the_minimum() -> None:
    """R-BET-9 tda_half_raise: with nothing to call, a bet below half the minimum bet is a
    check (not a 'call' of nothing), half or more is the minimum bet."""
    g = Game.of("nlhe", blinds=(5, 10), rules=profile("room", under_raise="tda_half_raise"))
    s, _ = start(g, (1000, 1000))
    s, _ = play(s, call(1), check(0))
    _s2, ev = apply(s, raise_to(0, 4))
    (acted,) = events_of(ev, Acted)
    assert acted.action is ActionKind.CHECK and acted.added == 0
    _s3, ev = apply(s, raise_to(0, 5))
    (acted,) = events_of(ev, Acted)
    assert acted.action is ActionKind.RAISE and acted.amount == 10


# -- R-BET-10: round ends, run-outs, uncontested wins ----------------------------------------


def test_round_ends_when_everyone_matched_and_acted() -> None:
    """R-BET-10: the flop comes only once every player able to act has acted and matched."""
    s, _ = start(NL, (1000, 1000, 1000))
    s, _ = play(s, raise_to(2, 30), call(0))
    assert s.street == 0 and s.actor == 1  # the big blind has not matched yet
    s, ev = play(s, call(1))
    assert s.street == 1
    assert [e.street for e in events_of(ev, StreetStarted)] == [1]


def test_all_in_players_do_not_need_to_match() -> None:
    """R-BET-10: a player all-in for less does not stop the round from ending."""
    s, _ = start(NL, (1000, 1000, 30))
    s, _ = play(s, raise_to(2, 30), raise_to(0, 100), call(1))
    assert s.street == 1 and s.actor == 0


def test_run_out_when_at_most_one_player_can_act() -> None:
    """R-BET-10: all-in and called pre-flop: the five board cards are dealt without betting,
    then the showdown settles the hand."""
    s, _ev = start(NL, (1000, 1000, 100), ["AsAh", "KsKh", "QsQh"], "2c7d9hJd3s")
    s, ev2 = play(s, raise_to(2, 100), fold(0), call(1))
    assert s.is_over
    boards = [e.cards for e in events_of(ev2, BoardDealt)]
    assert sum(len(b) for b in boards) == 5
    assert [e.street for e in events_of(ev2, StreetStarted)] == [1, 2, 3]
    assert len(events_of(ev2, Acted)) == 3  # only the three pre-flop actions
    assert ended(ev2).stacks == (995, 1105, 0)  # kings beat queens


def test_run_out_with_one_player_able_to_act_and_no_bet_pending() -> None:
    """R-BET-10: one player still has chips, nobody can answer a bet: no more betting."""
    s, _ = start(NL, (1000, 100), ["AsAh", "KsKh"], "2c7d9hJd3s")
    s, _ = play(s, raise_to(1, 100))
    assert legal(s).player == 0
    s, _ev = play(s, call(0))
    assert s.is_over and legal_actions(s) is None


def test_bet_pending_must_still_be_answered_by_the_last_player_able_to_act() -> None:
    """R-BET-10: a player facing an all-in must act even if nobody else can."""
    s, _ = start(NL, (1000, 100))
    s, _ = play(s, call(1), check(0))
    s, _ = play(s, check(0), raise_to(1, 90))
    la = legal(s)
    assert la.player == 0 and la.call == 90 and not la.can_raise


def test_hand_ends_at_once_when_one_player_is_left() -> None:
    """R-BET-10: everyone folds: the last player wins at once, no card more is dealt."""
    s, _ = start(NL, (1000, 1000, 1000))
    s, ev = play(s, raise_to(2, 30), fold(0), fold(1))
    assert s.is_over and s.phase is Phase.COMPLETE
    assert not events_of(ev, BoardDealt) and s.board == ()
    res: HandEnded = ended(ev)
    assert res.stacks == (995, 990, 1015)
    assert res.net == (-5, -10, 15)
    (ret,) = events_of(ev, ChipsReturned)
    assert (ret.player, ret.amount) == (2, 20)


def test_hand_ends_on_a_fold_after_the_flop() -> None:
    """R-BET-10: a fold on the turn ends the hand; no river is dealt."""
    s, _ = start(NL, (1000, 1000))
    s, _ = play(s, call(1), check(0), check(0), check(1))
    s, ev = play(s, raise_to(0, 20), fold(1))
    assert s.is_over and len(s.board) == 4
    assert ended(ev).stacks == (1010, 990)
