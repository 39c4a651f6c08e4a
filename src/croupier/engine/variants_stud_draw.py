"""Stud, draw, 32-card and short-deck variants as data (SPEC §7, R-POS-5, R-DRAW-1..5).

Imported at the end of :mod:`croupier.engine.variants`, so every variant here is in the
registry as soon as the engine is. Nothing in this module is behaviour: the state machine
reads the flags (``Opener.BRING_IN``/``BEST_SHOWING``, ``draw``, ``low_showing``,
``open_pair``, ``split_option``, ``reshuffle_burnt``) and calls the small rule modules
:mod:`croupier.engine.stud` and :mod:`croupier.engine.split`.

>>> from croupier.engine.variants import find_variant
>>> v = find_variant("7-card stud")
>>> v.key, v.hole_cards, [s.hole for s in v.streets][0], v.forced_bets.value
('stud', 7, (False, False, True), 'ante_bring_in')
>>> find_variant("F2L3D").key, find_variant("razz").low_showing, find_variant("32cd").deck[0]
('td27', True, Card('7c'))
>>> [s.draw for s in find_variant("badugi").streets]
[0, 4, 4, 4]
"""

from __future__ import annotations

from croupier.engine.cards import DECK_32, DECK_36
from croupier.engine.variants import (
    _HOLDEM_STREETS,
    BetSize,
    ForcedBets,
    Opener,
    Street,
    Variant,
    register_variant,
)

__all__ = [
    "BADUGI",
    "DRAW5",
    "DRAW32",
    "RAZZ",
    "SD27",
    "SHORT_DECK",
    "SOKO",
    "STUD",
    "STUD8",
    "TD27",
]

_B, _S = BetSize.BIG, BetSize.SMALL


def _stud_streets() -> tuple[Street, ...]:
    """Third to seventh street: 2 down + 1 up, three up cards, one down (PokerKit's burns)."""
    return (
        Street("third", hole=(False, False, True), opener=Opener.BRING_IN),
        Street("fourth", hole=(True,), burn=True, opener=Opener.BEST_SHOWING),
        Street("fifth", hole=(True,), burn=True, bet_size=_B, opener=Opener.BEST_SHOWING),
        Street("sixth", hole=(True,), burn=True, bet_size=_B, opener=Opener.BEST_SHOWING),
        Street("seventh", hole=(False,), burn=True, bet_size=_B, opener=Opener.BEST_SHOWING),
    )


def _draw_streets(cards: int, draws: int, draw: int, after: Opener) -> tuple[Street, ...]:
    """A deal of ``cards`` down cards, then ``draws`` draws of up to ``draw`` cards, each
    followed by a betting round (big bets from the third round on)."""
    first = Street("predraw", hole=(False,) * cards, opener=Opener.BLINDS)
    names = ("first draw", "second draw", "third draw") if draws > 1 else ("draw",)
    later = tuple(
        Street(names[i], burn=True, draw=draw, bet_size=_B if i >= 1 else _S, opener=after)
        for i in range(draws)
    )
    return (first, *later)


STUD = register_variant(
    Variant(
        key="stud",
        name="7-Card Stud",
        streets=_stud_streets(),
        hands=("high",),
        forced_bets=ForcedBets.ANTE_BRING_IN,
        max_players=8,
        open_pair=True,
        aliases=("7stud", "seven card stud", "7 card stud", "7cs", "f7s", "stud high"),
    )
)
STUD8 = register_variant(
    Variant(
        key="stud8",
        name="7-Card Stud Hi/Lo 8",
        streets=_stud_streets(),
        hands=("high", "low8"),
        forced_bets=ForcedBets.ANTE_BRING_IN,
        max_players=8,
        aliases=("7stud8", "stud h/l", "stud hi/lo", "7-card stud h/l", "f7s/8", "stud8 h/l"),
    )
)
RAZZ = register_variant(
    Variant(
        key="razz",
        name="Razz",
        streets=_stud_streets(),
        hands=("ace_five",),
        forced_bets=ForcedBets.ANTE_BRING_IN,
        max_players=8,
        low_showing=True,
        aliases=("fr", "seven card razz"),
    )
)
SOKO = register_variant(
    Variant(
        key="soko",
        name="Soko",
        streets=(
            Street("second", hole=(False, True), opener=Opener.BRING_IN),
            Street("third", hole=(True,), burn=True, opener=Opener.BEST_SHOWING),
            Street("fourth", hole=(True,), burn=True, bet_size=_B, opener=Opener.BEST_SHOWING),
            Street("fifth", hole=(True,), burn=True, bet_size=_B, opener=Opener.BEST_SHOWING),
        ),
        hands=("high",),
        forced_bets=ForcedBets.ANTE_BRING_IN,
        max_players=8,
        aliases=("canadian stud", "5 card stud"),
    )
)
DRAW5 = register_variant(
    Variant(
        key="draw5",
        name="5-Card Draw",
        streets=_draw_streets(5, 1, 5, Opener.LEFT_OF_BUTTON),
        hands=("high",),
        max_players=6,
        aliases=("5cd", "five card draw", "5 card draw", "f5cd", "n5cd", "p5cd"),
    )
)
TD27 = register_variant(
    Variant(
        key="td27",
        name="2-7 Triple Draw",
        streets=_draw_streets(5, 3, 5, Opener.LEFT_OF_BUTTON),
        hands=("deuce_seven",),
        max_players=6,
        aliases=("27td", "2-7 triple draw", "deuce to seven triple draw", "f2l3d", "n2l3d"),
    )
)
SD27 = register_variant(
    Variant(
        key="sd27",
        name="2-7 Single Draw",
        streets=_draw_streets(5, 1, 5, Opener.LEFT_OF_BUTTON),
        hands=("deuce_seven",),
        max_players=6,
        aliases=("27sd", "2-7 single draw", "deuce to seven single draw", "n2l1d", "f2l1d"),
    )
)
BADUGI = register_variant(
    Variant(
        key="badugi",
        name="Badugi",
        streets=_draw_streets(4, 3, 4, Opener.LEFT_OF_BUTTON),
        hands=("badugi",),
        max_players=6,
        aliases=("fb", "nb", "pb"),
    )
)
DRAW32 = register_variant(
    Variant(
        key="draw32",
        name="32-Card Draw",
        streets=_draw_streets(5, 1, 4, Opener.AFTER_BIG_BLIND),
        hands=("thirty_two",),
        deck=DECK_32,
        max_players=5,
        split_option=True,
        reshuffle_burnt=True,
        aliases=("32cd", "32 card draw", "thirty two card draw"),
    )
)
SHORT_DECK = register_variant(
    Variant(
        key="shortdeck",
        name="Short-Deck Hold'em",
        streets=_HOLDEM_STREETS,
        hands=("short_deck",),
        deck=DECK_36,
        max_players=9,
        aliases=("6plus", "6+", "short deck", "6+ holdem", "ns", "ps", "fs"),
    )
)
