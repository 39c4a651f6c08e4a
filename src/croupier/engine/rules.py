"""House rules as data (SPEC §12): named policies grouped in profiles.

A profile is only a named :class:`HouseRules`; every policy can be overridden one by one
with :func:`dataclasses.replace` or :func:`profile` keyword arguments.

>>> r = profile("arcade")
>>> r.button, r.clock_seconds, r.rake.kind
('arcade', 15, 'levy')
>>> profile("room", clock_seconds=45).clock_seconds
45
>>> profile("naiko").showdown
'all'
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from croupier.engine.errors import ConfigurationError

__all__ = [
    "PROFILES",
    "HouseRules",
    "RakeBand",
    "RakePolicy",
    "profile",
]

Showdown = Literal["ordered", "all"]
Button = Literal["standard", "arcade", "dead"]
"""``dead``: tournament tables (R-TOUR-6): dead button, everyone with chips is dealt in."""
UnderRaise = Literal["strict", "tda_half_raise"]
Disconnection = Literal["fold", "clock", "all_in_protection"]
ShortBlind = Literal["full", "posted"]
"""R-POS-3: what the others call when a blind is posted short (all-in): ``full`` the nominal
blind (Robert's Rules, the usual online rooms: the default), ``posted`` what was posted
(PokerKit's choice)."""


@dataclass(frozen=True, slots=True)
class RakeBand:
    """One row of the `room` rake schedule (R-RAKE-2), amounts in chips (cents).

    ``step`` chips are taken per ``per`` chips of pot, in whole steps; below
    ``small_threshold`` (if any) ``small_step`` per ``small_per`` instead. ``caps`` maps
    the number of players dealt in (upper bound, inclusive) to the cap.
    """

    step: int
    per: int
    small_threshold: int
    small_step: int
    small_per: int
    caps: tuple[tuple[int, int], ...]

    def cap_for(self, players: int) -> int:
        for upto, cap in self.caps:
            if players <= upto:
                return cap
        return self.caps[-1][1]

    def amount(self, pot: int, players: int) -> int:
        """Rake on ``pot`` chips with ``players`` dealt in.

        >>> ROOM_NL_RAKE.amount(1000, 6), ROOM_NL_RAKE.amount(399, 2), ROOM_NL_RAKE.amount(99999, 2)
        (50, 19, 75)
        """
        if pot < self.small_threshold:
            raw = (pot // self.small_per) * self.small_step
        else:
            raw = (pot // self.per) * self.step
        return min(raw, self.cap_for(players))


ROOM_NL_RAKE = RakeBand(5, 100, 400, 1, 20, ((2, 75), (4, 200), (10, 300)))
ROOM_FL_LOW_RAKE = RakeBand(5, 100, 200, 1, 20, ((3, 75), (10, 100)))
ROOM_FL_MID_RAKE = RakeBand(25, 500, 200, 1, 20, ((3, 75), (10, 200)))
ROOM_FL_HIGH_RAKE = RakeBand(50, 1000, 0, 0, 1, ((3, 75), (10, 200)))


@dataclass(frozen=True, slots=True)
class RakePolicy:
    """``none``; ``room``: the room schedule (band chosen from the structure and stakes
    unless ``band`` is set); ``levy``: the arcade points levy (R-RAKE-3)."""

    kind: Literal["none", "room", "levy"] = "none"
    band: RakeBand | None = None
    levy_percent: int = 20
    points_per_chip: int = 10


@dataclass(frozen=True, slots=True)
class HouseRules:
    """Every configurable house-rule policy of SPEC §12 (defaults: the `room` profile)."""

    name: str = "room"
    button: Button = "standard"
    showdown: Showdown = "ordered"
    rake: RakePolicy = field(default_factory=RakePolicy)
    under_raise: UnderRaise = "strict"
    short_blind: ShortBlind = "full"
    clock_seconds: int = 30
    draw_clock_seconds: int = 30
    time_bank_seconds: int = 60
    disconnection: Disconnection = "all_in_protection"
    reconnect_seconds: int = 60
    all_in_protections_per_day: int = 2
    min_seats: int = 2
    max_seats: int = 10
    spectators: bool = True
    free_chat: bool = True
    small_blind_half_big: bool = False
    play_chips: bool = True


PROFILES: dict[str, HouseRules] = {
    # R-BET-9: holdem-rules "moins de 50 % du raise légal … considéré que vous avez juste
    # callé"; from half up, raised to the minimum (Decision, TDA).
    "room": HouseRules(name="room", under_raise="tda_half_raise"),
    "naiko": HouseRules(
        name="naiko",
        showdown="all",
        clock_seconds=20,
        disconnection="clock",
        reconnect_seconds=60,
        max_seats=9,
    ),
    "arcade": HouseRules(
        name="arcade",
        button="arcade",
        showdown="all",  # R-POT-4: "Tous les joueurs montrent leurs cartes"
        rake=RakePolicy(kind="levy"),
        clock_seconds=15,
        disconnection="fold",
        max_seats=6,
        spectators=False,
        free_chat=False,
        small_blind_half_big=True,
    ),
}


def profile(name: str, **overrides: Any) -> HouseRules:
    """The house rules of profile ``name`` with ``overrides`` applied."""
    try:
        base = PROFILES[name]
    except KeyError:
        raise ConfigurationError(
            f"unknown profile {name!r}; known: {', '.join(PROFILES)}"
        ) from None
    try:
        return replace(base, **overrides) if overrides else base
    except TypeError as exc:
        raise ConfigurationError(f"unknown house rule: {exc}") from None
