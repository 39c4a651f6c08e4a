"""The table journal (R-CRASH-1, R-MISDEAL-1, R-CARD-5): a port and an in-memory store.

The actor writes a record *before* publishing what it records: the seat map after every
seating change, the start of each hand (stacks by seat, the dealt seats, the button and
a SHA-256 commitment to the shuffled deck with a random salt) and its settlement or
voiding. Every record carries the whole seat map (stacks outside any hand in progress),
so recovery is: take the last seat map; if a hand started and never settled, void it,
which leaves every stack as it was at the journaled start, exactly.

>>> from croupier.engine.cards import parse_cards
>>> deck, salt = parse_cards("AsKd2c"), bytes(16)
>>> c = commit_deck(deck, salt)
>>> verify_deal(c, deck, salt), verify_deal(c, parse_cards("KdAs2c"), salt)
(True, False)
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from croupier.engine.cards import Card
from croupier.table.seating import Seat

__all__ = [
    "BuyInAborted",
    "BuyInIntent",
    "CashOutDone",
    "CashOutRecord",
    "HandEndRecord",
    "HandStartRecord",
    "HandVoidRecord",
    "InMemoryJournal",
    "Journal",
    "ProtectionUsed",
    "Record",
    "Recovery",
    "Restarted",
    "SeatsRecord",
    "commit_deck",
    "plan_recovery",
    "verify_deal",
    "verify_hand",
]


def commit_deck(deck: Sequence[int], salt: bytes) -> str:
    """SHA-256 over the salt and the deck's card numbers, hex."""
    return hashlib.sha256(salt + bytes(int(c) for c in deck)).hexdigest()


def verify_deal(commitment: str, deck: Sequence[int], salt: bytes) -> bool:
    """Whether ``deck`` and ``salt`` are the ones committed to."""
    return commit_deck(deck, salt) == commitment


@dataclass(frozen=True, slots=True)
class CashOutRecord:
    """Chips leaving the table for ``player_id``'s account; ``ref`` is unique (the ledger
    deduplicates by it)."""

    ref: str
    player_id: str
    amount: int


@dataclass(frozen=True, slots=True)
class SeatsRecord:
    """The seat map after a seating change (sit, buy-in, reload, leave). A player standing
    up is removed and cashed out in the same record, so a crash can neither keep the seat
    and pay nor drop the seat and forget to pay."""

    seats: tuple[Seat, ...]
    reason: str = ""
    cash_outs: tuple[CashOutRecord, ...] = ()
    buy_in: str = ""
    """The ref of the :class:`BuyInIntent` whose chips this seat map holds (sit down,
    reload): the intent is complete."""


@dataclass(frozen=True, slots=True)
class BuyInIntent:
    """Written *before* the bank is asked for a buy-in or reload (``ref`` is the bank
    reference). If the table stops before the seat map holding the chips is journaled
    (:attr:`SeatsRecord.buy_in`) or the refusal is (:class:`BuyInAborted`), recovery
    asks the bank again with the same ref (a no-op if it was taken) and refunds it, so no
    chip is stranded in the table's escrow."""

    ref: str
    player_id: str
    amount: int


@dataclass(frozen=True, slots=True)
class BuyInAborted:
    """The buy-in ``ref`` did not reach a seat: refused by the bank (``insufficient_funds``)
    or refunded at recovery (``crash``)."""

    ref: str
    reason: str


@dataclass(frozen=True, slots=True)
class ProtectionUsed:
    """``player_id`` used an all-in protection at table-clock time ``at`` (R-TIME-2: the
    quota per 24 hours survives a restart)."""

    player_id: str
    at: float


@dataclass(frozen=True, slots=True)
class Restarted:
    """The table was restored from the journal and starts event epoch ``epoch``."""

    epoch: int


@dataclass(frozen=True, slots=True)
class HandStartRecord:
    hand_no: int
    seats: tuple[Seat, ...]
    dealt: tuple[int, ...]
    """Seats dealt in, in engine position order."""
    players: tuple[str, ...]
    stacks: tuple[int, ...]
    """Starting stacks by position (before any forced bet)."""
    button: int
    commitment: str
    deck: tuple[Card, ...] = field(repr=False)
    salt: bytes = field(repr=False)
    entropy: int = 0
    carrousel: int = -1
    """Naiko mode: the index of the hand's carrousel in ``croupier.engine.naiko.CARROUSELS``
    (-1: not a Naiko hand)."""


