"""A game configuration: variant + betting structure + stakes + house rules.

>>> g = Game.of("nlhe", blinds=(1, 2))
>>> g.variant.key, g.structure.value, g.stakes.big_blind
('holdem', 'no_limit', 2)
>>> Game.of("flhe", blinds=(1, 2)).big_bet
4
>>> Game.of("plo8", blinds=(5, 10)).structure
<Structure.POT_LIMIT: 'pot_limit'>
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from croupier.engine.errors import ConfigurationError
from croupier.engine.rules import (
    ROOM_FL_HIGH_RAKE,
    ROOM_FL_LOW_RAKE,
    ROOM_FL_MID_RAKE,
    ROOM_NL_RAKE,
    HouseRules,
    RakeBand,
    profile,
)
from croupier.engine.variants import ForcedBets, Variant, find_variant

__all__ = ["GAME_PRESETS", "Game", "Stakes", "Structure", "find_game"]


class Structure(StrEnum):
    """Betting structures (R-BET-1..5)."""

    NO_LIMIT = "no_limit"
    POT_LIMIT = "pot_limit"
    HALF_POT_LIMIT = "half_pot_limit"
    FIXED_LIMIT = "fixed_limit"
    SPREAD_LIMIT = "spread_limit"

    @property
    def is_limit(self) -> bool:
        return self in (Structure.FIXED_LIMIT, Structure.SPREAD_LIMIT)


@dataclass(frozen=True, slots=True)
class Stakes:
    """Forced bets and limits, in integer chips.

    ``small_bet``/``big_bet`` are the fixed-limit sizes (default: the big blind and twice
    it); ``spread`` the per-street maximum of a spread-limit game (``1-2-3``: ``(1, 1, 2,
    3)`` for four streets); ``min_bet`` the smallest opening bet (default: the big blind, or
    the small bet in fixed limit). ``big_blind_ante``: the ``ante`` is a big-blind ante
    (R-TOUR-7, TDA RP-11): only the player in the big blind posts it, after the blind, so a
    short stack's chips go to the blind first.
    """

    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0
    spread: tuple[int, ...] = ()
    min_bet: int = 0
    big_blind_ante: bool = False

    def __post_init__(self) -> None:
        if type(self.big_blind_ante) is not bool:
            raise ConfigurationError(f"big_blind_ante is a bool, not {self.big_blind_ante!r}")
        for name in ("small_blind", "big_blind", "ante", "bring_in", "small_bet", "big_bet"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 0:
                raise ConfigurationError(f"{name} must be a non-negative integer, not {value!r}")


@dataclass(frozen=True, slots=True)
class Game:
    """Everything the engine needs to deal a hand, apart from the players."""

    variant: Variant
    structure: Structure
    stakes: Stakes
    rules: HouseRules = field(default_factory=HouseRules)

    def __post_init__(self) -> None:
        s = self.stakes
        if self.variant.forced_bets is ForcedBets.BLINDS and s.big_blind <= 0 and s.ante <= 0:
            raise ConfigurationError("a blind game needs a big blind or an ante")
        if self.structure.is_limit and self.small_bet <= 0:
            raise ConfigurationError("a limit game needs a small bet (or a big blind)")
        if (
            self.structure is Structure.SPREAD_LIMIT
            and s.spread
            and (len(s.spread) != len(self.variant.streets))
        ):
            raise ConfigurationError(
                f"spread limits need one maximum per street ({len(self.variant.streets)})"
            )
        if self.min_bet <= 0:
            raise ConfigurationError("the minimum bet must be positive")
        if self.structure is Structure.SPREAD_LIMIT and any(m < self.min_bet for m in s.spread):
            raise ConfigurationError(
                f"each spread-limit maximum must be at least the minimum bet ({self.min_bet}),"
                f" not {s.spread}"
            )

    @property
    def small_bet(self) -> int:
        return self.stakes.small_bet or self.stakes.big_blind

    @property
    def big_bet(self) -> int:
        return self.stakes.big_bet or 2 * self.small_bet

    @property
    def min_bet(self) -> int:
        s = self.stakes
        if s.min_bet:
            return s.min_bet
        if self.structure.is_limit:
            return self.small_bet
        return s.big_blind or s.small_bet or s.bring_in or max(s.ante, 1)

    def spread_max(self, street: int) -> int:
        """The largest bet or raise increment on ``street`` in spread limit (R-BET-5)."""
        if self.stakes.spread:
            return self.stakes.spread[street]
        return self.small_bet if street < 2 else self.big_bet

    def rake_band(self) -> RakeBand | None:
        """The `room` rake band that applies (R-RAKE-2), or ``None`` without rake."""
        policy = self.rules.rake
        if policy.kind != "room":
            return None
        if policy.band is not None:
            return policy.band
        if not self.structure.is_limit:
            return ROOM_NL_RAKE
        if self.small_bet >= 200:
            return ROOM_FL_HIGH_RAKE
        if self.small_bet >= 100:
            return ROOM_FL_MID_RAKE
        return ROOM_FL_LOW_RAKE

    @classmethod
    def of_stakes(
        cls, name: str, small: int, big: int, *, rules: HouseRules | str = "room"
    ) -> Game:
        """A game from a preset and the lobby's ``small/big`` stakes: blind games post
        them as blinds; ante games (stud, R-POS-5) take ``small`` as the bring-in, half
        of it as the ante (the bring-in is about twice the ante, seed 004) and ``big``
        as the small bet (twice it as the big bet). Stakes too small to halve (``1/…``)
        keep an ante of 1 chip, equal to the bring-in (the lobby refuses them).

        >>> g = Game.of_stakes("7stud", 2, 4)
        >>> g.stakes.ante, g.stakes.bring_in, g.small_bet, g.big_bet
        (1, 2, 4, 8)
        >>> Game.of_stakes("7stud", 5, 10).stakes.ante
        2
        >>> Game.of_stakes("nlhe", 1, 2).stakes.big_blind
        2
        """
        variant, _ = find_game(name)
        if variant.forced_bets is ForcedBets.BLINDS:
            return cls.of(name, blinds=(small, big), rules=rules)
        if not 0 < small < big:
            raise ConfigurationError(
                f"{variant.name}: the bring-in ({small}) must be below the bet ({big})"
            )
        ante = max(1, small // 2)
        return cls.of(name, ante=ante, bring_in=small, bets=(big, 2 * big), rules=rules)

    @classmethod
    def of(
        cls,
        name: str,
        *,
        blinds: tuple[int, int] | None = None,
        ante: int = 0,
        bring_in: int = 0,
        bets: tuple[int, int] | None = None,
        rules: HouseRules | str = "room",
        **stakes: Any,
    ) -> Game:
        """A game from a preset name (``nlhe``, ``plo``, ``flhe``, …) or ``variant/structure``."""
        variant, structure = find_game(name)
        sb, bb = blinds if blinds is not None else (0, 0)
        small_bet, big_bet = bets if bets is not None else (0, 0)
        return cls(
            variant=variant,
            structure=structure,
            stakes=Stakes(
                small_blind=sb,
                big_blind=bb,
                ante=ante,
                bring_in=bring_in,
                small_bet=small_bet,
                big_bet=big_bet,
                **stakes,
            ),
            rules=profile(rules) if isinstance(rules, str) else rules,
        )


GAME_PRESETS: dict[str, tuple[str, Structure]] = {
    "nlhe": ("holdem", Structure.NO_LIMIT),
    "plhe": ("holdem", Structure.POT_LIMIT),
    "hplhe": ("holdem", Structure.HALF_POT_LIMIT),
    "flhe": ("holdem", Structure.FIXED_LIMIT),
    "slhe": ("holdem", Structure.SPREAD_LIMIT),
    "plo": ("omaha", Structure.POT_LIMIT),
    "nlo": ("omaha", Structure.NO_LIMIT),
    "hplo": ("omaha", Structure.HALF_POT_LIMIT),
    "flo": ("omaha", Structure.FIXED_LIMIT),
    "plo8": ("omaha8", Structure.POT_LIMIT),
    "flo8": ("omaha8", Structure.FIXED_LIMIT),
    "nlo8": ("omaha8", Structure.NO_LIMIT),
    # stud, draw, 32-card and short deck (croupier.engine.variants_stud_draw)
    "7stud": ("stud", Structure.FIXED_LIMIT),
    "stud8": ("stud8", Structure.FIXED_LIMIT),
    "razz": ("razz", Structure.FIXED_LIMIT),
    "soko": ("soko", Structure.FIXED_LIMIT),
    "5cd": ("draw5", Structure.FIXED_LIMIT),
    "27td": ("td27", Structure.FIXED_LIMIT),
    "27sd": ("sd27", Structure.NO_LIMIT),
    "badugi": ("badugi", Structure.FIXED_LIMIT),
    "32cd": ("draw32", Structure.FIXED_LIMIT),
    "shortdeck": ("shortdeck", Structure.NO_LIMIT),
    "6plus": ("shortdeck", Structure.NO_LIMIT),
}

_STRUCTURE_ALIASES = {
    "nl": Structure.NO_LIMIT,
    "no_limit": Structure.NO_LIMIT,
    "pl": Structure.POT_LIMIT,
    "pot_limit": Structure.POT_LIMIT,
    "hpl": Structure.HALF_POT_LIMIT,
    "half_pot_limit": Structure.HALF_POT_LIMIT,
    "fl": Structure.FIXED_LIMIT,
    "fixed_limit": Structure.FIXED_LIMIT,
    "sl": Structure.SPREAD_LIMIT,
    "spread_limit": Structure.SPREAD_LIMIT,
}


def find_game(name: str) -> tuple[Variant, Structure]:
    """Resolve ``nlhe``/``plo8``/… or ``variant/structure`` (``omaha/hpl``) to data.

    >>> v, s = find_game("holdem/sl")
    >>> v.key, s.value
    ('holdem', 'spread_limit')
    """
    key = name.strip().lower()
    if key in GAME_PRESETS:
        vkey, structure = GAME_PRESETS[key]
        return find_variant(vkey), structure
    if "/" in key:
        vname, _, sname = key.rpartition("/")
        if sname in _STRUCTURE_ALIASES:
            return find_variant(vname), _STRUCTURE_ALIASES[sname]
    known = ", ".join(sorted(GAME_PRESETS))
    raise ConfigurationError(
        f"unknown game {name!r}; use a preset ({known}) or variant/structure (holdem/nl)"
    )
