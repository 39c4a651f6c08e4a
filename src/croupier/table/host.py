"""The narrow interfaces a :class:`~croupier.table.table.Table` offers its collaborators.

The seat and connection commands (:mod:`croupier.table.seatcmds`), the reconnection grace
(:mod:`croupier.table.grace`) and the Naiko desk (:mod:`croupier.table.naiko`) are written
against these protocols, not against the table: what they may read and do is listed here,
and nothing else of the table (its timers, tokens, answered-commands cache, event log) is
theirs to touch. ``Table`` satisfies both (mypy checks it wherever the table hands itself
to a collaborator).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol

from croupier.engine.events import Event
from croupier.engine.state import HandState
from croupier.table.bank import Bank
from croupier.table.clock import Clock
from croupier.table.config import TableConfig
from croupier.table.events import Notice, TableEvent, TableSnapshot
from croupier.table.journal import CashOutRecord, Journal
from croupier.table.quota import ProtectionQuota
from croupier.table.seating import Seat

if TYPE_CHECKING:
    from croupier.table import grace
    from croupier.table.button import HandPlan
    from croupier.table.table import PausedDecision

__all__ = ["NaikoHost", "SeatHost"]


class _Choice(Protocol):
    def choice(self, seq: list[int], /) -> int: ...


class _Common(Protocol):
    id: str
    config: TableConfig
    clock: Clock
    seats: dict[int, Seat]
    wake: Callable[[Any], Any]
    """Post a message to the table (a timer firing): it is handled in order."""

    def seat_of(self, player_id: str) -> Seat:
        """The seat of ``player_id`` (``not_seated`` if none)."""
        ...

    def position(self, seat: int) -> int | None:
        """The engine position of ``seat`` in the running hand (``None``: not dealt in)."""
        ...

    def publish(
        self,
        data: Event | Notice,
        *,
        players: tuple[str, ...] = (),
        to: str | None = None,
        hand_no: int | None = None,
    ) -> TableEvent:
        """Publish an event (after the journal: nothing is published before it is durable)."""
        ...

    def drive(self) -> None:
        """Let automatic decisions happen, then start the clock of the player to act."""
        ...


class SeatHost(_Common, Protocol):
    """What the seat commands and the grace need: the seats, their journal and bank."""

    journal: Journal
    bank: Bank
    quota: ProtectionQuota
    hand_no: int
    away: dict[str, list[grace.AwayAction]]
    funding: Any
    """A buy-in's funding done off the event loop by the actor (``seatcmds.Funded``), or
    ``seatcmds.ASK_FUNDING`` to ask for it, or ``None``: the bank is asked here."""
    owed: list[CashOutRecord] | None
    """Cash-outs left for the actor to pay off the event loop once their seat map is
    durable (``seatcmds.stand_up``), or ``None``: a stand-up pays them at once."""

    def find(self, player_id: str) -> Seat | None: ...

    def set_seat(self, seat: Seat) -> None: ...

    def journal_seats(
        self,
        reason: str,
        cash_outs: tuple[Any, ...] = (),
        *,
        buy_in: str = "",
        payer_waits: bool = False,
    ) -> None:
        """Journal the seat map (after every seating change, before it is published);
        ``payer_waits``: its cash-outs are paid only once it is durable, so a background
        journal may queue it."""
        ...

    def new_ref(self, what: str) -> str:
        """A reference never used before at this table (buy-ins, cash-outs)."""
        ...

    def schedule_hand(self) -> None: ...

    def snapshot(self, player_id: str | None) -> TableSnapshot: ...

    def fault(self, point: str) -> None:
        """A fault-injection point (tests)."""
        ...


class NaikoHost(_Common, Protocol):
    """What the Naiko desk needs: the running hand, its plan, the decision clock."""

    hand: HandState | None
    plan: HandPlan | None

    @property
    def rng(self) -> _Choice:
        """The table's injected randomness (the carrousel draw)."""
        ...

    def publish_engine(self, events: Iterable[Event]) -> None: ...

    def refresh_turn(self) -> None: ...

    def pause_decision(self) -> PausedDecision: ...

    def resume_decision(self, paused: PausedDecision) -> None: ...

    def next_token(self) -> int: ...
