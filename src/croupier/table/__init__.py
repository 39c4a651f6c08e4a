"""The live table: one serial actor per table, seats, clocks, disconnections, journal and
crash recovery (see ``docs/table.md``)."""

from croupier.table.actor import EventStream, TableActor
from croupier.table.bank import Bank, PlayChips
from croupier.table.clock import AsyncioClock, Clock, FakeClock
from croupier.table.commands import (
    Act,
    Command,
    Disconnect,
    Draw,
    Leave,
    Reconnect,
    Reload,
    RespondAncre,
    ShowCards,
    SitDown,
    SitIn,
    SitOut,
    UsePower,
    UseTimeBank,
)
from croupier.table.config import TableConfig
from croupier.table.events import TableEvent, TableSnapshot, for_audience
from croupier.table.journal import InMemoryJournal, Journal, plan_recovery, verify_deal, verify_hand
from croupier.table.results import CommandResult, TableError
from croupier.table.seating import Seat
from croupier.table.table import Table, TableCrashed

__all__ = [
    "Act",
    "AsyncioClock",
    "Bank",
    "Clock",
    "Command",
    "CommandResult",
    "Disconnect",
    "Draw",
    "EventStream",
    "FakeClock",
    "InMemoryJournal",
    "Journal",
    "Leave",
    "PlayChips",
    "Reconnect",
    "Reload",
    "RespondAncre",
    "Seat",
    "ShowCards",
    "SitDown",
    "SitIn",
    "SitOut",
    "Table",
    "TableActor",
    "TableConfig",
    "TableCrashed",
    "TableError",
    "TableEvent",
    "TableSnapshot",
    "UsePower",
    "UseTimeBank",
    "for_audience",
    "plan_recovery",
    "verify_deal",
    "verify_hand",
]
