"""Stud games: bring-in, best showing hand, open pair, community card, Soko, hi/lo chips."""

from __future__ import annotations

import pytest

from croupier.engine.actions import bring_in, call, check, fold, raise_to
from croupier.engine.cards import DECK_52
from croupier.engine.errors import IllegalActionError
from croupier.engine.events import BoardDealt, PotAwarded, StreetStarted
from croupier.engine.game import Game
from croupier.engine.rules import RakePolicy, profile
from croupier.engine.state import Phase, legal_actions, start_hand
from tests.variants.kit import play, showdown, stud_deck


def stud(name: str = "7stud", **kw: object) -> Game:
    return Game.of(name, ante=1, bring_in=2, bets=(5, 10), **kw)  # type: ignore[arg-type]


def test_lowest_up_card_brings_in_with_suit_order_for_ties() -> None:
    """R-POS-5, R-RANK-7: the lowest up card brings in; equal ranks by suit, clubs lowest."""
    holes = ["AsKs4h", "AhKh4c", "AdKdKc"]
    s, _ = start_hand(stud(), (100, 100, 100), stud_deck(holes))
    assert s.actor == 1
    holes = ["AsKs4s", "AhKh4d", "AdKdKc"]
    s, _ = start_hand(stud(), (100, 100, 100), stud_deck(holes))
    assert s.actor == 1
    holes = ["AsKs9s", "AhKh4d", "AdKd2s"]
    s, _ = start_hand(stud(), (100, 100, 100), stud_deck(holes))
    assert s.actor == 2


def test_razz_highest_up_card_brings_in_ace_low_and_spades_highest() -> None:
    """R-POS-5, R-RANK-7 (razz, PokerKit's convention): the highest up card brings in, the
    ace counts low, and of equal ranks the spade brings in."""
    holes = ["2s3sKc", "2h3hKs", "2d3dAd"]
    s, _ = start_hand(stud("razz"), (100, 100, 100), stud_deck(holes))
    assert s.actor == 1
    holes = ["2s3sAc", "2h3h5s", "2d3d4d"]
    s, _ = start_hand(stud("razz"), (100, 100, 100), stud_deck(holes))
    assert s.actor == 1


def test_bring_in_player_brings_in_or_completes_and_may_not_fold() -> None:
    """R-POS-5: the bring-in player posts the bring-in or completes to the small bet."""
    s, _ = start_hand(stud(), (100, 100, 100), stud_deck(["AsKs4h", "AhKh9c", "AdKdKc"]))
    la = legal_actions(s)
    assert la is not None and la.can_bring_in and la.bring_in == 2
    assert not la.can_fold and not la.can_check and not la.can_call
    assert (la.min_raise, la.max_raise) == (5, 5)
    before = (s.stacks, s.bets, s.actor)
    with pytest.raises(IllegalActionError) as err:
        play(s, fold(0))
    assert err.value.code == "bring_in_expected"
    assert (s.stacks, s.bets, s.actor) == before
    done, _ = play(s, raise_to(0, 5))
    assert done.bets == (5, 0, 0) and done.actor == 1


def test_completion_reopens_the_betting_and_caps_at_three_raises() -> None:
    """R-BET-4: after the bring-in the first full bet completes to the small bet; then at
    most three raises; the bring-in player may raise the completion."""
    s, _ = start_hand(stud(), (200, 200, 200), stud_deck(["AsKs4h", "AhKh9c", "AdKdKc"]))
    s, _ = play(s, bring_in(0))
    la = legal_actions(s)
    assert la is not None and la.call == 2 and (la.min_raise, la.max_raise) == (5, 5)
    with pytest.raises(IllegalActionError) as err:
        play(s, bring_in(1))
    assert err.value.code == "bring_in_not_allowed"
    s, _ = play(s, call(1), raise_to(2, 5))
    la = legal_actions(s)
    assert la is not None and la.player == 0 and la.call == 3 and la.min_raise == 10
    s, _ = play(s, raise_to(0, 10), raise_to(1, 15), raise_to(2, 20))
    la = legal_actions(s)
    assert la is not None and la.player == 0 and la.can_call and not la.can_raise


