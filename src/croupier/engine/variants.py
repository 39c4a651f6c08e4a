"""Variants as data (SPEC §7): streets, decks, hand evaluations, forced bets.

A :class:`Variant` is a frozen description; the state machine in
:mod:`croupier.engine.state` reads it and never branches on a variant's name.

>>> v = find_variant("PLO")
>>> v.key, v.hole_cards, v.hands
('omaha', 4, ('omaha_high',))
>>> [s.name for s in find_variant("holdem").streets]
['preflop', 'flop', 'turn', 'river']
>>> find_variant("nope")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
croupier.engine.errors.ConfigurationError: unknown variant 'nope'; known: badugi, draw32, ...
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from croupier.engine.cards import DECK_52, Card
from croupier.engine.errors import ConfigurationError

__all__ = [
    "VARIANTS",
    "BetSize",
    "ForcedBets",
    "Opener",
    "Street",
    "Variant",
    "find_variant",
    "register_variant",
]


class Opener(StrEnum):
    """Who acts first on a street (R-POS-2, R-POS-5)."""

    BLINDS = "blinds"
    """The player after the largest blind (pre-flop)."""
    LEFT_OF_BUTTON = "left_of_button"
    """The first player still able to act at the left of the button."""
    AFTER_BIG_BLIND = "after_big_blind"
    """The first active player after the big blind (32-Card Draw after the draw)."""
    BRING_IN = "bring_in"
    """Stud third street: the lowest up card brings in (R-RANK-7 for ties)."""
    BEST_SHOWING = "best_showing"
    """Stud later streets: the best showing hand acts first."""


class BetSize(StrEnum):
    """Which fixed-limit bet a street uses (R-BET-4)."""

    SMALL = "small"
    BIG = "big"


class ForcedBets(StrEnum):
    BLINDS = "blinds"
    ANTE_BRING_IN = "ante_bring_in"


@dataclass(frozen=True, slots=True)
class Street:
    """One street: what is dealt, whether players draw, then a betting round.

    ``hole`` lists the hole cards dealt to each player on this street, ``True`` for a
    card dealt face up. ``draw`` is the largest number of cards a player may discard
    (0: no draw on this street).
    """

    name: str
    hole: tuple[bool, ...] = ()
    board: int = 0
    burn: bool = False
    draw: int = 0
    bet_size: BetSize = BetSize.SMALL
    opener: Opener = Opener.LEFT_OF_BUTTON


@dataclass(frozen=True, slots=True)
class Variant:
    """A poker game as data.

    ``hands`` names the evaluations (keys of :data:`croupier.engine.evaluate.EVALUATORS`)
    that share each pot: one for high-only or low-only games, two for hi/lo, the second
    being the qualifying low.
    """

    key: str
    name: str
    streets: tuple[Street, ...]
    hands: tuple[str, ...]
    deck: tuple[Card, ...] = DECK_52
    forced_bets: ForcedBets = ForcedBets.BLINDS
    min_players: int = 2
    max_players: int = 10
    no_drop_street: int = 1
    """Index of the street a hand must reach before rake is taken (R-RAKE-2)."""
    aliases: tuple[str, ...] = field(default=())
    low_showing: bool = False
    """Stud: razz-style openers (highest up card brings in, lowest showing hand acts first)."""
    open_pair: bool = False
    """Stud: an open pair on fourth street allows the big bet (R-BET-4)."""
    split_option: bool = False
    """32-Card Draw: the first player after the draw may offer to split (R-DRAW-5)."""
    reshuffle_burnt: bool = False
    """Draw games: burnt cards join the discards when the stub runs short (R-DRAW-4)."""

    @property
    def hole_cards(self) -> int:
        return sum(len(s.hole) for s in self.streets)

    @property
    def board_cards(self) -> int:
        return sum(s.board for s in self.streets)

    @property
    def is_hi_lo(self) -> bool:
        return len(self.hands) > 1


_HOLDEM_STREETS = (
    Street("preflop", hole=(False, False), opener=Opener.BLINDS),
    Street("flop", board=3, burn=True),
    Street("turn", board=1, burn=True, bet_size=BetSize.BIG),
    Street("river", board=1, burn=True, bet_size=BetSize.BIG),
)
_OMAHA_STREETS = (
    Street("preflop", hole=(False,) * 4, opener=Opener.BLINDS),
    *_HOLDEM_STREETS[1:],
)

VARIANTS: dict[str, Variant] = {}
_ALIASES: dict[str, str] = {}


def _norm(name: str) -> str:
    return name.strip().lower().replace("'", "").replace("-", "").replace("_", "").replace(" ", "")


def register_variant(variant: Variant) -> Variant:
    """Add a variant to the registry under its key and aliases (case and punctuation free)."""
    VARIANTS[variant.key] = variant
    for alias in (variant.key, variant.name, *variant.aliases):
        _ALIASES[_norm(alias)] = variant.key
    return variant


def find_variant(name: str) -> Variant:
    """Look a variant up by key, name or alias."""
    key = _ALIASES.get(_norm(name))
    if key is None:
        known = ", ".join(sorted(VARIANTS))
        raise ConfigurationError(f"unknown variant {name!r}; known: {known}")
    return VARIANTS[key]


HOLDEM = register_variant(
    Variant(
        key="holdem",
        name="Texas Hold'em",
        streets=_HOLDEM_STREETS,
        hands=("high",),
        max_players=10,
        aliases=("hold'em", "texas holdem", "he", "nlhe", "flhe", "plhe", "nt", "ft", "pt"),
    )
)
OMAHA = register_variant(
    Variant(
        key="omaha",
        name="Omaha",
        streets=_OMAHA_STREETS,
        hands=("omaha_high",),
        max_players=9,
        aliases=("plo", "omaha high", "po", "no", "fo"),
    )
)
OMAHA8 = register_variant(
    Variant(
        key="omaha8",
        name="Omaha Hi/Lo 8",
        streets=_OMAHA_STREETS,
        hands=("omaha_high", "omaha_low8"),
        max_players=9,
        aliases=("omaha h/l", "omaha hi/lo", "plo8", "o8", "fo/8", "po/8", "omahahl8"),
    )
)

# Stud, draw, 32-card and short-deck variants register themselves (SPEC §7).
from croupier.engine import variants_stud_draw as _stud_draw  # noqa: E402, F401
