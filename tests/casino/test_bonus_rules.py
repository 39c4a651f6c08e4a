"""Texas Hold'em Bonus rules R-BONUS-1 … R-BONUS-5 with fixed decks."""

from __future__ import annotations

import pytest

from croupier.casino.bonus import (
    Bets,
    BonusAction,
    BonusConfig,
    Phase,
    RoundState,
    apply,
    arrange_deck,
    bet,
    check,
    fold,
    legal_actions,
    play,
    shuffled_deck,
    start_round,
    view,
)
from croupier.casino.events import (
    BoardDealt,
    CardBurnt,
    DealerShown,
    HoleDealt,
    Move,
    Outcome,
    RoundEnded,
    RoundStarted,
    SeatResult,
)
from croupier.casino.keys import command_for
from croupier.casino.slip import BetSlip
from croupier.engine.cards import DECK_52, Card, parse_cards
from croupier.engine.errors import ConfigurationError, IllegalActionError
from croupier.engine.rng import SeededShuffler

CFG = BonusConfig()


def p(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def deal(holes: list[str], dealer: str, board: str, bets: list[Bets] | None = None) -> RoundState:
    deck = arrange_deck([p(h) for h in holes], p(dealer), p(board))
    state, _ = start_round(CFG, bets or [Bets(10)] * len(holes), deck)
    return state


def finish(state: RoundState, moves: list[BonusAction]) -> RoundState:
    for m in moves:
        state, _ = apply(state, m)
    return state


def result(state: RoundState, player: int = 0) -> SeatResult:
    assert state.result is not None
    return state.result.results[player]


# -- R-BONUS-1: limits, chips, slip ---------------------------------------------------


def test_ante_under_minimum_is_raised_and_limits_hold() -> None:
    """R-BONUS-1: an ante under the minimum (2) is raised to it; 2..1000 accepted as is."""
    deck = shuffled_deck(SeededShuffler(1))
    s, ev = start_round(CFG, [Bets(1), Bets(2), Bets(1000), Bets(37, 25)], deck)
    assert [seat.ante for seat in s.seats] == [2, 2, 1000, 37]
    started = ev[0]
    assert isinstance(started, RoundStarted)
    assert started.raised == (True, False, False, False)
    assert started.bonuses == (0, 0, 0, 25)


@pytest.mark.parametrize(
    ("bets", "code"),
    [
        (Bets(1001), "ante_too_large"),
        (Bets(0), "ante_required"),
        (Bets(-5), "ante_required"),
        (Bets(10, 26), "bonus_out_of_range"),
        (Bets(10, -1), "bonus_out_of_range"),
        (Bets(2.5), "bad_amount"),  # type: ignore[arg-type]
        (Bets(True), "bad_amount"),
        (Bets(10, "5"), "bad_amount"),  # type: ignore[arg-type]
    ],
)
def test_bets_out_of_range_are_refused(bets: Bets, code: str) -> None:
    """R-BONUS-1: ante 2 to 1000, bonus 1 to 25 (0 = none); anything else is refused."""
    with pytest.raises(IllegalActionError) as err:
        start_round(CFG, [Bets(10), bets], shuffled_deck(SeededShuffler(2)))
    assert err.value.code == code


def test_bad_deck_and_player_count_are_refused() -> None:
    """R-BONUS-1: one 52-card deck; the deck must hold distinct cards and enough of them."""
    deck = shuffled_deck(SeededShuffler(3))
    cases = [
        ([Bets(10)], (*deck[:20], deck[0]), "bad_deck"),
        ([Bets(10)], deck[:11], "bad_deck"),
        ([], deck, "bad_player_count"),
        ([Bets(10)] * 8, deck, "bad_player_count"),
        ([Bets(10)], (*deck[:20], 3), "bad_deck"),
    ]
    for bets, d, code in cases:
        with pytest.raises(IllegalActionError) as err:
            start_round(CFG, bets, d)  # type: ignore[arg-type]
        assert err.value.code == code
    with pytest.raises(ConfigurationError):
        BonusConfig(ante_min=5, ante_max=4)


def test_several_players_share_one_deck() -> None:
    """R-BONUS-1, R-BONUS-2: seven players and the dealer get distinct cards of one deck."""
    deck = shuffled_deck(SeededShuffler(4))
    s, _ = start_round(CFG, [Bets(5)] * 7, deck)
    s = finish(s, [play(i) for i in range(7)] + [check(i) for i in range(7)] * 2)
    seen = [c for seat in s.seats for c in seat.hole] + [*s.dealer, *s.board, *s.burnt]
    assert len(seen) == len(set(seen)) == 7 * 2 + 2 + 5 + 3
    assert set(seen) <= set(DECK_52)


def test_stacks_are_checked() -> None:
    """R-BONUS-1: a player cannot stake more chips than they have."""
    deck = shuffled_deck(SeededShuffler(5))
    with pytest.raises(IllegalActionError) as err:
        start_round(CFG, [Bets(10, 5)], deck, stacks=[14])
    assert err.value.code == "insufficient_chips"
    s, _ = start_round(CFG, [Bets(10, 5)], deck, stacks=[34])
    legal = legal_actions(s)
    assert legal is not None and legal.moves == (Move.FOLD,)  # 19 left, playing costs 20
    with pytest.raises(IllegalActionError) as err:
        apply(s, play(0))
    assert err.value.code == "insufficient_chips"


def test_chip_buttons_clear_and_repeat() -> None:
    """R-BONUS-1: chip buttons 1, 5, 25, 100, 500; "clear bet" and "repeat bet"."""
    slip = BetSlip()
    for chip in (500, 100, 25, 5, 1):
        slip = slip.add(CFG, "ante", chip)
    assert slip.ante == 631
    with pytest.raises(IllegalActionError) as err:
        slip.add(CFG, "ante", 10)
    assert err.value.code == "unknown_chip"
    with pytest.raises(IllegalActionError) as err:
        slip.add(CFG, "ante", 500)  # 1131 > 1000
    assert err.value.code == "ante_too_large"
    with pytest.raises(IllegalActionError) as err:
        BetSlip().repeat()
    assert err.value.code == "no_previous_bet"
    slip = slip.add(CFG, "bonus", 5)
    assert slip.clear().total == 0
    bets, after = slip.deal(CFG)
    assert bets == Bets(631, 5) and after.total == 0
    assert after.repeat() == BetSlip(631, 5, Bets(631, 5))
    with pytest.raises(IllegalActionError) as err:
        BetSlip().add(CFG, "bonus", 5).deal(CFG)
    assert err.value.code == "ante_required"
    with pytest.raises(IllegalActionError) as err:
        BetSlip().add(CFG, "side", 5)  # type: ignore[arg-type]
    assert err.value.code == "unknown_spot"


def test_slip_ante_under_minimum_is_raised_on_deal() -> None:
    """R-BONUS-1: a one-chip ante is raised to the minimum when dealt."""
    bets, slip = BetSlip().add(CFG, "ante", 1).deal(CFG)
    assert bets.ante == 2 and slip.last == Bets(2)


# -- R-BONUS-2: dealing and decisions -------------------------------------------------


def test_deal_order_burns_and_streets() -> None:
    """R-BONUS-2: two hole cards each (players then dealer, one at a time); burn, flop;
    a betting round, burn, turn; a betting round, burn, river."""
    deck = p("2c 3c 4c 5c 6c 7c  8c 9d Td Jd Qd Kd Ad 2s 3s 4s 5s")
    s, ev = start_round(CFG, [Bets(10), Bets(10)], deck)
    assert [seat.hole for seat in s.seats] == [p("2c5c"), p("3c6c")] and s.dealer == p("4c7c")
    assert [e.player for e in ev if isinstance(e, HoleDealt)] == [0, 1, -1]
    s, _ = apply(s, play(0))
    assert s.board == () and s.phase is Phase.PREFLOP
    s, ev = apply(s, play(1))
    assert [type(e) for e in ev[-2:]] == [CardBurnt, BoardDealt]
    assert s.burnt == p("8c") and s.board == p("9dTdJd") and s.phase is Phase.TURN
    s = finish(s, [check(0), bet(1)])
    assert s.burnt == p("8cQd") and s.board == p("9dTdJdKd") and s.phase is Phase.RIVER
    s, ev = apply(s, bet(0))
    s, ev = apply(s, check(1))
    assert s.burnt == p("8cQdAd") and s.board == p("9dTdJdKd2s") and s.is_over
    assert [(x.ante, x.flop, x.turn, x.river) for x in s.seats] == [
        (10, 20, 0, 10),
        (10, 20, 10, 0),
    ]


def test_players_act_in_turn_from_the_dealers_left() -> None:
    """R-BONUS-2: each player in turn, clockwise from the dealer's left (player 0);
    folded players are skipped on the turn and river."""
    s = deal(["AsAh", "KsKh", "QsQh"], "2c3d", "7c8dTh4s9s")
    order = []
    while (legal := legal_actions(s)) is not None:
        order.append((s.phase, legal.player))
        move = {Phase.PREFLOP: fold if legal.player == 1 else play}.get(s.phase, check)
        s, _ = apply(s, move(legal.player))
    assert order == [
        (Phase.PREFLOP, 0), (Phase.PREFLOP, 1), (Phase.PREFLOP, 2),
        (Phase.TURN, 0), (Phase.TURN, 2), (Phase.RIVER, 0), (Phase.RIVER, 2),
    ]  # fmt: skip


def test_play_costs_twice_the_ante_and_bets_once() -> None:
    """R-BONUS-2: the flop bet is 2x the ante; turn and river bets are 1x the ante."""
    s = deal(["AsAh"], "2c3d", "7c8dTh4s9s", [Bets(37, 1)])
    assert legal_actions(s).amount == 74  # type: ignore[union-attr]
    s, _ = apply(s, play(0))
    assert s.seats[0].flop == 74
    assert legal_actions(s).amount == 37  # type: ignore[union-attr]
    s = finish(s, [bet(0), bet(0)])
    assert (s.seats[0].turn, s.seats[0].river, s.seats[0].wagered) == (37, 37, 37 + 1 + 74 + 74)


def test_fold_loses_the_ante_but_the_bonus_is_settled() -> None:
    """R-BONUS-2, R-BONUS-4: a fold loses the ante; the bonus bet is still paid on the
    hole cards (A-A pays 30 to 1)."""
    s = deal(["AsAh", "7c2d"], "KcKd", "3c8dTh4s9s", [Bets(10, 5), Bets(10, 5)])
    s = finish(s, [fold(0), play(1), check(1), check(1)])
    r0, r1 = result(s, 0), result(s, 1)
    assert r0.outcome is Outcome.FOLD and r0.value is None
    assert (r0.ante_net, r0.bonus_line, r0.bonus_net, r0.net) == (-10, "aa", 150, 140)
    assert r1.bonus_line == "lose" and r1.bonus_net == -5


def test_everyone_folds_no_board_and_the_dealer_is_shown() -> None:
    """R-BONUS-2, R-BONUS-4: if every player folds the round ends at once; the dealer's
    cards decide the A-A against A-A bonus line."""
    s = deal(["AsAh"], "AcAd", "3c8dTh4s9s", [Bets(2, 1)])
    s, ev = apply(s, fold(0))
    assert s.is_over and s.board == () and s.burnt == ()
    shown = [e for e in ev if isinstance(e, DealerShown)]
    assert shown and shown[0].cards == p("AcAd") and shown[0].value is None
    r = result(s)
    assert (r.bonus_line, r.bonus_net, r.net) == ("aa_vs_aa", 1000, 998)


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (fold(1), "not_your_turn"),
        (check(0), "move_not_allowed"),
        (bet(0), "move_not_allowed"),
        (BonusAction(0, "raise"), "unknown_action"),  # type: ignore[arg-type]
        ("fold", "unknown_action"),
    ],
)
def test_bad_actions_are_refused_and_change_nothing(action: BonusAction, code: str) -> None:
    """R-BONUS-2: out of turn, unknown or wrong-phase actions are refused with a code."""
    s = deal(["AsAh", "KsKh"], "2c3d", "7c8dTh4s9s")
    before = (s, view(s, 0))
    with pytest.raises(IllegalActionError) as err:
        apply(s, action)
    assert err.value.code == code
    assert (s, view(s, 0)) == before


