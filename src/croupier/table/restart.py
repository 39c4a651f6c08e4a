"""What a table does with its journal when the server starts again (R-CRASH-1).

:func:`restart_journal` is the one place where a restart moves chips:

1. the hand that was running (journaled start, no settlement) is voided: every stack is
   its journaled start stack, exactly (the hand moved nothing);
2. cash-outs journaled but not confirmed are sent again with their ref (paid once);
3. buy-ins journaled as intended but never seated are asked again with the same ref (a
   no-op if taken) and refunded;
4. cash tables (``keep_seats=False``, every public, private and quick-match table):
   "tous les joueurs de toutes les tables verront leur argent retourné sur leurs comptes
   joueurs": every stack goes back to its owner's account and every seat is emptied, in
   one journaled seat map whose cash-outs the ledger pays in the same transaction (one
   transfer per stack, each with a ref unique to this restart). No hand can then be dealt
   to a player who has not come back and sat down again.

Tournament tables keep their seats (``keep_seats=True``): the tournament resumes with the
stacks as before the voided hand.

A table that will not run again (a private or quick-match table after a restart) gets
the same treatment through :func:`close_table`, so its escrow never stays stuck.

>>> from croupier.table.bank import PlayChips
>>> from croupier.table.journal import InMemoryJournal, SeatsRecord
>>> from croupier.table.seating import Seat
>>> journal, bank = InMemoryJournal(), PlayChips()
>>> bank.buy_in("ann", 150, "b1")
True
>>> journal.append("t", SeatsRecord((Seat(0, "ann", stack=150),), "sit_down"))
>>> done = close_table("t", journal, bank)
>>> [(c.player_id, c.amount) for c in done.cashed], bank.balance("ann")
([('ann', 150)], 0)
>>> close_table("t", journal, bank) is None   # nothing left to do: nothing written
True
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

from croupier.table.bank import Bank
from croupier.table.journal import (
    BuyInAborted,
    CashOutDone,
    CashOutRecord,
    HandVoidRecord,
    Journal,
    Recovery,
    Restarted,
    SeatsRecord,
    plan_recovery,
)
from croupier.table.seating import Seat

__all__ = ["RESTART_REASON", "RestartDone", "close_table", "needs_restart", "restart_journal"]

RESTART_REASON = "restart"
"""The ``reason`` of the seat map that empties a cash table at restart (and of the
``player_left`` events it publishes)."""


@dataclass(frozen=True, slots=True)
class RestartDone:
    """What :func:`restart_journal` did: the plan it read, the epoch it started, the hand it
    voided (with the seats as at the hand's start), the stacks it sent home and the seats
    the table keeps (none for a cash table)."""

    recovery: Recovery
    epoch: int
    voided: HandVoidRecord | None
    cashed: tuple[CashOutRecord, ...]
    left: tuple[Seat, ...]
    seats: tuple[Seat, ...]


def needs_restart(recovery: Recovery) -> bool:
    """Whether a table's journal leaves anything to do: a hand to void, a cash-out or a
    buy-in to finish, or a seat holding chips."""
    return bool(
        recovery.void is not None
        or recovery.pending_cash_outs
        or recovery.pending_buy_ins
        or recovery.seats
    )


def restart_journal(
    table_id: str,
    journal: Journal,
    bank: Bank,
    *,
    keep_seats: bool,
    recovery: Recovery | None = None,
    ref: Callable[[int, str], str] | None = None,
) -> RestartDone:
    """Apply R-CRASH-1 to ``table_id``'s journal (see the module docstring). ``ref(epoch,
    what)`` makes the bank reference of each cash-out (default: the table, the epoch, a
    random part: never the same twice)."""
    rec = recovery if recovery is not None else plan_recovery(journal.records(table_id))
    epoch = rec.epoch + 1
    make_ref = ref if ref is not None else _default_ref(table_id)
    journal.append(table_id, Restarted(epoch))
    seats = tuple(sorted(rec.seats, key=lambda s: s.seat))
    voided: HandVoidRecord | None = None
    if rec.void is not None:
        voided = HandVoidRecord(rec.void.hand_no, seats, "crash")
        journal.append(table_id, voided)
    for co in rec.pending_cash_outs:
        bank.cash_out(co.player_id, co.amount, co.ref)
        journal.append(table_id, CashOutDone(co.ref))
    for intent in rec.pending_buy_ins:
        # Taken or not? Ask again with the same ref (a no-op if it was taken), then give
        # it back: the chips never reached a seat.
        if bank.buy_in(intent.player_id, intent.amount, intent.ref):
            bank.cash_out(intent.player_id, intent.amount, f"{intent.ref}:refund")
        journal.append(table_id, BuyInAborted(intent.ref, "crash"))
    if keep_seats or not seats:
        return RestartDone(rec, epoch, voided, (), (), seats)
    cashed = tuple(
        CashOutRecord(make_ref(epoch, f"{RESTART_REASON}-cash-out-{s.seat}"), s.player_id, s.stack)
        for s in seats
        if s.stack > 0
    )
    # One seat map empties the table and (SqlJournal) pays every stack home in the same
    # transaction; the bank calls below are then replays. A crash in between is finished
    # by the next restart (the cash-outs are pending until CashOutDone).
    journal.append(table_id, SeatsRecord((), RESTART_REASON, cashed))
    for co in cashed:
        bank.cash_out(co.player_id, co.amount, co.ref)
        journal.append(table_id, CashOutDone(co.ref))
    return RestartDone(rec, epoch, voided, cashed, seats, ())


def close_table(table_id: str, journal: Journal, bank: Bank) -> RestartDone | None:
    """Restart a cash table that will not run again: void, refund, send every stack home.
    ``None`` (and nothing written) when its journal leaves nothing to do."""
    rec = plan_recovery(journal.records(table_id))
    if not needs_restart(rec):
        return None
    return restart_journal(table_id, journal, bank, keep_seats=False, recovery=rec)


def _default_ref(table_id: str) -> Callable[[int, str], str]:
    def make(epoch: int, what: str) -> str:
        return f"{table_id}:{epoch}:{what}:{secrets.token_hex(6)}"

    return make
