"""Versioned table events and per-audience snapshots.

Every change at a table is a :class:`TableEvent` with a monotonic ``version`` (per
``epoch``: a table restarted from its journal starts a new epoch, and a subscriber from
an older epoch resyncs from a snapshot). ``data`` is either a table notice defined here
or an engine event (:mod:`croupier.engine.events`); engine events carry ``players``, the
player ids by engine position, so :func:`for_audience` can redact them with
:func:`croupier.engine.views.redact` for any player (or ``None``: a spectator).

>>> from croupier.engine.events import HoleDealt
>>> from croupier.engine.cards import parse_cards
>>> e = TableEvent(1, 0, 7, HoleDealt(0, parse_cards("AsKs"), (False, False)), ("ann", "bob"))
>>> for_audience(e, "ann").data.cards == parse_cards("AsKs"), for_audience(e, "bob").data.cards
(True, (None, None))
>>> for_audience(e, None).data.cards
(None, None)
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

from croupier.engine.cards import Card
from croupier.engine.events import Event, plain
from croupier.engine.views import TableView, redact
from croupier.table.seating import Seat

__all__ = [
    "WITHHELD",
    "AncreWindowOpened",
    "CarrouselShown",
    "Disconnected",
    "HandBegan",
    "HandSettled",
    "HandVoided",
    "NaikoStatus",
    "Notice",
    "PlayerLeft",
    "PlayerSeated",
    "PowerOffer",
    "Protected",
    "Reconnected",
    "ReloadOffered",
    "SatIn",
    "SatOut",
    "SeatChanged",
    "TableEvent",
    "TableSnapshot",
    "TimeBankUsed",
    "TimedOut",
    "Turn",
    "Withheld",
    "event_cards",
    "for_audience",
]


class Notice:
    """Base of table notices; ``type`` is the stable wire name."""

    __slots__ = ()
    type: ClassVar[str] = "notice"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = plain(self)
        return out


@dataclass(frozen=True, slots=True)
class PlayerSeated(Notice):
    type: ClassVar[str] = "player_seated"
    seat: int
    player_id: str
    name: str
    is_bot: bool
    stack: int
    waiting_bb: bool = False
    """R-SEAT-3: a new player waits for the big blind (``post_now``: posts one at once)."""
    post_now: bool = False
    time_bank: float = 0.0
    """The seconds of time bank the player starts with (R-TIME-1)."""


@dataclass(frozen=True, slots=True)
class PlayerLeft(Notice):
    type: ClassVar[str] = "player_left"
    seat: int
    player_id: str
    cashed_out: int
    reason: str


@dataclass(frozen=True, slots=True)
class SeatChanged(Notice):
    """A seat's public state changed (stack after a reload, debts, flags)."""

    type: ClassVar[str] = "seat_changed"
    seat: Seat
    reason: str


@dataclass(frozen=True, slots=True)
class SatOut(Notice):
    type: ClassVar[str] = "sat_out"
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class SatIn(Notice):
    type: ClassVar[str] = "sat_in"
    seat: int
    post_now: bool = False
    """R-SEAT-3: owed blinds are posted at the next hand (else: waits for the big blind)."""


@dataclass(frozen=True, slots=True)
class Disconnected(Notice):
    type: ClassVar[str] = "disconnected"
    seat: int
    policy: str
    held_until: float


@dataclass(frozen=True, slots=True)
class Reconnected(Notice):
    type: ClassVar[str] = "reconnected"
    seat: int


@dataclass(frozen=True, slots=True)
class Withheld(Notice):
    """What every other subscriber gets in place of a notice meant for one player (a
    :class:`~croupier.table.grace.AwayReport`): its version and nothing else, so that
    each subscriber's versions stay consecutive and a gap always means a lost event."""

    type: ClassVar[str] = "withheld"


WITHHELD = Withheld()


@dataclass(frozen=True, slots=True)
class ReloadOffered(Notice):
    """A busted player is sat out and may reload (R-SEAT-1)."""

    type: ClassVar[str] = "reload_offered"
    seat: int
    player_id: str
    min_amount: int
    max_amount: int


@dataclass(frozen=True, slots=True)
class HandBegan(Notice):
    """A hand starts: ``seats`` in engine position order (the last is the button's),
    forced bets per position and the SHA-256 commitment to the deck (R-CARD-5)."""

    type: ClassVar[str] = "hand_began"
    hand_no: int
    button: int
    seats: tuple[int, ...]
    players: tuple[str, ...]
    blinds: tuple[int, ...]
    dead: tuple[int, ...]
    commitment: str


@dataclass(frozen=True, slots=True)
class NaikoStatus:
    """The public Naiko state of the hand (SPEC §9), by engine position: the carrousel,
    each player's Destellos and powers used, this betting round's normal activations
    (at most 3), the players anchored this round, who used a power this turn (-1: nobody)
    and the open Ancre window ``(caster, target)``."""

    carrousel: tuple[str, ...]
    destellos: tuple[int, ...]
    used: tuple[tuple[str, ...], ...]
    activations: int
    anchored: tuple[int, ...]
    turn_used: int
    window: tuple[int, int] | None
    costs: tuple[tuple[str, int], ...] = ()
    """``(power, Destellos)`` for each of the four powers (R-NAIKO-5..8): the client shows
    the server's costs, it does not keep its own."""