def test_wrong_phase_and_finished_round_are_refused() -> None:
    """R-BONUS-2: play and fold belong to the pre-flop; nothing is accepted once settled."""
    s = finish(deal(["AsAh"], "2c3d", "7c8dTh4s9s"), [play(0)])
    for action in (play(0), fold(0)):
        with pytest.raises(IllegalActionError) as err:
            apply(s, action)
        assert err.value.code == "move_not_allowed"
    s = finish(s, [check(0), check(0)])
    with pytest.raises(IllegalActionError) as err:
        apply(s, check(0))
    assert err.value.code == "round_over"


# -- R-BONUS-3: settlement ------------------------------------------------------------


def test_dealer_better_every_main_bet_loses() -> None:
    """R-BONUS-3: the dealer's better hand takes ante, flop, turn and river bets."""
    s = finish(deal(["QsJh"], "KcKd", "2c7d9h4s3s", [Bets(10)]), [play(0), bet(0), bet(0)])
    r = result(s)
    assert r.outcome is Outcome.LOSE
    assert (r.ante_net, r.flop_net, r.turn_net, r.river_net, r.net) == (-10, -20, -10, -10, -50)
    assert s.result is not None and s.result.house_net == 50


def test_tie_pushes_every_main_bet_even_with_a_straight() -> None:
    """R-BONUS-3: a tie pushes every main bet (the SPEC decision), a straight included."""
    s = finish(deal(["2c3d"], "2h3s", "9sTdJhQcKs", [Bets(10)]), [play(0), bet(0), bet(0)])
    r = result(s)
    assert r.outcome is Outcome.TIE
    assert (r.ante_net, r.flop_net, r.turn_net, r.river_net, r.net, r.paid) == (0, 0, 0, 0, 0, 50)


