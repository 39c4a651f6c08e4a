"""Blinds, positions, order of action, dealing order, dead and live posts
(SPEC §4: R-POS-1 … R-POS-4; R-SEAT-3)."""

from __future__ import annotations

from croupier.engine.actions import call, check, fold, raise_to
from croupier.engine.cards import DECK_52
from croupier.engine.events import BoardDealt, CardBurnt, ForcedBet, HoleDealt
from croupier.engine.game import Game
from croupier.engine.state import legal_actions, start_hand
from tests.engine.kit import ended, events_of, play, start

NL = Game.of("nlhe", blinds=(1, 2))


def test_blinds_left_of_the_button_with_three_or_more() -> None:
    """R-POS-1: position 0 (left of the button) posts the small blind, 1 the big blind."""
    s, ev = start(NL, (100,) * 6)
    posts = [(e.player, e.kind, e.amount) for e in events_of(ev, ForcedBet)]
    assert posts == [(0, "small_blind", 1), (1, "big_blind", 2)]
    assert s.bets == (1, 2, 0, 0, 0, 0)


def test_heads_up_button_posts_small_blind_acts_first_preflop_last_after() -> None:
    """R-POS-1: heads-up the button (1) posts the small blind and acts first pre-flop; the big
    blind acts first after the flop."""
    s, ev = start(NL, (100, 100))
    posts = [(e.player, e.kind, e.amount) for e in events_of(ev, ForcedBet)]
    assert sorted(posts) == [(0, "big_blind", 2), (1, "small_blind", 1)]
    assert s.actor == 1
    s, _ = play(s, call(1))
    assert s.actor == 0  # the big blind's option
    s, _ = play(s, check(0))
    assert s.street == 1 and s.actor == 0
    s, _ = play(s, check(0))
    assert s.actor == 1


def test_first_to_act_preflop_is_after_the_big_blind_and_postflop_left_of_button() -> None:
    """R-POS-2: pre-flop the player after the big blind; later the first player still able to
    act at the left of the button."""
    s, _ = start(NL, (100,) * 5)
    assert s.actor == 2
    s, _ = play(s, call(2), call(3), call(4), call(0), check(1))
    assert s.street == 1 and s.actor == 0
    # the small blind folds: on the turn the big blind opens
    s, _ = play(s, raise_to(0, 2), call(1), call(2), call(3), call(4))
    s, _ = play(s, check(0), check(1), check(2), check(3), check(4))
    assert s.street == 3 and s.actor == 0
    s2, _ = start(NL, (100,) * 4)
    s2, _ = play(s2, call(2), call(3), fold(0), check(1))
    assert s2.street == 1 and s2.actor == 1


def test_all_in_players_are_skipped_by_the_opener() -> None:
    """R-POS-2: 'first player still able to act': an all-in small blind is skipped."""
    s, _ = start(NL, (10, 100, 100))
    s, _ = play(s, call(2), raise_to(0, 10), call(1), call(2))
    assert s.street == 1 and s.stacks[0] == 0 and s.actor == 1


def test_big_blind_option_live_blind() -> None:
    """R-POS-3: blinds are live: when everyone calls, the big blind may check or raise."""
    s, _ = start(NL, (100,) * 3)
    s, _ = play(s, call(2), call(0))
    la = legal_actions(s)
    assert la is not None and la.player == 1
    assert la.can_check and la.can_raise and la.min_raise == 4
    s2, _ = play(s, raise_to(1, 8))
    assert s2.street == 0 and s2.actor == 2


def test_small_blind_completes_and_may_raise() -> None:
    """R-POS-3: the small blind is live: it may call the rest, raise or fold."""
    s, _ = start(NL, (100,) * 3)
    s, _ = play(s, call(2))
    la = legal_actions(s)
    assert la is not None and la.player == 0 and la.call == 1 and la.can_raise