@dataclass(frozen=True, slots=True)
class PowerOffer:
    """Naiko mode: one power of the carrousel for the player to act, as the server
    decides it (R-NAIKO-4..8): usable now or not (``reason``, a refusal code), its cost in
    Destellos and, for Ancre Courte, the seats it may target. Sent with the turn like
    the legal actions; the client shows exactly that."""

    power: str
    cost: int
    usable: bool
    reason: str = ""
    target_seats: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class CarrouselShown(Notice):
    """Naiko mode: the hand's carrousel (R-NAIKO-2) and each dealt seat's Destellos after
    the one earned for being dealt in (R-NAIKO-1), shown to all at the start of the hand."""

    type: ClassVar[str] = "carrousel"
    hand_no: int
    powers: tuple[str, ...]
    destellos: tuple[tuple[int, int], ...]
    """(seat, Destellos) for the seats dealt in."""


@dataclass(frozen=True, slots=True)
class AncreWindowOpened(Notice):
    """An Ancre Courte waits for its target's answer until ``closes_at`` (R-NAIKO-8):
    Sceau Protecteur (``RespondAncre(block=True)``) or pass. The acting player's clock is
    paused with ``remaining`` seconds, resumed when the window closes."""

    type: ClassVar[str] = "ancre_window"
    caster_seat: int
    target_seat: int
    target_player_id: str
    closes_at: float
    remaining: float


@dataclass(frozen=True, slots=True)
class Turn(Notice):
    """``seat`` must decide before ``deadline`` (table clock). ``phase`` is ``betting``,
    ``drawing`` or ``showdown``. ``view`` (with the legal actions) goes to that player only.
    ``naiko``: the public Naiko state (Naiko tables only)."""

    type: ClassVar[str] = "turn"
    seat: int
    player_id: str
    position: int
    phase: str
    deadline: float
    view: TableView | None
    naiko: NaikoStatus | None = None
    powers: tuple[PowerOffer, ...] | None = None
    """Naiko mode: the actor's :class:`PowerOffer` list (removed for everyone else)."""


@dataclass(frozen=True, slots=True)
class TimeBankUsed(Notice):
    type: ClassVar[str] = "time_bank_used"
    seat: int
    deadline: float


@dataclass(frozen=True, slots=True)
class TimedOut(Notice):
    """The clock ran out (R-TIME-1, R-DRAW-2) or a disconnection policy acted (R-TIME-2)."""

    type: ClassVar[str] = "timed_out"
    seat: int
    action: str
    reason: str


@dataclass(frozen=True, slots=True)
class Protected(Notice):
    """All-in protection for a disconnected player (R-TIME-2)."""

    type: ClassVar[str] = "protected"
    seat: int
    used_today: int


@dataclass(frozen=True, slots=True)
class HandSettled(Notice):
    type: ClassVar[str] = "hand_settled"
    hand_no: int
    stacks: tuple[tuple[int, int], ...]
    """(seat, stack) after the hand, for the seats dealt in."""
    rake: int


@dataclass(frozen=True, slots=True)
class HandVoided(Notice):
    """The hand is void and every chip committed in it returned (R-CARD-5, R-CRASH-1)."""

    type: ClassVar[str] = "hand_voided"
    hand_no: int
    reason: str
    stacks: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class TableEvent:
    """One versioned change. ``players`` maps engine positions to player ids (engine
    events only); ``to`` restricts a notice to one player (``None``: everyone)."""

    version: int
    epoch: int
    hand_no: int
    data: Event | Notice
    players: tuple[str, ...] = ()
    to: str | None = None

    @property
    def type(self) -> str:
        return self.data.type


def for_audience(event: TableEvent, player_id: str | None) -> TableEvent:
    """``event`` as ``player_id`` (``None``: a spectator) may see it: a notice meant for
    another player is :class:`Withheld` (same version, nothing in it).

    >>> e = TableEvent(7, 0, 3, Reconnected(2), to="ann")
    >>> for_audience(e, "ann") is e, for_audience(e, "bob").type, for_audience(e, None).version
    (True, 'withheld', 7)
    """
    if event.to is not None and event.to != player_id:
        return replace(event, data=WITHHELD, to=None)
    data = event.data
    if isinstance(data, Event):
        pos = event.players.index(player_id) if player_id in event.players else None
        red = redact(data, pos)
        return event if red is data else replace(event, data=red)
    if (
        isinstance(data, Turn)
        and data.player_id != player_id
        and (data.view is not None or data.powers is not None)
    ):
        return replace(event, data=replace(data, view=None, powers=None))
    return event


def event_cards(data: Event | Notice) -> tuple[Card, ...]:
    """Every card visible in an event (for leak checks)."""
    out: list[Card] = []
    for f in fields(data):  # type: ignore[arg-type]
        value = getattr(data, f.name)
        if isinstance(value, Card):
            out.append(value)
        elif isinstance(value, tuple):
            out.extend(c for c in value if isinstance(c, Card))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """The whole table as one audience may see it: seats, the button, the hand in progress
    (an engine :class:`~croupier.engine.views.TableView` redacted for the audience) and the
    decision clock."""

    table_id: str
    epoch: int
    version: int
    seats: tuple[Seat, ...]
    button: int | None
    hand_no: int
    hand_seats: tuple[int, ...]
    hand: TableView | None
    actor_seat: int | None
    deadline: float | None
    naiko: NaikoStatus | None = None
    window_closes_at: float | None = None
    """Naiko mode: when the open Ancre response window closes (the clock is paused)."""
    powers: tuple[PowerOffer, ...] | None = None
    """Naiko mode: the audience's power offers when it is their turn (as in ``turn``)."""
    peeks: tuple[Card | None, ...] = ()
    """Naiko mode: the audience's own Coup d'Œil cards for the current street."""
