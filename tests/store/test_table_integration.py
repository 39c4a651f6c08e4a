"""The live table on the SQL journal and the ledger bank (R-CRASH-1, R-SEAT-1, R-ACC-1):
bots play, the table is killed at random moments and restored from SQL; afterwards every
player's escrow equals their stack at the table and the audit finds nothing wrong."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from croupier.bots import BotRunner, RuleBot
from croupier.store import LedgerBank, SqlJournal, Store
from croupier.table import plan_recovery
from croupier.table import testing as table_testing
from croupier.table.journal import HandEndRecord
from croupier.table.testing import Harness


def test_table_crashes_on_sql_keep_the_ledger_exact(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-CRASH-1: after each kill and restart, stacks are the journaled ones, every escrow
    equals its player's stack, and chips are conserved in the ledger."""
    ids: dict[str, int] = {}
    for i in range(4):
        user = store.users.create_user(f"Bot{i}", f"bot{i}", None, "bot", 0)
        ids[f"bot{i}"] = user.id
        store.ledger.grant_diamonds(user.id, 1000, key=f"g{i}")
        store.ledger.buy_chips(user.id, 1000, key=f"b{i}")
    journal = SqlJournal(store.db, store.clock, ledger=store.ledger, user_of=ids.__getitem__)
    bank = LedgerBank(store.ledger, "table", user_of=ids.__getitem__)
    monkeypatch.setattr(table_testing, "InMemoryJournal", lambda: journal)
    monkeypatch.setattr(table_testing, "PlayChips", lambda: bank)

    async def body() -> Any:
        rng = random.Random(7)
        h = await Harness.create()
        bots = [BotRunner(h.actor, name, RuleBot(), clock=h.clock) for name in ids]
        for b in bots:
            assert (await b.join(200)).accepted
        for _ in range(4):
            await h.clock.run_until(lambda: False, limit=h.clock.now() + rng.uniform(5, 60))
            await h.actor.stop()
            plan = plan_recovery(journal.records("table"))
            await h.restart()
            assert h.stacks() == {s.player_id: s.stack for s in plan.seats}
            escrow = store.ledger.escrow("table")
            assert escrow == {ids[p]: st for p, st in h.stacks().items() if st}
            report = store.audit()
            assert report.ok, report.discrepancies
            for b in bots:
                b.attach(h.actor)
                assert (await b.reconnect()).accepted
        return [r for r in journal.records("table") if isinstance(r, HandEndRecord)]

    settled = asyncio.run(body())
    assert settled, "no hand was played"
    assert store.journal.unsettled("table") == []
