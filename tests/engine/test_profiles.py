"""House-rule profiles as data, each policy overridable (SPEC §12)."""

from __future__ import annotations

import dataclasses

import pytest

from croupier.engine.errors import ConfigurationError
from croupier.engine.game import Game
from croupier.engine.rules import PROFILES, HouseRules, profile

EXPECTED = {
    # policy: (room, naiko, arcade)
    "button": ("standard", "standard", "arcade"),
    "showdown": ("ordered", "all", "all"),
    "under_raise": ("tda_half_raise", "strict", "strict"),
    "clock_seconds": (30, 20, 15),
    "disconnection": ("all_in_protection", "clock", "fold"),
    "reconnect_seconds": (60, 60, 60),
    "all_in_protections_per_day": (2, 2, 2),
    "spectators": (True, True, False),
    "free_chat": (True, True, False),
    "small_blind_half_big": (False, False, True),
}


@pytest.mark.parametrize("policy", sorted(EXPECTED))
def test_profiles_select_the_sources_choices(policy: str) -> None:
    """§12, R-POS-6, R-POT-4, R-BET-9, R-TIME-1, R-TIME-2: the profile table as data."""
    got = tuple(getattr(PROFILES[name], policy) for name in ("room", "naiko", "arcade"))
    assert got == EXPECTED[policy]


def test_profile_rake_and_seats() -> None:
    """§12, R-RAKE-1: rake none for room (play chips) and naiko, levy for arcade; seats."""
    assert [PROFILES[n].rake.kind for n in ("room", "naiko", "arcade")] == ["none", "none", "levy"]
    assert PROFILES["naiko"].max_seats == 9
    assert PROFILES["arcade"].max_seats == 6
    assert PROFILES["arcade"].rake.levy_percent == 20
    assert PROFILES["arcade"].rake.points_per_chip == 10


def test_profiles_are_frozen_values() -> None:
    """§12: a profile is a named frozen value; changing it in place is impossible."""
    rules = profile("room")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.showdown = "all"  # type: ignore[misc]
    assert isinstance(rules, HouseRules) and rules.name == "room"


def test_every_policy_can_be_overridden_one_by_one() -> None:
    """§12: each policy overridable by keyword; the base profile is left as it was."""
    r = profile("naiko", showdown="ordered", under_raise="tda_half_raise", clock_seconds=45)
    assert (r.showdown, r.under_raise, r.clock_seconds) == ("ordered", "tda_half_raise", 45)
    assert r.disconnection == "clock"  # the rest stays naiko's
    assert PROFILES["naiko"].showdown == "all"
    g = Game.of("nlhe", blinds=(1, 2), rules=r)
    assert g.rules is r


def test_unknown_profile_or_policy_is_a_configuration_error() -> None:
    """§12: a bad profile or policy name is refused with a code."""
    with pytest.raises(ConfigurationError) as info:
        profile("casino")
    assert info.value.code == "invalid_configuration" and "casino" in str(info.value)
    with pytest.raises(ConfigurationError):
        profile("room", no_such_rule=1)
    with pytest.raises(ConfigurationError):
        Game.of("nlhe", blinds=(1, 2), rules="casino")


def test_games_default_to_the_room_profile() -> None:
    """§12: a game without a profile uses `room`."""
    assert Game.of("nlhe", blinds=(1, 2)).rules == PROFILES["room"]
