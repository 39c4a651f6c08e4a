"""Experience and levels (R-SEAT-2: the arcade quick match needs level ≥ 6).

Every hand dealt in earns 10 experience points, a hand won (any share of a pot) 5 more.
Reaching level ``L`` takes ``25 × (L − 1) × (L + 2)`` points in total: level 2 at 100,
3 at 250, 4 at 450, 5 at 700, **6 at 1 000** — 100 hands, or about 90 for a player who
wins one hand in six. Each level then asks 50 points more than the one before. Levels stop
at 100.

>>> [experience_for_level(n) for n in range(1, 7)]
[0, 100, 250, 450, 700, 1000]
>>> level_for(999), level_for(1000), level_for(10**9)
(5, 6, 100)
>>> hand_experience(won=False), hand_experience(won=True)
(10, 15)
"""

from __future__ import annotations

__all__ = [
    "ARCADE_MIN_LEVEL",
    "MAX_LEVEL",
    "XP_PER_HAND",
    "XP_PER_WIN",
    "experience_for_level",
    "hand_experience",
    "level_for",
    "may_quick_match",
]

XP_PER_HAND = 10
XP_PER_WIN = 5
MAX_LEVEL = 100
ARCADE_MIN_LEVEL = 6


def experience_for_level(level: int) -> int:
    """Total experience needed to reach ``level`` (1 to :data:`MAX_LEVEL`)."""
    if not 1 <= level <= MAX_LEVEL:
        raise ValueError(f"levels go from 1 to {MAX_LEVEL}")
    return 25 * (level - 1) * (level + 2)


def level_for(experience: int) -> int:
    """The level reached with ``experience`` points."""
    if experience < 0:
        raise ValueError("experience is never negative")
    level = 1
    while level < MAX_LEVEL and experience >= experience_for_level(level + 1):
        level += 1
    return level


def hand_experience(*, won: bool) -> int:
    """Experience earned by one hand dealt in."""
    return XP_PER_HAND + (XP_PER_WIN if won else 0)


def may_quick_match(level: int) -> bool:
    """Whether a player of ``level`` may enter the arcade quick match (R-SEAT-2).

    >>> may_quick_match(5), may_quick_match(6)
    (False, True)
    """
    return level >= ARCADE_MIN_LEVEL