def test_best_showing_hand_acts_first_on_fourth_street_ties_to_first_position() -> None:
    """R-POS-5: on later streets the best showing hand acts first; a pair beats ace high;
    equal showing hands: the first in position order."""
    holes = ["2s3s4h7c", "2h3hAhKd", "2d3d9s9d"]
    s, _ = start_hand(stud(), (100, 100, 100), stud_deck(holes))
    s, _ = play(s, bring_in(0), call(1), call(2))
    assert s.street == 1 and s.actor == 2
    holes = ["2s3s4h8c", "2h3hAhKd", "2d3dAsKc"]
    s, _ = start_hand(stud(), (100, 100, 100), stud_deck(holes))
    s, _ = play(s, bring_in(0), call(1), call(2))
    assert s.actor == 1


def test_razz_lowest_showing_hand_acts_first() -> None:
    """R-POS-5 (razz): the lowest showing hand acts first (ace low, pairs are bad)."""
    holes = ["KsQsKh4c", "KdQdAh2d", "JcJd3s3d"]
    s, _ = start_hand(stud("razz"), (100, 100, 100), stud_deck(holes))
    assert s.actor == 0  # king brings in
    s, _ = play(s, bring_in(0), call(1), call(2))
    assert s.actor == 1


def test_open_pair_on_fourth_street_allows_the_big_bet() -> None:
    """R-BET-4: 7-Card Stud, an open pair on fourth street allows the big bet; once it
    is made, raises are big bets. Without an open pair only the small bet."""
    paired = ["2s3s9h9c", "2h3hAhKd", "2d3dQsJd"]
    s, _ = start_hand(stud(), (200, 200, 200), stud_deck(paired))
    s, _ = play(s, bring_in(0), call(1), call(2))
    la = legal_actions(s)
    assert la is not None and la.player == 0 and (la.min_raise, la.max_raise) == (5, 10)
    s, _ = play(s, raise_to(0, 10))
    la = legal_actions(s)
    assert la is not None and (la.min_raise, la.max_raise) == (20, 20)
    plain = ["2s3s9h8c", "2h3hAhKd", "2d3dQsJd"]
    s, _ = start_hand(stud(), (200, 200, 200), stud_deck(plain))
    s, _ = play(s, bring_in(0), call(1), call(2))
    la = legal_actions(s)
    assert la is not None and (la.min_raise, la.max_raise) == (5, 5)
    s, _ = start_hand(stud("stud8"), (200, 200, 200), stud_deck(paired))
    s, _ = play(s, bring_in(0), call(1), call(2))
    la = legal_actions(s)
    assert la is not None and (la.min_raise, la.max_raise) == (5, 5)  # 7-Stud only


def test_community_card_when_the_deck_runs_short_on_seventh_street() -> None:
    """SPEC §7 (7-Card Stud), R-CARD-4: eight players to seventh street need more cards
    than are left: one community card is turned up for all and nobody bets on it."""
    game = stud()
    s, _ = start_hand(game, (100,) * 8, DECK_52)
    s, _ = play(s, bring_in(s.actor), *[call((s.actor + i) % 8) for i in range(1, 8)])
    for _ in range(2):  # fourth and fifth streets: everyone checks
        s, _ = play(s, *[check((s.actor + i) % 8) for i in range(8)])
    s, events = play(s, *[check((s.actor + i) % 8) for i in range(8)])  # sixth street
    assert s.phase is Phase.SHOWDOWN and s.street == 4
    assert len(s.board) == 1 and all(len(h) == 6 for h in s.hole_cards)
    assert next(e for e in events if isinstance(e, BoardDealt)).cards == s.board
    assert not [e for e in events if isinstance(e, StreetStarted) and e.name == "seventh"][1:]
    s, _ = showdown(s)
    assert s.result is not None and sum(s.stacks) == 800
    used = [c for h in s.hole_cards for c in h] + list(s.board) + list(s.burnt)
    assert len(set(used)) == len(used) == 52


