"""The winning five cards sent with each contested pot award, for the showdown highlight
(R-POT-4, R-RANK-2, R-RANK-3, R-RANK-4): Hold'em takes any five, Omaha exactly two hole
and three board cards, a hi/lo low its five low cards, and only shown cards appear."""

from __future__ import annotations

from croupier.engine.actions import call, check
from croupier.engine.bestfive import best_five
from croupier.engine.cards import format_cards, parse_cards
from croupier.engine.evaluate import EVALUATORS
from croupier.engine.events import CardsShown, PotAwarded
from croupier.engine.game import Game
from tests.engine.kit import events_of, finish_showdown, play, start


def _five(kind: str, hole: str, board: str) -> str:
    return format_cards(sorted(best_five(kind, parse_cards(hole), parse_cards(board))))


def test_holdem_best_five_is_the_hand_value() -> None:
    """R-RANK-2: a full house uses both aces of the hand; playing the board gives the board."""
    got = best_five("high", parse_cards("AsAd"), parse_cards("AhKcKd2s3h"))
    assert sorted(map(str, got)) == sorted(["As", "Ad", "Ah", "Kc", "Kd"])
    assert _five("high", "2c3d", "9sTdJhQcKs") == format_cards(sorted(parse_cards("9sTdJhQcKs")))
    hole, board = parse_cards("7c2d"), parse_cards("AhKhQh9h3s")
    five = best_five("high", hole, board)
    assert len(five) == 5 and EVALUATORS["high"](five, ()) == EVALUATORS["high"](hole, board)


def test_omaha_best_five_uses_two_hole_and_three_board_cards() -> None:
    """R-RANK-3: four spades in hand and one on board make no flush: the five cards found
    hold exactly two hole cards."""
    hole, board = parse_cards("AsKsQsJs"), parse_cards("2s9dTc4h3c")
    five = best_five("omaha_high", hole, board)
    assert len(five) == 5
    assert sum(c in hole for c in five) == 2 and sum(c in board for c in five) == 3
    assert EVALUATORS["high"](five, ()) == EVALUATORS["omaha_high"](hole, board)


def test_low_best_five_and_no_low() -> None:
    """R-RANK-4: the eight-or-better low is five distinct low ranks; no low gives ()."""
    five = best_five("low8", parse_cards("As2d"), parse_cards("3h4c8dKsKh"))
    assert sorted(map(str, five)) == sorted(["As", "2d", "3h", "4c", "8d"])
    assert best_five("low8", parse_cards("KsKd"), parse_cards("3h4c8dQsJh")) == ()
    assert best_five("badugi", parse_cards("As2d3h4c"), ()) == ()


def test_pot_awarded_carries_the_winners_shown_five_cards() -> None:
    """R-POT-4: the award names each winner's five cards, all among the cards shown
    (board and the winner's shown hole cards), nothing of a hidden hand."""
    g = Game.of("nlhe", blinds=(1, 2), rules="naiko")
    s, _ = start(g, (100, 100), ["AsAd", "7c2h"], "AhKcKd3s9h")
    s, ev = play(s, call(1), check(0), *[check(p) for _ in range(3) for p in (0, 1)])
    s, ev2 = finish_showdown(s)
    events = ev + ev2
    award = events_of(events, PotAwarded)[0]
    assert award.winners == (0,)
    (five,) = award.cards
    assert sorted(map(str, five)) == sorted(["As", "Ad", "Ah", "Kc", "Kd"])
    shown = {c for e in events_of(events, CardsShown) if e.player == 0 for c in e.cards}
    board = set(parse_cards("AhKcKd3s9h"))
    assert set(five) <= shown | board
    assert award.to_dict()["cards"] == [[str(c) for c in five]]
