"""What each audience sees: redaction of events and of the table (R-FAIR-1, R-BOT-1,
R-POS-4 burns, R-POT-4 shown hands)."""

from __future__ import annotations

from croupier.engine.actions import call, check, raise_to
from croupier.engine.events import BoardDealt, CardBurnt, CardsShown, HoleDealt
from croupier.engine.game import Game
from croupier.engine.views import redact, redact_all, view
from tests.engine.kit import events_of, play, start

NL = Game.of("nlhe", blinds=(1, 2))
HOLES = ["AsAh", "KsKh", "QsQc"]
BOARD = "2c5d9hTs3h"


def test_each_player_sees_only_their_own_hole_cards() -> None:
    """R-FAIR-1: hole cards of others are hidden from players and spectators."""
    s, ev = start(NL, (100, 100, 100), HOLES, BOARD)
    for audience in (None, 0, 1, 2):
        for e in redact_all(events_of(ev, HoleDealt), audience):
            if e.player == audience:
                assert None not in e.cards
            else:
                assert e.cards == (None, None)
        players = view(s, audience).players
        for p, pv in enumerate(players):
            assert pv.cards == (s.hole_cards[p] if p == audience else (None, None))


def test_burnt_cards_are_never_shown_to_anyone() -> None:
    """R-POS-4, R-FAIR-1: a burnt card is hidden from every audience, also after the hand."""
    s, _ev = start(NL, (100, 100, 100), HOLES, BOARD)
    s, ev2 = play(s, call(2), call(0), check(1))
    burns = events_of(ev2, CardBurnt)
    assert burns and burns[0].card is not None  # the record keeps it
    for audience in (None, 0, 1, 2):
        assert all(redact(e, audience).card is None for e in burns)
        v = view(s, audience)
        visible = set(v.board) | {c for pv in v.players for c in pv.cards if c is not None}
        assert burns[0].card not in visible
    boards = events_of(ev2, BoardDealt)
    assert all(redact(e, None) == e for e in boards)  # the board is public


def test_shown_hands_become_public_and_mucked_stay_hidden() -> None:
    """R-POT-4, R-FAIR-1: after the showdown a shown hand is visible to all; a mucked one
    stays hidden from the others."""
    s, _ = start(NL, (100, 100), ["AsAh", "KsKh"], BOARD)
    s, _ = play(s, call(1), check(0), *[check(p) for _ in range(3) for p in (0, 1)])
    from croupier.engine.actions import muck, show

    s, ev = play(s, show(0), muck(1))
    assert [e.player for e in events_of(ev, CardsShown)] == [0]
    spectator = view(s, None)
    assert spectator.players[0].cards == s.hole_cards[0] and spectator.players[0].shown
    assert spectator.players[1].cards == (None, None)
    assert view(s, 1).players[1].cards == s.hole_cards[1]


def test_legal_actions_only_in_the_actors_view() -> None:
    """R-BET-8, R-FAIR-1: the legal actions appear only in the view of the player to act."""
    s, _ = start(NL, (100, 100, 100), HOLES, BOARD)
    assert view(s, s.actor).legal is not None
    assert view(s, s.actor).legal.min_raise == 4  # type: ignore[union-attr]
    for audience in (None, *(p for p in range(3) if p != s.actor)):
        assert view(s, audience).legal is None


def test_view_reports_public_chips() -> None:
    """R-POT-6: the view shows stacks, bets, contributions, all-in flags and the pot."""
    s, _ = start(NL, (100, 100, 30), HOLES, BOARD)
    s, _ = play(s, raise_to(2, 30))
    v = view(s, None)
    assert v.pot == 33 and [p.bet for p in v.players] == [1, 2, 30]
    assert [p.all_in for p in v.players] == [False, False, True]
    assert [p.stack for p in v.players] == [99, 98, 0]