def test_short_big_blind_is_all_in() -> None:
    """R-POS-3: a player short of the big blind posts what they have and is all-in."""
    s, ev = start(NL, (100, 1, 100))
    (bb,) = [e for e in events_of(ev, ForcedBet) if e.player == 1]
    assert bb.amount == 1 and bb.all_in and bb.kind == "big_blind"
    assert s.stacks[1] == 0
    assert s.actor == 2


def test_short_small_blind_is_all_in() -> None:
    """R-POS-3: a short small blind is all-in; the others play on."""
    s, ev = start(NL, (1, 100, 100))
    (sb,) = [e for e in events_of(ev, ForcedBet) if e.player == 0]
    assert sb.all_in and sb.amount == 1 and s.stacks[0] == 0
    s, _ev2 = play(s, call(2), check(1))
    assert s.street == 1 and s.actor == 1


def test_short_big_blind_the_others_still_play_for_the_full_big_blind() -> None:
    """R-POS-3: the big blind all-in for 1 of 2; the small blind who folds loses only 1, and
    the big blind can win at most 1 from each opponent (R-POT-1)."""
    s, _ = start(NL, (100, 1, 100), ["AsAh", "2c7d", "KsKh"], "3c4d9hJdQs")
    s, ev = play(s, fold(2), fold(0))
    res = ended(ev)
    assert res.stacks == (99, 2, 100)
    assert sum(res.stacks) == 201


def test_short_big_blind_others_call_the_full_big_blind() -> None:
    """R-POS-3, R-POT-2: the big blind all-in for 1 of 2: the next players still call the full
    big blind (2) and raise from it; what the short blind could not match is returned.

    Decision: as in Robert's Rules and the usual online rooms, a short blind does not lower
    the price of the hand for the others (PokerKit 0.7.7 lets them call the short amount).
    """
    s, _ = start(NL, (100, 1, 100, 100), ["AsAh", "2c7d", "KsKh", "QsQh"], "3c4d9hJd8s")
    la = legal_actions(s)
    assert la is not None and la.player == 2
    assert la.call == 2 and la.min_raise == 4
    s, ev = play(s, call(2), fold(3), fold(0))
    res = ended(ev)
    # p2's second chip is uncalled and returned; p2 wins the 1 + 1 + 1 (SB dead chip)
    assert res.stacks == (99, 0, 102, 100)
    assert [p.amount for p in res.pots] == [3]


def test_short_big_blind_posted_policy_calls_what_was_posted() -> None:
    """R-POS-3, §12: house rule ``short_blind="posted"`` (PokerKit's choice): the others call
    only what the short blind posted."""
    from croupier.engine.rules import profile

    g = Game.of("nlhe", blinds=(1, 2), rules=profile("room", short_blind="posted"))
    s, _ = start(g, (100, 1, 100, 100))
    la = legal_actions(s)
    assert la is not None and la.player == 2 and la.call == 1 and la.min_raise == 3


def test_hole_cards_dealt_one_at_a_time_from_position_zero() -> None:
    """R-POS-4: cards are dealt one at a time round the table starting at the small blind
    (position 0).

    Decision (heads-up): dealing starts at position 0, the big blind, so the button
    receives the last card as in every other game (standard heads-up dealing, PHH and
    PokerKit); the SPEC's 'starting at the small blind' is read for 3+ players.
    """
    deck = DECK_52
    s, ev = start_hand(NL, (100,) * 3, deck)
    holes = {e.player: e.cards for e in events_of(ev, HoleDealt)}
    assert holes == {0: (deck[0], deck[3]), 1: (deck[1], deck[4]), 2: (deck[2], deck[5])}
    assert s.deck_pos == 6