def test_player_better_without_a_straight_ante_pushes() -> None:
    """R-BONUS-3: the player wins with three of a kind: flop/turn/river pay 1 to 1, the
    ante pushes."""
    s = finish(deal(["9s9h"], "AcKd", "9c2d5h7sJc", [Bets(10)]), [play(0), bet(0), check(0)])
    r = result(s)
    assert r.outcome is Outcome.WIN
    assert (r.ante_net, r.flop_net, r.turn_net, r.river_net, r.net) == (0, 20, 10, 0, 30)


@pytest.mark.parametrize("hole", ["6s8h", "Ks3s"])  # a straight, a flush
def test_player_better_with_a_straight_or_better_ante_pays(hole: str) -> None:
    """R-BONUS-3: with a straight or better the winning ante pays 1 to 1 too."""
    s = finish(deal([hole], "AcAd", "4s5d7sQs2h", [Bets(10)]), [play(0), check(0), bet(0)])
    r = result(s)
    assert r.outcome is Outcome.WIN
    assert (r.ante_net, r.flop_net, r.turn_net, r.river_net, r.net) == (10, 20, 0, 10, 40)


def test_hands_rank_best_five_of_seven() -> None:
    """R-BONUS-3: both hands play their best five of seven cards (the board can play)."""
    # the board's flush beats both hole pairs: the dealer's Ah makes an ace-high flush
    s = finish(deal(["KsKc"], "Ah2c", "3h7h9hJh4d"), [play(0), check(0), check(0)])
    assert result(s).outcome is Outcome.LOSE


