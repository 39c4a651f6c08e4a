"""The reconnection grace (R-TIME-2 revised) and the report of what happened while away.

A page reload or a dropped socket that comes back within a few seconds is not a
disconnection: for :data:`GRACE_SECONDS` after the drop (never longer than the player's
decision clock) the seat and the running clock wait for the player, and no disconnection
policy (``fold``, ``all_in_protection``) applies. When the grace ends with the player still
away, the table drives again and the policy acts at the player's turn.

Every automatic decision taken for a disconnected player (a policy, a timeout, an all-in
protection) is noted; when the player comes back they get one private
:class:`AwayReport` listing them, so the page can say "you were folded after 12 s away".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from croupier.table.commands import GraceEnded
from croupier.table.events import Notice
from croupier.table.seating import Seat

if TYPE_CHECKING:
    from croupier.table.host import SeatHost

__all__ = [
    "GRACE_SECONDS",
    "AwayAction",
    "AwayReport",
    "arm_grace",
    "grace_seconds",
    "in_grace",
    "note_auto",
    "on_grace_ended",
    "report_return",
]

GRACE_SECONDS = 10.0
"""Decision (R-TIME-2 revised): the grace before any disconnection policy applies."""


@dataclass(frozen=True, slots=True)
class AwayAction:
    """One automatic decision taken while the player was away: ``action`` (``fold``,
    ``check``, ``stand_pat``, ``protected`` …), ``reason`` (``timeout``,
    ``disconnected (fold)`` …), ``away_seconds`` after the drop, in hand ``hand_no``."""

    action: str
    reason: str
    away_seconds: float
    hand_no: int


@dataclass(frozen=True, slots=True)
class AwayReport(Notice):
    """Private to the returning player: what the table decided for them while away."""

    type: ClassVar[str] = "away_report"
    seat: int
    player_id: str
    away_seconds: float
    actions: tuple[AwayAction, ...]


def grace_seconds(t: SeatHost) -> float:
    """The grace at this table: 10 s, never longer than the player's shortest clock."""
    rules = t.config.rules
    return float(min(GRACE_SECONDS, rules.clock_seconds, rules.draw_clock_seconds))


def in_grace(t: SeatHost, seat: Seat) -> bool:
    """Whether ``seat`` is disconnected but still inside its grace (the policy waits)."""
    since = seat.disconnected_at
    return since is not None and t.clock.now() < since + grace_seconds(t)


def arm_grace(t: SeatHost, player_id: str, since: float) -> None:
    """Wake the table when the grace of a drop at ``since`` ends."""
    when = since + grace_seconds(t)
    t.clock.call_at(when, lambda: t.wake(GraceEnded(player_id, since)))


def on_grace_ended(t: SeatHost, msg: GraceEnded) -> None:
    """The grace ended: if the player is still away (same drop), the policy may act now."""
    seat = t.find(msg.player_id)
    if seat is None or seat.disconnected_at != msg.since:
        return
    t.drive()


def note_auto(t: SeatHost, seat: Seat, action: str, reason: str) -> None:
    """Remember an automatic decision taken for a disconnected player."""
    since = seat.disconnected_at
    if since is None:
        return
    away = round(max(0.0, t.clock.now() - since), 1)
    t.away.setdefault(seat.player_id, []).append(AwayAction(action, reason, away, t.hand_no))


def report_return(t: SeatHost, seat: Seat, since: float) -> None:
    """The player is back (they had dropped at ``since``): tell them, privately, what was
    decided for them meanwhile (nothing is published when nothing was)."""
    actions = t.away.pop(seat.player_id, [])
    if not actions:
        return
    away = round(max(0.0, t.clock.now() - since), 1)
    t.publish(AwayReport(seat.seat, seat.player_id, away, tuple(actions)), to=seat.player_id)
