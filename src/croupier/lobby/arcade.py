"""When the arcade activity is available (seed 000: "cette icône apparaît quand l'activité
est disponible"): availability windows as data.

A schedule is a tuple of daily windows in UTC, ``"HH:MM-HH:MM"`` (a window may cross
midnight, ``"22:00-02:00"``). Decision: the empty schedule means **always open**, the
default; an operator narrows it with ``CROUPIER_ARCADE_HOURS`` (comma-separated windows).

>>> s = parse_schedule("18:00-23:30, 23:45-01:00")
>>> is_open(s, 19 * 3600), is_open(s, 23.6 * 3600), is_open(s, 0.5 * 3600), is_open(s, 12 * 3600)
(True, False, True, False)
>>> is_open((), 12 * 3600)
True
>>> parse_schedule("25:00-26:00")
Traceback (most recent call last):
...
croupier.lobby.catalog.LobbyError: bad arcade window '25:00-26:00': use HH:MM-HH:MM (UTC)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from croupier.lobby.catalog import LobbyError

__all__ = ["Window", "is_open", "parse_schedule", "seconds_to_change"]

DAY = 24 * 3600
_WINDOW = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$")


@dataclass(frozen=True, slots=True)
class Window:
    """Open from ``start`` to ``end`` seconds after midnight UTC (``end < start``: the
    window crosses midnight)."""

    start: int
    end: int

    def contains(self, second_of_day: float) -> bool:
        if self.start <= self.end:
            return self.start <= second_of_day < self.end
        return second_of_day >= self.start or second_of_day < self.end

    def __str__(self) -> str:
        return f"{self.start // 3600:02d}:{self.start % 3600 // 60:02d}-" + (
            f"{self.end // 3600:02d}:{self.end % 3600 // 60:02d}"
        )


def parse_schedule(text: str) -> tuple[Window, ...]:
    """Windows from ``"HH:MM-HH:MM, …"`` (empty text: always open)."""
    windows = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        m = _WINDOW.match(part)
        if m is None or m.group(1, 2) == m.group(3, 4):
            raise LobbyError(
                "bad_arcade_hours", f"bad arcade window {part!r}: use HH:MM-HH:MM (UTC)"
            )
        h1, m1, h2, m2 = (int(g) for g in m.groups())
        windows.append(Window(h1 * 3600 + m1 * 60, h2 * 3600 + m2 * 60))
    return tuple(windows)


def is_open(schedule: tuple[Window, ...], unix_seconds: float) -> bool:
    """Whether the arcade is available at ``unix_seconds`` (UTC)."""
    if not schedule:
        return True
    second = unix_seconds % DAY
    return any(w.contains(second) for w in schedule)


def seconds_to_change(schedule: tuple[Window, ...], unix_seconds: float) -> int | None:
    """Seconds until the arcade opens or closes next (``None``: it never changes).

    >>> seconds_to_change(parse_schedule("10:00-11:00"), 9 * 3600)
    3600
    """
    if not schedule:
        return None
    now = is_open(schedule, unix_seconds)
    base = int(unix_seconds)
    for step in range(60, DAY + 61, 60):
        if is_open(schedule, base - base % 60 + step) != now:
            return base - base % 60 + step - base
    return None
