"""Recovering a crashed table in the running process (supervision, R-CRASH-1).

When a supervised :class:`~croupier.table.actor.TableActor`'s table raises, the process
keeps running and :func:`recover_table` builds the table again from its journal:

1. the crashed table's timers are disarmed (its ``wake`` drops them), and the journal's
   background writes for it are awaited (or, if one failed, dropped: the journal keeps
   what is durable, and only that);
2. :func:`~croupier.table.restart.restart_journal` runs on what is durable: the hand in
   play (journaled start, no settlement) is voided, so every stack is its start-of-hand
   value and no chip moved; pending cash-outs and buy-ins are finished. With
   ``keep_seats`` (a recovery) every seat stays; without (a table given up) every stack
   goes home to its owner's account, as at a restart. With a background journal this
   runs on a worker thread, off the event loop;
3. a new :class:`~croupier.table.table.Table` on the same ports takes over: the
   subscribers of the crashed one move to it (players, bots, the archive, the tournament
   director keep their subscriptions), so they all see ``hand_voided`` (and
   ``player_left`` for a closed table) in the new event epoch; the answers to commands
   already handled, the director's hold and the current stakes carry over; every player
   keeps their connection state (no reconnection window is started for a player who
   never left).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from croupier.table.commands import Message
from croupier.table.restart import restart_journal
from croupier.table.table import Table

__all__ = ["FLUSH_SECONDS", "recover_table"]

log = logging.getLogger("croupier.table")

FLUSH_SECONDS = 30.0
"""How long a recovery waits for the crashed table's background journal writes."""


def _drop(msg: Message) -> None:
    """The ``wake`` of a crashed table: its timers fire into nothing."""


async def recover_table(old: Table, *, keep_seats: bool) -> Table:
    """A new table restored from ``old``'s journal (see the module docstring)."""
    journal: Any = old.journal
    table_id = old.id
    old.wake = _drop
    background = hasattr(journal, "watch")  # the server's group-commit journal
    if background:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(journal.flushed(table_id), FLUSH_SECONDS)
        await asyncio.to_thread(journal.reset, table_id)
    new = Table(
        old.config,
        clock=old.clock,
        journal=journal,
        shuffler=old.shuffler,
        rng=old.rng,
        bank=old.bank,
        faults=old.faults,
        quota=None if old.quota is old.local_quota else old.quota,
        auto_muck=old.auto_muck,
    )
    if background:
        done = await asyncio.to_thread(
            restart_journal,
            table_id,
            journal,
            old.bank,
            keep_seats=keep_seats,
            ref=new._restart_ref,
        )
    else:
        done = restart_journal(
            table_id, journal, old.bank, keep_seats=keep_seats, ref=new._restart_ref
        )
    # What the crashed table still held for durability is dropped: not durable, never
    # published; the restored table says what is true now.
    old.log.held.clear()
    new.log.subscribers = old.log.subscribers
    old.log.subscribers = []
    new._answers = old._answers
    new.held = old.held
    new.away = old.away
    new.rake_total = old.rake_total
    connected = {s.player_id: s.disconnected_at for s in old.seats.values()}
    new.resume(done, connected=connected)
    return new