# -- R-BONUS-4: the bonus pay table ---------------------------------------------------


@pytest.mark.parametrize(
    ("hole", "dealer", "line", "pays"),
    [
        ("AsAh", "AcAd", "aa_vs_aa", 1000),
        ("AsAh", "AcKd", "aa", 30),
        ("AhKh", "2c3d", "ak_suited", 25),
        ("QdAd", "2c3d", "aq_aj_suited", 20),
        ("AcJc", "2h3d", "aq_aj_suited", 20),
        ("AsKd", "2c3d", "ak_offsuit", 15),
        ("KsKd", "2c3d", "kk_qq_jj", 10),
        ("QsQd", "2c3d", "kk_qq_jj", 10),
        ("JsJd", "2c3d", "kk_qq_jj", 10),
        ("AsQd", "2c3d", "aq_aj_offsuit", 5),
        ("JhAd", "2c3d", "aq_aj_offsuit", 5),
        ("TsTd", "2c3c", "pair_2_10", 3),
        ("2s2d", "3c4c", "pair_2_10", 3),
        ("KsQs", "2c3d", "lose", -1),
        ("AsTs", "2c3d", "lose", -1),
        ("As9d", "2c3d", "lose", -1),
        ("7c2d", "AsAh", "lose", -1),
    ],
)
def test_bonus_pay_table(hole: str, dealer: str, line: str, pays: int) -> None:
    """R-BONUS-4: every line of the bonus table, settled on the hole cards, win or lose
    the main game."""
    s = deal([hole], dealer, "2h4d6s8h9c" if "2h" not in dealer else "5h4h6s8h9c", [Bets(2, 7)])
    s = finish(s, [play(0), check(0), check(0)])
    r = result(s)
    assert (r.bonus_line, r.bonus_net) == (line, 7 * pays)
    main = r.ante_net + r.flop_net + r.turn_net + r.river_net
    assert r.net == main + 7 * pays