def test_a_card_is_burnt_before_each_street() -> None:
    """R-POS-4: burn before the flop, the turn and the river; check the deck positions."""
    deck = DECK_52
    s, _ = start_hand(NL, (100, 100), deck)
    s, ev = play(s, call(1), check(0))
    assert [e.card for e in events_of(ev, CardBurnt)] == [deck[4]]
    assert [e.cards for e in events_of(ev, BoardDealt)] == [deck[5:8]]
    s, ev = play(s, check(0), check(1))
    assert [e.card for e in events_of(ev, CardBurnt)] == [deck[8]]
    assert [e.cards for e in events_of(ev, BoardDealt)] == [(deck[9],)]
    s, ev = play(s, check(0), check(1))
    assert [e.card for e in events_of(ev, CardBurnt)] == [deck[10]]
    assert [e.cards for e in events_of(ev, BoardDealt)] == [(deck[11],)]
    assert s.burnt == (deck[4], deck[8], deck[10])
    assert s.board == (*deck[5:8], deck[9], deck[11])


def test_omaha_deals_four_one_at_a_time() -> None:
    """R-POS-4: Omaha: four rounds of one card each, from position 0."""
    deck = DECK_52
    _, ev = start_hand(Game.of("plo", blinds=(1, 2)), (100,) * 3, deck)
    holes = {e.player: e.cards for e in events_of(ev, HoleDealt)}
    assert holes[1] == (deck[1], deck[4], deck[7], deck[10])


# -- R-SEAT-3: dead and live posts ------------------------------------------------------------


def test_returning_player_posts_big_blind_live_and_small_blind_dead() -> None:
    """R-SEAT-3: a player who missed both blinds posts the big blind (live) and the small blind
    as dead money. The live post has the option; the real big blind keeps its place and the
    player after it still acts first."""
    s, ev = start(NL, (100,) * 5, blinds=(1, 2, 0, 2, 0), dead=(0, 0, 0, 1, 0))
    posts = sorted((e.player, e.kind, e.amount) for e in events_of(ev, ForcedBet))
    assert posts == [
        (0, "small_blind", 1),
        (1, "big_blind", 2),
        (3, "big_blind", 2),
        (3, "dead", 1),
    ]
    assert s.bets == (1, 2, 0, 2, 0)
    assert s.contributions == (1, 2, 0, 3, 0)
    assert s.pot == 6
    assert s.actor == 2  # the player after the big blind
    la = legal_actions(s)
    assert la is not None and la.call == 2
    s, _ = play(s, call(2))
    assert s.actor == 3  # the live post acts in turn: it has its option
    la = legal_actions(s)
    assert la is not None and la.can_check and la.can_raise


def test_dead_money_is_not_a_bet_and_goes_to_the_winner() -> None:
    """R-SEAT-3, R-POT-2: dead chips are not returned as uncalled and do not count toward a
    call; everyone folding to the big blind gives them the dead chip too."""
    s, _ = start(NL, (100,) * 4, dead=(0, 0, 1, 0))
    s, ev = play(s, fold(2), fold(3), fold(0))
    res = ended(ev)
    assert res.stacks == (99, 102, 99, 100)


def test_new_player_posting_the_big_blind_out_of_position() -> None:
    """R-SEAT-3: a new player on the button posts a live big blind: pre-flop the player after
    the big blind acts first, and the new player has the option when action returns."""
    s, _ = start(NL, (100,) * 4, blinds=(1, 2, 0, 2))
    assert s.actor == 2
    s, _ = play(s, call(2))
    assert s.actor == 3
    la = legal_actions(s)
    assert la is not None and la.can_check
    s, _ = play(s, check(3), call(0), check(1))
    assert s.street == 1 and s.pot == 8


def test_straddle_acts_last_preflop() -> None:
    """R-POS-2, R-POS-3: a live straddle (a blind larger than the big blind) moves the first
    action to the player after it, and the straddler keeps the option."""
    s, ev = start(NL, (100,) * 4, blinds=(1, 2, 4, 0))
    assert any(e.kind == "straddle" for e in events_of(ev, ForcedBet))
    assert s.actor == 3
    s, _ = play(s, call(3), call(0), call(1))
    assert s.actor == 2
    la = legal_actions(s)
    assert la is not None and la.can_check and la.min_raise == 8