def test_soko_deals_one_down_one_up_then_three_up_with_four_rounds() -> None:
    """SPEC §7 (Soko): 1 down + 1 up, three more up cards, four betting rounds, ante and
    bring-in, standard high ranking of five cards."""
    game = stud("soko")
    holes = ["2s4h5c6c7c", "AhKhAsKd9d"]
    s, _ = start_hand(game, (100, 100), stud_deck(holes, first=2))
    assert [len(h) for h in s.hole_cards] == [2, 2] and s.up_flags[0] == (False, True)
    assert s.actor == 0  # the 4h brings in
    s, _ = play(s, bring_in(0), call(1))
    rounds = 1
    while s.phase is Phase.BETTING:
        s, _ = play(s, check(s.actor), check(1 - s.actor))
        rounds += 1
    assert rounds == 4 and all(len(h) == 5 for h in s.hole_cards)
    assert all(u == (False, True, True, True, True) for u in s.up_flags)
    s, _ = showdown(s)
    assert s.result is not None and s.stacks == (97, 103)  # two pair beats a four-flush


def test_stud_no_drop_before_fourth_street_and_soko_before_third_card() -> None:
    """R-RAKE-2: no rake in 7-Stud if the hand ends before the fourth card, in Soko before
    the third; rake once that street is dealt."""
    rules = profile("room", rake=RakePolicy(kind="room"))
    for name, first in (("7stud", 3), ("soko", 2)):
        game = Game.of(name, ante=10, bring_in=20, bets=(50, 100), rules=rules)
        deck = stud_deck(["AsKs4h5h", "AhKh9c9s", "AdKdKcQh"], first=first)
        s, _ = start_hand(game, (1000,) * 3, deck)
        s, _ = play(s, raise_to(s.actor, 50), fold((s.actor + 1) % 3), fold((s.actor + 2) % 3))
        assert s.result is not None and s.result.rake == 0
        s, _ = start_hand(game, (1000,) * 3, deck)
        a = s.actor
        s, _ = play(s, raise_to(a, 50), call((a + 1) % 3), call((a + 2) % 3))
        assert s.street == 1
        s, _ = play(s, raise_to(s.actor, 50), fold((s.actor + 1) % 3), fold((s.actor + 2) % 3))
        assert s.result is not None and s.result.rake > 0


def test_stud_hi_lo_odd_chip_goes_to_the_high_hand() -> None:
    """R-POT-3, R-POT-5, R-RANK-4: a pot split between high and low gives its odd chip to
    the high hand; without a qualifying low the high hand takes it all."""
    game = Game.of("stud8", ante=1, bring_in=1, bets=(2, 4))
    for low_hand, expected in (
        ("Ac2d8h3h4h6c7d", {("high", (0,), 3), ("low", (2,), 2)}),
        ("Ac2d8h9h4hTcJd", {("whole", (0,), 5)}),
    ):
        holes = ["KsKhKdQsQhJc2c", "9s9d9c", low_hand]  # player 1 folds on third street
        s, _ = start_hand(game, (50, 50, 50), stud_deck(holes))
        assert s.actor == 2  # the 8h is the lowest up card
        s, _ = play(s, bring_in(2), call(0), fold(1))
        assert s.pot == 5
        while s.phase is Phase.BETTING:
            s, _ = play(s, check(s.actor))
        s, events = showdown(s)
        awards = {(e.share, e.winners, e.amount) for e in events if isinstance(e, PotAwarded)}
        assert awards == expected


def test_stud_and_draw_in_no_limit_and_pot_limit() -> None:
    """R-BET-1, R-BET-2, R-POS-5: stud in No-Limit completes to at least the small bet and
    up to the stack; draw games in Pot-Limit cap the raise at the pot."""
    game = Game.of("stud/nl", ante=1, bring_in=2, bets=(5, 10))
    s, _ = start_hand(game, (100, 100, 100), stud_deck(["AsKs4h", "AhKh9c", "AdKdKc"]))
    la = legal_actions(s)
    assert la is not None and la.can_bring_in and (la.min_raise, la.max_raise) == (5, 99)
    s, _ = play(s, bring_in(0))
    la = legal_actions(s)
    assert la is not None and (la.min_raise, la.max_raise) == (5, 99)
    s, _ = play(s, raise_to(1, 12))
    la = legal_actions(s)
    assert la is not None and la.min_raise == 22  # the last increment was 10 (over the 2)
    draw = Game.of("draw5/pl", blinds=(1, 2))
    d, _ = start_hand(draw, (100, 100, 100), DECK_52)
    la = legal_actions(d)
    assert la is not None and (la.min_raise, la.max_raise) == (4, 7)