@dataclass(frozen=True, slots=True)
class HandEndRecord:
    hand_no: int
    seats: tuple[Seat, ...]
    stacks: tuple[int, ...]
    rake: int
    points: tuple[int, ...] = ()
    """Arcade reward points by position (R-RAKE-3: the levy × 10 shared by contribution);
    the store credits them in the hand's settlement transfer. Empty off the arcade."""
    levy: bool = False
    """The house's cut is the arcade points levy (R-RAKE-3), not the room's rake: the table
    says so (its house rules), the store books it to ``house:levy`` rather than
    ``house:rake``."""


@dataclass(frozen=True, slots=True)
class HandVoidRecord:
    hand_no: int
    seats: tuple[Seat, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class CashOutDone:
    ref: str


Record = (
    SeatsRecord
    | HandStartRecord
    | HandEndRecord
    | HandVoidRecord
    | CashOutDone
    | Restarted
    | BuyInIntent
    | BuyInAborted
    | ProtectionUsed
)


class Journal(Protocol):
    """Durable, append-only records per table. ``append`` returns once the record is safe."""

    def append(self, table_id: str, record: Record) -> None: ...

    def records(self, table_id: str) -> Sequence[Record]: ...


class InMemoryJournal:
    """A journal in a dict: it survives the actor (tests crash the actor, not the journal)."""

    def __init__(self) -> None:
        self._data: dict[str, list[Record]] = {}

    def append(self, table_id: str, record: Record) -> None:
        self._data.setdefault(table_id, []).append(record)

    def records(self, table_id: str) -> Sequence[Record]:
        return tuple(self._data.get(table_id, ()))


@dataclass(frozen=True, slots=True)
class Recovery:
    """What a restarting table does: the seat map to resume with, the hand to void (its
    record), the next hand number, the last button and the cash-outs to re-send."""

    seats: tuple[Seat, ...]
    void: HandStartRecord | None
    next_hand: int
    button: int | None
    pending_cash_outs: tuple[CashOutRecord, ...]
    settled: frozenset[int]
    epoch: int = 0
    pending_buy_ins: tuple[BuyInIntent, ...] = ()
    """Buy-ins journaled as intended but neither seated nor aborted: to refund."""
    protections: tuple[ProtectionUsed, ...] = ()


def plan_recovery(records: Sequence[Record]) -> Recovery:
    """Read a table's journal and say how to restart it.

    >>> s0 = (Seat(0, "a", stack=100), Seat(1, "b", stack=100))
    >>> start = HandStartRecord(1, s0, (1, 0), ("b", "a"), (100, 100), 0, "x", (), b"")
    >>> r = plan_recovery([SeatsRecord(s0), start])
    >>> r.void.hand_no, [s.stack for s in r.seats], r.next_hand
    (1, [100, 100], 2)
    >>> s1 = (Seat(0, "a", stack=90), Seat(1, "b", stack=110))
    >>> r = plan_recovery([SeatsRecord(s0), start, HandEndRecord(1, s1, (110, 90), 0)])
    >>> r.void, [s.stack for s in r.seats], sorted(r.settled)
    (None, [90, 110], [1])
    """
    seats: tuple[Seat, ...] = ()
    open_hand: HandStartRecord | None = None
    next_hand = 1
    button: int | None = None
    pending: dict[str, CashOutRecord] = {}
    settled: set[int] = set()
    epoch = 0
    intents: dict[str, BuyInIntent] = {}
    protections: list[ProtectionUsed] = []
    for rec in records:
        if isinstance(rec, SeatsRecord):
            seats = rec.seats
            for co in rec.cash_outs:
                pending[co.ref] = co
            intents.pop(rec.buy_in, None)
        elif isinstance(rec, BuyInIntent):
            intents[rec.ref] = rec
        elif isinstance(rec, BuyInAborted):
            intents.pop(rec.ref, None)
        elif isinstance(rec, ProtectionUsed):
            protections.append(rec)
        elif isinstance(rec, Restarted):
            epoch = max(epoch, rec.epoch)
        elif isinstance(rec, HandStartRecord):
            seats = rec.seats
            open_hand = rec
            next_hand = max(next_hand, rec.hand_no + 1)
            button = rec.button
        elif isinstance(rec, HandEndRecord | HandVoidRecord):
            seats = rec.seats
            if open_hand is not None and open_hand.hand_no == rec.hand_no:
                open_hand = None
            if isinstance(rec, HandEndRecord):
                settled.add(rec.hand_no)
        else:
            pending.pop(rec.ref, None)
    return Recovery(
        seats,
        open_hand,
        next_hand,
        button,
        tuple(pending.values()),
        frozenset(settled),
        epoch,
        tuple(intents.values()),
        tuple(protections),
    )


def verify_hand(record: HandStartRecord) -> bool:
    """Check a journaled hand's deck and salt against its commitment."""
    return verify_deal(record.commitment, record.deck, record.salt)