def test_no_bonus_bet_no_bonus_settlement() -> None:
    """R-BONUS-4: without a bonus bet the hole cards pay nothing extra."""
    s = finish(deal(["AsAh"], "AcAd", "2h4d6s8h9c"), [fold(0)])
    assert (result(s).bonus_line, result(s).bonus_net, result(s).net) == ("", 0, -10)


# -- R-BONUS-5: keyboard ---------------------------------------------------------------


def test_keyboard() -> None:
    """R-BONUS-5: Enter deals or bets, Delete or "." clears, 0 repeats, "-" folds
    pre-flop or checks later."""
    assert command_for("enter", None) == "deal"
    assert command_for("", None) == "deal"  # a bare Enter on a terminal line
    assert command_for("enter", Phase.PREFLOP) == "play"
    assert command_for("enter", Phase.TURN) == "bet"
    assert command_for("enter", Phase.RIVER) == "bet"
    assert command_for("delete", None) == command_for(".", None) == "clear"
    assert command_for("0", None) == "repeat"
    assert command_for("-", Phase.PREFLOP) == "fold"
    assert command_for("-", Phase.TURN) == command_for("-", Phase.RIVER) == "check"
    assert command_for("0", Phase.PREFLOP) is None and command_for("-", None) is None
    assert command_for(".", Phase.TURN) is None


# -- clients ----------------------------------------------------------------------------


def test_view_hides_the_dealer_and_other_players_until_settled() -> None:
    """R-BONUS-2: the dealer's hole cards stay hidden until the showdown."""
    s = deal(["AsAh", "KsKh"], "2c3d", "7c8dTh4s9s")
    v = view(s, 1)
    assert v["dealer"] is None and v["seats"][0]["hole"] is None
    assert v["seats"][1]["hole"] == "KsKh"
    s = finish(s, [play(0), play(1), check(0), check(1), check(0), check(1)])
    v = view(s, None)
    assert v["dealer"] == "2c3d" and v["seats"][0]["hole"] == "AsAh"
    assert v["result"]["type"] == "round_ended"
    assert isinstance(s.result, RoundEnded)
