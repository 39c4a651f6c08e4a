"""Tournaments: Sit & Go, Spin and scheduled multi-table events (SPEC §11, R-TOUR-1..4;
see ``docs/tournaments.md``)."""

from croupier.tournament.director import Director, Move, Placing
from croupier.tournament.errors import TournamentError
from croupier.tournament.money import Cashier, LedgerCashier, PlayCashier, TournamentBank
from croupier.tournament.registration import Entrant, Launch, Registration, Status, TournamentSpec
from croupier.tournament.registry import TournamentRegistry
from croupier.tournament.scheduled import scheduled
from croupier.tournament.sitngo import sit_and_go
from croupier.tournament.spin import spin
from croupier.tournament.structures import (
    HYPER,
    SNG_PAYOUTS,
    SPIN_MULTIPLIERS,
    STANDARD,
    STANDARD_PAYOUTS,
    TURBO,
    BlindSchedule,
    Level,
    PayoutTable,
    PayoutTier,
    SpinPrize,
    SpinTable,
    sng_schedule,
)

__all__ = [
    "HYPER",
    "SNG_PAYOUTS",
    "SPIN_MULTIPLIERS",
    "STANDARD",
    "STANDARD_PAYOUTS",
    "TURBO",
    "BlindSchedule",
    "Cashier",
    "Director",
    "Entrant",
    "Launch",
    "LedgerCashier",
    "Level",
    "Move",
    "PayoutTable",
    "PayoutTier",
    "Placing",
    "PlayCashier",
    "Registration",
    "SpinPrize",
    "SpinTable",
    "Status",
    "TournamentBank",
    "TournamentError",
    "TournamentRegistry",
    "TournamentSpec",
    "scheduled",
    "sit_and_go",
    "sng_schedule",
    "spin",
]
