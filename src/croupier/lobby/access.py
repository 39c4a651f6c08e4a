"""Who may reach a table of the lobby: the rules the server's edge asks about and never
decides itself. Each refusal is a :class:`~croupier.lobby.catalog.LobbyError` with one
stable code:

* ``bad_code`` — a private table, and neither its host nor its invitation code (R-LOBBY-2);
* ``arcade_closed`` — a public arcade table outside the arcade's hours (seed 000);
* ``level_too_low`` — an arcade table (public or private, to sit or to create one) below the
  arcade's level (R-SEAT-2).

Whether a table admits spectators at all is the table's own rule (its ``subscribe`` refuses
with ``spectators_not_allowed``, R-SEAT-2).

>>> gate = ArcadeGate(schedule=parse_schedule("18:00-23:00"), min_level=6)
>>> gate.refusal(level=7, now=19 * 3600) is None
True
>>> gate.refusal(level=7, now=12 * 3600).code, gate.refusal(level=5, now=19 * 3600).code
('arcade_closed', 'level_too_low')
>>> gate.refusal(level=7, now=12 * 3600, hours=False) is None  # a private arcade table
True
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.lobby.arcade import Window, is_open, parse_schedule
from croupier.lobby.catalog import LobbyError, TableSpec

__all__ = ["ArcadeGate", "parse_schedule", "seat_refusal", "watch_refusal"]


@dataclass(frozen=True, slots=True)
class ArcadeGate:
    """The arcade's opening hours (UTC windows; empty: always open) and the level it asks."""

    schedule: tuple[Window, ...] = ()
    min_level: int = 6

    def is_open(self, now: float) -> bool:
        return is_open(self.schedule, now)

    def refusal(self, level: int, now: float, *, hours: bool = True) -> LobbyError | None:
        """Why a player at ``level`` may not play the arcade at wall time ``now`` (``None``:
        they may). ``hours=False``: the opening hours do not apply (a private table)."""
        if hours and not self.is_open(now):
            return LobbyError("arcade_closed", "the arcade is closed now")
        if level < self.min_level:
            return LobbyError(
                "level_too_low",
                f"arcade tables need level {self.min_level} (you are level {level})",
            )
        return None


def watch_refusal(
    spec: TableSpec, *, code: str | None, account_id: int | None
) -> LobbyError | None:
    """Why a visitor who is not seated at ``spec`` may not watch it (``None``: they may)."""
    if not spec.admits(code, account_id):
        return LobbyError("bad_code", "this private table needs its invitation code")
    return None


def seat_refusal(
    spec: TableSpec,
    *,
    arcade_rules: bool,
    code: str | None,
    account_id: int,
    level: int,
    now: float,
    gate: ArcadeGate,
) -> LobbyError | None:
    """Why the player ``account_id`` (at ``level``) may not sit at ``spec`` at wall time
    ``now`` (``None``: the lobby lets them; the table still checks the buy-in and the seat).
    ``arcade_rules``: the table plays the arcade's house rules."""
    if not spec.admits(code, account_id):
        return LobbyError("bad_code", "this private table needs its invitation code")
    if spec.profile == "arcade" or arcade_rules:
        return gate.refusal(level, now, hours=spec.kind == "arcade")
    return None
