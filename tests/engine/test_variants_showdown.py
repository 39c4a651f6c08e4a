"""The three variants at showdown: Hold'em uses any of its cards, Omaha exactly two hole
cards and three board cards, for high and for low (R-RANK-2, R-RANK-3, R-RANK-4, R-POT-5)."""

from __future__ import annotations

from croupier.engine.actions import call, check
from croupier.engine.events import CardsShown, PotAwarded
from croupier.engine.game import Game
from tests.engine.kit import ended, events_of, finish_showdown, play, start


def _check_down(name: str, holes: list[str], board: str):  # type: ignore[no-untyped-def]
    g = Game.of(name, blinds=(1, 2), rules="naiko")  # naiko: every hand is shown
    s, _ = start(g, (100, 100), holes, board)
    s, ev = play(s, call(1), check(0), *[check(p) for _ in range(3) for p in (0, 1)])
    s, ev2 = finish_showdown(s)
    return ev + ev2


def test_holdem_may_play_the_board() -> None:
    """R-RANK-2: zero, one or two hole cards: a straight on board ties both players."""
    ev = _check_down("nlhe", ["2c3d", "2h3s"], "9sTdJhQcKs")
    assert ended(ev).stacks == (100, 100)


def test_omaha_four_suited_hole_cards_make_no_flush_alone() -> None:
    """R-RANK-3: four spades in the hand and one on board is no flush; exactly two hole cards
    and three board cards."""
    ev = _check_down("plo", ["AsKsQsJs", "2c2d7h8h"], "2s9dTc4h3c")
    shown = {e.player: e.hands for e in events_of(ev, CardsShown)}
    assert "flush" not in shown[0][0].lower()
    # p1: three deuces (2c2d + 2s) beats p0's ace-high (no pair usable: A K Q J T? needs
    # three board cards: T 9 and one more: no straight)
    assert ended(ev).stacks == (98, 102)


def test_omaha_must_use_exactly_three_board_cards() -> None:
    """R-RANK-3: a four-card flush on board and one suited hole card is no flush in Omaha."""
    ev = _check_down("plo", ["Ah2c3d4c", "KcKd7s8s"], "9h5h6hJh2s")
    assert ended(ev).stacks == (98, 102)  # p1's pair of kings; p0 has no flush, only A high
    ev = _check_down("nlhe", ["Ah2c", "KcKd"], "9h5h6hJh2s")
    assert ended(ev).stacks == (102, 98)  # in Hold'em the ace makes a flush


def test_omaha8_low_uses_exactly_two_hole_cards() -> None:
    """R-RANK-3, R-RANK-4: a low needs two low hole cards and three low board cards."""
    ev = _check_down("plo8", ["AcKdKhQs", "2c3dJsJh"], "4h5s8dTcTd")
    awards = [(a.share, a.winners) for a in events_of(ev, PotAwarded)]
    # p0 holds one low card (A): no low; p1 has 3-2 with 4-5-8: 8-5-4-3-2.
    # High: p0 kings and tens (KdKh + TcTd8d) beat p1 jacks and tens.
    assert awards == [("high", (0,)), ("low", (1,))]
